package browsertest

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// UI.md §6, the phone's second visit: the first visit left the service
// worker in charge of /table/ with the page's files and the engine in its
// cache. Opened again with the network on, the page is the network's, its
// files the cache's; a hand with a wrong total is still caught (RULES
// §5.1, FITAB art. 20) and the hands still reach the server.
func TestTableSecondVisitUnderServiceWorker(t *testing.T) {
	site := webtest.StartSite(t, dbtest.SQLite(t))
	club, tid := tableWorld(t, site)
	link := apiCall(t, site, "POST", "/v1/tournaments/"+tid+"/rounds/1/tables/1/entry-link", club, nil, 201)
	page := site.URL + "/table/" + link["code"].(string)
	ctx, cancel := context.WithTimeout(webtest.NewBrowser(t), 90*time.Second)
	defer cancel()

	webtest.Run(t, ctx, chromedp.EmulateViewport(360, 800), chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`#hand-form`)))
	waitJS(t, ctx, `document.getElementById("table").dataset.engineReady === "true"`)
	waitJS(t, ctx, `document.getElementById("table").dataset.offlineReady === "true" && navigator.serviceWorker.controller !== null`)

	webtest.Run(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`#hand-form`)))
	waitJS(t, ctx, `navigator.serviceWorker.controller !== null`)
	waitJS(t, ctx, `document.getElementById("table").dataset.engineReady !== undefined`)
	ready, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("table").dataset.engineReady`))
	if err != nil || ready != "true" {
		t.Errorf("the engine from the service worker's cache: engineReady %q (%v)", ready, err)
	}
	webtest.Run(t, ctx, webtest.TypeHand(0, 300, 235, 100, -120, ""), chromedp.WaitVisible(chromedp.CSS(`tr[data-hand="1"]`)))
	webtest.Run(t, ctx, webtest.TypeHand(1, 0, -55, 400, 180, "590"), chromedp.WaitVisible(chromedp.CSS(`tr[data-hand="2"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-code="HAND_TOTAL_MISMATCH"][data-severity]`)))
	got := apiCall(t, site, "GET", "/v1/tournaments/"+tid+"/rounds/1/tables/1/sheet", club, nil, 200)
	if n := len(got["sheet"].(map[string]any)["hands"].([]any)); n != 2 {
		t.Errorf("the server has %d hands, want the 2 typed", n)
	}
}
