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

// UI.md §9: a table's card is issued once and stays the same;
// its code (long or typed) opens the table's current round — the earliest
// round being played whose sheet there is not confirmed, else the latest;
// a table in no published round opens nothing; it writes only there.
func TestTableCardOpensCurrentRound(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		own := f.who["own club"]
		if _, _, err := f.app.TableCards(ctx, f.who["other club"], f.regional, []int{1}); err == nil {
			t.Error("another club issued a card of this tournament")
		}
		_, cards, err := f.app.TableCards(ctx, own, f.regional, []int{1, 5})
		if err != nil {
			t.Fatal(err)
		}
		_, again, err := f.app.TableCards(ctx, own, f.regional, []int{1})
		if err != nil || again[0].Code != cards[0].Code || again[0].Short != cards[0].Short {
			t.Fatalf("the card printed twice: %+v then %+v, %v; want the same codes", cards[0], again, err)
		}
		opens := func(name, code string, wantRound int) app.Principal {
			t.Helper()
			p, st, err := f.app.TableEntry(ctx, code)
			if err != nil || st != app.LinkLive || p.Entry.Round != wantRound || p.Entry.Table != 1 || !p.TableEntry() {
				t.Fatalf("%s: %+v %s %v; want table 1 of round %d", name, p.Entry, st, err, wantRound)
			}
			return p
		}
		p := opens("long code, round 1 playing", cards[0].Code, 1)
		opens("typed code", cards[0].Short, 1)
		if _, st, err := f.app.TableEntry(ctx, cards[1].Code); err != nil || st != app.LinkNoRound {
			t.Errorf("card of table 5, in no round: %s, %v; want no_round", st, err)
		}
		hand := domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 235}, {Base: 100, Points: -120}}}
		for range 3 {
			if _, err := appendHand(f.app, ctx, p, f.regional, 1, 1, func(app.SheetTarget) (domain.Hand, error) { return hand, nil }, ""); err != nil {
				t.Fatal(err)
			}
		}
		// Round 2 is published while round 1's sheet at table 1 is not
		// confirmed: the card still opens round 1.
		if _, err := f.app.CreateRound(ctx, own, f.regional, app.RoundInput{Number: 2, Phase: "mitchell",
			Tables: []domain.TableAssignment{{Table: 1, NS: "2", EO: "1"}}}); err != nil {
			t.Fatal(err)
		}
		p = opens("round 1 not confirmed yet", cards[0].Code, 1)
		if _, err := appendHand(f.app, ctx, p, f.regional, 2, 1, func(app.SheetTarget) (domain.Hand, error) { return hand, nil }, ""); !errors.Is(err, app.ErrForbidden) {
			t.Errorf("the card wrote into round 2 while opening round 1: %v", err)
		}
		if _, err := f.app.EndSheet(ctx, p, f.regional, 1, 1, "ns", "1"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.ConfirmSheet(ctx, p, f.regional, 1, 1, "", "2"); err != nil {
			t.Fatal(err)
		}
		opens("round 1 confirmed", cards[0].Code, 2)
	})
}
