package app_test

import (
	"context"
	"errors"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// TestSheetWorkflow: the sheet rules of API §4.1 and RULES §10 as the
// operations enforce them for both doors.
func TestSheetWorkflow(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		own, ref := f.who["own club"], f.who["its referee"]
		sheet := func(mod func(*domain.Sheet)) func(app.SheetTarget) (domain.Sheet, error) {
			return func(g app.SheetTarget) (domain.Sheet, error) {
				sh := g.EmptySheet()
				sh.Hands = []domain.Hand{{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 235}, {Base: 100, Points: -120}}}}
				if mod != nil {
					mod(&sh)
				}
				return sh, nil
			}
		}
		res, err := putSheet(f.app, ctx, own, f.regional, 1, 1, sheet(nil), 0)
		if err != nil || res.Version != 1 || !res.Created {
			t.Fatalf("first put: %+v, %v", res, err)
		}
		// API §4.1: a field that is given must agree with the table.
		_, err = putSheet(f.app, ctx, own, f.regional, 1, 1, sheet(func(sh *domain.Sheet) { sh.Sides[domain.NS].ID = "2" }), 0)
		var ae *app.Error
		if !errors.As(err, &ae) || !errors.Is(err, domain.ErrInvalid) || len(ae.Fields) != 1 || ae.Fields[0].Pointer != "/ns/id" {
			t.Errorf("wrong NS entrant: %v", err)
		}
		// A stale version is a failed precondition; the current one works.
		if _, err := putSheet(f.app, ctx, own, f.regional, 1, 1, sheet(nil), 7); !errors.Is(err, app.ErrPrecondition) {
			t.Errorf("stale version: %v", err)
		}
		if res, err := putSheet(f.app, ctx, own, f.regional, 1, 1, sheet(nil), 1); err != nil || res.Version != 2 || res.Created {
			t.Errorf("current version: %+v, %v", res, err)
		}
		// A table the round does not have is not found.
		if _, err := f.app.Sheet(ctx, own, f.regional, 1, 9); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("table 9: %v", err)
		}
		// RULES §10: a round only moves forward.
		if _, err := f.app.SetRoundState(ctx, ref, f.regional, 1, "sheets_delivered"); err != nil {
			t.Fatalf("deliver: %v", err)
		}
		if _, err := f.app.SetRoundState(ctx, ref, f.regional, 1, "playing"); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("backward: %v", err)
		}
		if _, err := f.app.SetRoundState(ctx, ref, f.regional, 1, "finished?"); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("unknown state: %v", err)
		}
		// FITAB art. 20: a delivered round's sheets are final.
		if _, err := putSheet(f.app, ctx, own, f.regional, 1, 1, sheet(nil), 0); !errors.Is(err, app.ErrRoundClosed) {
			t.Errorf("put after delivery: %v", err)
		}
		if _, err := appendHand(f.app, ctx, own, f.regional, 1, 1, func(app.SheetTarget) (domain.Hand, error) { return domain.Hand{}, nil }, ""); !errors.Is(err, app.ErrRoundClosed) {
			t.Errorf("append after delivery: %v", err)
		}
		// Reading still works, with the history.
		v, err := f.app.Sheet(ctx, f.who["federation"], f.regional, 1, 1)
		if err != nil || v.Stored.Version != 2 {
			t.Errorf("read: %+v, %v", v.Stored.Version, err)
		}
	})
}
