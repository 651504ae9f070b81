package app

import (
	"testing"

	"segnapunti/domain"
)

// UI.md §3 data-status of a table while its round is played (RULES §10).
func TestSheetStatus(t *testing.T) {
	hand := func(end domain.HandEnd) domain.Hand { return domain.Hand{End: end} }
	cases := []struct {
		name  string
		hands []domain.Hand
		want  TableStatus
	}{
		{"no hand: empty", nil, TableEmpty},
		{"1 of 3: in progress", []domain.Hand{hand(domain.EndClosed)}, TableInProgress},
		{"3 of 3: awaiting confirmation", []domain.Hand{hand(""), hand(""), hand("")}, TableAwaitingConfirmation},
		{"time called after 2 of 3: awaiting confirmation", []domain.Hand{hand(""), hand(domain.EndTimeOut)}, TableAwaitingConfirmation},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := statusOf(&domain.Sheet{HandsPlanned: 3, Hands: c.hands}, false, 0, domain.RoundPlaying); got != c.want {
				t.Errorf("%s, want %s", got, c.want)
			}
		})
	}
}
