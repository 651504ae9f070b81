package eventtest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/domain"
	"segnapunti/web/webtest"
)

// The secretary's steps every whole-event test takes through the pages.

// secretary signs a club secretary of bc-roma in, in a fresh browser.
func secretary(t *testing.T, site *webtest.Site) context.Context {
	t.Helper()
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "segreteria", pw)
	return ctx
}

// createTournament fills the new-tournament form (field selector → value)
// and returns the tournament's id and its pages' base URL.
func createTournament(t *testing.T, ctx context.Context, site *webtest.Site, fields map[string]string) (tid, base string) {
	t.Helper()
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/tournaments/new"), chromedp.WaitVisible(chromedp.CSS(`input[name="name"]`)))
	for name, v := range fields {
		webtest.SetValue(t, ctx, `[name="`+name+`"]`, v)
	}
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="create-tournament"]`)), chromedp.WaitVisible(chromedp.CSS(`h1[data-tournament]`)))
	tid = webtest.Attr(t, ctx, `h1[data-tournament]`, "data-tournament")
	return tid, site.URL + "/tournaments/" + tid
}

// pasteEntrants pastes the rows (tab-separated) on the entrants page.
func pasteEntrants(t *testing.T, ctx context.Context, base string, rows []string) {
	t.Helper()
	webtest.Run(t, ctx, chromedp.Navigate(base+"/entrants"), chromedp.WaitVisible(chromedp.CSS(`textarea[name="rows"]`)))
	webtest.SetValue(t, ctx, `textarea[name="rows"]`, strings.Join(rows, "\n"))
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="paste-entrants"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-message="secretary.entrants_added"]`)))
}

// rounds reads a round as stored (to learn the seating the pages made).
type rounds interface {
	GetRound(ctx context.Context, tid string, n int) (domain.Round, error)
}

// generateRound generates round n on the "genera turno" page — by system,
// or by the plan when system is "" — publishes it and returns it as stored.
func generateRound(t *testing.T, ctx context.Context, db rounds, tid, base string, n int, system string) domain.Round {
	t.Helper()
	webtest.Run(t, ctx, chromedp.Navigate(base+"/rounds/generate"), chromedp.WaitVisible(chromedp.CSS(`form[data-form="generate"]`)))
	if system != "" {
		webtest.SetValue(t, ctx, `select[name="system"]`, system)
	}
	webtest.Run(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-action="generate"]`)),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`[data-proposed-round="%d"]`, n))),
		chromedp.Click(chromedp.CSS(`[data-action="publish"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-message="pairing.published"]`)),
	)
	r, err := db.GetRound(context.Background(), tid, n)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// standingsRow is one row of the standings page as shown.
type standingsRow struct{ Entrant, VP, MP, Withdrawn string }

// standingsShown opens the standings page and reads its rows in order.
func standingsShown(t *testing.T, ctx context.Context, base, screenshot string) []standingsRow {
	t.Helper()
	webtest.Run(t, ctx, chromedp.Navigate(base+"/standings"), chromedp.WaitVisible(chromedp.CSS(`table[data-standings]`)))
	webtest.Screenshot(t, ctx, screenshot)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]standingsRow](`[...document.querySelectorAll('table[data-standings] tr[data-entrant]')].map(r => ({
		Entrant: r.dataset.entrant, VP: r.querySelector('[data-col="vp"]').textContent.trim(),
		MP: r.querySelector('[data-col="mp"]').textContent.trim(), Withdrawn: r.dataset.withdrawn || ""}))`))
	if err != nil {
		t.Fatal(err)
	}
	return got
}
