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

func TestMain(m *testing.M) { dbtest.Main(m) }

// fixture is a database with two clubs, a regional tournament and a club
// tournament of the first, each with a round 1 and the referee "Ref Uno".
type fixture struct {
	app               *app.App
	regional, clubLvl string
	who               map[string]app.Principal
}

func newFixture(t *testing.T, db *store.DB) fixture {
	t.Helper()
	ctx := context.Background()
	for _, c := range []domain.Club{{ID: "c1", Name: "Uno"}, {ID: "c2", Name: "Due"}} {
		if _, err := db.CreateClub(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	f := fixture{app: app.New(db, nil, nil), who: map[string]app.Principal{
		"admin":           {Role: domain.RoleAdmin, Name: "root"},
		"federation":      {Role: domain.RoleFederation, Name: "FITAB"},
		"own club":        {Role: domain.RoleClub, Name: "Segreteria", ClubID: "c1"},
		"other club":      {Role: domain.RoleClub, Name: "Segreteria", ClubID: "c2"},
		"clubless club":   {Role: domain.RoleClub, Name: "Nessuno"},
		"its referee":     {Role: domain.RoleReferee, Name: "Ref Uno"},
		"another referee": {Role: domain.RoleReferee, Name: "Ref Due"},
	}}
	own := f.who["own club"]
	for _, level := range []string{"regional", "club"} {
		tr, err := f.app.CreateTournament(ctx, own, app.TournamentInput{Name: "Coppa " + level, Date: "2026-11-21", Level: level,
			Ruleset: "fitab-2025", Kind: "pairs", RoundsPlanned: 3, HandsPerRound: 3})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.app.AssignReferee(ctx, own, tr.ID, "Ref Uno"); err != nil {
			t.Fatal(err)
		}
		pair := func(id string) app.EntrantInput {
			return app.EntrantInput{ID: id, Players: []domain.Player{{Name: "A " + id}, {Name: "B " + id}}}
		}
		if _, err := f.app.AddEntrants(ctx, own, tr.ID, []app.EntrantInput{pair("1"), pair("2")}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.CreateRound(ctx, own, tr.ID, app.RoundInput{Number: 1, Phase: "mitchell",
			Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}}}); err != nil {
			t.Fatal(err)
		}
		if level == "club" {
			f.clubLvl = tr.ID
		} else {
			f.regional = tr.ID
		}
	}
	return f
}

// outcome names what an operation answered: ok, 404 (not found: the
// caller may not even know the tournament), 403 (forbidden) or other.
func outcome(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, domain.ErrNotFound):
		return "404"
	case errors.Is(err, app.ErrForbidden):
		return "403"
	}
	return err.Error()
}

// TestAccessRules is the table of API §4's roles × the kinds of operation
// on a tournament: read, manage (entrants, rounds, sheets, referees),
// judge (round states, corrections, adjustments). Another club's
// tournament and one a referee is not assigned to are 404, as if they did
// not exist; the federation reads everything and changes nothing; an
// admin does everything; at club level the organising club judges too.
func TestAccessRules(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		ops := map[string]func(p app.Principal, tid string) error{
			"read": func(p app.Principal, tid string) error {
				_, err := f.app.Tournament(ctx, p, tid)
				return err
			},
			"read rounds": func(p app.Principal, tid string) error {
				_, err := f.app.Rounds(ctx, p, tid)
				return err
			},
			"manage: assign a referee": func(p app.Principal, tid string) error {
				return f.app.AssignReferee(ctx, p, tid, "Ref Tre")
			},
			"manage: put a sheet": func(p app.Principal, tid string) error {
				_, err := putSheet(f.app, ctx, p, tid, 1, 1, func(g app.SheetTarget) (domain.Sheet, error) { return g.EmptySheet(), nil }, 0)
				return err
			},
			"judge: set a round state": func(p app.Principal, tid string) error {
				_, err := f.app.SetRoundState(ctx, p, tid, 1, "playing") // the same state: changes nothing
				return err
			},
		}
		// want[operation][caller] for the regional tournament, then the
		// club-level one.
		type row map[string]string
		read := row{"admin": "ok", "federation": "ok", "own club": "ok", "other club": "404", "clubless club": "404", "its referee": "ok", "another referee": "404"}
		manage := row{"admin": "ok", "federation": "403", "own club": "ok", "other club": "404", "clubless club": "404", "its referee": "403", "another referee": "404"}
		judge := row{"admin": "ok", "federation": "403", "own club": "403", "other club": "404", "clubless club": "404", "its referee": "ok", "another referee": "404"}
		judgeClub := row{"admin": "ok", "federation": "403", "own club": "ok", "other club": "404", "clubless club": "404", "its referee": "ok", "another referee": "404"}
		for _, tc := range []struct {
			tid  string
			op   string
			want row
		}{
			{f.regional, "read", read}, {f.regional, "read rounds", read},
			{f.regional, "manage: assign a referee", manage}, {f.regional, "manage: put a sheet", manage},
			{f.regional, "judge: set a round state", judge},
			{f.clubLvl, "read", read}, {f.clubLvl, "manage: put a sheet", manage},
			{f.clubLvl, "judge: set a round state", judgeClub},
		} {
			for who, want := range tc.want {
				if got := outcome(ops[tc.op](f.who[who], tc.tid)); got != want {
					t.Errorf("%s on %s by %s: %s, want %s", tc.op, tc.tid, who, got, want)
				}
			}
		}
		// A tournament that does not exist answers as one the caller may not see.
		for _, tid := range []string{"t_none", "", "a/b"} {
			if got := outcome(f.app.AssignReferee(ctx, f.who["admin"], tid, "X")); got != "404" {
				t.Errorf("missing tournament %q: %s", tid, got)
			}
		}
	})
}

// TestListTournamentsByRole: each caller lists exactly what it may read.
func TestListTournamentsByRole(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		for who, want := range map[string]int{"admin": 2, "federation": 2, "own club": 2, "other club": 0, "clubless club": 0, "its referee": 2, "another referee": 0} {
			ts, err := f.app.ListTournaments(context.Background(), f.who[who])
			if err != nil || len(ts) != want {
				t.Errorf("%s lists %d tournaments (%v), want %d", who, len(ts), err, want)
			}
		}
		// A page's view of one tournament: its entrants, rounds and
		// referees, and what the caller may do.
		d, err := f.app.TournamentDetail(context.Background(), f.who["its referee"], f.regional)
		if err != nil || len(d.Entrants) != 2 || len(d.Rounds) != 1 || len(d.Referees) != 1 || d.Referees[0] != "Ref Uno" ||
			d.Access.Manage() || !d.Access.Judge(d.Tournament) {
			t.Errorf("detail: %+v, %v", d, err)
		}
		if _, err := f.app.TournamentDetail(context.Background(), f.who["other club"], f.regional); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("detail for another club: %v", err)
		}
	})
}

// TestCreateTournamentRoles: a club creates for itself only, an admin or
// the federation names the club, a referee creates nothing.
func TestCreateTournamentRoles(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		in := func(club *string) app.TournamentInput {
			return app.TournamentInput{Name: "Nuovo", Date: "2026-12-01", Level: "club", Ruleset: "fitab-2025", RoundsPlanned: 3, HandsPerRound: 3, Club: club}
		}
		c1, c2 := "c1", "c2"
		for _, tc := range []struct {
			who  string
			club *string
			want string
		}{
			{"own club", nil, "ok"}, {"own club", &c1, "ok"}, {"own club", &c2, "403"},
			{"admin", &c2, "ok"}, {"federation", &c1, "ok"},
			{"its referee", &c1, "403"},
		} {
			if got := outcome2(f.app.CreateTournament(ctx, f.who[tc.who], in(tc.club))); got != tc.want {
				t.Errorf("%s creates for %v: %s, want %s", tc.who, tc.club, got, tc.want)
			}
		}
		// An admin must name an existing club: a 422 naming /club.
		_, err := f.app.CreateTournament(ctx, f.who["admin"], in(nil))
		var ae *app.Error
		if !errors.As(err, &ae) || !errors.Is(err, domain.ErrInvalid) || len(ae.Fields) != 1 || ae.Fields[0].Pointer != "/club" {
			t.Errorf("admin without club: %v", err)
		}
	})
}

func outcome2(_ domain.Tournament, err error) string { return outcome(err) }
