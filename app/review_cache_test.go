package app_test

import (
	"context"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// The review queue (UI.md §4) and the round page (UI.md §3) list every stored sheet with an error: a
// hand whose written total is not base plus points is a sum error (FITAB
// art. 20). The queue is kept per tournament state, so every write shows
// at the next read: the error enters, leaves when the sheet is replaced
// by a right one, and enters again when a wrong hand is appended.
func TestReviewAndRoundPagesFollowEveryWrite(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		own, ref := f.who["own club"], f.who["its referee"]
		hand := func(total int) domain.Hand {
			return domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 235, Total: domain.Int(total)}, {Base: 100, Points: -120}}}
		}
		sheet := func(total int) func(app.SheetTarget) (domain.Sheet, error) {
			return func(g app.SheetTarget) (domain.Sheet, error) {
				sh := g.EmptySheet()
				sh.Hands = []domain.Hand{hand(total)}
				return sh, nil
			}
		}
		queue := func(when string) []app.ReviewItem {
			t.Helper()
			q, err := f.app.Review(ctx, ref, f.regional)
			if err != nil {
				t.Fatalf("%s: review: %v", when, err)
			}
			return q.Items
		}
		// The round page's table 1: its version and its error count.
		table1 := func(when string) (version, errs int) {
			t.Helper()
			rt, err := f.app.TableStatuses(ctx, own, f.regional, 1)
			if err != nil {
				t.Fatalf("%s: round page: %v", when, err)
			}
			for _, tb := range rt.Tables {
				if tb.Table.Table == 1 {
					return tb.Version, tb.Errors
				}
			}
			t.Fatalf("%s: no table 1", when)
			return 0, 0
		}
		if _, err := putSheet(f.app, ctx, own, f.regional, 1, 1, sheet(600), 0); err != nil {
			t.Fatal(err)
		}
		if items := queue("a wrong total"); len(items) != 1 || items[0].Table != 1 || items[0].Errors == 0 || items[0].Version != 1 {
			t.Errorf("after a wrong total: %+v, want table 1 with an error at version 1", items)
		}
		if v, e := table1("a wrong total"); v != 1 || e == 0 {
			t.Errorf("round page after a wrong total: version %d, %d errors; want 1 and some", v, e)
		}
		if _, err := putSheet(f.app, ctx, own, f.regional, 1, 1, sheet(535), 1); err != nil {
			t.Fatal(err)
		}
		if items := queue("the sheet replaced"); len(items) != 0 {
			t.Errorf("after the right sheet: %+v, want an empty queue", items)
		}
		if v, e := table1("the sheet replaced"); v != 2 || e != 0 {
			t.Errorf("round page after the right sheet: version %d, %d errors; want 2 and none", v, e)
		}
		if _, err := appendHand(f.app, ctx, own, f.regional, 1, 1, func(app.SheetTarget) (domain.Hand, error) { return hand(700), nil }, ""); err != nil {
			t.Fatal(err)
		}
		if items := queue("a wrong hand appended"); len(items) != 1 || items[0].Errors == 0 || items[0].Version != 3 {
			t.Errorf("after a wrong hand: %+v, want table 1 with an error at version 3", items)
		}
		if v, e := table1("a wrong hand appended"); v != 3 || e == 0 {
			t.Errorf("round page after a wrong hand: version %d, %d errors; want 3 and some", v, e)
		}
	})
}
