package app

import (
	"context"
	"errors"
	"time"

	"segnapunti/domain"
	"segnapunti/events"
	"segnapunti/store"
)

// The hall's clock (UI.md §9): the secretary starts a round's
// clock; the venue screen and the phones show what remains; when the
// minutes run out, or the secretary or referee calls it earlier, time is
// called — the time-out of FITAB art. 15 — and a hand entered afterwards
// is marked.

// MinutesPerHand is a round's time per planned hand when the secretary
// gives none [INTERP]: the codes leave the round's time to the organiser;
// 15 minutes a hand is the usual club setting (a 3-hand round: 45).
const MinutesPerHand = 15

// MaxClockMinutes bounds a round's clock (round_clocks_minutes_check).
const MaxClockMinutes = 600

// Clock is a round's clock as pages show it.
type Clock struct {
	Running  bool // a clock was started for the round
	Minutes  int
	Deadline time.Time
	// Called: time was called, by hand or because the minutes ran out.
	Called    bool
	Remaining int // seconds left, 0 once called
}

func clockAt(c store.RoundClock, now time.Time) Clock {
	out := Clock{Running: true, Minutes: c.Minutes, Deadline: c.Deadline}
	out.Called = c.Called != nil || !now.Before(c.Deadline)
	if !out.Called {
		out.Remaining = int(c.Deadline.Sub(now).Round(time.Second) / time.Second)
	}
	return out
}

// RoundClock reads a round's clock; a round without one is a Clock that
// is not Running.
func (a *App) RoundClock(ctx context.Context, tid string, round int) (Clock, error) {
	c, err := a.db.Clock(ctx, tid, round)
	if errors.Is(err, domain.ErrNotFound) {
		return Clock{}, nil
	}
	if err != nil {
		return Clock{}, err
	}
	return clockAt(c, a.now()), nil
}

// clockRound checks that p may run the clock of a round being played.
func (a *App) clockRound(ctx context.Context, p Principal, tid string, round int) (domain.Tournament, domain.Round, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return t, domain.Round{}, err
	}
	if !canIssueLinks(acc) {
		return t, domain.Round{}, forbidden("api.clock_only")
	}
	r, err := a.round(ctx, t, round)
	if err != nil {
		return t, r, err
	}
	if r.State != domain.RoundPlaying {
		return t, r, roundClosed(t.ID, r.Number, string(r.State))
	}
	return t, r, nil
}

// StartClock starts (or restarts) a round's clock for minutes; 0 takes
// MinutesPerHand for each planned hand.
func (a *App) StartClock(ctx context.Context, p Principal, tid string, round, minutes int) (Clock, error) {
	t, r, err := a.clockRound(ctx, p, tid, round)
	if err != nil {
		return Clock{}, err
	}
	if minutes == 0 {
		minutes = MinutesPerHand * r.HandsPlanned
	}
	if minutes < 1 || minutes > MaxClockMinutes {
		return Clock{}, invalid([]FieldError{field("/minutes", "api.whole_range_n", "minutes", MaxClockMinutes, minutes)})
	}
	c, err := a.db.StartClock(ctx, t.ID, r.Number, minutes, actorName(p))
	if err != nil {
		return Clock{}, err
	}
	a.changed(ctx, t.ID, events.Round, r.Number, 0)
	return clockAt(c, a.now()), nil
}

// CallTime calls time on a round's clock now (FITAB art. 15).
func (a *App) CallTime(ctx context.Context, p Principal, tid string, round int) (Clock, error) {
	t, r, err := a.clockRound(ctx, p, tid, round)
	if err != nil {
		return Clock{}, err
	}
	c, err := a.db.CallTime(ctx, t.ID, r.Number)
	if errors.Is(err, domain.ErrNotFound) {
		return Clock{}, conflict("api.clock_stopped", r.Number)
	}
	if err != nil {
		return Clock{}, err
	}
	a.changed(ctx, t.ID, events.Round, r.Number, 0)
	return clockAt(c, a.now()), nil
}

// markIfLate marks hand position of a table's sheet when time was called
// on its round's clock before it was entered.
func (a *App) markIfLate(ctx context.Context, tid string, round, table, position int) error {
	c, err := a.RoundClock(ctx, tid, round)
	if err != nil || !c.Called {
		return err
	}
	return a.db.MarkLateHand(ctx, tid, round, table, position)
}
