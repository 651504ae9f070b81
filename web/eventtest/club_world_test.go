package eventtest

import (
	"context"
	"fmt"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/web/webtest"
)

// clubWorld is a site with the club secretary "segreteria" of bc-roma
// and one of its tournaments, set up through the app operations: what the
// RULES §12 browser tests start from.
type clubWorld struct {
	site  *webtest.Site
	db    *store.DB
	ops   *app.App
	club  app.Principal
	admin app.Principal
	pw    string // segreteria's password
	tid   string
}

// newClubWorld creates the tournament (club level, fitab-2025, 3 hands)
// of kind with rounds planned, and enters entrants.
func newClubWorld(t *testing.T, db *store.DB, name string, kind domain.Kind, rounds int, entrants []app.EntrantInput) clubWorld {
	t.Helper()
	w := clubWorld{site: webtest.StartSite(t, db), db: db, ops: app.New(db, nil, nil),
		club: app.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "bc-roma"}, admin: app.Principal{Role: domain.RoleAdmin, Name: "admin"}}
	w.pw = w.site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	tr, err := w.ops.CreateTournament(context.Background(), w.club, app.TournamentInput{
		Name: name, Date: "2026-11-28", Level: "club", Ruleset: "fitab-2025", Kind: string(kind), RoundsPlanned: rounds, HandsPerRound: 3})
	if err != nil {
		t.Fatal(err)
	}
	w.tid = tr.ID
	if _, err := w.ops.AddEntrants(context.Background(), w.admin, w.tid, entrants); err != nil {
		t.Fatal(err)
	}
	return w
}

// pairEntrants are pairs with those ids: "Rossi <id>" and "Bianchi <id>".
func pairEntrants(ids ...string) []app.EntrantInput {
	var out []app.EntrantInput
	for _, id := range ids {
		out = append(out, app.EntrantInput{ID: id, Players: []domain.Player{{Name: "Rossi " + id}, {Name: "Bianchi " + id}}})
	}
	return out
}

// teamEntrants are teams 1..n, "Squadra <i>", of four players
// "Giocatore <i>-<k>", membership FT<i>0<k>.
func teamEntrants(n int) []app.EntrantInput {
	var out []app.EntrantInput
	for i := 1; i <= n; i++ {
		team := fmt.Sprintf("Squadra %d", i)
		var ps []domain.Player
		for k := 1; k <= 4; k++ {
			ps = append(ps, domain.Player{Name: fmt.Sprintf("Giocatore %d-%d", i, k), Membership: fmt.Sprintf("FT%d%02d", i, k)})
		}
		out = append(out, app.EntrantInput{ID: fmt.Sprint(i), Players: ps, Team: &team})
	}
	return out
}
