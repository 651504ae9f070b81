package domain

// The official result of a match (RULES §8, first paragraph): "Quando viene
// consegnato lo score all'arbitro esso diventa valido e definitivo"
// (FIBur-INT art. 19; FITAB art. 20). A match counts with the result as
// written on its sheet, not as Validate recomputes it; only an applied
// correction (§9), which changes the written figures of the stored sheet,
// changes it.

// OfficialLine is one line's official and computed result of a match.
type OfficialLine struct {
	// Official is what counts in the standings: the written figures, each
	// empty one derived from the written figures above it.
	Official LineResult
	// Computed is what Validate recomputes from the hands (RULES §6).
	Computed LineResult
	// Derived says which official figures the sheet left empty and
	// OfficialResult derived.
	TotalDerived, MPDerived, VPDerived bool
}

// OfficialMatch is the official result of one match, per line, set against
// the computed one.
type OfficialMatch struct {
	Lines [2]OfficialLine
	// Differs: some line's official VP or MP is not the computed one — the
	// standings count a result the validator says is wrong, and the
	// referee should act while a correction is still possible (ask Decide
	// with Kind).
	Differs bool
	// Kind is the kind of error that explains the difference, read from
	// the report's findings (DiscrepancyKind); "" when nothing differs.
	Kind CorrectionKind
}

// OfficialResult is the official result of the sheet (RULES §8): per line,
// the written VP and MP; a figure the sheet leaves empty is derived from the
// written figures above it —
//
//   - a hand's total: the written total, else base + points;
//   - the final total: the written final total, else the sum of the hands'
//     totals (as above) plus the line's late points (RULES §6, §7);
//   - MP: the written MP, else from the two final totals (as above);
//   - VP: the written VP, else from the line's MP through the match's VP
//     table (rep.VPTable, chosen by Validate under RULES §6.2).
//
// Each line is derived on its own: a sheet that writes NS's VP and not EO's
// derives EO's. Written figures count as written even when they cannot be
// right — VPs that do not add up to 20, MPs that do not mirror: the sheet is
// final (FITAB art. 20, FIBur-INT art. 19) and only a correction changes
// it; the findings say what is wrong with it.
//
// rep is Validate(s); Computed and Kind come from it.
func OfficialResult(s Sheet, rep Report) OfficialMatch {
	var m OfficialMatch
	var total [2]int
	for _, l := range Lines {
		ol := &m.Lines[l]
		ol.Computed = rep.Computed.Lines[l]
		if w := s.Written[l].Total; w != nil {
			total[l] = *w
			continue
		}
		ol.TotalDerived = true
		sum := s.LatePoints[l]
		for i := range s.Hands {
			ls := &s.Hands[i].Lines[l]
			if ls.Total != nil {
				sum += *ls.Total
			} else {
				sum += ls.Base + ls.Points
			}
		}
		total[l] = sum
	}
	table := rep.VPTable
	if table.IsZero() {
		table = ChooseVPTable(s.Ruleset, s.Kind, s.HandsPlanned, len(s.Hands), s.VPTable)
	}
	for _, l := range Lines {
		ol := &m.Lines[l]
		ol.Official.Total = total[l]
		if w := s.Written[l].MP; w != nil {
			ol.Official.MP = *w
		} else {
			ol.MPDerived = true
			ol.Official.MP = total[l] - total[l.Other()]
		}
		if w := s.Written[l].VP; w != nil {
			ol.Official.VP = *w
		} else {
			ol.VPDerived = true
			ol.Official.VP = vpForMP(table, ol.Official.MP)
		}
		if ol.Official.MP != ol.Computed.MP || ol.Official.VP != ol.Computed.VP {
			m.Differs = true
		}
	}
	if m.Differs {
		m.Kind = DiscrepancyKind(rep.Findings)
	}
	return m
}

// vpForMP is a line's VP for its MP margin: the winner's number for a
// positive margin, the loser's for a negative one, 10 for a draw.
func vpForMP(t VPTable, mp int) int {
	win, lose := t.Lookup(mp)
	switch {
	case mp > 0:
		return win
	case mp < 0:
		return lose
	}
	return MaxVP / 2
}

// DiscrepancyKind is the correction kind (RULES §9) that the findings say
// explains a written result that differs from the computed one: an
// inversion (TOTALS_INVERTED, RESULT_INVERTED) first, since the validator
// reports an inversion instead of the mismatches it explains (RULES §6.3);
// else a sum error (FINAL_TOTAL_MISMATCH, RUNNING_TOTAL_MISMATCH,
// HAND_TOTAL_MISMATCH, MP_MISMATCH, VP_MISMATCH); else "other" (e.g. only
// VP_SUM_NOT_20), which no correction rule allows. This is the one place
// that maps findings to a kind.
func DiscrepancyKind(findings []Finding) CorrectionKind {
	sum := false
	for i := range findings {
		switch findings[i].Code {
		case TotalsInverted, ResultInverted:
			return CorrectionInversion
		case FinalTotalMismatch, RunningTotalMismatch, HandTotalMismatch, MPMismatch, VPMismatch:
			sum = true
		}
	}
	if sum {
		return CorrectionSum
	}
	return CorrectionOther
}

// CorrectedOfficial is the sheet an applied correction stores (RULES §8):
// after a `sum` or `inversion` correction the official result is the one
// the corrected sheet adds up to — the error was in the written figures —
// so the written final totals, MP and VP become the computed ones, unless
// the correction itself gives written values (writtenGiven), which then
// stand as given. Other kinds keep the sheet's written result (a
// transcription correction makes it the sheet's written result).
func CorrectedOfficial(kind CorrectionKind, corrected Sheet, writtenGiven bool) Sheet {
	if writtenGiven || (kind != CorrectionSum && kind != CorrectionInversion) {
		return corrected
	}
	c := Validate(corrected).Computed
	for _, l := range Lines {
		r := c.Lines[l]
		corrected.Written[l] = WrittenResult{Total: Int(r.Total), MP: Int(r.MP), VP: Int(r.VP)}
	}
	return corrected
}
