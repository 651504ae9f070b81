// Package webtest is the harness of the tests that drive the whole site
// (UI.md §8): the API and the pages on a loopback port with a fresh
// database, people of any role, and one real Chromium per test binary
// driven by chromedp. Only tests import it:
//
//	site := webtest.StartSite(t, dbtest.Postgres(t)) // or dbtest.SQLite(t)
//	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
//	ctx := webtest.NewBrowser(t)                     // skips without chromium (fails under CI)
//	webtest.SignIn(t, ctx, site, "segreteria", pw)
//	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/admin"))
//	webtest.Screenshot(t, ctx, "admin")              // PNGs at 360 and 1280 px
//	webtest.CheckA11y(t, ctx)                        // axe-core: no serious/critical violation
//
// A test package's TestMain closes the browser: dbtest.Main(m,
// webtest.CloseBrowser). Find elements by the contract names (ids of
// labelled inputs, form field names, data-* attributes), never by CSS
// classes or positions (STYLE §15).
package webtest

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"segnapunti/api"
	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/web"
)

// Site is the whole service on a loopback port.
type Site struct {
	URL   string // http://127.0.0.1:PORT
	Store *app.DB
	// App is the site's own operations: a change made through it reaches
	// the site's caches and live events like one made over HTTP (another
	// app.New over Store would leave the public pages' snapshots stale).
	App *app.App
}

// StartSite serves API + pages over db on a loopback port until the test
// ends.
func StartSite(t testing.TB, db *app.DB) *Site {
	t.Helper()
	return StartSiteWith(t, db, web.Deps{})
}

// StartSiteWith is StartSite with the page settings of deps (PublicURL,
// LANURL); Store, App and Log are the site's own.
func StartSiteWith(t testing.TB, db *app.DB, deps web.Deps) *Site {
	t.Helper()
	log := serverLog(t)
	ops := app.New(db, nil, log)
	deps.Store, deps.App, deps.Log = db, ops, log
	pages, err := web.New(deps)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: web.Site(api.NewServer(api.Config{App: ops}, db, log), pages), ReadHeaderTimeout: 5 * time.Second}
	srv.RegisterOnShutdown(ops.Close)
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	return &Site{URL: "http://" + ln.Addr().String(), Store: db, App: ops}
}

// serverLog is the site's log: kept quiet, and written into the test's
// output only when the test fails (a page that failed says why there).
func serverLog(t testing.TB) *slog.Logger {
	var kept keptLog
	t.Cleanup(func() {
		kept.mu.Lock()
		defer kept.mu.Unlock()
		if t.Failed() && kept.buf.Len() > 0 {
			t.Logf("the site's log:\n%s", kept.buf.String())
		}
	})
	return slog.New(slog.NewTextHandler(&kept, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// keptLog keeps the first 64 KiB written to it, from any goroutine.
type keptLog struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (k *keptLog) Write(p []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.buf.Len() < 64<<10 {
		k.buf.Write(p)
	}
	return len(p), nil
}

// CreatePerson makes a person of role (a club person's club is created if
// new) and returns their password.
func (s *Site) CreatePerson(t testing.TB, role domain.Role, name, clubID string) string {
	t.Helper()
	ctx := context.Background()
	if clubID != "" {
		if _, err := s.Store.GetClub(ctx, clubID); errors.Is(err, domain.ErrNotFound) {
			if _, err := s.Store.CreateClub(ctx, domain.Club{ID: clubID, Name: "Circolo " + clubID}); err != nil {
				t.Fatal(err)
			}
		}
	}
	pw := app.GeneratePassword()
	if _, err := s.Store.CreatePerson(ctx, name, role, clubID, pw); err != nil {
		t.Fatal(err)
	}
	return pw
}

// ChromiumPath finds Debian's chromium. Without it a test skips, saying
// how to install it, except under CI (CI set), where it fails.
func ChromiumPath(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const how = "browser tests need Chromium: apt-get install -y chromium"
	if os.Getenv("CI") != "" {
		t.Fatal(how + " (CI is set, so this fails instead of skipping)")
	}
	t.Skip(how)
	return ""
}

// BrowserTimeout bounds one browser test.
const BrowserTimeout = 8 * time.Minute // the secretary's whole evening takes ~2 min on a loaded machine; CI shares its 2 cores with PostgreSQL

// chromium is the one browser process of this test binary: every test
// gets a tab in a fresh browser context of it (its own cookies, storage
// and cache, like a separate profile), so the browser starts once per
// package, not once per test. TestMain closes it.
var chromium struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	err    error
}

// browserRoot starts the shared Chromium on first use.
func browserRoot(t testing.TB) context.Context {
	t.Helper()
	path := ChromiumPath(t)
	chromium.once.Do(func() {
		dir, err := os.MkdirTemp("", "segnapunti-chromium-")
		if err != nil {
			chromium.err = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path),
			chromedp.NoSandbox, // as root on CI machines
			chromedp.DisableGPU,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("no-first-Run", true),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("lang", "it-IT"), // Accept-Language as an Italian browser sends it
			chromedp.Flag("accept-lang", "it-IT,it"),
			chromedp.UserDataDir(dir),
			chromedp.WindowSize(1280, 900),
		)
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(alloc)
		chromium.ctx = ctx
		chromium.cancel = func() { cancelCtx(); cancelAlloc(); os.RemoveAll(dir) }
		chromium.err = chromedp.Do(ctx) // starts the browser
	})
	if chromium.err != nil {
		t.Fatalf("start chromium: %v", chromium.err)
	}
	return chromium.ctx
}

// CloseBrowser stops the shared Chromium, if it was started.
func CloseBrowser() {
	if chromium.cancel != nil {
		chromium.cancel()
	}
}

// NewBrowser opens a tab of the shared headless Chromium in a fresh
// browser context for this test and returns its context (1280×900).
// JavaScript dialogs (alert) fail the test: a page that runs an injected
// script is a bug.
func NewBrowser(t testing.TB) context.Context {
	t.Helper()
	root := browserRoot(t)
	tab, cancelTab := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	ctx, cancelTimeout := context.WithTimeout(tab, BrowserTimeout)
	t.Cleanup(func() { cancelTimeout(); cancelTab() })
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil { // opens the tab
		t.Fatalf("open a tab: %v", err)
	}
	var dialogs sync.Mutex
	chromedp.Listen(ctx, func(ev any) {
		d, ok := ev.(*page.EventJavascriptDialogOpening)
		if !ok {
			return
		}
		dialogs.Lock()
		t.Errorf("a JavaScript dialog opened: %q", d.Message)
		dialogs.Unlock()
		go chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
			return err
		}))
	})
	return ctx
}

// StepTimeout bounds one Run. A wait for what never comes (a click that
// missed, a request that never returned) fails within minutes and says
// what the page showed, rather than at BrowserTimeout with nothing but
// "context deadline exceeded". The slowest single step seen, a first
// page load on a CI machine shared with PostgreSQL, took seconds.
const StepTimeout = 3 * time.Minute

// Run runs browser actions, failing the test on error with what the page
// showed then (PageState).
func Run(t testing.TB, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	// A tab lives as long as the context of its first call (chromedp.Run's
	// documentation): a tab not yet opened (a second tab of the test) is
	// opened with ctx, not with the step's short context.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("browser: %v", err)
	}
	step, cancel := context.WithTimeout(ctx, StepTimeout)
	defer cancel()
	if err := chromedp.Do(step, steps...); err != nil {
		t.Fatalf("browser: %v\n%s", err, PageState(ctx))
	}
}

// pageStateJS describes the page for a failed step: where it is, what it
// says in its alerts, the start of its text, and its last requests with
// their status (0: no answer, or not yet).
const pageStateJS = `(function(){
  var out = ["at " + location.href + " (" + document.readyState + ")"];
  document.querySelectorAll("[role=alert], .error, .notice, #errors, #messages").forEach(function(el){
    var s = el.innerText.trim(); if (s) out.push("says: " + s.slice(0, 300));
  });
  var ds = document.querySelector("main") ? Object.assign({}, document.querySelector("main").dataset) : {};
  Object.keys(ds).forEach(function(k){ if (k === "sheet" || /Label$/.test(k)) delete ds[k]; });
  out.push("main data: " + JSON.stringify(ds).slice(0, 600));
  out.push("text: " + (document.body ? document.body.innerText : "").replace(/\s+/g, " ").slice(0, 800));
  performance.getEntriesByType("resource").slice(-10).forEach(function(r){
    out.push("request: " + r.initiatorType + " " + r.name.replace(location.origin, "") + " " + (r.responseStatus || 0) + " in " + Math.round(r.duration) + " ms");
  });
  return out.join("\n");
})()`

// PageState says what the tab shows now, for a failure's message; the tab
// gets 10 seconds to answer.
func PageState(ctx context.Context) string {
	if ctx.Err() != nil {
		return "(the test's browser time is over: the page cannot be asked)"
	}
	ask, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(ask, chromedp.Evaluate[string](pageStateJS))
	if err != nil {
		return "(the page did not answer: " + err.Error() + ")"
	}
	return s
}

// JS runs a script in the page, ignoring its value.
func JS(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Evaluate[any](expr+";true")(ctx, tg)
		return err
	})
}

// Text returns an element's visible Text.
func Text(t testing.TB, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	for try := 0; err != nil && Swapped(err) && try < 5; try++ {
		s, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	}
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// Swapped: the element was found, then replaced before it was read (a
// live page swapping a fragment in, htmx/SSE); reading again finds the new
// one.
func Swapped(err error) bool {
	return strings.Contains(err.Error(), "No node with given id found") || strings.Contains(err.Error(), "Could not find node with given id")
}

// Attr returns an element's attribute ("" when absent).
func Attr(t testing.TB, ctx context.Context, sel, name string) string {
	t.Helper()
	attrs, err := chromedp.Run(ctx, chromedp.Attributes(chromedp.CSS(sel)))
	for try := 0; err != nil && Swapped(err) && try < 5; try++ {
		attrs, err = chromedp.Run(ctx, chromedp.Attributes(chromedp.CSS(sel)))
	}
	if err != nil {
		t.Fatalf("attributes of %s: %v", sel, err)
	}
	return attrs[name]
}

// Location is the tab's current URL.
func Location(t testing.TB, ctx context.Context) string {
	t.Helper()
	u, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// SignIn signs in through /login as a person would.
func SignIn(t testing.TB, ctx context.Context, site *Site, name, password string) {
	t.Helper()
	Run(t, ctx,
		chromedp.Navigate(site.URL+"/login"),
		chromedp.SendKeys(chromedp.CSS(`input[name="username"]`), name),
		chromedp.SendKeys(chromedp.CSS(`input[name="password"]`), password),
		chromedp.Submit(chromedp.CSS(`input[name="password"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-action="logout"]`)),
	)
}

// screenshotDir is where screenshots go: env SEGNAPUNTI_SCREENSHOTS, else
// testdata/screenshots of the test's package (git-ignored).
func screenshotDir(t testing.TB) string {
	dir := os.Getenv("SEGNAPUNTI_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join("testdata", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Screenshot writes full-page PNGs of the current page at 360 px (a phone)
// and 1280 px wide: NAME-360.png, NAME-1280.png. At 360 px it also fails
// the test when the page does not fit (see OverflowAt). The viewport is
// left at 1280.
func Screenshot(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	dir := screenshotDir(t)
	for _, width := range []int64{360, 1280} {
		Run(t, ctx, chromedp.EmulateViewport(width, 800), chromedp.Sleep(150*time.Millisecond)) // let the layout settle
		if width == 360 {
			if wide := OverflowAt(t, ctx, width); wide != "" {
				t.Errorf("%s at %d px: %s", name, width, wide)
			}
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s at %d px: %v", name, width, err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.png", name, width)), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	Run(t, ctx, chromedp.EmulateViewport(1280, 900))
}

// axeSource is axe-core (axe.min.js beside this file, README.axe-core.md;
// never served).
//
//go:embed axe.min.js
var axeSource string

// axeViolation is what CheckA11y reports of axe-core's result.
type axeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Targets []string `json:"targets"`
}

// CheckA11y runs axe-core (axeSource) in the current
// page and fails on serious or critical violations (UI.md §8).
func CheckA11y(t testing.TB, ctx context.Context) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](axeSource+";undefined", chromedp.EvalIgnoreExceptions)); err != nil && !errors.Is(err, chromedp.ErrJSUndefined) {
		t.Fatalf("load axe-core: %v", err)
	}
	const script = `axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(r.violations.map(v => ({
		id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map(n => n.target.join(" "))}))))`
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe-core: %v", err)
	}
	var vs []axeViolation
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		t.Fatalf("axe-core result: %v", err)
	}
	u := Location(t, ctx)
	for _, v := range vs {
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Errorf("accessibility (%s) on %s: %s — %s at %v", v.Impact, u, v.ID, v.Help, v.Targets)
		} else {
			t.Logf("accessibility (%s) on %s: %s — %s at %v", v.Impact, u, v.ID, v.Help, v.Targets)
		}
	}
}

// FitsWidth fails the test when the page does not fit width px (UI.md
// §1: every page works at 360 px; see OverflowAt); the viewport is left
// at 1280.
func FitsWidth(t testing.TB, ctx context.Context, width int64) {
	t.Helper()
	Run(t, ctx, chromedp.EmulateViewport(width, 800), chromedp.Sleep(150*time.Millisecond))
	wide := OverflowAt(t, ctx, width)
	Run(t, ctx, chromedp.EmulateViewport(1280, 900))
	if wide != "" {
		t.Errorf("at %d px: %s", width, wide)
	}
}

// OverflowAt says how the page, laid out at width px, does not fit ("" when
// it does): the page scrolls sideways, or a form control (an input, a
// select, a button) sits out of sight to the right inside a box that
// scrolls — a field a secretary on a phone would not find. The elements
// that stick out are named.
func OverflowAt(t testing.TB, ctx context.Context, width int64) string {
	t.Helper()
	wide, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(function(){
		var w = %d, out = [];
		function name(el) {
			var p = el.parentElement;
			return (p ? p.tagName.toLowerCase() + (p.getAttribute("aria-label") ? "[" + p.getAttribute("aria-label") + "]" : "") + ">" : "") +
				el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.getAttribute("name") ? "[name=" + el.getAttribute("name") + "]" : "") +
				(el.className && typeof el.className === "string" ? "." + el.className : "") + " right=" + Math.round(el.getBoundingClientRect().right);
		}
		if (document.documentElement.scrollWidth > w) {
			document.querySelectorAll("body *").forEach(function(el){
				if (el.getBoundingClientRect().right > w + 1 && out.length < 5) out.push(name(el));
			});
			return "the page scrolls sideways (scrollWidth " + document.documentElement.scrollWidth + "): " + out.join(", ");
		}
		document.querySelectorAll("input:not([type=hidden]), select, textarea, button").forEach(function(el){
			var r = el.getBoundingClientRect();
			if (r.width > 0 && r.right > w + 1 && out.length < 5) out.push(name(el));
		});
		return out.length ? "form controls out of sight to the right: " + out.join(", ") : "";
	})()`, width)))
	if err != nil {
		t.Fatal(err)
	}
	return wide
}
