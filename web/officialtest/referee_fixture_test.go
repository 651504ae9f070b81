package officialtest

import (
	"context"
	"log/slog"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/web/webtest"
)

// refereeWorld is a pairs tournament of four pairs of club c1 with the
// referee "anna.rossi" assigned: round 1 (mitchell) delivered with two
// sheets — table 1 carries a sum error (hand 1's NS total written 600,
// computed 500) — and, when danese is set, round 2 seated by the danese
// system and its pairing published.
type refereeWorld struct {
	ops *app.App
	tid string
}

var (
	clubP    = app.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "c1"}
	refereeP = app.Principal{Role: domain.RoleReferee, Name: "anna.rossi"}
)

// refSheet is a 3-hand sheet: each hand NS base 200 + points = nsPts vs
// EO eoPts.
func refSheet(g app.SheetTarget, nsPts, eoPts int, nsWrittenFirst *int) domain.Sheet {
	sh := g.EmptySheet()
	for i := range 3 {
		h := domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 200, Points: nsPts - 200}, {Base: 200, Points: eoPts - 200}}}
		if i == 0 && nsWrittenFirst != nil {
			h.Lines[domain.NS].Total = nsWrittenFirst
		}
		sh.Hands = append(sh.Hands, h)
	}
	return sh
}

func newRefereeWorld(t *testing.T, db *store.DB, ruleset string, danese bool) refereeWorld {
	t.Helper()
	return newClubWorld(t, db, "c1", "Coppa d'autunno", ruleset, danese)
}

// newClubWorld is newRefereeWorld for a club and a tournament name.
func newClubWorld(t *testing.T, db *store.DB, club, name, ruleset string, danese bool) refereeWorld {
	t.Helper()
	clubP := app.Principal{Role: domain.RoleClub, Name: "segreteria " + club, ClubID: club}
	ctx := context.Background()
	ops := app.New(db, nil, slog.New(slog.DiscardHandler))
	if _, err := db.GetClub(ctx, club); err != nil {
		if _, err := db.CreateClub(ctx, domain.Club{ID: club, Name: "Circolo " + club}); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := ops.CreateTournament(ctx, clubP, app.TournamentInput{Name: name, Date: "2026-11-21", Level: "provincial",
		Ruleset: ruleset, Kind: "pairs", RoundsPlanned: 3, HandsPerRound: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := ops.AssignReferee(ctx, clubP, tr.ID, "anna.rossi"); err != nil {
		t.Fatal(err)
	}
	var in []app.EntrantInput
	for _, id := range []string{"1", "2", "3", "4"} {
		in = append(in, app.EntrantInput{ID: id, Players: []domain.Player{{Name: "Rossi " + club + id}, {Name: "Bianchi " + club + id}}})
	}
	if _, err := ops.AddEntrants(ctx, clubP, tr.ID, in); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.CreateRound(ctx, clubP, tr.ID, app.RoundInput{Number: 1, Phase: "mitchell",
		Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}, {Table: 2, NS: "3", EO: "4"}}}); err != nil {
		t.Fatal(err)
	}
	put := func(table, ns, eo int, wrong *int) {
		if _, err := webtest.PutSheet(ops, ctx, clubP, tr.ID, 1, table, func(g app.SheetTarget) (domain.Sheet, error) {
			return refSheet(g, ns, eo, wrong), nil
		}, 0); err != nil {
			t.Fatal(err)
		}
	}
	put(1, 500, 300, domain.Int(600)) // 1 beats 2 by 600; hand 1 NS total misadded
	put(2, 400, 350, nil)             // 3 beats 4 by 150
	if _, err := ops.SetRoundState(ctx, refereeP, tr.ID, 1, "sheets_delivered"); err != nil {
		t.Fatal(err)
	}
	if danese {
		if _, err := ops.SetRoundState(ctx, refereeP, tr.ID, 1, "next_pairing_published"); err != nil {
			t.Fatal(err)
		}
		// Danese from the standings 1, 3, 4, 2: 1 v 3, 4 v 2.
		if _, err := ops.CreateRound(ctx, clubP, tr.ID, app.RoundInput{Number: 2, Phase: "danese",
			Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "3"}, {Table: 2, NS: "4", EO: "2"}}}); err != nil {
			t.Fatal(err)
		}
	}
	return refereeWorld{ops: ops, tid: tr.ID}
}
