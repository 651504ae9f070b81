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

// API §4.2, UI.md §6: the other line's confirmation ends and delivers the
// sheet; the scorer's "end" before it is optional; the line that ended
// the sheet cannot confirm it.
func TestConfirmSheet(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		own := f.who["own club"]
		hand := domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 235}, {Base: 100, Points: -120}}}
		put := func(n int) error {
			_, err := putSheet(f.app, ctx, own, f.regional, 1, 1, func(g app.SheetTarget) (domain.Sheet, error) {
				sh := g.EmptySheet()
				for range n {
					sh.Hands = append(sh.Hands, hand)
				}
				return sh, nil
			}, 0)
			return err
		}
		if _, err := f.app.ConfirmSheet(ctx, own, f.regional, 1, 1, "eo", "2"); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("confirm without a sheet: %v, want a conflict", err)
		}
		if err := put(2); err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.ConfirmSheet(ctx, own, f.regional, 1, 1, "eo", "2"); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("confirm with 2 of 3 hands: %v, want a conflict", err)
		}
		if _, err := f.app.EndSheet(ctx, own, f.regional, 1, 1, "ns", "1"); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("end with 2 of 3 hands: %v, want a conflict", err)
		}
		if err := put(3); err != nil {
			t.Fatal(err)
		}
		var ae *app.Error
		if _, err := f.app.ConfirmSheet(ctx, own, f.regional, 1, 1, "eo", "1"); !errors.As(err, &ae) || !errors.Is(err, domain.ErrInvalid) || ae.Fields[0].Pointer != "/entrant" {
			t.Errorf("wrong entrant: %v, want invalid /entrant", err)
		}
		// The optional end: NS ended; NS cannot confirm; no more hands.
		res, err := f.app.EndSheet(ctx, own, f.regional, 1, 1, "ns", "1")
		if err != nil || res.Delivered || len(res.Confirmations) != 1 {
			t.Fatalf("end: %+v, %v", res, err)
		}
		if _, err := f.app.EndSheet(ctx, own, f.regional, 1, 1, "eo", "2"); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("end twice: %v", err)
		}
		if _, err := f.app.ConfirmSheet(ctx, own, f.regional, 1, 1, "ns", "1"); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("the line that ended confirms: %v, want a conflict", err)
		}
		if err := put(3); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("put after the end: %v, want a conflict", err)
		}
		// EO confirms by its number alone (the phone page): delivered.
		res, err = f.app.ConfirmSheet(ctx, own, f.regional, 1, 1, "", "2")
		if err != nil || !res.Delivered || len(res.Confirmations) != 2 {
			t.Fatalf("confirm: %+v, %v", res, err)
		}
		c := res.Confirmations
		if c[0].Line != domain.NS || c[0].Entrant != "1" || c[1].Line != domain.EO || c[1].Entrant != "2" || c[1].At.Before(c[0].At) {
			t.Errorf("signatures %+v: want NS 1 (ended), then EO 2 (confirmed)", c)
		}
		if _, err := f.app.ConfirmSheet(ctx, own, f.regional, 1, 1, "eo", "2"); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("confirm twice: %v, want a conflict", err)
		}
		if _, err := appendHand(f.app, ctx, own, f.regional, 1, 1, func(app.SheetTarget) (domain.Hand, error) { return hand, nil }, ""); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("hand after delivery: %v, want a conflict", err)
		}
		v, err := f.app.Sheet(ctx, own, f.regional, 1, 1)
		if err != nil || len(v.Confirmations) != 2 {
			t.Errorf("sheet view signatures: %+v, %v", v.Confirmations, err)
		}
	})
}
