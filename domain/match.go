package domain

import "fmt"

// match computes hand totals, running totals, final totals, MP and VP and
// runs the match checks of RULES §6.3.
func (v *validator) match() {
	s := v.s
	played := len(s.Hands)
	v.table = ChooseVPTable(s.Ruleset, s.Kind, s.HandsPlanned, played, s.VPTable)

	var run [2]int
	v.computed.Hands = make([]ComputedHand, played)
	for i := range s.Hands {
		h := i + 1
		for _, l := range Lines {
			ls := &s.Hands[i].Lines[l]
			t := ls.Base + ls.Points // never the written hand total (RULES §6)
			run[l] += t
			v.computed.Hands[i].Total[l] = t
			v.computed.Hands[i].RunningTotal[l] = run[l]
			if ls.RunningTotal != nil && *ls.RunningTotal != run[l] {
				v.addLine(h, l, Finding{Code: RunningTotalMismatch, Severity: SeverityError, Field: "running_total", Written: Int(*ls.RunningTotal), Expected: Int(run[l])},
					"running total %d should be %d, the sum of the hand totals so far", "il progressivo %d dovrebbe essere %d, la somma dei totali fin qui", *ls.RunningTotal, run[l])
			}
		}
	}
	var res [2]LineResult
	for _, l := range Lines {
		res[l].Total = run[l] + s.LatePoints[l] // late points count in the final total only
	}
	diff := res[NS].Total - res[EO].Total
	res[NS].MP, res[EO].MP = diff, -diff
	win, lose := v.table.Lookup(diff)
	switch {
	case diff > 0:
		res[NS].VP, res[EO].VP = win, lose
	case diff < 0:
		res[NS].VP, res[EO].VP = lose, win
	default:
		res[NS].VP, res[EO].VP = MaxVP/2, MaxVP/2
	}
	v.computed.Lines = res

	if s.HandsPlanned > 0 && played > s.HandsPlanned {
		v.add(Finding{Code: HandsExceedPlanned, Severity: SeverityError, Field: "hands", Written: Int(played), Expected: Int(s.HandsPlanned), Pointer: "/hands"},
			fmt.Sprintf("the sheet has %d hands, the round plans %d", played, s.HandsPlanned),
			fmt.Sprintf("lo score ha %d smazzate, il turno ne prevede %d", played, s.HandsPlanned))
	}
	if s.HandsPlanned > 0 && played < s.HandsPlanned {
		v.add(Finding{Code: HandsFewerThanPlanned, Severity: SeverityInfo, Field: "hands", Written: Int(played), Expected: Int(s.HandsPlanned), Pointer: "/hands"},
			fmt.Sprintf("the sheet has %d hands of the %d planned (a time-out?); VP from %s", played, s.HandsPlanned, v.table.ID()),
			fmt.Sprintf("lo score ha %d smazzate delle %d previste (tempo scaduto?); VP dalla tabella %s", played, s.HandsPlanned, v.table.ID()))
	}
	v.latePoints()
	v.written(res)
}

// latePoints: LATE_POINTS_INVALID (RULES §7). A line's lateness credit is 0,
// 100 (late up to five minutes) or 150 (a further 50 from five to ten);
// after ten minutes the match is awarded instead (FITAB art. 38, FIBur-INT
// art. 34).
func (v *validator) latePoints() {
	for _, l := range Lines {
		lp := v.s.LatePoints[l]
		if lp == 0 || lp == lateCredit || lp == lateCredit+lateFurtherCredit {
			continue
		}
		v.add(Finding{Code: LatePointsInvalid, Severity: SeverityError, Line: lineRef(l), Field: "late_points", Written: Int(lp), Pointer: LatePointsPointer(l)},
			fmt.Sprintf("%s: late points %d are not a lateness credit: the only credits are 0, %d (up to five minutes) and %d (five to ten minutes)", l.Label(), lp, lateCredit, lateCredit+lateFurtherCredit),
			fmt.Sprintf("%s: i punti di ritardo %d non sono un abbuono previsto: gli abbuoni sono solo 0, %d (fino a cinque minuti) e %d (da cinque a dieci minuti)", l.Label(), lp, lateCredit, lateCredit+lateFurtherCredit))
	}
}

// quantity is one figure of the bottom of the sheet, written and computed.
type quantity struct {
	field    string
	written  [2]*int
	computed [2]int
	// followsSum: the written figures follow from other written figures
	// that are wrong (a sum error), so they are no inversion (RULES §6.3).
	followsSum bool
}

type verdict int

const (
	unwritten verdict = iota
	agrees
	swapped // equal to the computed figures with the lines swapped
	wrong
)

func (q quantity) verdict() verdict {
	w := q.written
	if w[NS] == nil && w[EO] == nil {
		return unwritten
	}
	if (w[NS] == nil || *w[NS] == q.computed[NS]) && (w[EO] == nil || *w[EO] == q.computed[EO]) {
		return agrees
	}
	// An inversion needs both lines written and two different figures.
	if w[NS] != nil && w[EO] != nil && q.computed[NS] != q.computed[EO] &&
		*w[NS] == q.computed[EO] && *w[EO] == q.computed[NS] {
		return swapped
	}
	return wrong
}

// firstWrong is the first line whose written figure differs.
func (q quantity) firstWrong() Line {
	if q.written[NS] != nil && *q.written[NS] != q.computed[NS] {
		return NS
	}
	return EO
}

// written checks the bottom of the sheet: final totals, MP, VP, and the
// inversions that explain them (RULES §6.3).
func (v *validator) written(res [2]LineResult) {
	w := v.s.Written
	totals := quantity{field: "total", written: [2]*int{w[NS].Total, w[EO].Total}, computed: [2]int{res[NS].Total, res[EO].Total}}
	mp := quantity{field: "mp", written: [2]*int{w[NS].MP, w[EO].MP}, computed: [2]int{res[NS].MP, res[EO].MP}}
	vp := quantity{field: "vp", written: [2]*int{w[NS].VP, w[EO].VP}, computed: [2]int{res[NS].VP, res[EO].VP}}

	// RULES §6.3: an inversion is the two lines' results swapped, never the
	// consequence of a sum error. Written totals that follow from the
	// sheet's own (mis-added) hand or running totals are a sum error even
	// when they mirror the computed ones.
	totalsVerdict := totals.verdict()
	totalsInverted := totalsVerdict == swapped && !v.totalsFollowWrittenHands()
	if totalsVerdict == swapped && !totalsInverted {
		totalsVerdict = wrong
	}
	if totalsInverted {
		v.add(Finding{Code: TotalsInverted, Severity: SeverityError, Field: "total", Written: w[NS].Total, Expected: Int(res[NS].Total), Pointer: WrittenPointer(NS, "total")},
			fmt.Sprintf("final totals are inverted: NS made %d and EO %d, the sheet says the reverse", res[NS].Total, res[EO].Total),
			fmt.Sprintf("totali finali invertiti: NS ha fatto %d ed EO %d, lo score riporta il contrario", res[NS].Total, res[EO].Total))
	} else if totalsVerdict == wrong {
		for _, l := range Lines {
			if t := w[l].Total; t != nil && *t != res[l].Total {
				v.add(Finding{Code: FinalTotalMismatch, Severity: SeverityError, Line: lineRef(l), Field: "total", Written: Int(*t), Expected: Int(res[l].Total), Pointer: WrittenPointer(l, "total")},
					fmt.Sprintf("%s: final total %d should be %d, the sum of the hand totals%s", l.Label(), *t, res[l].Total, lateNote(v.s.LatePoints[l], false)),
					fmt.Sprintf("%s: il totale finale %d dovrebbe essere %d, la somma dei totali di smazzata%s", l.Label(), *t, res[l].Total, lateNote(v.s.LatePoints[l], true)))
			}
		}
	}

	// The written MP and VP are a sum error's consequence, not an inversion,
	// when they follow from written figures that are themselves wrong: MP
	// from the written totals, VP from the written MP or totals.
	var wrongDiffs []int
	if totalsVerdict == wrong && w[NS].Total != nil && w[EO].Total != nil {
		d := *w[NS].Total - *w[EO].Total
		if mp.written[NS] != nil && mp.written[EO] != nil && *mp.written[NS] == d && *mp.written[EO] == -d {
			mp.followsSum = true
		}
		wrongDiffs = append(wrongDiffs, d)
	}
	if mv := mp.verdict(); (mv == wrong || (mv == swapped && mp.followsSum)) && mp.written[NS] != nil && mp.written[EO] != nil && *mp.written[EO] == -*mp.written[NS] {
		wrongDiffs = append(wrongDiffs, *mp.written[NS])
	}
	if vp.written[NS] != nil && vp.written[EO] != nil {
		for _, d := range wrongDiffs {
			if ns, eo := v.vpFor(d); *vp.written[NS] == ns && *vp.written[EO] == eo {
				vp.followsSum = true
			}
		}
	}

	var inverted *quantity
	for _, q := range []*quantity{&mp, &vp} {
		switch q.verdict() {
		case swapped:
			switch {
			case q.followsSum:
				v.mismatch(*q)
			case !totalsInverted && inverted == nil:
				// With the totals inverted, MP and VP that follow the
				// written totals are explained by that inversion.
				inverted = q
			}
		case wrong:
			v.mismatch(*q)
		}
	}
	if inverted != nil {
		v.add(Finding{Code: ResultInverted, Severity: SeverityError, Field: inverted.field, Written: inverted.written[NS], Expected: Int(inverted.computed[NS]), Pointer: WrittenPointer(NS, inverted.field)},
			fmt.Sprintf("the result is inverted: NS should have %d MP / %d VP and EO %d MP / %d VP, the sheet gives them to the other line", res[NS].MP, res[NS].VP, res[EO].MP, res[EO].VP),
			fmt.Sprintf("risultato invertito: a NS spettano %d MP / %d VP e a EO %d MP / %d VP, lo score li assegna alla linea opposta", res[NS].MP, res[NS].VP, res[EO].MP, res[EO].VP))
	}
	if w[NS].VP != nil && w[EO].VP != nil && *w[NS].VP+*w[EO].VP != MaxVP {
		v.add(Finding{Code: VPSumNot20, Severity: SeverityError, Field: "vp", Written: Int(*w[NS].VP + *w[EO].VP), Expected: Int(MaxVP), Pointer: WrittenPointer(NS, "vp")},
			fmt.Sprintf("written VP %d + %d add up to %d, not %d", *w[NS].VP, *w[EO].VP, *w[NS].VP+*w[EO].VP, MaxVP),
			fmt.Sprintf("i VP scritti %d + %d fanno %d, non %d", *w[NS].VP, *w[EO].VP, *w[NS].VP+*w[EO].VP, MaxVP))
	}
}

// totalsFollowWrittenHands reports whether both written final totals are
// what the sheet's own hand totals add up to (the written hand total where
// there is one, base + points otherwise), or its last written running
// totals, plus the late points: then a wrong final total is a sum error
// carried down the sheet (RULES §6.3).
func (v *validator) totalsFollowWrittenHands() bool {
	s := v.s
	for _, l := range Lines {
		t := s.Written[l].Total
		if t == nil {
			return false
		}
		sum := 0
		for i := range s.Hands {
			ls := &s.Hands[i].Lines[l]
			if ls.Total != nil {
				sum += *ls.Total
			} else {
				sum += ls.Base + ls.Points
			}
		}
		ok := *t == sum+s.LatePoints[l]
		if n := len(s.Hands); n > 0 {
			if rt := s.Hands[n-1].Lines[l].RunningTotal; rt != nil && *t == *rt+s.LatePoints[l] {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// vpFor is the VP pair (NS, EO) the match's table gives for an MP
// difference NS − EO.
func (v *validator) vpFor(diff int) (ns, eo int) {
	win, lose := v.table.Lookup(diff)
	switch {
	case diff > 0:
		return win, lose
	case diff < 0:
		return lose, win
	}
	return MaxVP / 2, MaxVP / 2
}

// mismatch reports a wrong MP or VP pair once per match, on the first line
// that is wrong (both lines' figures are one result).
func (v *validator) mismatch(q quantity) {
	l := q.firstWrong()
	code, en, it := MPMismatch, "MP %d should be %d", "MP %d dovrebbero essere %d"
	if q.field == "vp" {
		code, en, it = VPMismatch, "VP %d should be %d (table "+v.table.ID()+")", "VP %d dovrebbero essere %d (tabella "+v.table.ID()+")"
	}
	v.add(Finding{Code: code, Severity: SeverityError, Line: lineRef(l), Field: q.field, Written: Int(*q.written[l]), Expected: Int(q.computed[l]), Pointer: WrittenPointer(l, q.field)},
		l.Label()+": "+fmt.Sprintf(en, *q.written[l], q.computed[l]),
		l.Label()+": "+fmt.Sprintf(it, *q.written[l], q.computed[l]))
}

func lateNote(late int, italian bool) string {
	if late == 0 {
		return ""
	}
	if italian {
		return fmt.Sprintf(" più %d di ritardo avversario", late)
	}
	return fmt.Sprintf(" plus %d lateness points", late)
}
