// Package steps holds the secretary's steps every whole-event browser
// test takes through the pages (web/eventtest, web/teamtest): sign in,
// create a tournament, paste entrants, generate and publish a round, type
// a match's sheet, read the standings as shown.
package steps

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/domain"
	"segnapunti/web/webtest"
)

// Secretary signs a club secretary of bc-roma in, in a fresh browser.
func Secretary(t *testing.T, site *webtest.Site) context.Context {
	t.Helper()
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "segreteria", pw)
	return ctx
}

// CreateTournament fills the new-tournament form (field selector → value)
// and returns the tournament's id and its pages' base URL.
func CreateTournament(t *testing.T, ctx context.Context, site *webtest.Site, fields map[string]string) (tid, base string) {
	t.Helper()
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/tournaments/new"), chromedp.WaitVisible(chromedp.CSS(`input[name="name"]`)))
	for name, v := range fields {
		webtest.SetValue(t, ctx, `[name="`+name+`"]`, v)
	}
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="create-tournament"]`)), chromedp.WaitVisible(chromedp.CSS(`h1[data-tournament]`)))
	tid = webtest.Attr(t, ctx, `h1[data-tournament]`, "data-tournament")
	return tid, site.URL + "/tournaments/" + tid
}

// PasteEntrants pastes the rows (tab-separated) on the entrants page.
func PasteEntrants(t *testing.T, ctx context.Context, base string, rows []string) {
	t.Helper()
	webtest.Run(t, ctx, chromedp.Navigate(base+"/entrants"), chromedp.WaitVisible(chromedp.CSS(`textarea[name="rows"]`)))
	webtest.SetValue(t, ctx, `textarea[name="rows"]`, strings.Join(rows, "\n"))
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="paste-entrants"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-message="secretary.entrants_added"]`)))
}

// Rounds reads a round as stored (to learn the seating the pages made).
type Rounds interface {
	GetRound(ctx context.Context, tid string, n int) (domain.Round, error)
}

// GenerateRound generates round n on the "genera turno" page — by system,
// or by the plan when system is "" — publishes it and returns it as stored.
func GenerateRound(t *testing.T, ctx context.Context, db Rounds, tid, base string, n int, system string) domain.Round {
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

// StandingsRow is one row of the standings page as shown.
type StandingsRow struct{ Entrant, VP, MP, Withdrawn string }

// StandingsShown opens the standings page and reads its rows in order.
func StandingsShown(t *testing.T, ctx context.Context, base, screenshot string) []StandingsRow {
	t.Helper()
	webtest.Run(t, ctx, chromedp.Navigate(base+"/standings"), chromedp.WaitVisible(chromedp.CSS(`table[data-standings]`)))
	webtest.Screenshot(t, ctx, screenshot)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]StandingsRow](`[...document.querySelectorAll('table[data-standings] tr[data-entrant]')].map(r => ({
		Entrant: r.dataset.entrant, VP: r.querySelector('[data-col="vp"]').textContent.trim(),
		MP: r.querySelector('[data-col="mp"]').textContent.trim(), Withdrawn: r.dataset.withdrawn || ""}))`))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func PairNumber(t *testing.T, id string) int {
	t.Helper()
	n, err := strconv.Atoi(id)
	if err != nil {
		t.Fatalf("entrant id %q", id)
	}
	return n
}

// TypeMatch types the sheet of a table on the secretary's page: three
// hands, the winning line ahead by margin (100: +100 in hand 1; 600: +400
// and +200 in hands 1 and 2), every hand closed by a clean burraco (base
// 300 = 200 + 100 for the closure) against a line with one burraco.
func TypeMatch(t *testing.T, ctx context.Context, base string, round, table int, nsWins bool, margin int) {
	t.Helper()
	type hand struct{ winBase, winPoints, loseBase, losePoints int }
	hands := []hand{{300, 200, 100, 300}, {300, 100, 200, 200}, {300, 100, 200, 200}} // +100, 0, 0
	if margin == 600 {
		hands = []hand{{300, 300, 100, 100}, {300, 250, 200, 150}, {300, 100, 200, 200}} // +400, +200, 0
	}
	webtest.Run(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/rounds/%d/tables/%d", base, round, table)), chromedp.WaitVisible(chromedp.CSS(`input[name="hands.0.ns.base"]`)))
	win, lose := "ns", "eo"
	if !nsWins {
		win, lose = "eo", "ns"
	}
	for i, h := range hands {
		for name, v := range map[string]int{win + ".base": h.winBase, win + ".points": h.winPoints, lose + ".base": h.loseBase, lose + ".points": h.losePoints} {
			webtest.SetValue(t, ctx, fmt.Sprintf(`[name="hands.%d.%s"]`, i, name), strconv.Itoa(v))
		}
		webtest.SetValue(t, ctx, fmt.Sprintf(`[name="hands.%d.end"]`, i), "closed")
	}
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="save-sheet"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-message="secretary.sheet_saved"]`)))
}
