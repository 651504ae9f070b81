package domain_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"segnapunti/domain"
)

// rulingCase is one row (or one edge of a row) of a correction table. The
// situation is built from a neutral base — a club tournament, a sum error of
// round 1 found while round 2 is being paired in a danese phase, nothing
// published — changed by edit.
type rulingCase struct {
	name string
	edit func(*domain.CorrectionSituation)
	want domain.Ruling
	rule string // the RULES.md row that must decide, e.g. "RULES §9.1 rule 2"
}

func baseSituation(r domain.Ruleset) domain.CorrectionSituation {
	return domain.CorrectionSituation{
		Ruleset:      r,
		Kind:         domain.CorrectionSum,
		Level:        domain.LevelClub,
		Phase:        domain.PhaseDanese,
		ErrorRound:   1,
		CurrentRound: 2,
	}
}

func runRulingCases(t *testing.T, rulesets []domain.Ruleset, article string, cases []rulingCase) {
	t.Helper()
	for _, r := range rulesets {
		for _, c := range cases {
			t.Run(string(r)+"/"+c.name, func(t *testing.T) {
				s := baseSituation(r)
				c.edit(&s)
				if err := s.Validate(); err != nil {
					t.Fatalf("test situation is invalid: %v", err)
				}
				got := domain.Decide(s)
				if got.Ruling != c.want {
					t.Errorf("ruling = %q, want %q (reason: %s)", got.Ruling, c.want, got.Reason)
				}
				if !slices.Contains(got.Rules, article) {
					t.Errorf("rules = %q, want them to cite %q", got.Rules, article)
				}
				if got.Row != c.rule {
					t.Errorf("row = %q, want the deciding row %q", got.Row, c.rule)
				}
				// Reasons cite the federation's article, never
				// RULES.md, in English and in Italian.
				for lang, r := range map[domain.Lang]string{domain.English: got.ReasonIn(domain.English), domain.Italian: got.ReasonIn(domain.Italian)} {
					if strings.Contains(r, "RULES") || !strings.Contains(r, "("+article) || !strings.HasSuffix(r, ")") {
						t.Errorf("%s reason %q: want it to end citing %q and never RULES.md", lang, r, article)
					}
				}
				if got.ReasonIn(domain.Italian) == got.Reason || strings.TrimSpace(got.Reason) == "" {
					t.Errorf("reasons en %q it %q: want both, different", got.Reason, got.ReasonIT)
				}
			})
		}
	}
}

// FITAB art. 20, evaluated in the order of RULES §9.1.
func TestDecideFITAB(t *testing.T) {
	const (
		r1 = "RULES §9.1 rule 1"
		r2 = "RULES §9.1 rule 2"
		r3 = "RULES §9.1 rule 3"
		r4 = "RULES §9.1 rule 4"
		r5 = "RULES §9.1 rule 5"
		r6 = "RULES §9.1 rule 6"
	)
	at := func(errorRound, current int, started bool) func(*domain.CorrectionSituation) {
		return func(s *domain.CorrectionSituation) {
			s.ErrorRound, s.CurrentRound, s.CurrentRoundStarted = errorRound, current, started
		}
	}
	all := func(edits ...func(*domain.CorrectionSituation)) func(*domain.CorrectionSituation) {
		return func(s *domain.CorrectionSituation) {
			for _, e := range edits {
				e(s)
			}
		}
	}
	kind := func(k domain.CorrectionKind) func(*domain.CorrectionSituation) {
		return func(s *domain.CorrectionSituation) { s.Kind = k }
	}
	level := func(l domain.Level) func(*domain.CorrectionSituation) {
		return func(s *domain.CorrectionSituation) { s.Level = l }
	}
	phase := func(p domain.Phase) func(*domain.CorrectionSituation) {
		return func(s *domain.CorrectionSituation) { s.Phase = p }
	}
	published := func(s *domain.CorrectionSituation) { s.PositionsPublished = true }
	closed := func(s *domain.CorrectionSituation) { s.TournamentClosed = true }
	gironiFinal := func(s *domain.CorrectionSituation) {
		s.Phase = domain.PhaseGironi
		s.StandingsPublished, s.StandingsContested, s.PositionsPublished = true, false, true
	}

	cases := []rulingCase{
		// Rule 1: the sheet is final except for sum errors.
		{"FITAB art. 20/rule 1/other found at once → reject", kind(domain.CorrectionOther), domain.RulingReject, r1},
		{"FITAB art. 20/rule 1/other in a mitchell phase → reject (phase does not save it)", all(kind(domain.CorrectionOther), phase(domain.PhaseMitchell)), domain.RulingReject, r1},
		{"FITAB art. 20/rule 1/other at national level after 3 rounds → reject by rule 1 first", all(kind(domain.CorrectionOther), level(domain.LevelNational), at(1, 4, true)), domain.RulingReject, r1},

		// Rule 2: regional and national tournaments, third following round.
		{"FITAB art. 20/rule 2/regional sum found at error+3 started → reject", all(level(domain.LevelRegional), at(1, 4, true)), domain.RulingReject, r2},
		{"FITAB art. 20/rule 2/national sum found at error+3 started → reject", all(level(domain.LevelNational), at(2, 5, true)), domain.RulingReject, r2},
		{"FITAB art. 20/rule 2/regional inversion found at error+3 started → reject", all(level(domain.LevelRegional), kind(domain.CorrectionInversion), at(1, 4, true)), domain.RulingReject, r2},
		{"FITAB art. 20/rule 2/national sum found at error+4 not started → reject (beyond)", all(level(domain.LevelNational), at(1, 5, false)), domain.RulingReject, r2},
		{"FITAB art. 20/rule 2/regional sum in a mitchell phase at error+3 started → reject before rule 5", all(level(domain.LevelRegional), phase(domain.PhaseMitchell), at(1, 4, true)), domain.RulingReject, r2},
		{"FITAB art. 20/rule 2/edge regional sum at error+3 not started → apply", all(level(domain.LevelRegional), at(1, 4, false)), domain.RulingApply, r6},
		{"FITAB art. 20/rule 2/edge national sum at error+2 started → apply", all(level(domain.LevelNational), at(1, 3, true)), domain.RulingApply, r6},
		{"FITAB art. 20/rule 2/edge club sum at error+5 started → never rule 2, apply", all(level(domain.LevelClub), at(1, 6, true)), domain.RulingApply, r6},
		{"FITAB art. 20/rule 2/edge provincial sum at error+3 started → never rule 2, apply", all(level(domain.LevelProvincial), at(1, 4, true)), domain.RulingApply, r6},
		{"FITAB art. 20/rule 2/edge event sum at error+3 started → never rule 2, apply", all(level(domain.LevelEvent), at(1, 4, true)), domain.RulingApply, r6},
		{"FITAB art. 20/rule 2/edge regional transcription at error+3 started → not on the sheet [INTERP], apply", all(level(domain.LevelRegional), kind(domain.CorrectionTranscription), at(1, 4, true)), domain.RulingApply, r6},
		{"FITAB art. 20/rule 2/edge regional sum at error+3 started, positions published → still reject", all(level(domain.LevelRegional), at(1, 4, true), published), domain.RulingReject, r2},

		// Rule 3: inversion after the last round's delivery.
		{"FITAB art. 20/rule 3/inversion after the tournament closed → reject", all(kind(domain.CorrectionInversion), closed, at(4, 4, true)), domain.RulingReject, r3},
		{"FITAB art. 20/rule 3/inversion after close in a mitchell phase → reject before rule 5", all(kind(domain.CorrectionInversion), closed, phase(domain.PhaseMitchell), at(4, 4, true)), domain.RulingReject, r3},
		{"FITAB art. 20/rule 3/edge sum after the tournament closed → apply", all(closed, at(4, 4, true)), domain.RulingApply, r6},
		{"FITAB art. 20/rule 3/edge transcription after the tournament closed → apply", all(kind(domain.CorrectionTranscription), closed, at(4, 4, true)), domain.RulingApply, r6},
		{"FITAB art. 20/rule 3/edge inversion before close → apply", kind(domain.CorrectionInversion), domain.RulingApply, r6},

		// Rule 4: group-forming phase with standings and groups published.
		{"FITAB art. 20/rule 4/gironi sum, standings published uncontested, positions published → reject", gironiFinal, domain.RulingReject, r4},
		{"FITAB art. 20/rule 4/gironi inversion, standings published uncontested, positions published → reject", all(gironiFinal, kind(domain.CorrectionInversion)), domain.RulingReject, r4},
		{"FITAB art. 20/rule 4/gironi transcription, standings published uncontested, positions published → reject", all(gironiFinal, kind(domain.CorrectionTranscription)), domain.RulingReject, r4},
		{"FITAB art. 20/rule 4/edge gironi standings contested → apply keeping the published positions", all(gironiFinal, func(s *domain.CorrectionSituation) { s.StandingsContested = true }), domain.RulingApplyKeepPairing, r6},
		{"FITAB art. 20/rule 4/edge gironi positions not yet published → apply", all(gironiFinal, func(s *domain.CorrectionSituation) { s.PositionsPublished = false }), domain.RulingApply, r6},
		{"FITAB art. 20/rule 4/edge gironi paper standings not yet published → apply", func(s *domain.CorrectionSituation) { s.Phase = domain.PhaseGironi }, domain.RulingApply, r6},
		{"FITAB art. 20/rule 4/edge danese with standings published uncontested and positions published → not gironi, keep pairing", all(gironiFinal, phase(domain.PhaseDanese)), domain.RulingApplyKeepPairing, r6},

		// Rule 5: score-independent phases.
		{"FITAB art. 20/rule 5/mitchell sum → apply", phase(domain.PhaseMitchell), domain.RulingApply, r5},
		{"FITAB art. 20/rule 5/mitchell sum with positions published → apply", all(phase(domain.PhaseMitchell), published), domain.RulingApply, r5},
		{"FITAB art. 20/rule 5/italiana inversion → apply", all(phase(domain.PhaseItaliana), kind(domain.CorrectionInversion)), domain.RulingApply, r5},
		{"FITAB art. 20/rule 5/italiana transcription → apply", all(phase(domain.PhaseItaliana), kind(domain.CorrectionTranscription)), domain.RulingApply, r5},

		// Rule 6: score-dependent phases.
		{"FITAB art. 20/rule 6/danese positions not yet published → apply", phase(domain.PhaseDanese), domain.RulingApply, r6},
		{"FITAB art. 20/rule 6/danese positions published → apply keeping the pairing", all(phase(domain.PhaseDanese), published), domain.RulingApplyKeepPairing, r6},
		{"FITAB art. 20/rule 6/danese_modificato positions published → apply keeping the pairing", all(phase(domain.PhaseDaneseModificato), published), domain.RulingApplyKeepPairing, r6},
		{"FITAB art. 20/rule 6/danese error found in its own round → apply", at(3, 3, true), domain.RulingApply, r6},
	}
	runRulingCases(t, []domain.Ruleset{domain.FITAB2025, domain.FITABInt}, "FITAB art. 20", cases)
}

// FIBur-INT art. 19, evaluated in the order of RULES §9.2.
func TestDecideFIBur(t *testing.T) {
	const (
		r1 = "RULES §9.2 rule 1"
		r2 = "RULES §9.2 rule 2"
		r3 = "RULES §9.2 rule 3"
		r4 = "RULES §9.2 rule 4"
		r5 = "RULES §9.2 rule 5"
		r6 = "RULES §9.2 rule 6"
		r7 = "RULES §9.2 rule 7"
	)
	all := func(edits ...func(*domain.CorrectionSituation)) func(*domain.CorrectionSituation) {
		return func(s *domain.CorrectionSituation) {
			for _, e := range edits {
				e(s)
			}
		}
	}
	kind := func(k domain.CorrectionKind) func(*domain.CorrectionSituation) {
		return func(s *domain.CorrectionSituation) { s.Kind = k }
	}
	phase := func(p domain.Phase) func(*domain.CorrectionSituation) {
		return func(s *domain.CorrectionSituation) { s.Phase = p }
	}
	acknowledged := func(s *domain.CorrectionSituation) { s.BothLinesAcknowledge = true }
	standings := func(s *domain.CorrectionSituation) { s.StandingsPublished = true }
	published := func(s *domain.CorrectionSituation) { s.PositionsPublished = true }
	closed := func(s *domain.CorrectionSituation) {
		s.TournamentClosed, s.ErrorRound, s.CurrentRound, s.CurrentRoundStarted = true, 4, 4, true
	}
	countersigned := func(s *domain.CorrectionSituation) { s.RefereeCountersigned = true }

	cases := []rulingCase{
		// Rule 1: only the sum error is correctable.
		{"FIBur-INT art. 19/rule 1/other → reject", kind(domain.CorrectionOther), domain.RulingReject, r1},
		{"FIBur-INT art. 19/rule 1/other acknowledged and countersigned in a mitchell phase → reject", all(kind(domain.CorrectionOther), acknowledged, countersigned, phase(domain.PhaseMitchell)), domain.RulingReject, r1},

		// Rule 2: inversion needs the whole table.
		{"FIBur-INT art. 19/rule 2/inversion without both lines acknowledging → reject", kind(domain.CorrectionInversion), domain.RulingReject, r2},
		{"FIBur-INT art. 19/rule 2/inversion not acknowledged in a mitchell phase → reject before rule 6", all(kind(domain.CorrectionInversion), phase(domain.PhaseMitchell)), domain.RulingReject, r2},
		{"FIBur-INT art. 19/rule 2/edge inversion acknowledged → apply", all(kind(domain.CorrectionInversion), acknowledged), domain.RulingApply, r7},

		// Rule 3: transcription is always corrected.
		{"FIBur-INT art. 19/rule 3/transcription, positions not published → apply", kind(domain.CorrectionTranscription), domain.RulingApply, r3},
		{"FIBur-INT art. 19/rule 3/transcription, positions published → apply keeping the pairing", all(kind(domain.CorrectionTranscription), published), domain.RulingApplyKeepPairing, r3},
		{"FIBur-INT art. 19/rule 3/transcription after standings and pairing made → apply keeping the pairing", all(kind(domain.CorrectionTranscription), standings, published), domain.RulingApplyKeepPairing, r3},
		{"FIBur-INT art. 19/rule 3/transcription after the last round, not countersigned → apply", all(kind(domain.CorrectionTranscription), closed), domain.RulingApply, r3},
		{"FIBur-INT art. 19/rule 3/transcription in a mitchell phase, positions published → keep pairing (rule 3 before rule 6)", all(kind(domain.CorrectionTranscription), phase(domain.PhaseMitchell), published), domain.RulingApplyKeepPairing, r3},

		// Rule 4: after the last round only a countersigned sheet.
		{"FIBur-INT art. 19/rule 4/sum after the last round, not countersigned → reject", closed, domain.RulingReject, r4},
		{"FIBur-INT art. 19/rule 4/acknowledged inversion after the last round, not countersigned → reject", all(kind(domain.CorrectionInversion), acknowledged, closed), domain.RulingReject, r4},
		{"FIBur-INT art. 19/rule 4/sum after the last round in a mitchell phase, not countersigned → reject before rule 6", all(closed, phase(domain.PhaseMitchell)), domain.RulingReject, r4},
		{"FIBur-INT art. 19/rule 4/edge sum after the last round, countersigned → apply", all(closed, countersigned), domain.RulingApply, r7},

		// Rule 5: a sum error only before the round's standings and the next pairing.
		{"FIBur-INT art. 19/rule 5/sum after standings and next pairing made → reject", all(standings, published), domain.RulingReject, r5},
		{"FIBur-INT art. 19/rule 5/sum after standings and pairing in a mitchell phase → reject [INTERP]", all(standings, published, phase(domain.PhaseMitchell)), domain.RulingReject, r5},
		{"FIBur-INT art. 19/rule 5/sum after the last round, countersigned, standings and pairing made → reject", all(closed, countersigned, standings, published), domain.RulingReject, r5},
		{"FIBur-INT art. 19/rule 5/edge sum with standings made but no pairing → apply", standings, domain.RulingApply, r7},
		{"FIBur-INT art. 19/rule 5/edge sum with positions published but no standings → keep pairing", published, domain.RulingApplyKeepPairing, r7},
		{"FIBur-INT art. 19/rule 5/edge acknowledged inversion after standings and pairing → keep pairing (rule 5 is for sums)", all(kind(domain.CorrectionInversion), acknowledged, standings, published), domain.RulingApplyKeepPairing, r7},

		// Rule 6: score-independent phases.
		{"FIBur-INT art. 19/rule 6/mitchell sum → apply", phase(domain.PhaseMitchell), domain.RulingApply, r6},
		{"FIBur-INT art. 19/rule 6/italiana acknowledged inversion with positions published → apply", all(phase(domain.PhaseItaliana), kind(domain.CorrectionInversion), acknowledged, published), domain.RulingApply, r6},

		// Rule 7: score-dependent phases.
		{"FIBur-INT art. 19/rule 7/danese positions not published → apply", phase(domain.PhaseDanese), domain.RulingApply, r7},
		{"FIBur-INT art. 19/rule 7/danese positions published → apply keeping the pairing", all(phase(domain.PhaseDanese), published), domain.RulingApplyKeepPairing, r7},
		{"FIBur-INT art. 19/rule 7/gironi positions published → apply keeping the pairing", all(phase(domain.PhaseGironi), published), domain.RulingApplyKeepPairing, r7},
		{"FIBur-INT art. 19/rule 7/edge national sum at error+3 started → no three-round limit, apply", func(s *domain.CorrectionSituation) {
			s.Level, s.ErrorRound, s.CurrentRound, s.CurrentRoundStarted = domain.LevelNational, 1, 4, true
		}, domain.RulingApply, r7},
	}
	runRulingCases(t, []domain.Ruleset{domain.FIBurIta, domain.FIBurInt}, "FIBur-INT art. 19", cases)
}

func TestCorrectionSituationValidate(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*domain.CorrectionSituation)
		field string // must appear in the error
	}{
		{"unknown ruleset", func(s *domain.CorrectionSituation) { s.Ruleset = "fitab-2019" }, "ruleset"},
		{"empty ruleset", func(s *domain.CorrectionSituation) { s.Ruleset = "" }, "ruleset"},
		{"unknown kind", func(s *domain.CorrectionSituation) { s.Kind = "recount" }, "kind"},
		{"unknown level", func(s *domain.CorrectionSituation) { s.Level = "world" }, "level"},
		{"unknown phase", func(s *domain.CorrectionSituation) { s.Phase = "swiss" }, "phase"},
		{"error round 0", func(s *domain.CorrectionSituation) { s.ErrorRound = 0 }, "error_round"},
		{"current round negative", func(s *domain.CorrectionSituation) { s.CurrentRound = -1 }, "current_round"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := baseSituation(domain.FITAB2025)
			c.edit(&s)
			err := s.Validate()
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("Validate() = %v, want an error wrapping ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), c.field+":") {
				t.Errorf("error %q does not name the field %q", err, c.field)
			}
			if d := domain.Decide(s); d.Ruling != domain.RulingReject {
				t.Errorf("Decide on an invalid situation = %q, want reject", d.Ruling)
			}
		})
	}
	t.Run("several problems are all reported", func(t *testing.T) {
		s := domain.CorrectionSituation{}
		err := s.Validate()
		for _, f := range []string{"ruleset:", "kind:", "level:", "phase:", "error_round:", "current_round:"} {
			if err == nil || !strings.Contains(err.Error(), f) {
				t.Errorf("error %v does not name %s", err, f)
			}
		}
	})
	t.Run("error found in its own round is valid", func(t *testing.T) {
		s := baseSituation(domain.FIBurInt)
		s.ErrorRound, s.CurrentRound = 2, 2
		if err := s.Validate(); err != nil {
			t.Errorf("Validate() = %v, want nil", err)
		}
	})
}

// RULES §9: "The facts of a request must agree. A round after the
// erroneous one that has started (current_round > error_round and
// current_round_started, or current_round > error_round + 1) means the
// positions of the round after the erroneous one were published and, in a
// score-dependent phase, the erroneous round's standings too."
func TestCorrectionSituationContradictions(t *testing.T) {
	type want struct {
		field string
		with  []string
	}
	cases := []struct {
		name string
		edit func(*domain.CorrectionSituation)
		want []want // nil: no contradiction
	}{
		{"RULES §9/error round after the current round",
			func(s *domain.CorrectionSituation) { s.ErrorRound, s.CurrentRound = 3, 2 },
			[]want{{"error_round", []string{"current_round"}}}},
		{"RULES §9/round 2 started, positions not published (mitchell)",
			func(s *domain.CorrectionSituation) {
				s.Phase, s.ErrorRound, s.CurrentRound, s.CurrentRoundStarted = domain.PhaseMitchell, 1, 2, true
			},
			[]want{{"positions_published", []string{"current_round", "error_round", "current_round_started"}}}},
		{"RULES §9/round 3 being paired after an error in round 1, positions not published",
			func(s *domain.CorrectionSituation) {
				s.Phase, s.ErrorRound, s.CurrentRound, s.StandingsPublished = domain.PhaseDanese, 1, 3, true
			},
			[]want{{"positions_published", []string{"current_round", "error_round"}}}},
		{"RULES §9/danese round 2 started, neither positions nor standings published",
			func(s *domain.CorrectionSituation) {
				s.Phase, s.ErrorRound, s.CurrentRound, s.CurrentRoundStarted = domain.PhaseDanese, 1, 2, true
			},
			[]want{{"positions_published", nil}, {"standings_published", []string{"phase"}}}},
		{"RULES §9/gironi round 2 started, positions published, paper standings not",
			func(s *domain.CorrectionSituation) {
				s.Phase, s.ErrorRound, s.CurrentRound, s.CurrentRoundStarted, s.PositionsPublished = domain.PhaseGironi, 1, 2, true, true
			},
			[]want{{"standings_published", nil}}},
		{"RULES §9/near-miss: mitchell round 2 started, positions published, standings not (score-independent)",
			func(s *domain.CorrectionSituation) {
				s.Phase, s.ErrorRound, s.CurrentRound, s.CurrentRoundStarted, s.PositionsPublished = domain.PhaseMitchell, 1, 2, true, true
			}, nil},
		{"RULES §9/near-miss: round 2 being paired, not started, nothing published",
			func(s *domain.CorrectionSituation) { s.ErrorRound, s.CurrentRound = 1, 2 }, nil},
		{"RULES §9/near-miss: error found in its own round, started",
			func(s *domain.CorrectionSituation) { s.ErrorRound, s.CurrentRound, s.CurrentRoundStarted = 2, 2, true }, nil},
		{"RULES §9/near-miss: danese round 4, everything published",
			func(s *domain.CorrectionSituation) {
				s.ErrorRound, s.CurrentRound, s.CurrentRoundStarted, s.PositionsPublished, s.StandingsPublished = 1, 4, true, true, true
			}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := baseSituation(domain.FITAB2025)
			c.edit(&s)
			if err := s.Validate(); err != nil {
				t.Fatalf("Validate() = %v", err)
			}
			err := s.Contradictions()
			if c.want == nil {
				if err != nil {
					t.Fatalf("Contradictions() = %v, want nil", err)
				}
				return
			}
			var ce *domain.ContradictionError
			if !errors.As(err, &ce) || !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("Contradictions() = %v, want a *ContradictionError wrapping ErrInvalid", err)
			}
			if len(ce.Contradictions) != len(c.want) {
				t.Fatalf("contradictions %+v, want %+v", ce.Contradictions, c.want)
			}
			for i, w := range c.want {
				got := ce.Contradictions[i]
				if got.Field != w.field || got.Detail == "" {
					t.Errorf("contradiction %d = %+v, want field %s", i, got, w.field)
				}
				for _, f := range w.with {
					if !slices.Contains(got.With, f) {
						t.Errorf("contradiction %d = %+v does not name %s", i, got, f)
					}
				}
			}
		})
	}
	t.Run("Decide rejects an error round after the current round", func(t *testing.T) {
		s := baseSituation(domain.FITAB2025)
		s.ErrorRound, s.CurrentRound = 3, 2
		if d := domain.Decide(s); d.Ruling != domain.RulingReject || !strings.Contains(d.Reason, "error_round") {
			t.Errorf("Decide = %+v, want reject naming error_round", d)
		}
	})
}

func TestParseCorrectionKind(t *testing.T) {
	for _, k := range []string{"sum", "inversion", "transcription", "other"} {
		if got, err := domain.ParseCorrectionKind(k); err != nil || string(got) != k {
			t.Errorf("ParseCorrectionKind(%q) = %q, %v", k, got, err)
		}
	}
	for _, k := range []string{"", "Sum", "recount", "sum "} {
		if _, err := domain.ParseCorrectionKind(k); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("ParseCorrectionKind(%q) error = %v, want ErrInvalid", k, err)
		}
	}
}

func TestParseRuling(t *testing.T) {
	for _, r := range []string{"apply", "apply_keep_pairing", "reject"} {
		got, err := domain.ParseRuling(r)
		if err != nil || string(got) != r {
			t.Errorf("ParseRuling(%q) = %q, %v", r, got, err)
		}
		if want := r != "reject"; got.Applies() != want {
			t.Errorf("%q.Applies() = %v, want %v", r, got.Applies(), want)
		}
	}
	if _, err := domain.ParseRuling("maybe"); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("ParseRuling(maybe) error = %v, want ErrInvalid", err)
	}
}

func FuzzParseCorrectionKind(f *testing.F) {
	for _, s := range []string{"sum", "inversion", "transcription", "other", "", "SUM", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		k, err := domain.ParseCorrectionKind(id)
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if string(k) != id || !slices.Contains(domain.CorrectionKinds, k) {
			t.Fatalf("ParseCorrectionKind(%q) = %q", id, k)
		}
	})
}

func FuzzParseRuling(f *testing.F) {
	for _, s := range []string{"apply", "apply_keep_pairing", "reject", "", "Apply"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		r, err := domain.ParseRuling(id)
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if string(r) != id {
			t.Fatalf("ParseRuling(%q) = %q", id, r)
		}
	})
}

// FuzzDecide checks that any situation gets a ruling and never a panic, and
// that an invalid one is never applied.
func FuzzDecide(f *testing.F) {
	f.Add("fitab-2025", "sum", "regional", "danese", 1, 4, true, uint8(0))
	f.Add("fibur-int", "transcription", "club", "mitchell", 2, 2, false, uint8(0xff))
	f.Add("x", "y", "z", "w", 0, -1, false, uint8(3))
	f.Fuzz(func(t *testing.T, ruleset, kind, level, phase string, errRound, curRound int, started bool, flags uint8) {
		s := domain.CorrectionSituation{
			Ruleset: domain.Ruleset(ruleset), Kind: domain.CorrectionKind(kind),
			Level: domain.Level(level), Phase: domain.Phase(phase),
			ErrorRound: errRound, CurrentRound: curRound, CurrentRoundStarted: started,
			TournamentClosed:     flags&1 != 0,
			StandingsPublished:   flags&2 != 0,
			StandingsContested:   flags&4 != 0,
			PositionsPublished:   flags&8 != 0,
			BothLinesAcknowledge: flags&16 != 0,
			RefereeCountersigned: flags&32 != 0,
		}
		d := domain.Decide(s)
		if !slices.Contains(domain.Rulings, d.Ruling) {
			t.Fatalf("Decide gave unknown ruling %q", d.Ruling)
		}
		if s.Validate() != nil && d.Ruling != domain.RulingReject {
			t.Fatalf("invalid situation ruled %q", d.Ruling)
		}
		if s.Kind == domain.CorrectionOther && d.Ruling != domain.RulingReject {
			t.Fatalf("other kind ruled %q (FITAB art. 20, FIBur-INT art. 19: the sheet is final)", d.Ruling)
		}
	})
}
