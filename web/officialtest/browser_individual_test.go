package officialtest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// An individual tournament in the pages (RULES §11): the
// "genera turno" page draws round 1 (four players a table, two a line) and
// shows the two players of each line; the round is published and its
// sheets entered; the standings are per player; the manual seating form
// takes two players a line. PostgreSQL. Run alone:
// go test ./web -run TestBrowserIndividualRound
func TestBrowserIndividualRound(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.Postgres(t))
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	ctx0 := context.Background()
	tr, err := site.Store.CreateTournament(ctx0, domain.Tournament{Name: "Individuale d'autunno", Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC),
		ClubID: "bc-roma", Level: domain.LevelClub, Ruleset: domain.FITAB2025, Kind: domain.KindIndividual, RoundsPlanned: 5, HandsPerRound: 3})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Rossi Anna", "Bianchi Luca", "Greco Sara", "De Luca Ugo", "Longo Rita", "Fontana Piero", "Conti Elena", "Marino Carlo", "Ricci Bruna", "Gallo Dario"}
	var es []domain.Entrant
	for i, n := range names {
		es = append(es, domain.Entrant{ID: fmt.Sprint(i + 1), Players: []domain.Player{{Name: n}}})
	}
	if err := site.Store.AddEntrants(ctx0, tr.ID, es); err != nil {
		t.Fatal(err)
	}
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "segreteria", pw)
	base := site.URL + "/tournaments/" + tr.ID
	webtest.Run(t, ctx, chromedp.Navigate(base+"/rounds/generate"), chromedp.WaitVisible(chromedp.CSS(`form[data-form="generate"]`)))
	if n := webtest.Count(t, ctx, `select[name="system"] option`); n != 2 {
		t.Errorf("%d systems offered for an individual tournament, want entry_order and draw", n)
	}
	webtest.Run(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-action="generate"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-proposed-round="1"]`)),
	)
	if n := webtest.Count(t, ctx, `[data-proposed-round="1"] tr[data-table]`); n != 2 {
		t.Fatalf("preview has %d tables, want 2 (8 players seated, 2 rest)", n)
	}
	ns := webtest.Attr(t, ctx, `[data-proposed-round="1"] tr[data-table="1"]`, "data-ns")
	if len(strings.Fields(ns)) != 2 {
		t.Errorf("table 1 NS is %q, want two players", ns)
	}
	if cell := webtest.Text(t, ctx, `[data-proposed-round="1"] tr[data-table="1"] td:nth-child(2)`); strings.Count(cell, "–") != 1 {
		t.Errorf("table 1 NS shows %q, want two players joined by –", cell)
	}
	webtest.Screenshot(t, ctx, "individual-preview")
	webtest.CheckA11y(t, ctx)
	webtest.Run(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-action="publish"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-message="pairing.published"]`)),
	)
	r1, err := site.Store.GetRound(ctx0, tr.ID, 1)
	if err != nil || len(r1.Tables) != 2 || r1.Tables[0].NS2 == "" || r1.Tables[0].EO2 == "" || len(r1.Byes) != 2 {
		t.Fatalf("published round 1: %+v, %v", r1, err)
	}

	// The round page shows the lines' players; the sheets are entered.
	webtest.Run(t, ctx, chromedp.Navigate(base+"/rounds/1"), chromedp.WaitVisible(chromedp.CSS(`tr[data-table="1"]`)))
	// "3 Rossi – 11 Bianchi": both players, numbers and names.
	nameOf := func(id string) string { n, _ := strconv.Atoi(id); return names[n-1] }
	if cell, want := webtest.Text(t, ctx, `tr[data-table="1"] td:nth-of-type(1)`), r1.Tables[0].NS+" "+nameOf(r1.Tables[0].NS)+" – "+r1.Tables[0].NS2+" "+nameOf(r1.Tables[0].NS2); cell != want {
		t.Errorf("round page NS of table 1: %q, want %q", cell, want)
	}
	webtest.Screenshot(t, ctx, "individual-round")
	webtest.EnterSheet(t, ctx, base, 1, 1, 1)
	if line := webtest.Text(t, ctx, `[data-line="eo"]`); !strings.Contains(line, nameOf(r1.Tables[0].EO2)) {
		t.Errorf("sheet page EO line %q does not name player %s", line, r1.Tables[0].EO2)
	}
	webtest.Screenshot(t, ctx, "individual-sheet")
	webtest.CheckA11y(t, ctx)
	webtest.EnterSheet(t, ctx, base, 1, 2, 2)

	// Standings per player: both players of a line share its VP.
	webtest.Run(t, ctx, chromedp.Navigate(base+"/standings"), chromedp.WaitVisible(chromedp.CSS(`tr[data-entrant]`)))
	if n := webtest.Count(t, ctx, `tr[data-entrant]`); n != 10 {
		t.Errorf("standings list %d rows, want one per player (10)", n)
	}
	vp := func(id string) string { return webtest.Text(t, ctx, `tr[data-entrant="`+id+`"] [data-col="vp"]`) }
	tb := r1.Tables[0]
	if a, b := vp(tb.NS), vp(tb.NS2); a == "" || a != b {
		t.Errorf("partners %s and %s: %q and %q VP, want the same", tb.NS, tb.NS2, a, b)
	}
	webtest.Screenshot(t, ctx, "individual-standings")

	// The public pages (UI.md §7): the round's lines and a player's card
	// name both players of a line.
	if err := site.Store.SetTournamentPublic(ctx0, tr.ID, true); err != nil {
		t.Fatal(err)
	}
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/p/"+tr.ID+"/rounds/1"), chromedp.WaitVisible(chromedp.CSS(`body`)))
	if page := webtest.Text(t, ctx, `main`); !strings.Contains(page, nameOf(tb.NS2)) || !strings.Contains(page, nameOf(tb.EO2)) {
		t.Errorf("public round page does not name the second players: %q", page)
	}
	webtest.Screenshot(t, ctx, "individual-public-round")
	webtest.CheckA11y(t, ctx)
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/p/"+tr.ID+"/entrants/"+tb.NS), chromedp.WaitVisible(chromedp.CSS(`body`)))
	if page := webtest.Text(t, ctx, `main`); !strings.Contains(page, nameOf(tb.EO)) || !strings.Contains(page, nameOf(tb.EO2)) {
		t.Errorf("public card of %s does not name both opponents: %q", tb.NS, page)
	}

	// The manual seating form: two fields a line.
	webtest.Run(t, ctx, chromedp.Navigate(base+"/rounds/new"), chromedp.WaitVisible(chromedp.CSS(`[data-action="create-round"]`)))
	if webtest.Count(t, ctx, `#tables-0-ns2`) != 1 || webtest.Count(t, ctx, `#tables-0-eo2`) != 1 {
		t.Fatal("the seating form has no second player of a line")
	}
	webtest.Screenshot(t, ctx, "individual-seating")
	webtest.CheckA11y(t, ctx)
	webtest.SetValue(t, ctx, `[name="phase"]`, "danese")
	webtest.SetValue(t, ctx, `#tables-0-ns2`, webtest.FieldValue(t, ctx, `#tables-0-ns`)) // partners: the same player
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="create-round"]`)), chromedp.WaitVisible(chromedp.CSS(`#tables-0-ns2[aria-invalid="true"]`)))
	webtest.Screenshot(t, ctx, "individual-seating-refused")
	if _, err := site.Store.GetRound(ctx0, tr.ID, 2); err == nil {
		t.Error("a round seating a player twice was stored")
	}
}
