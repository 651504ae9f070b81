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

// UI.md §9: before the other line confirms, the scoring line
// changes or removes its last hand — only the last; each change keeps the
// replaced sheet in the history; an end signature is dropped (it signed
// another sheet); after the confirmation only the referee corrects
// (FITAB art. 20, FIBur-INT art. 19).
func TestFixLastHandBeforeConfirmation(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		own := f.who["own club"]
		links, err := f.app.IssueEntryLinks(ctx, own, f.regional, 1, []int{1})
		if err != nil {
			t.Fatal(err)
		}
		phone, _, err := f.app.TableEntry(ctx, links[0].Code)
		if err != nil {
			t.Fatal(err)
		}
		good := domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 235}, {Base: 100, Points: -120}}}
		written := 5350 // for 300 + 235
		typo := domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 235, Total: &written}, {Base: 100, Points: -120}}}
		add := func(h domain.Hand) {
			t.Helper()
			if _, err := appendHand(f.app, ctx, phone, f.regional, 1, 1, func(app.SheetTarget) (domain.Hand, error) { return h, nil }, ""); err != nil {
				t.Fatal(err)
			}
		}
		add(good)
		// The only hand is changed, never removed.
		if _, err := f.app.RemoveLastHand(ctx, phone, f.regional, 1, 1, 0, 0); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("remove the only hand: %v, want a conflict", err)
		}
		add(good)
		add(typo)
		v, _ := f.app.TableSheet(ctx, phone, f.regional, 1, 1)
		if v.Signable {
			t.Fatal("a sheet with a typo in its total is signable")
		}
		var ae *app.Error
		if _, err := f.app.EditLastHand(ctx, phone, f.regional, 1, 1, 1, good, 0); !errors.As(err, &ae) || !errors.Is(err, domain.ErrInvalid) || ae.Fields[0].Pointer != "/index" {
			t.Errorf("change hand 2 of 3: %v, want invalid /index", err)
		}
		if _, err := f.app.EditLastHand(ctx, phone, f.regional, 1, 1, 2, good, v.Version-1); !errors.Is(err, app.ErrPrecondition) {
			t.Errorf("change from an old version: %v, want a precondition failure", err)
		}
		res, err := f.app.EditLastHand(ctx, phone, f.regional, 1, 1, 2, good, v.Version)
		if err != nil || !res.Report.OK() || len(res.Sheet.Hands) != 3 || res.Sheet.Hands[2].Lines[domain.NS].Total != nil || res.Version != v.Version+1 || res.Reopened {
			t.Fatalf("change hand 3: %+v, %v", res, err)
		}
		hist, err := db.SheetHistory(ctx, f.regional, 1, 1)
		if err != nil || len(hist) != 1 || hist[0].Version != v.Version || hist[0].Stored.Sheet.Hands[2].Lines[domain.NS].Total == nil || *hist[0].Stored.Sheet.Hands[2].Lines[domain.NS].Total != written || hist[0].By != "table 1" {
			t.Fatalf("history after the change: %+v, %v; want the typo kept, by table 1", hist, err)
		}
		// NS ends, then removes hand 3: the end is dropped, the sheet reopened.
		if _, err := f.app.EndSheet(ctx, phone, f.regional, 1, 1, "ns", "1"); err != nil {
			t.Fatal(err)
		}
		res, err = f.app.RemoveLastHand(ctx, phone, f.regional, 1, 1, 2, 0)
		if err != nil || len(res.Sheet.Hands) != 2 || !res.Reopened {
			t.Fatalf("remove hand 3 after the end: %+v, %v", res, err)
		}
		if c, _ := f.app.Confirmations(ctx, own, f.regional, 1, 1); len(c) != 0 {
			t.Errorf("signatures after the removal: %+v, want none", c)
		}
		if hist, _ := db.SheetHistory(ctx, f.regional, 1, 1); len(hist) != 2 || len(hist[0].Stored.Sheet.Hands) != 3 {
			t.Errorf("history after the removal: %d versions, want 2, the newest with 3 hands", len(hist))
		}
		add(good)
		if _, err := f.app.EndSheet(ctx, phone, f.regional, 1, 1, "ns", "1"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.ConfirmSheet(ctx, phone, f.regional, 1, 1, "", "2"); err != nil {
			t.Fatal(err)
		}
		// Confirmed: the table changes nothing more.
		if _, err := f.app.EditLastHand(ctx, phone, f.regional, 1, 1, 2, typo, 0); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("change after the confirmation: %v, want a conflict", err)
		}
		if _, err := f.app.RemoveLastHand(ctx, phone, f.regional, 1, 1, 2, 0); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("remove after the confirmation: %v, want a conflict", err)
		}
		if c, _ := f.app.Confirmations(ctx, own, f.regional, 1, 1); len(c) != 2 {
			t.Errorf("a refused change touched the signatures: %+v", c)
		}
	})
}
