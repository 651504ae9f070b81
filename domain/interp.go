package domain

// The [INTERP] choices of RULES.md that the validator makes, each in one
// named place so that a change of reading is a one-line change.

// Plausibility thresholds of CARD_POINTS_IMPLAUSIBLE (RULES §5.1 [INTERP]):
// legal but unusual figures for one line in one hand.
const (
	ImplausibleLinePoints = 700
	ImplausibleLineTotal  = 1500
)

// stallPays says whether a line pays the 100 for its pozzetto in a stall:
// FITAB art. 16 read literally, "a line that did not take its pozzetto pays
// when the other line took its own" [INTERP]. FIBur has no stall article and
// gets the same treatment. A sheet that charged it the other way gets an
// info finding, never an error.
func stallPays(own, other Pozzetto) bool {
	return own == PozzettoNotTaken && other.Taken()
}
