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
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	tid := webtest.SeedBigTournament(t, db, 2)
	c := webtest.SignInClient(t, site, "segreteria", pw)
	base := "/tournaments/" + tid
	get := func(path string) string {
		t.Helper()
		st, body := c.Get(path)
		if st != 200 {
			t.Fatalf("GET %s: %d", path, st)
		}
		return body
	}
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
