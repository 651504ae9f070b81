package browsertest

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"path"
	"segnapunti/web/webtest"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// UI.md §9, RULES §12.1: the new-tournament form announces the plan
// (plan.first_round, plan.phases.N.system, plan.phases.N.from_round,
// plan.sessions); a plan that breaks FITAB art. 2 is refused naming its
// field, in the reader's language.
func TestNewTournamentPlanFields(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	c := webtest.SignedInClient(t, site, "segreteria", pw)
	resp, err := c.Get(site.URL + "/tournaments/new")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, name := range []string{"plan.first_round", "plan.phases.0.system", "plan.phases.0.from_round", "plan.phases.2.system", "plan.sessions"} {
		if !strings.Contains(string(body), `name="`+name+`"`) {
			t.Errorf("the form has no field %s", name)
		}
	}
	form := url.Values{"name": {"Due giorni"}, "date": {"2026-11-28"}, "level": {"club"}, "ruleset": {"fitab-2025"}, "kind": {"pairs"},
		"rounds_planned": {"5"}, "hands_per_round": {"3"}, "plan.first_round": {"draw"},
		"plan.phases.0.system": {"mitchell"}, "plan.phases.0.from_round": {"1"},
		"plan.phases.1.system": {"danese"}, "plan.phases.1.from_round": {"4"}, "plan.sessions": {"3, 2"}}
	// Sessions that do not add up to the rounds planned: refused, named.
	bad := url.Values{}
	for k, v := range form {
		bad[k] = v
	}
	bad.Set("plan.sessions", "3,3")
	resp, err = c.PostForm(site.URL+"/tournaments/new", bad)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), `id="plan.sessions-error"`) ||
		!strings.Contains(string(body), "la somma è il numero di turni previsti") {
		t.Errorf("sessions 3,3 of 5 rounds: status %d, the field not named in Italian", resp.StatusCode)
	}
	resp, err = c.PostForm(site.URL+"/tournaments/new", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	tr, err := db.GetTournament(context.Background(), path.Base(resp.Request.URL.Path))
	if err != nil {
		t.Fatal(err)
	}
	p := tr.Plan
	if p.FirstRound != domain.SystemDraw || len(p.Phases) != 2 || p.Phases[1].System != domain.SystemDanese || p.Phases[1].FromRound != 4 ||
		len(p.Sessions) != 2 || p.Sessions[0] != 3 || p.Sessions[1] != 2 {
		t.Errorf("stored plan %+v", p)
	}
}
