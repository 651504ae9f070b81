package browsertest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// UI.md §1, §5: the secretary's sheet page works on a phone (each hand a
// card, no sideways scrolling) and at 1280 px (the table); once the sheet
// is confirmed at the table it is shown read-only, saying why, and a
// referee finds the correction there.
func TestBrowserSheetPhoneAndDelivered(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.Postgres(t))
	club, tid := tableWorld(t, site)
	page := site.URL + "/tournaments/" + tid + "/rounds/1/tables/1"
	ctx := webtest.NewBrowser(t)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria.uno", "c1")
	webtest.SignIn(t, ctx, site, "segreteria.uno", pw)

	webtest.Run(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`input[name="hands.0.ns.base"]`)))
	for h, v := range [][4]string{{"300", "235", "100", "-120"}, {"0", "-55", "400", "180"}, {"350", "120", "200", "65"}} {
		for i, f := range []string{"ns.base", "ns.points", "eo.base", "eo.points"} {
			webtest.SetValue(t, ctx, `[name="hands.`+string(rune('0'+h))+`.`+f+`"]`, v[i])
		}
		webtest.SetValue(t, ctx, `[name="hands.`+string(rune('0'+h))+`.end"]`, "closed")
	}
	webtest.Run(t, ctx, chromedp.SendKeys(chromedp.CSS(`input[name="written.ns.total"]`), "950"),
		chromedp.WaitVisible(chromedp.CSS(`[data-computed="true"]`)))
	webtest.FitsWidth(t, ctx, 360)
	webtest.Screenshot(t, ctx, "sheet-edit")
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="save-sheet"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-message="secretary.sheet_saved"]`)))
	if exists(t, ctx, `[data-delivered]`) || exists(t, ctx, `[data-ended]`) {
		t.Error("an open sheet says it is delivered or ended")
	}

	// Ended at the table while the page is open: saving is refused and
	// the page comes back read-only, saying why.
	link := apiCall(t, site, "POST", "/v1/tournaments/"+tid+"/rounds/1/tables/1/entry-link", club, nil, 201)
	res, err := http.PostForm(site.URL+"/table/"+link["code"].(string)+"/end", url.Values{"line": {"ns"}, "scorer_entrant": {"1"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if n := len(apiCall(t, site, "GET", "/v1/tournaments/"+tid+"/rounds/1/tables/1/sheet", club, nil, 200)["confirmations"].([]any)); n != 1 {
		t.Fatalf("after the end: %d signatures (status %d)", n, res.StatusCode)
	}
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="save-sheet"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-ended="true"]`)))
	if exists(t, ctx, `[data-action="save-sheet"]`) || exists(t, ctx, `input[name^="hands."]`) {
		t.Error("an ended sheet still offers a save")
	}

	// Confirmed at the table: the page shows it read-only and says why.
	apiCall(t, site, "POST", "/v1/tournaments/"+tid+"/rounds/1/tables/1/sheet/confirm", link["code"].(string), map[string]any{"line": "eo", "entrant": "3"}, 200)
	webtest.Run(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`[data-delivered="true"]`)))
	if got := webtest.Text(t, ctx, `[data-delivered="true"]`); !strings.Contains(got, "Foglio consegnato: le correzioni passano dall'arbitro") {
		t.Errorf("delivered line says %q", got)
	}
	for _, sel := range []string{`[data-action="save-sheet"]`, `input[name^="hands."]`, `input[name^="written."]`} {
		if exists(t, ctx, sel) {
			t.Errorf("a delivered sheet still has %s", sel)
		}
	}
	if got := webtest.Text(t, ctx, `[data-cell="hands.0.ns.base"]`); got != "300" {
		t.Errorf("read-only hand 1 NS base shows %q", got)
	}
	if got := webtest.Text(t, ctx, `[data-cell="hands.0.ns.total"]`); got != "535" {
		t.Errorf("read-only hand 1 NS total (computed) shows %q", got)
	}
	// NS ended, EO confirmed: each with its own time.
	if !exists(t, ctx, `[data-signature="ns"][data-kind="end"][data-signed-by="ns"] time`) || !exists(t, ctx, `[data-signature="eo"][data-kind="confirm"][data-signed-by="eo"] time`) {
		t.Error("the signatures are not shown as NS's end and EO's confirmation, each with its time")
	}
	webtest.FitsWidth(t, ctx, 360)
	webtest.Screenshot(t, ctx, "sheet-delivered")

	// The tournament's referee gets the link to the correction page.
	apiCall(t, site, "PUT", "/v1/tournaments/"+tid+"/referees/anna.rossi", club, nil, 204)
	ref := webtest.NewBrowser(t)
	webtest.SignIn(t, ref, site, "anna.rossi", site.CreatePerson(t, domain.RoleReferee, "anna.rossi", ""))
	webtest.Run(t, ref, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`[data-delivered="true"] a[data-link="correct"]`)))
	if href := webtest.Attr(t, ref, `a[data-link="correct"]`, "href"); href != "/tournaments/"+tid+"/rounds/1/tables/1/correct" {
		t.Errorf("correction link %q", href)
	}
	webtest.CheckA11y(t, ref)
}
