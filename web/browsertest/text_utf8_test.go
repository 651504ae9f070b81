package browsertest

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// Text from a form is valid UTF-8 or refused naming the field, on both
// databases alike (PostgreSQL refused such bytes itself; SQLite stored
// them and the CSV export wrote them out).
func TestFormsRefuseInvalidUTF8(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		site := webtest.StartSite(t, db)
		pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
		c := webtest.SignedInClient(t, site, "segreteria", pw)
		post := func(path string, form url.Values) (int, string) {
			res, err := c.PostForm(site.URL+path, form)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(b)
		}
		bad := "\xff\xfeabc"
		form := url.Values{"name": {bad}, "date": {"2026-11-26"}, "level": {"club"}, "ruleset": {"fitab-2025"}, "kind": {"pairs"}, "rounds_planned": {"2"}, "hands_per_round": {"3"}}
		code, page := post("/tournaments/new", form)
		if code != http.StatusUnprocessableEntity || !strings.Contains(page, "UTF-8") || !strings.Contains(page, `name="name"`) {
			t.Errorf("tournament name of invalid UTF-8: %d\n%s", code, page)
		}
		ts, err := db.ListTournaments(context.Background(), store.TournamentFilter{})
		if err != nil || len(ts) != 0 {
			t.Fatalf("stored %d tournaments (%v)", len(ts), err)
		}
		form.Set("name", "Coppa")
		res, err := c.PostForm(site.URL+"/tournaments/new", form)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		base := strings.TrimPrefix(res.Request.URL.Path, "")
		code, page = post(base+"/entrants", url.Values{"id": {"1"}, "p1_name": {"Rossi " + bad}, "p2_name": {"Bianchi Luca"}})
		if code != http.StatusUnprocessableEntity || !strings.Contains(page, "UTF-8") {
			t.Errorf("entrant name of invalid UTF-8: %d", code)
		}
	})
}

// The store's own net: a write with a string that is not UTF-8 is refused
// as invalid, naming the column, whatever door it came through.
func TestStoreRefusesInvalidUTF8(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		_, err := db.CreateClub(context.Background(), domain.Club{ID: "c1", Name: "Circolo \xff"})
		if err == nil || !strings.Contains(err.Error(), "UTF-8") {
			t.Fatalf("club with an invalid name: %v", err)
		}
		if clubs, _ := db.ListClubs(context.Background()); len(clubs) != 0 {
			t.Errorf("%d clubs stored", len(clubs))
		}
	})
}

// A sign-in name that is not text is nobody's: a wrong sign-in (401), on
// both databases — PostgreSQL refused to compare it and the page answered
// 500.
func TestSignInWithInvalidUTF8Name(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		site := webtest.StartSite(t, db)
		res, err := http.Post(site.URL+"/login", "application/x-www-form-urlencoded",
			strings.NewReader(url.Values{"username": {"\xff\xfe"}, "password": {"segreta-123"}}.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("sign-in with a name of invalid UTF-8: %d, want 401", res.StatusCode)
		}
	})
}
