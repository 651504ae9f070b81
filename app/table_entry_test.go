package app

import (
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
)

func TestNormalizeShortCode(t *testing.T) {
	for in, want := range map[string]bool{
		"k7qx2m9p": true, " K7QX-2M9P ": true, "K7QX2M9": false, "K7QX2M9PP": false,
		"K7QX2M9O": false, "K7QX2M91": false, "K7QX2M9I": false, "K7QX2M9L": false, "K7QX2M90": false,
	} {
		if _, ok := NormalizeShortCode(in); ok != want {
			t.Errorf("NormalizeShortCode(%q) ok = %v, want %v", in, ok, want)
		}
	}
	if strings.ContainsAny(store.ShortCodeAlphabet, "0O1IL") {
		t.Errorf("alphabet %q has look-alikes", store.ShortCodeAlphabet)
	}
}

// UI.md §3 data-status from the table entry's facts.
func TestTableStatus(t *testing.T) {
	three := &domain.Sheet{HandsPlanned: 3, Hands: make([]domain.Hand, 3)}
	two := &domain.Sheet{HandsPlanned: 3, Hands: make([]domain.Hand, 2)}
	timeOut := &domain.Sheet{HandsPlanned: 3, Hands: []domain.Hand{{End: domain.EndClosed}, {End: domain.EndTimeOut}}}
	for _, c := range []struct {
		sh       *domain.Sheet
		hasError bool
		signed   int
		state    domain.RoundState
		want     TableStatus
	}{
		{nil, false, 0, domain.RoundPlaying, TableEmpty},
		{two, false, 0, domain.RoundPlaying, TableInProgress},
		{three, false, 0, domain.RoundPlaying, TableAwaitingConfirmation},
		{timeOut, false, 0, domain.RoundPlaying, TableAwaitingConfirmation},
		{three, false, 1, domain.RoundPlaying, TableAwaitingConfirmation},
		{three, false, 2, domain.RoundPlaying, TableDelivered},
		{three, true, 0, domain.RoundSheetsDelivered, TableFlagged},
		{two, false, 0, domain.RoundSheetsDelivered, TableDelivered},
	} {
		if got := statusOf(c.sh, c.hasError, c.signed, c.state); got != c.want {
			t.Errorf("TableStatus(%v hands, error %v, %d signatures, %s) = %s, want %s", c.sh != nil, c.hasError, c.signed, c.state, got, c.want)
		}
	}
}
