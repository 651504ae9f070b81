package browsertest

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// TestBrowserPublicStandingsLive: the public standings open in a browser
// change without a reload within 2 s of a sheet stored through the API
// (UI.md §1 budget, §7), over PostgreSQL LISTEN/NOTIFY; and every public
// page, at 360 and 1280 px, passes the accessibility check.
func TestBrowserPublicStandingsLive(t *testing.T) {
	t.Parallel()
	ctx := webtest.NewBrowser(t)
	f := newPublicFixture(t, dbtest.Postgres(t))
	f.setPublic(t, true)
	f.storeSheet(t, 1)
	base := f.site.URL + "/p/" + f.tid

	webtest.Run(t, ctx, chromedp.Navigate(base+"/standings"), chromedp.WaitVisible(chromedp.CSS(`tr[data-entrant="2"]`)))
	if got := webtest.Attr(t, ctx, "table[data-standings]", "data-provisional"); got != "true" {
		t.Errorf("data-provisional = %q, want true while round 1 is played", got)
	}
	// Read through waitFor: the live region may be swapped in (the event
	// stream opening) while it is read, and a node being replaced reads "".
	webtest.WaitFor(t, ctx, `document.querySelector('tr[data-entrant="2"] [data-col="vp"]').textContent.trim() === "0"`, 2*time.Second, "pair 2's 0 VP before its sheet")
	// Wait until the page's event stream is open (htmx's SSE extension).
	const open = `(() => { const el = document.querySelector('[sse-connect]'); const d = el && el['htmx-internal-data']; return !!(d && d.sseEventSource && d.sseEventSource.readyState === 1); })()`
	webtest.WaitFor(t, ctx, open, 5*time.Second, "the page's event stream to open")
	webtest.Run(t, ctx, webtest.JS(`document.body.dataset.loadedOnce = "yes"`)) // gone if the page reloads

	start := time.Now()
	f.storeSheet(t, 2)
	webtest.WaitFor(t, ctx, `document.querySelector('tr[data-entrant="2"] [data-col="vp"]').textContent.trim() === "11"`, 2*time.Second, "pair 2's 11 VP on the open page")
	delay := time.Since(start)
	t.Logf("a stored sheet reached the open standings page in %v", delay)
	if got := webtest.Attr(t, ctx, "body", "data-loaded-once"); got != "yes" {
		t.Error("the page reloaded instead of updating in place")
	}

	for _, p := range []struct{ path, name string }{
		{"", "public-tournament"}, {"/standings", "public-standings"}, {"/rounds/1", "public-round"},
		{"/entrants/1", "public-entrant"}, {"/screen", "public-screen"},
	} {
		webtest.Run(t, ctx, chromedp.Navigate(base+p.path), chromedp.WaitVisible(chromedp.CSS(`[data-live]`)))
		webtest.Screenshot(t, ctx, p.name)
		webtest.CheckA11y(t, ctx)
	}
}
