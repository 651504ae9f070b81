package app_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// UI.md §9, FITAB art. 15: the round's clock — started by the
// club (MinutesPerHand a planned hand when no minutes are given), only by
// those who run the round; time called by hand; a hand entered after time
// was called is marked, one before is not; removing the hand drops its
// mark.
func TestRoundClockArt15(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		own := f.who["own club"]
		if c, err := f.app.RoundClock(ctx, f.regional, 1); err != nil || c.Running {
			t.Fatalf("a clock nobody started: %+v, %v", c, err)
		}
		if _, err := f.app.StartClock(ctx, f.who["other club"], f.regional, 1, 0); err == nil {
			t.Error("another club started the clock")
		}
		var ae *app.Error
		if _, err := f.app.StartClock(ctx, own, f.regional, 1, app.MaxClockMinutes+1); !errors.As(err, &ae) || ae.Fields[0].Pointer != "/minutes" {
			t.Errorf("too many minutes: %v, want invalid /minutes", err)
		}
		if _, err := f.app.CallTime(ctx, own, f.regional, 1); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("time called without a clock: %v, want a conflict", err)
		}
		c, err := f.app.StartClock(ctx, own, f.regional, 1, 0)
		if err != nil || !c.Running || c.Called || c.Minutes != 3*app.MinutesPerHand || c.Remaining <= 3*app.MinutesPerHand*60-5 || c.Remaining > 3*app.MinutesPerHand*60 {
			t.Fatalf("started clock: %+v, %v; want %d minutes running", c, err, 3*app.MinutesPerHand)
		}
		links, _ := f.app.IssueEntryLinks(ctx, own, f.regional, 1, []int{1})
		phone, _, _ := f.app.TableEntry(ctx, links[0].Code)
		hand := domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 235}, {Base: 100, Points: -120}}}
		add := func() {
			t.Helper()
			if _, err := appendHand(f.app, ctx, phone, f.regional, 1, 1, func(app.SheetTarget) (domain.Hand, error) { return hand, nil }, ""); err != nil {
				t.Fatal(err)
			}
		}
		add()
		if c, err = f.app.CallTime(ctx, own, f.regional, 1); err != nil || !c.Called || c.Remaining != 0 {
			t.Fatalf("time called: %+v, %v", c, err)
		}
		add()
		late, err := db.LateHands(ctx, f.regional, 1, 1)
		if err != nil || late[1] || !late[2] {
			t.Fatalf("late hands %v, %v; want hand 2 only", late, err)
		}
		if _, err := f.app.RemoveLastHand(ctx, phone, f.regional, 1, 1, 1, 0); err != nil {
			t.Fatal(err)
		}
		if late, _ = db.LateHands(ctx, f.regional, 1, 1); late[2] {
			t.Error("a removed hand keeps its late mark")
		}
		// A clock whose minutes ran out has time called by itself.
		c, err = f.app.StartClock(ctx, own, f.regional, 1, 1)
		if err != nil || c.Called {
			t.Fatalf("restarted clock: %+v, %v", c, err)
		}
		later := app.New(db, func() time.Time { return time.Now().Add(2 * time.Minute) }, nil)
		if c, err = later.RoundClock(ctx, f.regional, 1); err != nil || !c.Called || c.Remaining != 0 {
			t.Errorf("a clock past its minutes: %+v, %v; want time called", c, err)
		}
	})
}
