package store_test

import (
	"context"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// Prizes: the players' sex and birth year round-trip (and stay
// optional), the categories are kept in their order of value and replaced
// whole, and the database refuses an impossible sex or year.
func TestPrizeCategoriesAndPlayerAttributes_Issue22(t *testing.T) {
	for name, open := range map[string]func(testing.TB) *store.DB{"postgres": dbtest.Postgres, "sqlite": dbtest.SQLite} {
		t.Run(name, func(t *testing.T) {
			db := open(t)
			ctx := context.Background()
			tr, err := db.CreateTournament(ctx, tournament())
			if err != nil {
				t.Fatal(err)
			}
			es := []domain.Entrant{
				{ID: "1", Players: []domain.Player{{Name: "Rossi Anna", Sex: "F", BirthYear: 1950}, {Name: "Verdi Carla", Sex: "F"}}},
				{ID: "2", Players: []domain.Player{{Name: "Bianchi Luca"}, {Name: "Neri Paolo", BirthYear: 1961}}},
			}
			if err := db.AddEntrants(ctx, tr.ID, es); err != nil {
				t.Fatal(err)
			}
			got, err := db.ListEntrants(ctx, tr.ID)
			if err != nil {
				t.Fatal(err)
			}
			for i := range es {
				for j := range es[i].Players {
					if got[i].Players[j] != es[i].Players[j] {
						t.Errorf("entrant %s player %d: %+v, want %+v", es[i].ID, j, got[i].Players[j], es[i].Players[j])
					}
				}
			}
			bad := []domain.Entrant{{ID: "3", Players: []domain.Player{{Name: "X", Sex: "x"}}}}
			if err := db.AddEntrants(ctx, tr.ID, bad); err == nil {
				t.Error("sex \"x\" stored")
			}
			bad = []domain.Entrant{{ID: "4", Players: []domain.Player{{Name: "Y", BirthYear: 1850}}}}
			if err := db.AddEntrants(ctx, tr.ID, bad); err == nil {
				t.Error("birth year 1850 stored")
			}

			if cats, err := db.PrizeCategories(ctx, tr.ID); err != nil || len(cats) != 0 {
				t.Fatalf("before any: %v, %v", cats, err)
			}
			cats := []domain.PrizeCategory{
				{ID: "assoluta", Kind: domain.PrizeOverall, Label: "Assoluta", Places: 3},
				{ID: "senior", Kind: domain.PrizeSeniors, Label: "Senior", Places: 2, BornBy: 1960, Cumulative: true},
				{ID: "locale", Kind: domain.PrizeHostClub, Label: "Locale", Places: 1, Club: "Circolo Roma"},
				{ID: "giovani", Kind: domain.PrizeCustom, Label: "Giovani", Places: 1, Attribute: domain.PrizeAttrBornFrom, Value: "1990"},
			}
			if err := db.SetPrizeCategories(ctx, tr.ID, cats); err != nil {
				t.Fatal(err)
			}
			back, err := db.PrizeCategories(ctx, tr.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(back) != len(cats) {
				t.Fatalf("got %d categories, want %d", len(back), len(cats))
			}
			for i := range cats {
				if back[i] != cats[i] {
					t.Errorf("category %d: %+v, want %+v", i, back[i], cats[i])
				}
			}
			// Replaced whole, in the new order.
			if err := db.SetPrizeCategories(ctx, tr.ID, []domain.PrizeCategory{cats[2], cats[0]}); err != nil {
				t.Fatal(err)
			}
			back, _ = db.PrizeCategories(ctx, tr.ID)
			if len(back) != 2 || back[0].ID != "locale" || back[1].ID != "assoluta" {
				t.Errorf("after replacing: %+v", back)
			}
			// A duplicate id fails as a whole: the stored list is unchanged.
			if err := db.SetPrizeCategories(ctx, tr.ID, []domain.PrizeCategory{cats[0], cats[0]}); err == nil {
				t.Error("duplicate category stored")
			}
			back, _ = db.PrizeCategories(ctx, tr.ID)
			if len(back) != 2 || back[0].ID != "locale" {
				t.Errorf("a refused write changed the list: %+v", back)
			}
			wantErr(t, db.SetPrizeCategories(ctx, "nope", cats), domain.ErrNotFound)
			if err := db.SetPrizeCategories(ctx, tr.ID, nil); err != nil {
				t.Fatal(err)
			}
			if back, _ = db.PrizeCategories(ctx, tr.ID); len(back) != 0 {
				t.Errorf("after clearing: %+v", back)
			}
		})
	}
}
