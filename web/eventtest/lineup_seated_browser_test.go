package eventtest

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// RULES §12.5 (FITAB art. 2.2: a team chooses its pairs before each match)
// and §12.4 (the substitute plays under the same entrant; "sheets, pages
// and exports name the players of that round"): the round page shows,
// under each team line of a match, the players its line-up seats there —
// the substitute by name — and the table's sheet page names them too. A
// line without a line-up yet names nobody. SQLite, Chromium.
func TestBrowserRoundAndSheetNameWhoSat(t *testing.T) {
	t.Parallel()
	w := newClubWorld(t, dbtest.SQLite(t), "Campionato a squadre", domain.KindTeams, 3, teamEntrants(2))
	bg, ops, admin, site, pw, tr := context.Background(), w.ops, w.admin, w.site, w.pw, struct{ ID string }{w.tid}
	if _, err := ops.CreateRound(bg, admin, tr.ID, app.RoundInput{Number: 1, Tables: []domain.TableAssignment{
		{Table: 1, Match: 1, NS: "1", EO: "2"}, {Table: 2, Match: 1, NS: "2", EO: "1"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.Substitute(bg, admin, tr.ID, "1", domain.Substitution{FromRound: 1, Out: "FT102", In: domain.Player{Name: "Riserva Rosa", Membership: "FT109"}, Reason: "malattia"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.SetLineup(bg, admin, tr.ID, 1, domain.Lineup{Table: 1, NS: []string{"FT101", "FT109"}, EO: []string{"FT201", "FT202"}}); err != nil {
		t.Fatal(err)
	}

	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "segreteria", pw)
	base := site.URL + "/tournaments/" + tr.ID
	webtest.Run(t, ctx, chromedp.Navigate(base+"/rounds/1"), chromedp.WaitVisible(chromedp.CSS(`[data-match="1"]`)))
	for sel, want := range map[string]string{
		`[data-table="1"] [data-seated="ns"]`: "Giocatore 1-1 – Riserva Rosa",
		`[data-table="1"] [data-seated="eo"]`: "Giocatore 2-1 – Giocatore 2-2",
	} {
		if got := webtest.Text(t, ctx, sel); got != want {
			t.Errorf("round page %s: %q, want %q", sel, got, want)
		}
	}
	if n := webtest.Count(t, ctx, `[data-table="2"] [data-seated]`); n != 0 {
		t.Errorf("table 2 has no line-up yet, yet the page names %d lines", n)
	}
	webtest.Screenshot(t, ctx, "round-team-lineups")
	webtest.CheckA11y(t, ctx)

	webtest.Run(t, ctx, chromedp.Navigate(base+"/rounds/1/tables/1"), chromedp.WaitVisible(chromedp.CSS(`[data-line="ns"]`)))
	if got := webtest.Text(t, ctx, `[data-seated="ns"]`); !strings.Contains(got, "Giocatore 1-1 – Riserva Rosa") {
		t.Errorf("sheet page NS players %q", got)
	}
	webtest.Screenshot(t, ctx, "sheet-team-lineup")
}
