package store_test

import (
	"context"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// The club player registry (UI.md §3) is filled in the transaction that
// enters entrants: each player once per club, by name; another club's
// players are not offered; a refused entry remembers nobody.
func TestClubPlayers(t *testing.T) {
	for name, open := range map[string]func(testing.TB) *store.DB{"postgres": dbtest.Postgres, "sqlite": dbtest.SQLite} {
		t.Run(name, func(t *testing.T) {
			db := open(t)
			ctx := context.Background()
			for _, c := range []string{"bc-roma", "bc-milano"} {
				if _, err := db.CreateClub(ctx, domain.Club{ID: c, Name: c}); err != nil {
					t.Fatal(err)
				}
			}
			enter := func(club string, es ...domain.Entrant) error {
				tr := tournament()
				tr.ClubID = club
				created, err := db.CreateTournament(ctx, tr)
				if err != nil {
					t.Fatal(err)
				}
				return db.AddEntrants(ctx, created.ID, es)
			}
			pair := func(id, a, ma, b, mb string) domain.Entrant {
				return domain.Entrant{ID: id, Players: []domain.Player{{Name: a, Membership: ma}, {Name: b, Membership: mb}}}
			}
			if err := enter("bc-roma", pair("1", "Rossi Anna", "FT1", "Bianchi Luca", "FT2")); err != nil {
				t.Fatal(err)
			}
			if err := enter("bc-roma", pair("7", "Rossi Anna", "FT1", "Verdi Carla", "")); err != nil {
				t.Fatal(err)
			}
			if err := enter("bc-milano", pair("1", "Neri Paolo", "FT9", "Gallo Rita", "FT8")); err != nil {
				t.Fatal(err)
			}
			// A refused entry (the same id twice) remembers nobody.
			if err := enter("bc-roma", pair("2", "Mai Vista", "FT5", "X Y", "FT6"), pair("2", "A", "", "B", "")); err == nil {
				t.Fatal("a duplicate id was entered")
			}
			got, err := db.ClubPlayers(ctx, "bc-roma")
			if err != nil {
				t.Fatal(err)
			}
			want := []domain.Player{{Name: "Bianchi Luca", Membership: "FT2"}, {Name: "Rossi Anna", Membership: "FT1"}, {Name: "Verdi Carla"}}
			if len(got) != len(want) {
				t.Fatalf("registry %v, want %v", got, want)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("player %d: %+v, want %+v", i, got[i], want[i])
				}
			}
		})
	}
}
