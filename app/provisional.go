package app

import "segnapunti/domain"

// Provisional reports whether the standings after round after are
// provisional ("provvisoria" on every page and in the API's public
// standings): they are until the referee has published the standings of
// every round they count (round state standings_published, RULES §10).
// Delivering the sheets makes each match's written result definitive
// (FITAB art. 20, FIBur-INT art. 19), but until the standings are
// published a correction still changes them and the next round's seating
// with them (RULES §9: "standings published" is what the rulings read);
// publishing is the referee's act that makes them the tournament's
// standings. after = 0 (no round counted yet) is provisional, as is a
// round that does not exist yet.
func Provisional(rounds []domain.Round, after int) bool {
	if after <= 0 {
		return true
	}
	counted := 0
	for _, r := range rounds {
		if r.Number < 1 || r.Number > after {
			continue
		}
		if r.State.Order() < domain.RoundStandingsPublished.Order() {
			return true
		}
		counted++
	}
	return counted < after
}
