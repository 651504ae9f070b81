package webtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"segnapunti/app"
	"segnapunti/domain"
)

// Helpers shared by the site-driving test packages: form fields typed or
// read in the page, signed-in HTTP clients, a big seeded tournament.

// SetValue sets a field's value as if typed (long texts: SendKeys is slow).
func SetValue(t testing.TB, ctx context.Context, sel, value string) {
	t.Helper()
	b, _ := json.Marshal(value)
	q, _ := json.Marshal(sel)
	Run(t, ctx, JS(fmt.Sprintf(`document.querySelector(%s).value = %s`, q, b)))
}

// FieldValue is the current value of the form field sel (an input's or
// a select's).
func FieldValue(t testing.TB, ctx context.Context, sel string) string {
	t.Helper()
	return evalSelector[string](t, ctx, "document.querySelector(%s).value", sel)
}

// Count is how many elements match sel.
func Count(t testing.TB, ctx context.Context, sel string) int {
	t.Helper()
	return evalSelector[int](t, ctx, "document.querySelectorAll(%s).length", sel)
}

// evalSelector evaluates expr with the selector sel quoted in for %s.
func evalSelector[T any](t testing.TB, ctx context.Context, expr, sel string) T {
	t.Helper()
	q, _ := json.Marshal(sel)
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](fmt.Sprintf(expr, q)))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// FillSheet types a whole correct sheet of hands (the seed varies the
// scores) without written totals.
func FillSheet(t testing.TB, ctx context.Context, hands, seed int) {
	t.Helper()
	for h := 0; h < hands; h++ {
		ns := [2]int{300 + 100*((seed+h)%4), 200 + 50*h}
		eo := [2]int{100 + 50*((seed*3+h)%5), 100 + 20*seed}
		for _, f := range []struct {
			name string
			v    int
		}{{"ns.base", ns[0]}, {"ns.points", ns[1]}, {"eo.base", eo[0]}, {"eo.points", eo[1]}} {
			SetValue(t, ctx, fmt.Sprintf(`[name="hands.%d.%s"]`, h, f.name), strconv.Itoa(f.v))
		}
		SetValue(t, ctx, fmt.Sprintf(`[name="hands.%d.ns.total"]`, h), "")
		SetValue(t, ctx, fmt.Sprintf(`[name="hands.%d.end"]`, h), "closed")
	}
}

// EnterSheet types and saves the sheet of a table.
func EnterSheet(t testing.TB, ctx context.Context, base string, round, table, seed int) {
	t.Helper()
	Run(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/rounds/%d/tables/%d", base, round, table)), chromedp.WaitVisible(chromedp.CSS(`input[name="hands.0.ns.base"]`)))
	FillSheet(t, ctx, 3, seed)
	Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="save-sheet"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-message="secretary.sheet_saved"]`)))
}

// SignedInClient is an HTTP client signed in through /login.
func SignedInClient(t testing.TB, site *Site, name, password string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	resp, err := c.PostForm(site.URL+"/login", url.Values{"username": {name}, "password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(jar.Cookies(resp.Request.URL)) == 0 {
		t.Fatalf("sign-in of %s set no cookie (%d)", name, resp.StatusCode)
	}
	return c
}

// WaitFor polls a JavaScript condition in the page every 25 ms.
func WaitFor(t testing.TB, ctx context.Context, cond string, within time.Duration, what string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s (last error: %v)", within, what, err)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// SeedBigTournament makes a club tournament with 2×tables pairs, one
// round of tables seated and every sheet entered.
func SeedBigTournament(b testing.TB, db *app.DB, tables int) string {
	ctx := context.Background()
	ops := app.New(db, nil, nil)
	p := app.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "bc-roma"}
	tr, err := ops.CreateTournament(ctx, p, app.TournamentInput{Name: "Grande", Date: "2026-11-26", Level: "club", Ruleset: "fitab-2025", Kind: "pairs", RoundsPlanned: 3, HandsPerRound: 3})
	if err != nil {
		b.Fatal(err)
	}
	var es []app.EntrantInput
	for i := 1; i <= 2*tables; i++ {
		es = append(es, app.EntrantInput{ID: strconv.Itoa(i), Players: []domain.Player{{Name: fmt.Sprintf("Giocatore %dA", i), Membership: fmt.Sprintf("FT%06d", 2*i)}, {Name: fmt.Sprintf("Giocatore %dB", i), Membership: fmt.Sprintf("FT%06d", 2*i+1)}}})
	}
	if _, err := ops.AddEntrants(ctx, p, tr.ID, es); err != nil {
		b.Fatal(err)
	}
	in := app.RoundInput{Number: 1, Phase: "mitchell"}
	for t := 1; t <= tables; t++ {
		in.Tables = append(in.Tables, domain.TableAssignment{Table: t, NS: strconv.Itoa(2*t - 1), EO: strconv.Itoa(2 * t)})
	}
	if _, err := ops.CreateRound(ctx, p, tr.ID, in); err != nil {
		b.Fatal(err)
	}
	for t := 1; t <= tables; t++ {
		hands := []domain.Hand{}
		for h := 0; h < 3; h++ {
			hands = append(hands, domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300 + 10*h, Points: 200}, {Base: 100 + t, Points: 150}}})
		}
		if _, err := PutSheet(ops, ctx, p, tr.ID, 1, t, SheetOf(hands, [2]domain.WrittenResult{}), 0); err != nil {
			b.Fatal(err)
		}
	}
	return tr.ID
}

// PageClient is a signed-in HTTP client (no redirects followed, so a 303
// is seen as such).
type PageClient struct {
	t      *testing.T
	Base   string       // the site's URL
	Client *http.Client // signed in, redirects not followed
}

func SignInClient(t *testing.T, site *Site, name, pw string) *PageClient {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	pc := &PageClient{t: t, Base: site.URL, Client: c}
	if st, _ := pc.Post("/login", url.Values{"username": {name}, "password": {pw}}); st != http.StatusSeeOther {
		t.Fatalf("sign in %s: %d", name, st)
	}
	return pc
}

func (p *PageClient) Do(req *http.Request) (int, string) {
	p.t.Helper()
	req.Header.Set("Accept-Language", "it")
	res, err := p.Client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func (p *PageClient) Get(path string) (int, string) {
	req, _ := http.NewRequest("GET", p.Base+path, nil)
	return p.Do(req)
}

func (p *PageClient) Post(path string, v url.Values) (int, string) {
	req, _ := http.NewRequest("POST", p.Base+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return p.Do(req)
}

// SheetOf builds the sheet of a target from hands and written results, as
// the sheet form does (API §4.1 defaults: the tournament's ruleset, the
// round's hands, the seated ids).
func SheetOf(hands []domain.Hand, written [2]domain.WrittenResult) func(app.SheetTarget) (domain.Sheet, error) {
	return func(g app.SheetTarget) (domain.Sheet, error) {
		sh := g.EmptySheet()
		sh.Hands, sh.Written = hands, written
		return sh, nil
	}
}

// DeliverAndPublish moves round n to sheets_delivered, then
// standings_published (a club tournament: the club may).
func DeliverAndPublish(t testing.TB, ctx context.Context, base string, n int) {
	t.Helper()
	Run(t, ctx,
		chromedp.Navigate(fmt.Sprintf("%s/rounds/%d", base, n)),
		chromedp.Click(chromedp.CSS(`[data-action="state-sheets_delivered"]`)),
		// Sheets typed by the secretary are not confirmed at the table:
		// closing asks first, and the secretary confirms.
		chromedp.WaitVisible(chromedp.CSS(`[data-action="confirm-close"]`)),
		chromedp.Click(chromedp.CSS(`[data-action="confirm-close"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-round-state="sheets_delivered"]`)),
		chromedp.Click(chromedp.CSS(`[data-action="state-standings_published"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-round-state="standings_published"]`)),
	)
}

// APIDo sends one JSON request to the site's API, with a bearer token
// unless token is empty, and returns the status and the body.
func (s *Site) APIDo(t testing.TB, token, method, path string, body any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.URL+path, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, out
}

// PutSheet stores a sheet as a door does: the table's scope first, then
// the sheet built for it (SheetOf).
func PutSheet(ops *app.App, ctx context.Context, p app.Principal, tid string, round, table int, build func(app.SheetTarget) (domain.Sheet, error), version int) (app.PutResult, error) {
	sc, err := ops.SheetScope(ctx, p, tid, round, table, app.SheetReplace)
	if err != nil {
		return app.PutResult{}, err
	}
	sh, err := build(sc.SheetTarget)
	if err != nil {
		return app.PutResult{}, err
	}
	return ops.PutSheet(ctx, sc, sh, version)
}

// AppendHand adds a hand as a door does: the table's scope first.
func AppendHand(ops *app.App, ctx context.Context, p app.Principal, tid string, round, table int, h domain.Hand, key string) (app.AppendResult, error) {
	sc, err := ops.SheetScope(ctx, p, tid, round, table, app.SheetWrite)
	if err != nil {
		return app.AppendResult{}, err
	}
	return ops.AppendHand(ctx, sc, h, key)
}

// PostForm posts a form to the site without a session, in Italian,
// following a redirect, and returns the status and the body.
func (s *Site) PostForm(t testing.TB, path string, form url.Values) (int, string) {
	t.Helper()
	return s.Send(t, "POST", path, form)
}

// Send is PostForm with another method (a GET sends no form).
func (s *Site) Send(t testing.TB, method, path string, form url.Values) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept-Language", "it")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// tableSettledJS: the table page's rules engine has loaded (or cannot)
// and no check of it is due, so no finding is about to appear or go and
// move the buttons below it; true on a page without the engine.
const tableSettledJS = `(function(m){return !m || !m.dataset.engine || (!!m.dataset.engineReady && !m.dataset.engineCheck)})(document.getElementById("table"))`

// Tap clicks sel on the table page once its findings have settled.
// chromedp.Click presses the mouse at the centre the button had when it
// was found: a finding shown or removed by the phone's engine in between
// (its check runs when the digits pause) moves the button, and the
// click lands beside it — the hand is never sent and the test waits for
// it until its time is over.
func Tap(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Poll[bool](tableSettledJS, chromedp.WithPollingTimeout(time.Minute))(ctx, tg)
			if err != nil {
				return fmt.Errorf("the table page's engine did not settle: %w", err)
			}
			return nil
		}),
		chromedp.Click(chromedp.CSS(sel)))
}

// TypeHand types hand i on the table page (UI.md §6) and adds it:
// each line's base and points, EO's written total when given.
func TypeHand(i int, nsBase, nsPoints, eoBase, eoPoints int, eoTotal string) chromedp.Action[chromedp.Void] {
	f := func(part string) chromedp.CSS { return chromedp.CSS(fmt.Sprintf(`input[name="hands.%d.%s"]`, i, part)) }
	// A negative number is typed as a phone's numeric keypad allows: the
	// digits, then the ± button beside the field.
	num := func(part string, v int) chromedp.Action[chromedp.Void] {
		if v >= 0 {
			return chromedp.SendKeys(f(part), fmt.Sprint(v))
		}
		return chromedp.Steps(chromedp.SendKeys(f(part), fmt.Sprint(-v)),
			Tap(fmt.Sprintf(`[data-action="negate"][data-for="%s"]`, part)))
	}
	steps := []chromedp.Action[chromedp.Void]{num("ns.base", nsBase), num("ns.points", nsPoints), num("eo.base", eoBase), num("eo.points", eoPoints)}
	if eoTotal != "" {
		steps = append(steps, chromedp.SendKeys(f("eo.total"), eoTotal))
	}
	steps = append(steps, Tap(`[data-action="add-hand"]`))
	return chromedp.Steps(steps...)
}

// SeedWinningRound seats round 1 of tid at tables 1..tables (NS pair
// 2t−1 against EO pair 2t) and stores their sheets: every NS line wins by
// a margin that falls with the table number (NS 1530 against EO 750 +
// 3·table), so the NS pairs rank first in table order, then the EO pairs
// from the last table down.
func SeedWinningRound(t *testing.T, ops *app.App, p app.Principal, tid string, tables int) {
	t.Helper()
	ctx := context.Background()
	in := app.RoundInput{Number: 1, Phase: "mitchell"}
	for tb := 1; tb <= tables; tb++ {
		in.Tables = append(in.Tables, domain.TableAssignment{Table: tb, NS: strconv.Itoa(2*tb - 1), EO: strconv.Itoa(2 * tb)})
	}
	if _, err := ops.CreateRound(ctx, p, tid, in); err != nil {
		t.Fatal(err)
	}
	for tb := 1; tb <= tables; tb++ {
		var hands []domain.Hand
		for h := 0; h < 3; h++ {
			hands = append(hands, domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300 + 10*h, Points: 200}, {Base: 100 + tb, Points: 150}}})
		}
		if _, err := PutSheet(ops, ctx, p, tid, 1, tb, SheetOf(hands, [2]domain.WrittenResult{}), 0); err != nil {
			t.Fatal(err)
		}
	}
}
