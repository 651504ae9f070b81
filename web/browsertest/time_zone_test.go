package browsertest

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// Issue 22: a tournament's time zone is a field of the new-tournament form
// and of the tournament page (a zone the database does not know is refused
// next to its input); every time its pages show is on that zone's clock —
// here the sheet page's history, in Europe/London, an hour behind Rome.
func TestTimeZonePages_Issue22(t *testing.T) {
	t.Parallel()
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	c := webtest.SignInClient(t, site, "segreteria", pw)
	ctx := context.Background()

	if st, body := c.Get("/tournaments/new"); st != http.StatusOK || !strings.Contains(body, `name="time_zone"`) || !strings.Contains(body, `value="Europe/Rome"`) || !strings.Contains(body, "Fuso orario") {
		t.Fatalf("the new-tournament form (%d) has no time zone field set to Europe/Rome", st)
	}
	form := url.Values{"name": {"Torneo di Londra"}, "date": {"2026-11-26"}, "level": {"club"}, "ruleset": {"fitab-2025"}, "kind": {"pairs"},
		"rounds_planned": {"1"}, "hands_per_round": {"3"}, "time_zone": {"Europa/Roma"}}
	if st, body := c.Post("/tournaments/new", form); st != http.StatusUnprocessableEntity || !strings.Contains(body, `id="time_zone-error"`) || !strings.Contains(body, "Un fuso orario come Europe/Rome") {
		t.Errorf("an unknown zone: %d, not refused next to its input", st)
	}
	form.Set("time_zone", "America/New_York")
	if st, _ := c.Post("/tournaments/new", form); st != http.StatusSeeOther {
		t.Fatalf("create: %d", st)
	}
	ts, err := db.ListTournaments(ctx, store.TournamentFilter{ClubID: "bc-roma"})
	if err != nil || len(ts) != 1 || ts[0].Zone() != "America/New_York" {
		t.Fatalf("stored %+v, %v; want one tournament in America/New_York", ts, err)
	}
	tid := ts[0].ID
	if _, body := c.Get("/tournaments/" + tid); !strings.Contains(body, `data-time-zone="America/New_York"`) {
		t.Error("the tournament page does not show its time zone")
	}
	if st, body := c.Post("/tournaments/"+tid+"/time-zone", url.Values{"time_zone": {"Europe/Londra"}}); st != http.StatusUnprocessableEntity || !strings.Contains(body, "Un fuso orario come Europe/Rome") {
		t.Errorf("an unknown zone on the tournament page: %d", st)
	}
	if st, _ := c.Post("/tournaments/"+tid+"/time-zone", url.Values{"time_zone": {"Europe/London"}}); st != http.StatusSeeOther {
		t.Fatalf("set Europe/London: %d", st)
	}
	if tr, err := db.GetTournament(ctx, tid); err != nil || tr.Zone() != "Europe/London" {
		t.Fatalf("after the change: %q, %v", tr.Zone(), err)
	}

	// A sheet stored twice: the page lists the replaced version with its time.
	club := store.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "bc-roma"}
	if _, err := site.App.AddEntrants(ctx, club, tid, []app.EntrantInput{
		{ID: "1", Players: []domain.Player{{Name: "Rossi Anna"}, {Name: "Bianchi Luca"}}},
		{ID: "2", Players: []domain.Player{{Name: "Verdi Carla"}, {Name: "Neri Paolo"}}},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := site.App.CreateRound(ctx, club, tid, app.RoundInput{Number: 1, Phase: "mitchell", Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}}}); err != nil {
		t.Fatal(err)
	}
	hands := []domain.Hand{
		{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 235}, {Base: 100, Points: -120}}},
		{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 0, Points: -55}, {Base: 400, Points: 180}}},
		{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 350, Points: 120}, {Base: 200, Points: 65}}},
	}
	for i := 0; i < 2; i++ {
		if _, err := webtest.PutSheet(site.App, ctx, club, tid, 1, 1, webtest.SheetOf(hands, [2]domain.WrittenResult{}), 0); err != nil {
			t.Fatal(err)
		}
		hands[2].Lines[domain.EO].Points = 60
	}
	_, body := c.Get("/tournaments/" + tid + "/rounds/1/tables/1")
	times := regexp.MustCompile(`<time datetime="([^"]+)">([^<]+)</time>`).FindAllStringSubmatch(body, -1)
	if len(times) == 0 {
		t.Fatal("the sheet page shows no time")
	}
	london, _ := time.LoadLocation("Europe/London")
	for _, m := range times {
		at, err := time.Parse(time.RFC3339, m[1])
		if err != nil {
			t.Fatalf("datetime %q: %v", m[1], err)
		}
		if want := at.In(london).Format("02/01/2006 15:04"); m[2] != want {
			t.Errorf("%s shown as %q, want Europe/London's %q", m[1], m[2], want)
		}
	}
}
