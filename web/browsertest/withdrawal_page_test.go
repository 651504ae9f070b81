package browsertest

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"segnapunti/web/webtest"
	"strings"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// UI.md §9, RULES §12.3: the entrant's page has the withdrawal form
// (withdrawn_from_round, reason); once recorded the entrant's standings
// row carries data-withdrawn="true".
func TestEntrantPageWithdrawal(t *testing.T) {
	t.Parallel()
	var ins []app.EntrantInput
	for _, id := range []string{"1", "2", "3", "4"} {
		ins = append(ins, app.EntrantInput{ID: id, Players: []domain.Player{{Name: "A" + id}, {Name: "B" + id}}})
	}
	db, c, base, tid, ops, p := entrantPageWorld(t, "Ritiri", "fitab-2025", "3", ins)
	get := func(u string) (int, string) {
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := get(base + "/entrants/3")
	if code != http.StatusOK || !strings.Contains(body, `name="withdrawn_from_round"`) || !strings.Contains(body, `name="reason"`) {
		t.Fatalf("entrant page: %d, no withdrawal form", code)
	}
	// A round beyond the plan: refused, named.
	resp, err := c.PostForm(base+"/entrants/3/withdrawal", url.Values{"withdrawn_from_round": {"7"}, "reason": {"malore"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(b), `id="withdrawn_from_round-error"`) {
		t.Errorf("round 7 of 3: %d", resp.StatusCode)
	}
	resp, err = c.PostForm(base+"/entrants/3/withdrawal", url.Values{"withdrawn_from_round": {"2"}, "reason": {"malore"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `data-withdrawn-from="2"`) {
		t.Errorf("after withdrawing: %d", resp.StatusCode)
	}
	es, err := db.ListEntrants(context.Background(), tid)
	if err != nil {
		t.Fatal(err)
	}
	if w := es[2].WithdrawnFromRound; es[2].ID != "3" || w == nil || *w != 2 || es[2].WithdrawnReason != "malore" {
		t.Errorf("stored entrant %+v", es[2])
	}
	// The standings mark it (one round played, so there are standings).
	if _, err := ops.CreateRound(context.Background(), p, tid, app.RoundInput{Number: 1, Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}, {Table: 2, NS: "3", EO: "4"}}}); err != nil {
		t.Fatal(err)
	}
	// RULES §12.2: the round cannot be delivered without its sheets; the
	// page names the tables.
	resp, err = c.PostForm(base+"/rounds/1/state", url.Values{"state": {"sheets_delivered"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict || !strings.Contains(string(b), "mancano gli score dei tavoli 1, 2") {
		t.Errorf("delivering round 1 without sheets: %d, tables not named", resp.StatusCode)
	}
	_, body = get(base + "/standings")
	if !strings.Contains(body, `<tr data-entrant="3" data-withdrawn="true">`) || strings.Contains(body, `<tr data-entrant="1" data-withdrawn`) {
		t.Errorf("standings rows: withdrawn 3 not marked, or another marked")
	}
	// FITAB art. 39: interrupted before any round was completed, the
	// tournament is void and its page says so.
	if _, _, err := ops.InterruptTournament(context.Background(), p, tid, 0, "neve"); err != nil {
		t.Fatal(err)
	}
	_, body = get(base)
	if !strings.Contains(body, `data-interrupted-after="0" data-void="true"`) || !strings.Contains(body, "Torneo annullato") {
		t.Errorf("the tournament page does not say the tournament is void")
	}
	_, body = get(base + "/standings")
	if !strings.Contains(body, `data-void="true"`) || !strings.Contains(body, "nessuna classifica finale") {
		t.Errorf("the standings page does not say the tournament is void")
	}
}

// UI.md §9, RULES §12.4: the entrant's page has the substitution form
// (from_round, out, in.name, in.membership, reason); FIBur-INT art. 33's
// limit is named on the form.
func TestEntrantPageSubstitution(t *testing.T) {
	t.Parallel()
	_, c, base, _, _, _ := entrantPageWorld(t, "Sostituzioni", "fibur-ita", "4", []app.EntrantInput{
		{ID: "1", Players: []domain.Player{{Name: "Rossi", Membership: "FT11"}, {Name: "Bianchi", Membership: "FT12"}}},
		{ID: "2", Players: []domain.Player{{Name: "Verdi", Membership: "FT21"}, {Name: "Neri", Membership: "FT22"}}},
	})
	post := func(v url.Values) (int, string) {
		resp, err := c.PostForm(base+"/entrants/1/substitutions", v)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	form := url.Values{"from_round": {"4"}, "out": {"FT12"}, "in.name": {"Sostituto Sara"}, "in.membership": {"FT99"}, "reason": {"malore"}}
	code, body := post(form)
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, `id="from_round-error"`) || !strings.Contains(body, "FIBur-INT art. 33") {
		t.Errorf("round 4 of 4 under FIBur: %d, the limit not named", code)
	}
	form.Set("from_round", "3")
	code, body = post(form)
	if code != http.StatusOK || !strings.Contains(body, `data-substitution="3-FT12"`) {
		t.Errorf("round 3 of 4: %d, the substitution not listed", code)
	}
}

// entrantPageWorld is a club secretary signed in over HTTP, a tournament
// made through the new-tournament form (ruleset, rounds planned, 3 hands)
// and its entrants: the store, the client, the tournament's page and id,
// and the operations with an admin to change it behind the pages.
func entrantPageWorld(t *testing.T, name, ruleset, rounds string, entrants []app.EntrantInput) (*store.DB, *http.Client, string, string, *app.App, app.Principal) {
	t.Helper()
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	c := webtest.SignedInClient(t, site, "segreteria", pw)
	resp, err := c.PostForm(site.URL+"/tournaments/new", url.Values{"name": {name}, "date": {"2026-11-28"}, "level": {"club"}, "ruleset": {ruleset}, "kind": {"pairs"}, "rounds_planned": {rounds}, "hands_per_round": {"3"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ops := app.New(db, nil, nil)
	admin := app.Principal{Role: domain.RoleAdmin, Name: "admin"}
	tid := resp.Request.URL.Path[len("/tournaments/"):]
	if _, err := ops.AddEntrants(context.Background(), admin, tid, entrants); err != nil {
		t.Fatal(err)
	}
	return db, c, resp.Request.URL.String(), tid, ops, admin
}
