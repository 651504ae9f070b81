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

// TestPublicTournament: not public → ErrNotFound for any id; public →
// one snapshot per tournament version, shared by readers until a write
// changes it (a hall of phones costs one computation), and figures equal
// to the signed-in standings.
func TestPublicTournament(t *testing.T) {
	for name, open := range map[string]func(testing.TB) *store.DB{"postgres": dbtest.Postgres, "sqlite": dbtest.SQLite} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t, open(t))
			own := f.who["own club"]
			tid := f.regional
			for _, id := range []string{tid, "t_unknown", "", "a/b"} {
				if _, err := f.app.PublicTournament(ctx, id); !errors.Is(err, domain.ErrNotFound) {
					t.Errorf("private or unknown %q: %v, want not found", id, err)
				}
			}
			yes := true
			if _, err := f.app.PatchTournament(ctx, f.who["its referee"], tid, app.PublicPatch{Public: &yes}); !errors.Is(err, app.ErrForbidden) {
				t.Errorf("a referee made it public: %v", err)
			}
			if _, err := f.app.PatchTournament(ctx, own, tid, app.PublicPatch{}); !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("a patch without public: %v, want invalid", err)
			}
			if _, err := f.app.PatchTournament(ctx, own, tid, app.PublicPatch{Public: &yes}); err != nil {
				t.Fatal(err)
			}
			a, err := f.app.PublicTournament(ctx, tid)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := f.app.PublicTournament(ctx, tid)
			if a != b {
				t.Error("two reads of an unchanged tournament computed two snapshots")
			}
			sheet := func(g app.SheetTarget) (domain.Sheet, error) {
				sh := g.EmptySheet()
				for _, h := range [][4]int{{300, 235, 100, -120}, {0, -55, 400, 180}, {350, 120, 200, 65}} {
					sh.Hands = append(sh.Hands, domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{
						{Base: h[0], Points: h[1]}, {Base: h[2], Points: h[3]}}})
				}
				return sh, nil
			}
			if _, err := putSheet(f.app, ctx, own, tid, 1, 1, sheet, 0); err != nil {
				t.Fatal(err)
			}
			c, err := f.app.PublicTournament(ctx, tid)
			if err != nil {
				t.Fatal(err)
			}
			if c == a || c.Version == a.Version {
				t.Fatal("a stored sheet did not change the public snapshot")
			}
			pub, provisional, err := c.Standings(0)
			if err != nil {
				t.Fatal(err)
			}
			auth, err := f.app.Standings(ctx, f.who["federation"], tid, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(pub.Rows) != 2 || pub.Rows[0].VP != auth.Rows[0].VP || pub.Rows[0].Entrant.ID != auth.Rows[0].Entrant.ID || pub.AfterRound != auth.AfterRound {
				t.Errorf("public standings %+v differ from the signed-in %+v", pub.Rows, auth.Rows)
			}
			if !provisional {
				t.Error("round 1 is being played: the standings should be provisional")
			}
			card, err := c.Card("2")
			if err != nil || len(card.Rows) != 1 || card.Rows[0].Opponent != "1" || card.Rows[0].VP != 9 || card.Rows[0].Rank != 2 {
				t.Errorf("card of pair 2 = %+v, %v; want round 1 against 1, 9 VP, rank 2", card.Rows, err)
			}
			no := false
			if _, err := f.app.PatchTournament(ctx, own, tid, app.PublicPatch{Public: &no}); err != nil {
				t.Fatal(err)
			}
			if _, err := f.app.PublicTournament(ctx, tid); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("private again: %v, want not found at once", err)
			}
		})
	}
}
