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

// FITAB art. 19, UI.md §6 and §9: the other line confirms the
// sheet, never the line that kept the score. The phone page gives only a
// number, which cannot tell who scored: the scoring line ends the sheet
// first; then its own number — whatever line is named with it — is
// refused with CONFIRM_OWN_LINE; the other line's number delivers the
// sheet, and each signature keeps its line, entrant and time.
func TestConfirmSheetArt19OtherLineOnly(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		own := f.who["own club"]
		hand := domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 235}, {Base: 100, Points: -120}}}
		if _, err := putSheet(f.app, ctx, own, f.regional, 1, 1, func(g app.SheetTarget) (domain.Sheet, error) {
			sh := g.EmptySheet()
			sh.Hands = []domain.Hand{hand, hand, hand}
			return sh, nil
		}, 0); err != nil {
			t.Fatal(err)
		}
		links, err := f.app.IssueEntryLinks(ctx, own, f.regional, 1, []int{1})
		if err != nil {
			t.Fatal(err)
		}
		phone, state, err := f.app.TableEntry(ctx, links[0].Code)
		if err != nil || state != app.LinkLive {
			t.Fatalf("table code: %v, %v", state, err)
		}
		ownLine := func(name string, err error) {
			t.Helper()
			var ae *app.Error
			if !errors.As(err, &ae) || ae.Code != app.CodeConfirmOwnLine || !errors.Is(err, domain.ErrConflict) {
				t.Errorf("%s: %v, want a CONFIRM_OWN_LINE conflict", name, err)
			}
		}
		// A number alone before the end: who scored is unknown, refused,
		// nothing stored.
		if _, err := f.app.ConfirmSheet(ctx, phone, f.regional, 1, 1, "", "2"); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("a number alone before the scoring line's end: %v, want a conflict", err)
		}
		if c, _ := f.app.Confirmations(ctx, own, f.regional, 1, 1); len(c) != 0 {
			t.Fatalf("a refused confirmation stored %+v", c)
		}
		if _, err := f.app.EndSheet(ctx, phone, f.regional, 1, 1, "ns", "1"); err != nil {
			t.Fatal(err)
		}
		_, err = f.app.ConfirmSheet(ctx, phone, f.regional, 1, 1, "", "1")
		ownLine("the scoring line's own number", err)
		_, err = f.app.ConfirmSheet(ctx, phone, f.regional, 1, 1, "eo", "1")
		ownLine("the scoring line's number under the other line's name", err)
		_, err = f.app.ConfirmSheet(ctx, own, f.regional, 1, 1, "ns", "1")
		ownLine("the scoring line named and numbered", err)
		if c, _ := f.app.Confirmations(ctx, own, f.regional, 1, 1); len(c) != 1 {
			t.Fatalf("refused confirmations changed the signatures: %+v", c)
		}
		res, err := f.app.ConfirmSheet(ctx, phone, f.regional, 1, 1, "", "2")
		if err != nil || !res.Delivered {
			t.Fatalf("the other line's number: %+v, %v", res, err)
		}
		c := res.Confirmations
		if len(c) != 2 || c[0].Line != domain.NS || c[0].Kind != store.SignEnd || !c[0].Signed() || c[0].Entrant != "1" ||
			c[1].Line != domain.EO || c[1].Kind != store.SignConfirm || !c[1].Signed() || c[1].Entrant != "2" || c[1].At.Before(c[0].At) {
			t.Errorf("signatures %+v: want NS 1 ended (own time), then EO 2 confirmed", c)
		}
	})
}
