package domain_test

// Rule tests for the official result of a match, written from RULES §8
// first paragraph ("the written result counts"; FITAB art. 20, FIBur-INT
// art. 19). dtMatch (rules_match_test.go) computes NS 1055, EO 805: MP
// ±250, fitab-3 12-8.

import (
	"testing"

	"segnapunti/domain"
)

type officialWant struct {
	total, mp, vp [2]int
	differs       bool
	kind          domain.CorrectionKind
}

func checkOfficial(t *testing.T, s domain.Sheet, want officialWant) domain.OfficialMatch {
	t.Helper()
	rep := domain.Validate(s)
	got := domain.OfficialResult(s, rep)
	for _, l := range domain.Lines {
		o := got.Lines[l].Official
		if o.Total != want.total[l] || o.MP != want.mp[l] || o.VP != want.vp[l] {
			t.Errorf("%s official = total %d MP %d VP %d, want total %d MP %d VP %d",
				l.Label(), o.Total, o.MP, o.VP, want.total[l], want.mp[l], want.vp[l])
		}
	}
	for _, l := range domain.Lines {
		if got.Lines[l].Computed != rep.Computed.Lines[l] {
			t.Errorf("%s computed = %+v, want the report's %+v", l.Label(), got.Lines[l].Computed, rep.Computed.Lines[l])
		}
	}
	if got.Differs != want.differs || got.Kind != want.kind {
		t.Errorf("differs %t kind %q, want differs %t kind %q", got.Differs, got.Kind, want.differs, want.kind)
	}
	return got
}

func TestRulesOfficial_S8_NothingWrittenIsTheComputedResult(t *testing.T) {
	got := checkOfficial(t, dtMatch(), officialWant{
		total: [2]int{1055, 805}, mp: [2]int{250, -250}, vp: [2]int{12, 8},
	})
	for _, l := range domain.Lines {
		if ol := got.Lines[l]; !ol.TotalDerived || !ol.MPDerived || !ol.VPDerived {
			t.Errorf("%s: every figure is derived when nothing is written: %+v", l.Label(), ol)
		}
	}
}

func TestRulesOfficial_S8_OnlyVPWrittenCountsAsWritten(t *testing.T) {
	s := dtWritten(dtMatch(), dtNone, dtNone, dtPair(15, 5))
	got := checkOfficial(t, s, officialWant{
		total: [2]int{1055, 805}, mp: [2]int{250, -250}, vp: [2]int{15, 5},
		differs: true, kind: domain.CorrectionSum, // VP_MISMATCH
	})
	if got.Lines[domain.NS].VPDerived || !got.Lines[domain.NS].MPDerived {
		t.Errorf("VP written, MP empty: derived flags %+v", got.Lines[domain.NS])
	}
}

func TestRulesOfficial_S8_MPWrittenVPDerivedThroughTheMatchTable(t *testing.T) {
	// MP ±300: fitab-3 265..360 → 13-7 (RULES §6.1), not the computed 12-8.
	s := dtWritten(dtMatch(), dtNone, dtPair(300, -300), dtNone)
	checkOfficial(t, s, officialWant{
		total: [2]int{1055, 805}, mp: [2]int{300, -300}, vp: [2]int{13, 7},
		differs: true, kind: domain.CorrectionSum, // MP_MISMATCH
	})
}

func TestRulesOfficial_S8_OnlyTotalsWrittenGiveMPAndVP(t *testing.T) {
	// A mis-added NS total 1105: MP ±300, 13-7.
	s := dtWritten(dtMatch(), dtPair(1105, 805), dtNone, dtNone)
	checkOfficial(t, s, officialWant{
		total: [2]int{1105, 805}, mp: [2]int{300, -300}, vp: [2]int{13, 7},
		differs: true, kind: domain.CorrectionSum, // FINAL_TOTAL_MISMATCH
	})
}

func TestRulesOfficial_S8_FinalTotalFromTheHandsWrittenTotals(t *testing.T) {
	// Hand 1 NS written total 585 (base+points is 535); the other hand
	// totals are not written and come from base + points: NS 1105.
	s := dtMatch()
	s.Hands[0].Lines[domain.NS].Total = domain.Int(585)
	checkOfficial(t, s, officialWant{
		total: [2]int{1105, 805}, mp: [2]int{300, -300}, vp: [2]int{13, 7},
		differs: true, kind: domain.CorrectionSum, // HAND_TOTAL_MISMATCH
	})
}

func TestRulesOfficial_S8_HandTotalsMissingUseBasePlusPoints(t *testing.T) {
	// Hand totals written right on hand 2 only: the rest from base +
	// points, the result is the computed one.
	s := dtMatch()
	s.Hands[1].Lines[domain.NS].Total = domain.Int(50)
	s.Hands[1].Lines[domain.EO].Total = domain.Int(590)
	checkOfficial(t, s, officialWant{total: [2]int{1055, 805}, mp: [2]int{250, -250}, vp: [2]int{12, 8}})
}

func TestRulesOfficial_S8_LatePointsInTheDerivedFinalTotal(t *testing.T) {
	// RULES §6/§7: late points are added to the final total; with nothing
	// written the official result equals the computed one, late points in.
	s := dtLate(dtMatch(), 0, 100)
	checkOfficial(t, s, officialWant{total: [2]int{1055, 905}, mp: [2]int{150, -150}, vp: [2]int{11, 9}})
}

func TestRulesOfficial_S8_WrittenRightIsNotADifference(t *testing.T) {
	s := dtWritten(dtMatch(), dtPair(1055, 805), dtPair(250, -250), dtPair(12, 8))
	checkOfficial(t, s, officialWant{total: [2]int{1055, 805}, mp: [2]int{250, -250}, vp: [2]int{12, 8}})
}

func TestRulesOfficial_S8_InversionStaysAsWritten(t *testing.T) {
	// The lines' results swapped (RESULT_INVERTED / TOTALS_INVERTED): the
	// swapped figures count until a correction (FIBur-INT art. 19 may
	// refuse it).
	s := dtWritten(dtMatch(), dtPair(805, 1055), dtPair(-250, 250), dtPair(8, 12))
	checkOfficial(t, s, officialWant{
		total: [2]int{805, 1055}, mp: [2]int{-250, 250}, vp: [2]int{8, 12},
		differs: true, kind: domain.CorrectionInversion,
	})
}

// The sheet is final (FITAB art. 20, FIBur-INT art. 19): written VPs that do
// not add up to 20 and MPs that do not mirror count as written.
func TestRulesOfficial_S8_ImpossibleWrittenFiguresCountAsWritten(t *testing.T) {
	s := dtWritten(dtMatch(), dtNone, dtPair(250, -200), dtPair(15, 15))
	checkOfficial(t, s, officialWant{
		total: [2]int{1055, 805}, mp: [2]int{250, -200}, vp: [2]int{15, 15},
		differs: true, kind: domain.CorrectionSum,
	})
}

func TestRulesOfficial_S8_EachLineDerivedOnItsOwn(t *testing.T) {
	// NS's VP written (13), EO's empty: EO's VP comes from its MP −250 → 8.
	s := dtMatch()
	s.Written[domain.NS].VP = domain.Int(13)
	got := checkOfficial(t, s, officialWant{
		total: [2]int{1055, 805}, mp: [2]int{250, -250}, vp: [2]int{13, 8},
		differs: true, kind: domain.CorrectionSum,
	})
	if got.Lines[domain.NS].VPDerived || !got.Lines[domain.EO].VPDerived {
		t.Errorf("derived flags NS %+v EO %+v", got.Lines[domain.NS], got.Lines[domain.EO])
	}
}

func TestDiscrepancyKind_S6_3(t *testing.T) {
	f := func(codes ...domain.Code) []domain.Finding {
		out := make([]domain.Finding, len(codes))
		for i, c := range codes {
			out[i] = domain.Finding{Code: c}
		}
		return out
	}
	for _, tc := range []struct {
		codes []domain.Code
		want  domain.CorrectionKind
	}{
		{[]domain.Code{domain.FinalTotalMismatch}, domain.CorrectionSum},
		{[]domain.Code{domain.RunningTotalMismatch}, domain.CorrectionSum},
		{[]domain.Code{domain.HandTotalMismatch}, domain.CorrectionSum},
		{[]domain.Code{domain.MPMismatch}, domain.CorrectionSum},
		{[]domain.Code{domain.VPMismatch}, domain.CorrectionSum},
		{[]domain.Code{domain.VPMismatch, domain.ResultInverted}, domain.CorrectionInversion},
		{[]domain.Code{domain.TotalsInverted}, domain.CorrectionInversion},
		{[]domain.Code{domain.VPSumNot20}, domain.CorrectionOther},
		{nil, domain.CorrectionOther},
	} {
		if got := domain.DiscrepancyKind(f(tc.codes...)); got != tc.want {
			t.Errorf("DiscrepancyKind(%v) = %q, want %q", tc.codes, got, tc.want)
		}
	}
}

// RULES §8: an applied sum or inversion correction makes the official
// result what the corrected sheet adds up to (FITAB art. 20, FIBur-INT
// art. 19: the error was in the written figures), unless the correction
// gives the written values itself; a transcription correction keeps them.
func TestRulesOfficial_S8_CorrectedOfficial(t *testing.T) {
	// The bottom mis-added: 1155 written for 1055, MP and VP read from it.
	misAdded := dtWritten(dtMatch(), dtPair(1155, 805), dtPair(350, -350), dtPair(13, 7))
	computed := officialWant{total: [2]int{1055, 805}, mp: [2]int{250, -250}, vp: [2]int{12, 8}}
	asWritten := officialWant{total: [2]int{1155, 805}, mp: [2]int{350, -350}, vp: [2]int{13, 7}, differs: true, kind: domain.CorrectionSum}
	t.Run("FITAB art. 20/sum without written values: the computed result", func(t *testing.T) {
		checkOfficial(t, domain.CorrectedOfficial(domain.CorrectionSum, misAdded, false), computed)
	})
	t.Run("FIBur-INT art. 19/inversion without written values: the computed result", func(t *testing.T) {
		inverted := dtWritten(dtMatch(), dtPair(805, 1055), dtPair(-250, 250), dtPair(8, 12))
		checkOfficial(t, domain.CorrectedOfficial(domain.CorrectionInversion, inverted, false), computed)
	})
	t.Run("RULES §8/sum with written values given: they stand", func(t *testing.T) {
		checkOfficial(t, domain.CorrectedOfficial(domain.CorrectionSum, misAdded, true), asWritten)
	})
	t.Run("RULES §8/transcription: the sheet's written result", func(t *testing.T) {
		checkOfficial(t, domain.CorrectedOfficial(domain.CorrectionTranscription, misAdded, false), asWritten)
	})
}
