package browsertest

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
)

// An individual tournament in the pages (issue 13 item 4, RULES §11): the
// "genera turno" page draws round 1 (four players a table, two a line) and
// shows the two players of each line; the round is published and its
// sheets entered; the standings are per player; the manual seating form
// takes two players a line. PostgreSQL. Run alone:
// go test ./web -run TestBrowserIndividualRound
func TestBrowserIndividualRound(t *testing.T) {
	t.Parallel()
	site := startSite(t, dbtest.Postgres(t))
	pw := site.createPerson(t, domain.RoleClub, "segreteria", "bc-roma")
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
	ctx := newBrowser(t)
	signIn(t, ctx, site, "segreteria", pw)
	base := site.URL + "/tournaments/" + tr.ID
	run(t, ctx, chromedp.Navigate(base+"/rounds/generate"), chromedp.WaitVisible(chromedp.CSS(`form[data-form="generate"]`)))
	if n := count(t, ctx, `select[name="system"] option`); n != 2 {
		t.Errorf("%d systems offered for an individual tournament, want entry_order and draw", n)
	}
	run(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-action="generate"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-proposed-round="1"]`)),
	)
	if n := count(t, ctx, `[data-proposed-round="1"] tr[data-table]`); n != 2 {
		t.Fatalf("preview has %d tables, want 2 (8 players seated, 2 rest)", n)
	}
	ns := attr(t, ctx, `[data-proposed-round="1"] tr[data-table="1"]`, "data-ns")
	if len(strings.Fields(ns)) != 2 {
		t.Errorf("table 1 NS is %q, want two players", ns)
	}
	if cell := text(t, ctx, `[data-proposed-round="1"] tr[data-table="1"] td:nth-child(2)`); strings.Count(cell, "–") != 1 {
		t.Errorf("table 1 NS shows %q, want two players joined by –", cell)
	}
	screenshot(t, ctx, "individual-preview")
	checkA11y(t, ctx)
	run(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-action="publish"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-message="pairing.published"]`)),
	)
	r1, err := site.Store.GetRound(ctx0, tr.ID, 1)
	if err != nil || len(r1.Tables) != 2 || r1.Tables[0].NS2 == "" || r1.Tables[0].EO2 == "" || len(r1.Byes) != 2 {
		t.Fatalf("published round 1: %+v, %v", r1, err)
	}

	// The round page shows the lines' players; the sheets are entered.
	run(t, ctx, chromedp.Navigate(base+"/rounds/1"), chromedp.WaitVisible(chromedp.CSS(`tr[data-table="1"]`)))
	// "3 Rossi – 11 Bianchi": both players, numbers and names.
	nameOf := func(id string) string { n, _ := strconv.Atoi(id); return names[n-1] }
	if cell, want := text(t, ctx, `tr[data-table="1"] td:nth-of-type(1)`), r1.Tables[0].NS+" "+nameOf(r1.Tables[0].NS)+" – "+r1.Tables[0].NS2+" "+nameOf(r1.Tables[0].NS2); cell != want {
		t.Errorf("round page NS of table 1: %q, want %q", cell, want)
	}
	screenshot(t, ctx, "individual-round")
	enterSheet(t, ctx, base, 1, 1, 1)
	if line := text(t, ctx, `[data-line="eo"]`); !strings.Contains(line, nameOf(r1.Tables[0].EO2)) {
		t.Errorf("sheet page EO line %q does not name player %s", line, r1.Tables[0].EO2)
	}
	screenshot(t, ctx, "individual-sheet")
	checkA11y(t, ctx)
	enterSheet(t, ctx, base, 1, 2, 2)

	// Standings per player: both players of a line share its VP.
	run(t, ctx, chromedp.Navigate(base+"/standings"), chromedp.WaitVisible(chromedp.CSS(`tr[data-entrant]`)))
	if n := count(t, ctx, `tr[data-entrant]`); n != 10 {
		t.Errorf("standings list %d rows, want one per player (10)", n)
	}
	vp := func(id string) string { return text(t, ctx, `tr[data-entrant="`+id+`"] [data-col="vp"]`) }
	tb := r1.Tables[0]
	if a, b := vp(tb.NS), vp(tb.NS2); a == "" || a != b {
		t.Errorf("partners %s and %s: %q and %q VP, want the same", tb.NS, tb.NS2, a, b)
	}
	screenshot(t, ctx, "individual-standings")

	// The public pages (UI.md §7): the round's lines and a player's card
	// name both players of a line.
	if err := site.Store.SetTournamentPublic(ctx0, tr.ID, true); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, chromedp.Navigate(site.URL+"/p/"+tr.ID+"/rounds/1"), chromedp.WaitVisible(chromedp.CSS(`body`)))
	if page := text(t, ctx, `main`); !strings.Contains(page, nameOf(tb.NS2)) || !strings.Contains(page, nameOf(tb.EO2)) {
		t.Errorf("public round page does not name the second players: %q", page)
	}
	screenshot(t, ctx, "individual-public-round")
	checkA11y(t, ctx)
	run(t, ctx, chromedp.Navigate(site.URL+"/p/"+tr.ID+"/entrants/"+tb.NS), chromedp.WaitVisible(chromedp.CSS(`body`)))
	if page := text(t, ctx, `main`); !strings.Contains(page, nameOf(tb.EO)) || !strings.Contains(page, nameOf(tb.EO2)) {
		t.Errorf("public card of %s does not name both opponents: %q", tb.NS, page)
	}

	// The manual seating form: two fields a line.
	run(t, ctx, chromedp.Navigate(base+"/rounds/new"), chromedp.WaitVisible(chromedp.CSS(`[data-action="create-round"]`)))
	if count(t, ctx, `#tables-0-ns2`) != 1 || count(t, ctx, `#tables-0-eo2`) != 1 {
		t.Fatal("the seating form has no second player of a line")
	}
	screenshot(t, ctx, "individual-seating")
	checkA11y(t, ctx)
	setValue(t, ctx, `[name="phase"]`, "danese")
	setValue(t, ctx, `#tables-0-ns2`, fieldValue(t, ctx, `#tables-0-ns`)) // partners: the same player
	run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="create-round"]`)), chromedp.WaitVisible(chromedp.CSS(`#tables-0-ns2[aria-invalid="true"]`)))
	screenshot(t, ctx, "individual-seating-refused")
	if _, err := site.Store.GetRound(ctx0, tr.ID, 2); err == nil {
		t.Error("a round seating a player twice was stored")
	}
}
