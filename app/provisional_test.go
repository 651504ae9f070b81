package app_test

import (
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
)

// docs/rules.md §8 "Provisional standings": provisional until the referee
// has published the standings of every round counted (RULES §10 states).
func TestProvisionalUntilEveryCountedRoundIsPublished(t *testing.T) {
	r := func(n int, s domain.RoundState) domain.Round { return domain.Round{Number: n, State: s} }
	for _, c := range []struct {
		name   string
		rounds []domain.Round
		after  int
		want   bool
	}{
		{"no round counted", nil, 0, true},
		{"round 1 being played", []domain.Round{r(1, domain.RoundPlaying)}, 1, true},
		{"round 1's sheets delivered, standings not yet published", []domain.Round{r(1, domain.RoundSheetsDelivered)}, 1, true},
		{"round 1's standings published", []domain.Round{r(1, domain.RoundStandingsPublished)}, 1, false},
		{"round 1's next pairing published", []domain.Round{r(1, domain.RoundNextPairingPublished)}, 1, false},
		{"after round 1 while round 2 is played", []domain.Round{r(1, domain.RoundNextPairingPublished), r(2, domain.RoundPlaying)}, 1, false},
		{"after round 2 while round 2 is played", []domain.Round{r(1, domain.RoundNextPairingPublished), r(2, domain.RoundPlaying)}, 2, true},
		{"after a round not made yet", []domain.Round{r(1, domain.RoundStandingsPublished)}, 2, true},
	} {
		if got := app.Provisional(c.rounds, c.after); got != c.want {
			t.Errorf("%s: Provisional(after %d) = %v, want %v", c.name, c.after, got, c.want)
		}
	}
}
