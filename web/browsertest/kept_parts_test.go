package browsertest

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// The parts of pages rendered once and kept (the entrants' rows, the
// first seating proposal of rounds/new, the review queue's items) follow
// every change of what they show: an entrant added shows in the list and
// in the next proposal; a sheet replaced by one with a wrong hand total
// (FITAB art. 20) shows that finding in its queue item.
func TestKeptPartsFollowEveryChange(t *testing.T) {
	site, c, tid, get := keptWorld(t)
	base := "/tournaments/" + tid
	seatRows := func() int { return strings.Count(get(base+"/rounds/new"), "data-seat-row=") }
	// The findings of table 1's item in the queue.
	item1 := regexp.MustCompile(`(?s)data-table="1" data-worst="[a-z]+">(.*?)</article>`)
	mismatch := func() bool {
		t.Helper()
		m := item1.FindStringSubmatch(get(base + "/review"))
		return m != nil && strings.Contains(m[1], `data-code="HAND_TOTAL_MISMATCH"`)
	}

	if strings.Contains(get(base+"/entrants"), `data-entrant="5"`) {
		t.Fatal("entrant 5 listed before it is added")
	}
	before := seatRows()
	if mismatch() {
		t.Fatal("table 1's hand total mismatch in the queue before its sheet has one")
	}
	for _, id := range []string{"5", "6"} {
		st, _ := c.Post(base+"/entrants", url.Values{"id": {id}, "pair": {"1"},
			"p1_name": {"Nuovo " + id + "A"}, "p1_membership": {"FT90000" + id},
			"p2_name": {"Nuovo " + id + "B"}, "p2_membership": {"FT91000" + id}})
		if st != 303 {
			t.Fatalf("add entrant %s: %d", id, st)
		}
	}
	if !strings.Contains(get(base+"/entrants"), `data-entrant="5"`) {
		t.Error("entrant 5 added but not listed")
	}
	if after := seatRows(); after != before+1 {
		t.Errorf("rounds/new: %d seating rows after two more entrants, want %d", after, before+1)
	}

	p := app.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "bc-roma"}
	wrong := []domain.Hand{{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 235, Total: domain.Int(600)}, {Base: 100, Points: -120}}}}
	if _, err := webtest.PutSheet(site.App, context.Background(), p, tid, 1, 1, webtest.SheetOf(wrong, [2]domain.WrittenResult{}), 1); err != nil {
		t.Fatal(err)
	}
	if !mismatch() {
		t.Error("table 1's sheet replaced by one with a wrong hand total, and the queue does not say so")
	}
}

// TestKeptPrintPartsFollowEveryChange: the round's print page keeps its
// seating lists and blank sheets rendered; a renamed player is printed
// with the new name at once, codes issued again print the new codes, and
// the English page is English (each language has its own).
func TestKeptPrintPartsFollowEveryChange(t *testing.T) {
	site, c, tid, get := keptWorld(t)
	print := "/tournaments/" + tid + "/rounds/1/print"
	shorts := regexp.MustCompile(`data-short="([^"]+)"`)

	get(print) // the first opening issues the tables' codes, and says so
	first := get(print)
	if get(print) != first {
		t.Fatal("two views of an unchanged round differ")
	}
	codes := shorts.FindAllStringSubmatch(first, -1)
	if len(codes) != 2 {
		t.Fatalf("%d printed codes, want one per table (2)", len(codes))
	}
	p := app.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "bc-roma"}
	es, err := site.App.Entrants(context.Background(), p, tid)
	if err != nil {
		t.Fatal(err)
	}
	players := append([]domain.Player(nil), es[0].Players...)
	old := players[0].Name
	if !strings.Contains(first, old) {
		t.Fatalf("%q not printed", old)
	}
	players[0].Name = "Zanardelli Ottavia"
	if _, err := site.App.EditEntrant(context.Background(), p, tid, es[0].ID, app.EntrantPatch{Players: &players}); err != nil {
		t.Fatal(err)
	}
	renamed := get(print)
	if n := strings.Count(renamed, "Zanardelli Ottavia"); n < 3 {
		t.Errorf("the new name is printed %d times, want it in the seating by table, by player and on the sheet", n)
	}
	if strings.Contains(renamed, old) {
		t.Errorf("the old name %q is still printed", old)
	}

	if st, _ := c.Post(print, url.Values{"confirmed": {"yes"}}); st != 200 {
		t.Fatalf("issue the codes again: %d", st)
	}
	again := shorts.FindAllStringSubmatch(get(print), -1)
	if len(again) != 2 || again[0][1] == codes[0][1] || again[1][1] == codes[1][1] {
		t.Errorf("codes issued again, printed %v (before %v)", again, codes)
	}

	en := get(print + "?lang=en")
	it := get(print + "?lang=it")
	for _, w := range []struct{ page, has, hasNot string }{
		{en, "Seating in alphabetical order", "Disposizione in ordine alfabetico"},
		{en, "Signature NS", "Firma NS"},
		{it, "Disposizione in ordine alfabetico", "Seating in alphabetical order"},
		{it, "Firma NS", "Signature NS"},
	} {
		if !strings.Contains(w.page, w.has) || strings.Contains(w.page, w.hasNot) {
			t.Errorf("a print page without %q or with %q: each language keeps its own parts", w.has, w.hasNot)
		}
	}
}

// keptWorld is a two-table evening on the embedded database with its
// secretary signed in: the site, her client, the tournament, and a GET
// that fails the test on anything but 200.
func keptWorld(t *testing.T) (*webtest.Site, *webtest.PageClient, string, func(string) string) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	tid := webtest.SeedBigTournament(t, db, 2)
	c := webtest.SignInClient(t, site, "segreteria", pw)
	get := func(path string) string {
		t.Helper()
		st, body := c.Get(path)
		if st != 200 {
			t.Fatalf("GET %s: %d", path, st)
		}
		return body
	}
	return site, c, tid, get
}
