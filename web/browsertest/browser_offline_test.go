package browsertest

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"segnapunti/web"
	"segnapunti/web/webtest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"segnapunti/api"
	"segnapunti/app"
	"segnapunti/store/dbtest"
)

// hallSite is startSite behind the hall's Wi-Fi: while down is set, a
// request reaching the server gets its connection cut, as with no network,
// and is counted (writes apart). DevTools' network emulation cuts the
// page's requests; it does not reach the service worker's own fetches,
// which this cuts.
type hallSite struct {
	*webtest.Site
	down          atomic.Bool
	reads, writes atomic.Int64
	noEngine      atomic.Bool // the engine's URL answers 404
}

func startHallSite(t *testing.T) *hallSite {
	t.Helper()
	db := dbtest.SQLite(t)
	log := slog.New(slog.DiscardHandler)
	ops := app.New(db, nil, log)
	pages, err := web.New(web.Deps{Store: db, App: ops, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &hallSite{Site: &webtest.Site{URL: "http://" + ln.Addr().String(), Store: db}}
	site := web.Site(api.NewServer(api.Config{App: ops}, db, log), pages)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.down.Load() {
			if r.Method == http.MethodGet {
				h.reads.Add(1)
			} else {
				h.writes.Add(1)
			}
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		if h.noEngine.Load() && strings.HasPrefix(r.URL.Path, "/engine/") {
			http.NotFound(w, r)
			return
		}
		site.ServeHTTP(w, r)
	}), ReadHeaderTimeout: 5 * time.Second}
	srv.RegisterOnShutdown(ops.Close)
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	return h
}

// waitJS waits until expr is true in the page.
func waitJS(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v", expr, err)
	}
}

// typeNumbers types a hand's numbers as a phone does (negative: digits,
// then the ± button), without sending it.
func typeNumbers(i int, values map[string]int) chromedp.Action[chromedp.Void] {
	var steps []chromedp.Action[chromedp.Void]
	for _, part := range []string{"ns.base", "ns.points", "eo.base", "eo.points", "ns.total", "eo.total"} {
		v, ok := values[part]
		if !ok {
			continue
		}
		sel := chromedp.CSS(fmt.Sprintf(`input[name="hands.%d.%s"]`, i, part))
		steps = append(steps, chromedp.SendKeys(sel, fmt.Sprint(max(v, -v))))
		if v < 0 {
			steps = append(steps, webtest.Tap(fmt.Sprintf(`[data-action="negate"][data-for="%s"]`, part)))
		}
	}
	return chromedp.Steps(steps...)
}

// Offline (UI.md §9): after a first visit, the network is switched off
// (DevTools network emulation); the table page reloads from the phone,
// three hands are typed, HAND_TOTAL_MISMATCH shows under the wrong input
// with its article before anything is sent, it is fixed; the network
// comes back, the sheet arrives once, the other line confirms and the
// public page updates.
func TestBrowserTableOffline(t *testing.T) {
	hall := startHallSite(t)
	site := hall.Site
	club, tid := tableWorld(t, site)
	code := entryCode(t, site, club, tid)
	sheet := "/v1/tournaments/" + tid + "/rounds/1/tables/1/sheet"
	ctx, cancel := context.WithTimeout(webtest.NewBrowser(t), 4*time.Minute)
	defer cancel()
	apiCall(t, site, "PATCH", "/v1/tournaments/"+tid, club, map[string]any{"public": true}, 200)

	// The public round page, open in another tab all along.
	public, cancelPublic := chromedp.NewContext(ctx)
	defer cancelPublic()
	webtest.Run(t, public, chromedp.Navigate(site.URL+"/p/"+tid+"/rounds/1"), chromedp.WaitVisible(chromedp.CSS(`tr[data-table="1"][data-status="empty"]`)))

	// First visit: the engine loads after the page and the page fills the
	// service worker's cache.
	webtest.Run(t, ctx, chromedp.EmulateViewport(360, 800), chromedp.Navigate(site.URL+"/table/"+code), chromedp.WaitVisible(chromedp.CSS(`#hand-form`)))
	waitJS(t, ctx, `document.getElementById("table").dataset.engineReady === "true"`)
	waitJS(t, ctx, `document.getElementById("table").dataset.offlineReady === "true" && navigator.serviceWorker.controller !== null`)

	// The network goes: the page reloads from the phone itself.
	webtest.Run(t, ctx, offline(true))
	hall.down.Store(true)
	webtest.Run(t, ctx, chromedp.Reload())
	if got := webtest.Text(t, ctx, "#hands-h"); got != "Smazzate" {
		t.Fatalf("the page reloaded offline is not the table page: %q", got)
	}
	webtest.Run(t, ctx, chromedp.WaitVisible(chromedp.CSS(`#hand-form`)))
	waitJS(t, ctx, `document.getElementById("table").dataset.engineReady === "true"`)

	// Two hands, queued on the phone.
	webtest.Run(t, ctx, typeNumbers(0, map[string]int{"ns.base": 300, "ns.points": 235, "eo.base": 100, "eo.points": -120}),
		webtest.Tap(`[data-action="add-hand"]`), chromedp.WaitVisible(chromedp.CSS(`#pending li[data-pending-hand="1"]`)))
	webtest.Run(t, ctx, typeNumbers(1, map[string]int{"ns.base": 0, "ns.points": -55, "eo.base": 400, "eo.points": 180}),
		webtest.Tap(`[data-action="add-hand"]`), chromedp.WaitVisible(chromedp.CSS(`#pending li[data-pending-hand="2"]`)))
	// The third: EO writes 300 for 200 + 65 (RULES §5.1 HAND_TOTAL_MISMATCH,
	// FITAB art. 20). The phone says so under that input, in Italian.
	wrong := `input[name="hands.2.eo.total"] ~ [data-code="HAND_TOTAL_MISMATCH"][data-severity="error"], .signed:has(input[name="hands.2.eo.total"]) + [data-code="HAND_TOTAL_MISMATCH"][data-severity="error"]`
	webtest.Run(t, ctx, typeNumbers(2, map[string]int{"ns.base": 350, "ns.points": 120, "eo.base": 200, "eo.points": 65, "eo.total": 300}),
		chromedp.WaitVisible(chromedp.CSS(wrong)))
	// The check runs as the digits come: wait for the one of all three.
	waitJS(t, ctx, fmt.Sprintf(`(document.querySelector(%q) || {textContent: ""}).textContent.includes("300")`, wrong))
	said := webtest.Text(t, ctx, wrong)
	if !strings.Contains(said, "art. 20") || !strings.Contains(said, "265") || !strings.Contains(said, "300") || !strings.Contains(said, "smazzata 3") {
		t.Errorf("the finding under the EO total says %q: want the Italian words, the numbers and FITAB art. 20", said)
	}
	if got := webtest.Attr(t, ctx, `input[name="hands.2.eo.total"]`, "aria-describedby"); !strings.Contains(got, "-engine-HAND_TOTAL_MISMATCH") {
		t.Errorf("the wrong input is not described by its finding: %q", got)
	}
	// The hands on the phone are checked too: the report is the phone's.
	if !exists(t, ctx, `section.report [data-source="engine"]`) {
		t.Error("the report of the queued hands is not shown")
	}
	webtest.CheckA11y(t, ctx)
	webtest.Screenshot(t, ctx, "table-offline-mismatch")
	webtest.Run(t, ctx, chromedp.EmulateViewport(360, 800))
	if n := hall.writes.Load(); n != 0 {
		t.Fatalf("with the network off the phone sent %d writes", n)
	}
	t.Logf("with the network off: %d reads tried by the service worker, none answered", hall.reads.Load())
	hall.down.Store(false)
	apiCall(t, site, "GET", sheet, club, nil, 404) // nothing has arrived
	hall.down.Store(true)

	// Fixed: the finding goes; the hand is queued.
	webtest.Run(t, ctx, webtest.JS(`document.querySelector('input[name="hands.2.eo.total"]').value = ""`),
		chromedp.SendKeys(chromedp.CSS(`input[name="hands.2.eo.total"]`), "265"),
		chromedp.WaitNotPresent(chromedp.CSS(`[data-code="HAND_TOTAL_MISMATCH"]`)),
		webtest.Tap(`[data-action="add-hand"]`),
		chromedp.WaitVisible(chromedp.CSS(`#pending li[data-pending-hand="3"]`)))

	// The network returns: the three hands arrive once, the page shows
	// the server's report.
	hall.down.Store(false)
	webtest.Run(t, ctx, offline(false), chromedp.WaitVisible(chromedp.CSS(`tr[data-hand="3"]`)))
	got := apiCall(t, site, "GET", sheet, club, nil, 200)
	if n := len(got["sheet"].(map[string]any)["hands"].([]any)); n != 3 {
		t.Fatalf("after the network returned the server has %d hands, want exactly 3", n)
	}
	if exists(t, ctx, `[data-source="engine"]`) || exists(t, ctx, `section.report [data-severity="error"]`) {
		t.Error("the page still shows the phone's verdict, or an error, after the server's report")
	}
	// The scoring line signs (FITAB art. 19: it ends the sheet), then the
	// other line confirms: the sheet is delivered.
	webtest.Run(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-action="end-sheet"]`)),
		chromedp.SetValue(chromedp.CSS(`select[name="line"]`), "ns"),
		chromedp.SendKeys(chromedp.CSS(`input[name="scorer_entrant"]`), "1"),
		chromedp.Click(chromedp.CSS(`[data-action="end-sheet"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-confirmation="ns"]`)))
	webtest.Run(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-action="confirm"]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name="entrant"]`), "3"),
		chromedp.Click(chromedp.CSS(`[data-action="confirm"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-delivered="true"]`)))
	// The public page, never reloaded, updates by itself: NS 535 - 55 +
	// 470 = 950, EO -20 + 580 + 265 = 825.
	webtest.Run(t, public, chromedp.WaitVisible(chromedp.CSS(`tr[data-table="1"][data-status="complete"]`)))
	if got := webtest.Text(t, public, `tr[data-table="1"] [data-col="result"] strong`); got != "950 – 825" {
		t.Errorf("the public page shows %q for table 1, want 950 – 825", got)
	}
}

// the conflicts met when the network returns, in words: the
// sheet changed meanwhile (a correction replaced it: the queued hand goes
// in at its end, and the page says so), and the round closed meanwhile
// (the hand is refused, and the page says why, in Italian).
func TestBrowserTableOfflineConflicts(t *testing.T) {
	hall := startHallSite(t)
	site := hall.Site
	club, tid := tableWorld(t, site)
	code := entryCode(t, site, club, tid)
	sheet := "/v1/tournaments/" + tid + "/rounds/1/tables/1/sheet"
	ctx, cancel := context.WithTimeout(webtest.NewBrowser(t), 4*time.Minute)
	defer cancel()
	webtest.Run(t, ctx, chromedp.EmulateViewport(360, 800), chromedp.Navigate(site.URL+"/table/"+code), chromedp.WaitVisible(chromedp.CSS(`#hand-form`)))
	waitJS(t, ctx, `document.getElementById("table").dataset.offlineReady === "true" && navigator.serviceWorker.controller !== null`)

	// Offline, hand 1 is queued; meanwhile the sheet is replaced with one
	// hand (a correction made at the desk).
	webtest.Run(t, ctx, offline(true))
	webtest.Run(t, ctx, typeNumbers(0, map[string]int{"ns.base": 300, "ns.points": 235, "eo.base": 100, "eo.points": -120}),
		webtest.Tap(`[data-action="add-hand"]`), chromedp.WaitVisible(chromedp.CSS(`#pending li[data-pending-hand="1"]`)))
	apiCall(t, site, "PUT", sheet, club, map[string]any{"hands": []map[string]any{
		{"end": "closed", "ns": map[string]any{"base": 0, "points": -55}, "eo": map[string]any{"base": 400, "points": 180}},
	}}, 201)
	webtest.Run(t, ctx, offline(false), chromedp.WaitVisible(chromedp.CSS(`#messages [data-conflict="changed"]`)))
	if got := webtest.Text(t, ctx, `#messages [data-conflict="changed"]`); !strings.Contains(got, "Il foglio è cambiato") || !strings.Contains(got, "arbitro") {
		t.Errorf("the changed sheet is said as %q", got)
	}
	if n := len(apiCall(t, site, "GET", sheet, club, nil, 200)["sheet"].(map[string]any)["hands"].([]any)); n != 2 {
		t.Fatalf("the server has %d hands, want 2 (the corrected one, then the queued one, once)", n)
	}

	// Offline again, hand 3 is queued; meanwhile the round is closed.
	webtest.Run(t, ctx, offline(true))
	webtest.Run(t, ctx, typeNumbers(2, map[string]int{"ns.base": 350, "ns.points": 120, "eo.base": 200, "eo.points": 65}),
		webtest.Tap(`[data-action="add-hand"]`), chromedp.WaitVisible(chromedp.CSS(`#pending li[data-pending-hand="3"]`)))
	apiCall(t, site, "PATCH", "/v1/tournaments/"+tid+"/rounds/1", club, map[string]any{"state": "sheets_delivered"}, 200)
	webtest.Run(t, ctx, offline(false), chromedp.WaitVisible(chromedp.CSS(`#errors p`)))
	if said := webtest.Text(t, ctx, `#errors p`); !strings.Contains(said, "i fogli di questo turno sono stati consegnati") {
		t.Errorf("the closed round is said as %q, want the Italian words", said)
	}
	if exists(t, ctx, `#pending li`) {
		t.Error("the refused hand is still shown as waiting")
	}
	if n := len(apiCall(t, site, "GET", sheet, club, nil, 200)["sheet"].(map[string]any)["hands"].([]any)); n != 2 {
		t.Errorf("the server has %d hands after the round closed, want 2", n)
	}
}

// If the engine has not loaded, the page works as today — the
// hand is sent and the server's report shows its finding.
func TestBrowserTableWithoutEngine(t *testing.T) {
	hall := startHallSite(t)
	hall.noEngine.Store(true)
	site := hall.Site
	club, tid := tableWorld(t, site)
	code := entryCode(t, site, club, tid)
	ctx, cancel := context.WithTimeout(webtest.NewBrowser(t), 3*time.Minute)
	defer cancel()
	webtest.Run(t, ctx, chromedp.EmulateViewport(360, 800), chromedp.Navigate(site.URL+"/table/"+code), chromedp.WaitVisible(chromedp.CSS(`#hand-form`)))
	waitJS(t, ctx, `document.getElementById("table").dataset.engineReady === "false"`)
	webtest.Run(t, ctx, typeNumbers(0, map[string]int{"ns.base": 300, "ns.points": 235, "eo.base": 100, "eo.points": -120, "eo.total": 20}))
	if exists(t, ctx, `[data-source="engine"]`) {
		t.Fatal("findings without an engine")
	}
	webtest.Run(t, ctx, webtest.Tap(`[data-action="add-hand"]`), chromedp.WaitVisible(chromedp.CSS(`tr[data-hand="1"]`)),
		chromedp.WaitVisible(chromedp.CSS(`section.report [data-code="HAND_TOTAL_MISMATCH"][data-severity="error"][data-pointer="/hands/0/eo/total"]`)))
	if n := len(apiCall(t, site, "GET", "/v1/tournaments/"+tid+"/rounds/1/tables/1/sheet", club, nil, 200)["sheet"].(map[string]any)["hands"].([]any)); n != 1 {
		t.Errorf("the server has %d hands, want 1", n)
	}
}
