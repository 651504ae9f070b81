package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// UI.md §9, RULES §12.5: the round page of a team tournament groups the
// two tables of a match under [data-match]; a table's line-up form has
// ns.0, ns.1, eo.0, eo.1 and saves through the line-up operation; a player
// of the other team is refused naming the field (FITAB art. 2.2).
func TestLineupPageFITABArt2_2(t *testing.T) {
	db := dbtest.SQLite(t)
	ctx := context.Background()
	db.CreateClub(ctx, domain.Club{ID: "bc-roma", Name: "BC Roma"})
	if _, err := db.CreatePerson(ctx, "club", domain.RoleClub, "bc-roma", "segreta-123"); err != nil {
		t.Fatal(err)
	}
	tr, err := db.CreateTournament(ctx, domain.Tournament{Name: "Squadre", Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), ClubID: "bc-roma",
		Level: domain.LevelClub, Ruleset: domain.FITAB2025, Kind: domain.KindTeams, RoundsPlanned: 3, HandsPerRound: 3})
	if err != nil {
		t.Fatal(err)
	}
	var es []domain.Entrant
	for i := 1; i <= 2; i++ {
		e := domain.Entrant{ID: fmt.Sprint(i), Team: fmt.Sprintf("Squadra %d", i)}
		for p := 1; p <= 4; p++ {
			e.Players = append(e.Players, domain.Player{Name: fmt.Sprintf("G %d-%d", i, p), Membership: fmt.Sprintf("FT%d%02d", i, p)})
		}
		es = append(es, e)
	}
	if err := db.AddEntrants(ctx, tr.ID, es); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateRound(ctx, tr.ID, domain.Round{Number: 1, HandsPlanned: 3, Phase: domain.PhaseDanese,
		Tables: []domain.TableAssignment{{Table: 1, Match: 1, NS: "1", EO: "2"}, {Table: 2, Match: 1, NS: "2", EO: "1"}}}); err != nil {
		t.Fatal(err)
	}
	srv := newSiteServer(t, db, false)
	jar, _ := cookiejar.New(nil)
	client := noRedirect(jar)
	signInHTTP(t, srv, client, "club", "segreta-123")
	get := func(path string) (int, string) {
		resp, err := client.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, body(t, resp)
	}
	base := "/tournaments/" + tr.ID + "/rounds/1"
	if code, page := get(base); code != http.StatusOK || strings.Count(page, `data-match="1"`) != 1 || !strings.Contains(page, base+"/tables/2/lineup") {
		t.Errorf("round page: %d, data-match groups %d, line-up link %v", code, strings.Count(page, `data-match="1"`), strings.Contains(page, base+"/tables/2/lineup"))
	}
	code, page := get(base + "/tables/1/lineup")
	for _, f := range []string{"ns.0", "ns.1", "eo.0", "eo.1"} {
		if !strings.Contains(page, `name="`+f+`"`) {
			t.Errorf("line-up form (%d) lacks %s", code, f)
		}
	}
	post := func(v url.Values) (int, string) {
		resp, err := client.PostForm(srv.URL+base+"/tables/1/lineup", v)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, body(t, resp)
	}
	if code, page := post(url.Values{"ns.0": {"FT101"}, "ns.1": {"FT102"}, "eo.0": {"FT201"}, "eo.1": {"FT102"}}); code != http.StatusUnprocessableEntity ||
		!strings.Contains(page, `id="l-eo.1-error"`) {
		t.Errorf("a player of the other team: %d, field error shown %v", code, strings.Contains(page, `id="l-eo.1-error"`))
	}
	if code, _ := post(url.Values{"ns.0": {"FT101"}, "ns.1": {"FT102"}, "eo.0": {"FT201"}, "eo.1": {"FT202"}}); code != http.StatusSeeOther {
		t.Errorf("a valid line-up: %d, want 303", code)
	}
	if ls, err := db.ListLineups(ctx, tr.ID, 1); err != nil || len(ls) != 1 || ls[0].EO[1] != "FT202" {
		t.Errorf("stored line-ups: %+v %v", ls, err)
	}
}
