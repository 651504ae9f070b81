package eventtest

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// RULES §12.5: team standings where people look. Four teams, round 1 of
// two matches (tables 1–2: teams 1 and 2; tables 3–4: teams 3 and 4). At
// each match's first table the NS pair scores 3 × (300 + 200) = 1500 and
// the EO pair 3 × (100 + 150) = 750; at its second table the same scores
// go the other way round, so the team of the first table's NS line wins
// both tables: 3000 against 1500. The public standings name the column
// "Squadra" and show each team's matches won of those played — 1 and 3 won
// theirs, 2 and 4 lost; the venue screen shows the seating of the round
// with each table's match. Chromium, SQLite.
func TestBrowserTeamStandingsAndScreen(t *testing.T) {
	t.Parallel()
	w := newClubWorld(t, dbtest.SQLite(t), "Campionato a squadre", domain.KindTeams, 3, teamEntrants(4))
	bg, ops, p, site, tr := context.Background(), w.ops, w.club, w.site, struct{ ID string }{w.tid}
	if _, err := ops.CreateRound(bg, p, tr.ID, app.RoundInput{Number: 1, Tables: []domain.TableAssignment{
		{Table: 1, Match: 1, NS: "1", EO: "2"}, {Table: 2, Match: 1, NS: "2", EO: "1"},
		{Table: 3, Match: 2, NS: "3", EO: "4"}, {Table: 4, Match: 2, NS: "4", EO: "3"}}}); err != nil {
		t.Fatal(err)
	}
	strong, weak := domain.LineScore{Base: 300, Points: 200}, domain.LineScore{Base: 100, Points: 150}
	for tb := 1; tb <= 4; tb++ {
		line := [2]domain.LineScore{strong, weak}
		if tb%2 == 0 {
			line = [2]domain.LineScore{weak, strong}
		}
		var hands []domain.Hand
		for range 3 {
			hands = append(hands, domain.Hand{End: domain.EndClosed, Lines: line})
		}
		if _, err := webtest.PutSheet(ops, bg, p, tr.ID, 1, tb, webtest.SheetOf(hands, [2]domain.WrittenResult{}), 0); err != nil {
			t.Fatal(err)
		}
	}
	public := true
	if _, err := ops.PatchTournament(bg, p, tr.ID, app.PublicPatch{Public: &public}); err != nil {
		t.Fatal(err)
	}

	ctx := webtest.NewBrowser(t)
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/p/"+tr.ID+"/standings"), chromedp.WaitVisible(chromedp.CSS(`[data-standings]`)))
	if h := webtest.Text(t, ctx, `[data-standings] thead th:nth-child(2)`); h != "Squadra" {
		t.Errorf("entrant column %q, want Squadra", h)
	}
	for id, want := range map[string]string{"1": "1 su 1", "2": "0 su 1", "3": "1 su 1", "4": "0 su 1"} {
		if got := webtest.Text(t, ctx, `tr[data-entrant="`+id+`"] [data-col="matches"]`); got != want {
			t.Errorf("team %s matches %q, want %q", id, got, want)
		}
	}
	if got := webtest.Text(t, ctx, `tr[data-entrant="1"] [data-col="entrant"]`); got != "1 Squadra 1" {
		t.Errorf("team 1 named %q", got)
	}
	webtest.Screenshot(t, ctx, "public-team-standings")
	webtest.CheckA11y(t, ctx)

	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/p/"+tr.ID+"/screen"), chromedp.WaitVisible(chromedp.CSS(`[data-seating="tables"]`)))
	for tb, m := range map[int]string{1: "1", 2: "1", 3: "2", 4: "2"} {
		if got := webtest.Attr(t, ctx, fmt.Sprintf(`[data-seating="tables"] tr[data-table="%d"]`, tb), "data-match"); got != m {
			t.Errorf("screen table %d: match %q, want %s", tb, got, m)
		}
	}
	if n := webtest.Count(t, ctx, `.screen [data-col="matches"]`); n != 4 {
		t.Errorf("the screen's standings show matches for %d teams, want 4", n)
	}
	webtest.Screenshot(t, ctx, "screen-teams")
}
