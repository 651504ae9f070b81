package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	_ "image/png"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// apiCall is one JSON request to the site's API with a bearer token.
func apiCall(t testing.TB, site *webtest.Site, method, path, token string, body any, want int) map[string]any {
	t.Helper()
	status, out := site.APIDo(t, token, method, path, body)
	if status != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, path, status, want, out)
	}
	m := map[string]any{}
	json.Unmarshal(out, &m)
	return m
}

// tableWorld is a tournament with two pairs at table 1 of round 1 (3 hands).
func tableWorld(t testing.TB, site *webtest.Site) (club, tid string) {
	t.Helper()
	ctx := context.Background()
	admin, _, err := site.Store.CreateToken(ctx, domain.RoleAdmin, "root", "")
	if err != nil {
		t.Fatal(err)
	}
	apiCall(t, site, "POST", "/v1/clubs", admin, map[string]any{"id": "c1", "name": "Circolo Uno"}, 201)
	club = apiCall(t, site, "POST", "/v1/tokens", admin, map[string]any{"role": "club", "club": "c1", "name": "Segreteria"}, 201)["token"].(string)
	tid = apiCall(t, site, "POST", "/v1/tournaments", club, map[string]any{"name": "Coppa Autunno", "date": "2026-11-21", "level": "club",
		"ruleset": "fitab-2025", "kind": "pairs", "rounds_planned": 3, "hands_per_round": 3}, 201)["id"].(string)
	apiCall(t, site, "POST", "/v1/tournaments/"+tid+"/entrants", club, map[string]any{"entrants": []map[string]any{
		{"id": "1", "players": []map[string]any{{"name": "Rossi Anna"}, {"name": "Bianchi Luca"}}},
		{"id": "3", "players": []map[string]any{{"name": "Verdi Carla"}, {"name": "Neri Paolo"}}},
	}}, 201)
	apiCall(t, site, "POST", "/v1/tournaments/"+tid+"/rounds", club, map[string]any{"number": 1, "phase": "mitchell",
		"tables": []map[string]any{{"table": 1, "ns": "1", "eo": "3"}}}, 201)
	return club, tid
}

// entryCode is the code of table 1's entry link in round 1 of tid (UI.md
// §6), made by the club.
func entryCode(t testing.TB, site *webtest.Site, club, tid string) string {
	t.Helper()
	return apiCall(t, site, "POST", "/v1/tournaments/"+tid+"/rounds/1/tables/1/entry-link", club, nil, 201)["code"].(string)
}

// sqliteTable is tableWorld on a site over an embedded database, with
// table 1's entry code.
func sqliteTable(t testing.TB) (site *webtest.Site, club, tid, code string) {
	t.Helper()
	site = webtest.StartSite(t, dbtest.SQLite(t))
	club, tid = tableWorld(t, site)
	return site, club, tid, entryCode(t, site, club, tid)
}

// offline cuts (or restores) the tab's network and navigator.onLine.
func offline(off bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}},
		}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	})
}

// UI.md §6: a phone enters three hands (one with a sum error, one while
// offline), the scorer's line ends the sheet and the other line confirms.
func TestBrowserTableEntry(t *testing.T) {
	site := webtest.StartSite(t, dbtest.Postgres(t))
	club, tid := tableWorld(t, site)
	link := apiCall(t, site, "POST", "/v1/tournaments/"+tid+"/rounds/1/tables/1/entry-link", club, nil, 201)
	short := link["short"].(string)
	ctx := webtest.NewBrowser(t)
	sheet := "/v1/tournaments/" + tid + "/rounds/1/tables/1/sheet"

	// The typed code at /table opens the phone page.
	webtest.Run(t, ctx,
		chromedp.EmulateViewport(360, 800),
		chromedp.Navigate(site.URL+"/table"),
		chromedp.SendKeys(chromedp.CSS(`input[name="code"]`), "K7QX0"),
		chromedp.Click(chromedp.CSS(`[data-action="open-table"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name="code"][aria-invalid="true"]`)),
	)
	webtest.CheckA11y(t, ctx)
	webtest.Screenshot(t, ctx, "table-code")
	// A well-formed code that opens nothing: said on the form, not on a
	// page without it.
	webtest.Run(t, ctx,
		chromedp.EmulateViewport(360, 800),
		webtest.JS(`document.querySelector('input[name="code"]').value = ""`),
		chromedp.SendKeys(chromedp.CSS(`input[name="code"]`), "22222222"),
		chromedp.Click(chromedp.CSS(`[data-action="open-table"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name="code"][value="22222222"][aria-invalid="true"]`)),
	)
	if got := webtest.Text(t, ctx, "#code-error"); !strings.Contains(got, "Codice sconosciuto") {
		t.Errorf("unknown code says %q", got)
	}
	webtest.Run(t, ctx,
		webtest.JS(`document.querySelector('input[name="code"]').value = ""`),
		chromedp.SendKeys(chromedp.CSS(`input[name="code"]`), strings.ToLower(short)),
		chromedp.Click(chromedp.CSS(`[data-action="open-table"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#hand-form`)),
	)
	if got := webtest.Location(t, ctx); !strings.HasSuffix(got, "/table/"+short) {
		t.Fatalf("typed code led to %s", got)
	}
	// First-load weight of the phone page (UI.md §1: ≤ 60 KB transferred):
	// what loads up to the load event; the rules engine is
	// fetched after it, when the page is usable.
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/table/"+link["code"].(string)), chromedp.WaitVisible(chromedp.CSS(`#hand-form`)))
	waitJS(t, ctx, `performance.getEntriesByType("navigation")[0].loadEventEnd > 0`)
	weight, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(function(){var n=performance.getEntriesByType("navigation")[0];var s=n.transferSize||n.encodedBodySize;performance.getEntriesByType("resource").forEach(function(r){if(r.startTime<=n.loadEventEnd)s+=r.transferSize||r.encodedBodySize});return s})()`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("table page first load: %.0f bytes", weight)
	if weight <= 0 || weight > 60*1024 {
		t.Errorf("table page first load %.0f bytes, want ≤ 60 KB", weight)
	}
	webtest.CheckA11y(t, ctx)

	webtest.Run(t, ctx, webtest.TypeHand(0, 300, 235, 100, -120, ""), chromedp.WaitVisible(chromedp.CSS(`tr[data-hand="1"]`)))
	// Hand 2: EO writes 590 for 400 + 180.
	webtest.Run(t, ctx, webtest.TypeHand(1, 0, -55, 400, 180, "590"), chromedp.WaitVisible(chromedp.CSS(`tr[data-hand="2"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-code="HAND_TOTAL_MISMATCH"][data-severity]`)))
	webtest.Screenshot(t, ctx, "table-entry-mismatch")
	webtest.Run(t, ctx, chromedp.EmulateViewport(360, 800))

	// Hand 3 typed offline stays on the phone, marked not sent.
	webtest.Run(t, ctx, offline(true), webtest.TypeHand(2, 350, 120, 200, 65, ""),
		chromedp.WaitVisible(chromedp.CSS(`#pending li[data-pending-hand="3"]`)))
	if got := webtest.Text(t, ctx, `#pending li[data-pending-hand="3"]`); !strings.HasPrefix(got, "Smazzata 3:") {
		t.Errorf("pending hand says %q", got)
	}
	if got := webtest.Text(t, ctx, `#hand-h`); got != "Smazzata 4" {
		t.Errorf("next hand's heading says %q", got)
	}
	webtest.Screenshot(t, ctx, "table-entry-offline")
	webtest.Run(t, ctx, chromedp.EmulateViewport(360, 800))
	if n := len(apiCall(t, site, "GET", sheet, club, nil, 200)["sheet"].(map[string]any)["hands"].([]any)); n != 2 {
		t.Fatalf("while offline the server has %d hands, want 2", n)
	}
	webtest.Run(t, ctx, offline(false), chromedp.WaitVisible(chromedp.CSS(`tr[data-hand="3"]`)))
	got := apiCall(t, site, "GET", sheet, club, nil, 200)
	if n := len(got["sheet"].(map[string]any)["hands"].([]any)); n != 3 {
		t.Fatalf("after the connection returned the server has %d hands, want exactly 3", n)
	}

	// The error blocks the signatures: the players fix it at the table
	// (UI.md §9): remove hand 3 (after a confirmation), change hand 2 —
	// its inputs come back filled; Enter sends — and enter hand 3 again.
	if exists(t, ctx, `[data-action="end-sheet"]`) || !exists(t, ctx, `[data-blocked="true"]`) {
		t.Fatal("a sheet with an error finding offers to be ended, or does not say why it cannot")
	}
	webtest.Run(t, ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`[data-action="remove-hand"]`)),
		chromedp.Click(chromedp.CSS(`[data-action="remove-hand"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-action="confirm-remove"]`)))
	webtest.Screenshot(t, ctx, "table-remove-hand")
	webtest.Run(t, ctx, chromedp.EmulateViewport(360, 800),
		chromedp.Click(chromedp.CSS(`[data-action="confirm-remove"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-action="edit-hand"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`tr[data-hand="3"]`)),
		chromedp.Click(chromedp.CSS(`[data-action="edit-hand"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#edit-form input[name="hands.1.eo.total"]`)))
	filled, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('input[name="hands.1.eo.base"]').value + "/" + document.querySelector('input[name="hands.1.eo.total"]').value`))
	if err != nil {
		t.Fatal(err)
	}
	if eoBase, eoTotal, _ := strings.Cut(filled, "/"); eoBase != "400" || eoTotal != "590" {
		t.Errorf("the edited hand's inputs came back as EO base %q, total %q; want 400 and 590", eoBase, eoTotal)
	}
	webtest.Screenshot(t, ctx, "table-edit-hand")
	webtest.Run(t, ctx, chromedp.EmulateViewport(360, 800),
		webtest.JS(`document.querySelector('input[name="hands.1.eo.total"]').value = ""`),
		chromedp.SendKeys(chromedp.CSS(`input[name="hands.1.eo.total"]`), "580\r"),
		chromedp.WaitNotPresent(chromedp.CSS(`#edit-form`)),
		chromedp.WaitVisible(chromedp.CSS(`#hand-form`)))
	if exists(t, ctx, `[data-code="HAND_TOTAL_MISMATCH"]`) {
		t.Error("the corrected hand still has its sum error")
	}
	webtest.Run(t, ctx, webtest.TypeHand(2, 350, 120, 200, 65, ""), chromedp.WaitVisible(chromedp.CSS(`tr[data-hand="3"]`)))
	if v, _ := site.Store.SheetHistory(context.Background(), tid, 1, 1); len(v) != 2 {
		t.Errorf("the sheet's history has %d versions, want the removal and the change", len(v))
	}
	// The scoring line signs first (the number alone cannot
	// tell who scored); the confirm step comes after it.
	webtest.Run(t, ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`[data-action="end-sheet"]`)))
	if exists(t, ctx, `[data-action="confirm"]`) {
		t.Error("the confirm step is offered before the scoring line ended the sheet")
	}
	webtest.Screenshot(t, ctx, "table-entry-end")
	webtest.Run(t, ctx, chromedp.EmulateViewport(360, 800),
		chromedp.SetValue(chromedp.CSS(`select[name="line"]`), "ns"),
		chromedp.SendKeys(chromedp.CSS(`input[name="scorer_entrant"]`), "1"),
		chromedp.Click(chromedp.CSS(`[data-action="end-sheet"]`)),
		// Wait for the page after the end (its signature): the confirm
		// button is on the page before it too, so waiting for it returned
		// at once, and the wrong number could be typed and sent from the
		// old page (no line: entrant 1 is the line that had just ended,
		// a 409 without aria-invalid), and the wait below never ended.
		chromedp.WaitVisible(chromedp.CSS(`[data-confirmation="ns"]`)),
	)
	// The scoring line types its own number to confirm: refused with
	// CONFIRM_OWN_LINE (UI.md §9, FITAB art. 19), next to the input; then
	// the other line's number.
	webtest.Run(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`input[name="entrant"]`), "1"),
		chromedp.Click(chromedp.CSS(`[data-action="confirm"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-code="CONFIRM_OWN_LINE"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name="entrant"][aria-invalid="true"]`)),
	)
	webtest.Screenshot(t, ctx, "table-confirm-own-line")
	webtest.Run(t, ctx, chromedp.EmulateViewport(360, 800),
		chromedp.SendKeys(chromedp.CSS(`input[name="entrant"]`), "3"),
		chromedp.Click(chromedp.CSS(`[data-action="confirm"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-delivered="true"]`)),
	)
	webtest.Screenshot(t, ctx, "table-entry-delivered")
	got = apiCall(t, site, "GET", sheet, club, nil, 200)
	if list, _ := got["confirmations"].([]any); len(list) != 2 {
		t.Fatalf("confirmations after both lines signed: %v", got["confirmations"])
	}
	// The secretary's sheet page shows the signatures.
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria.uno", "c1")
	webtest.SignIn(t, ctx, site, "segreteria.uno", pw)
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/tournaments/"+tid+"/rounds/1/tables/1"), chromedp.WaitVisible(chromedp.CSS(`[data-signatures]`)))
	if body := webtest.Text(t, ctx, "[data-signatures]"); !strings.Contains(body, "Firme") || !exists(t, ctx, `[data-signature="ns"][data-entrant="1"][data-kind="end"][data-signed-by="ns"] time`) || !exists(t, ctx, `[data-signature="eo"][data-entrant="3"][data-kind="confirm"][data-signed-by="eo"] time`) {
		t.Errorf("sheet page signatures (NS ended, EO confirmed, each with its time): %q", body)
	}
	webtest.Screenshot(t, ctx, "sheet-signatures")

	// A re-issued link: the old page says why in Italian.
	apiCall(t, site, "POST", "/v1/tournaments/"+tid+"/rounds/1/tables/1/entry-link", club, nil, 201)
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/table/"+link["code"].(string)), chromedp.WaitVisible(chromedp.CSS(`main`)))
	if body := webtest.Text(t, ctx, "main"); !strings.Contains(body, "non vale più") {
		t.Errorf("revoked link page says %q", body)
	}
	webtest.Screenshot(t, ctx, "table-revoked")

	// The printed round (a preview): it shows the table's live
	// code, issued above; issuing new ones asks first. Each blank sheet
	// carries a QR code and the typed code, and the new typed code works
	// (the secretary signed in above).
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/tournaments/"+tid+"/rounds/1/print"), chromedp.WaitVisible(chromedp.CSS(`img[data-qr="1"]`)))
	before := webtest.Attr(t, ctx, `[data-short]`, "data-short")
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="issue-codes"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-action="confirm-issue-codes"]`)))
	if got := webtest.Attr(t, ctx, `[data-short]`, "data-short"); got != before {
		t.Errorf("asking to issue new codes changed them: %s → %s", before, got)
	}
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="confirm-issue-codes"]`)), chromedp.WaitNotPresent(chromedp.CSS(`[data-action="confirm-issue-codes"]`)),
		chromedp.WaitVisible(chromedp.CSS(`img[data-qr="1"]`)))
	printed := webtest.Attr(t, ctx, `[data-short]`, "data-short")
	if printed == before {
		t.Error("issuing new codes printed the old one")
	}
	if src := webtest.Attr(t, ctx, `img[data-qr="1"]`, "src"); !strings.HasPrefix(src, "data:image/svg+xml,") {
		t.Errorf("QR image src %.40q", src)
	}
	// The browser draws it: an image of the code's size, as square as
	// its viewBox (a data: URL the browser could not read would be 0×0).
	drawn, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(function () {
		var i = document.querySelector('img[data-qr="1"]');
		return i.complete && i.naturalWidth > 0 && i.naturalWidth === i.naturalHeight;
	})()`))
	if err != nil || !drawn {
		t.Errorf("the QR image is not drawn (%v)", err)
	}
	// What a phone's camera reads: the code as Chromium draws it, read by
	// ZXing, is the table's link, and the link opens the table.
	scanned := scanQR(t, ctx, `img[data-qr="1"]`)
	if !strings.HasPrefix(scanned, site.URL+"/table/") {
		t.Errorf("the printed QR code reads %q, want the table's link under %s/table/", scanned, site.URL)
	}
	webtest.Screenshot(t, ctx, "print-round")
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/table"),
		chromedp.SendKeys(chromedp.CSS(`input[name="code"]`), printed),
		chromedp.Click(chromedp.CSS(`[data-action="open-table"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-delivered="true"]`)))
	_ = time.Second
}

// exists reports whether the page has an element matching sel now.
func exists(t *testing.T, ctx context.Context, sel string) bool {
	t.Helper()
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.querySelector(%q) !== null`, sel)))
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// scanQR photographs the image at sel as Chromium draws it (twice its
// size, as a phone's camera sees a printed code) and reads it with ZXing.
func scanQR(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.ScreenshotScale(sel, 2))
	if err != nil {
		t.Fatalf("photograph %s: %v", sel, err)
	}
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		t.Fatalf("decode the photograph of %s: %v", sel, err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatalf("no QR code read in %s: %v", sel, err)
	}
	return res.GetText()
}
