package eventtest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// RULES §12.3, FITAB art. 37, UI.md §9: a pair that leaves for good
// while round 1 is being played is withdrawn from the entrant's page in a
// real browser. The page first asks whether the abandon was justified
// (the round is in play at its table), then records the withdrawal with
// the abandon: the leaving pair "perde la partita a 0" (0 VP, −365 MP
// [INTERP, RULES §7]), the pair left at the table gets the rest score
// (FITAB 3 hands: 14 VP, 365 MP). PostgreSQL.
func TestBrowserWithdrawalDuringARound(t *testing.T) {
	t.Parallel()
	w := newClubWorld(t, dbtest.Postgres(t), "Ritiro in corso", domain.KindPairs, 3, pairEntrants("1", "2", "3", "4"))
	bg := context.Background()
	if _, err := w.ops.CreateRound(bg, w.admin, w.tid, app.RoundInput{Number: 1, Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}, {Table: 2, NS: "3", EO: "4"}}}); err != nil {
		t.Fatal(err)
	}
	site, db := w.site, w.db
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "segreteria", w.pw)

	page := site.URL + "/tournaments/" + w.tid + "/entrants/3"
	webtest.Run(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`[data-form="withdrawal"]`)))
	webtest.SetValue(t, ctx, `input[name="withdrawn_from_round"]`, "1")
	webtest.SetValue(t, ctx, `input[name="reason"]`, "lite al tavolo")
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="withdraw"]`)), chromedp.WaitVisible(chromedp.CSS(`#abandon-error`)))
	if inv := webtest.Attr(t, ctx, `select[name="abandon"]`, "aria-invalid"); inv != "true" {
		t.Errorf("abandon select aria-invalid=%q", inv)
	}
	if msg := webtest.Text(t, ctx, "#abandon-error"); !strings.Contains(msg, "FITAB art. 37") {
		t.Errorf("abandon error %q does not cite the article", msg)
	}
	if v := webtest.FieldValue(t, ctx, `input[name="reason"]`); v != "lite al tavolo" {
		t.Errorf("the reason typed was lost: %q", v)
	}
	webtest.Screenshot(t, ctx, "withdrawal-abandon-asked")
	webtest.CheckA11y(t, ctx)

	webtest.SetValue(t, ctx, `select[name="abandon"]`, "unjustified")
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="withdraw"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-withdrawn-from="1"]`)))
	webtest.Screenshot(t, ctx, "withdrawal-abandon-saved")

	adjs, err := db.ListAdjustments(bg, w.tid)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range adjs {
		if a.Effect.Result != nil {
			got[a.Entrant] = fmt.Sprintf("%s %s r%d %d/%d", a.Case.Reason, a.Case.Party, a.Round, a.Effect.Result.VP, a.Effect.Result.MP)
		}
	}
	want := map[string]string{"3": "abandon_unjustified offender r1 0/-365", "4": "abandon_unjustified innocent r1 14/365"}
	if fmt.Sprint(got) != fmt.Sprint(want) || len(adjs) != 2 {
		t.Errorf("adjustments %v, want %v", got, want)
	}
	// The adjustments page shows both, as the referee would look for them.
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/tournaments/"+w.tid+"/adjustments"), chromedp.WaitVisible(chromedp.CSS(`h1`)))
	if n := webtest.Count(t, ctx, `[data-reason="abandon_unjustified"]`); n != 2 {
		t.Errorf("adjustments page lists %d abandon_unjustified rows, want 2", n)
	}
}
