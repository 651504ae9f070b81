package domain

// ruleFor is the article a finding cites, by federation (RULES §5.1, §6.3;
// the articles are those RULES.md gives for each rule).
func (v *validator) ruleFor(c Code) string {
	fitab := v.rs.Federation() == FITAB
	pick := func(fitabArt, fiburArt string) string {
		if fitab {
			return fitabArt
		}
		return fiburArt
	}
	switch c {
	case HandTotalMismatch, RunningTotalMismatch, FinalTotalMismatch, MPMismatch, TotalsInverted, ResultInverted:
		return v.rs.SheetRule() // sum errors and inversions: FITAB art. 20, FIBur-INT art. 19
	case VPMismatch, VPSumNot20, NotMultipleOf5, PointsBreakdownMismatch, PozzettoPenaltyInvalid, PozzettoInBase, PozzettoUnplayedInvalid, CardPointsImplausible:
		return v.rs.ScoringRule()
	case BaseNotRepresentable, BurracoTypeNotAllowed, BonusBreakdownMismatch, UnverifiableBreakdown:
		return v.rs.BonusRule()
	case ClosureImpossible, MultipleClosures, ClosureWithoutBurraco, ClosureWithoutPozzetto, ClosureBonusNotDue:
		return v.rs.ClosingRule()
	case CardPointsImpossible, TooManyBurrachi:
		return pick("FITAB art. 1, 17", "FIBur-INT art. 1, 16") // 108 cards; the stock keeps 2
	case HandAfterTimeOut, HandsFewerThanPlanned:
		return pick("FITAB art. 15", "FIBur-INT art. 15") // time-out and the final round
	case LatePointsInvalid:
		return pick("FITAB art. 38", "FIBur-INT art. 34") // lateness credits
	case HandsExceedPlanned, LineIDsInvalid, PlayerSeatedTwice:
		return pick("FITAB art. 2", "FIBur-INT art. 2")
	}
	return v.rs.ScoringRule()
}
