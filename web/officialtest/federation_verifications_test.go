package officialtest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// Issue 25: the federation sees every club's verification status in one
// list at /federation/verification (one tr[data-tournament] a tournament,
// data-verification and data-standings-ok), filters it by club, and opens
// a tournament's own verification page from it; a club does not reach
// the list. The page passes the accessibility check at 360 and 1280 px.
// Embedded database.
func TestFederationVerificationListInTheBrowser(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.SQLite(t))
	one := newClubWorld(t, site.Store, "c1", "Coppa Uno", "fitab-2025", false)
	two := newClubWorld(t, site.Store, "c2", "Coppa Due", "fibur-ita", false)

	clubPW := site.CreatePerson(t, domain.RoleClub, "segreteria.c1", "c1")
	club := webtest.SignInClient(t, site, "segreteria.c1", clubPW)
	if st, _ := club.Get("/federation/verification?season=2026"); st == http.StatusOK {
		t.Error("a club reaches /federation/verification")
	}
	pw := site.CreatePerson(t, domain.RoleFederation, "fitab", "")
	fed := webtest.SignInClient(t, site, "fitab", pw)
	if st, body := fed.Get("/federation/verification?season=nope"); st != http.StatusBadRequest || !strings.Contains(body, `aria-invalid="true"`) {
		t.Errorf("a bad season: %d, want 400 naming the field", st)
	}

	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "fitab", pw)
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/federation"), chromedp.WaitVisible(chromedp.CSS(`[data-link="verifications"]`)))
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-link="verifications"]`)), chromedp.WaitVisible(chromedp.CSS(`form[data-form="verifications"]`)))
	webtest.Run(t, ctx, chromedp.SetValue(`#vf-season`, "2026"), chromedp.Click(chromedp.CSS(`[data-action="list-verifications"]`)),
		chromedp.WaitVisible(chromedp.CSS(`table[data-list="verifications"]`)))
	for _, tid := range []string{one.tid, two.tid} {
		sel := `tr[data-tournament="` + tid + `"]`
		status := webtest.Attr(t, ctx, sel, "data-verification")
		if status != "ok" && status != "differences" {
			t.Errorf("tournament %s: data-verification %q", tid, status)
		}
		if got := webtest.Attr(t, ctx, sel, "data-standings-ok"); got != "true" && got != "false" {
			t.Errorf("tournament %s: data-standings-ok %q", tid, got)
		}
	}
	webtest.Screenshot(t, ctx, "federation-verifications")
	webtest.CheckA11y(t, ctx)

	// by club: only c2's tournament
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/federation/verification?season=2026&club=c2"),
		chromedp.WaitVisible(chromedp.CSS(`table[data-list="verifications"]`)))
	if n := evalString(t, ctx, `String(document.querySelectorAll('tr[data-tournament]').length)`); n != "1" {
		t.Errorf("%s rows for club c2, want 1", n)
	}
	if got := webtest.Attr(t, ctx, `tr[data-tournament]`, "data-club"); got != "c2" {
		t.Errorf("row of club %q, want c2", got)
	}
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="open-verification"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-verdict]`)))
	if url := webtest.Location(t, ctx); !strings.HasSuffix(url, "/tournaments/"+two.tid+"/verification") {
		t.Errorf("the row opened %s", url)
	}
}
