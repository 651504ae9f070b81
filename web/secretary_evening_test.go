package web

import (
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

	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// The secretary's whole evening (UI.md §3, §5, §8): sign in, create a
// tournament of 8 pairs (pasted rows), seat two rounds by hand, type a
// sheet with a sum error and see it on the right input, fix it, enter the
// other tables, deliver, publish, compare the standings with the API's,
// download the federation workbook. Screenshots of every page.
func TestBrowserSecretaryEvening(t *testing.T) {
	site := startSite(t, dbtest.Postgres(t))
	pw := site.createPerson(t, domain.RoleClub, "segreteria", "bc-roma")
	ctx := newBrowser(t)
	signIn(t, ctx, site, "segreteria", pw)
	// Screenshots of every page; axe-core on the main ones (it costs
	// seconds a page, and the browser budget is two minutes).
	a11y := map[string]bool{"new-error": true, "entrants": true, "round-new": true, "sheet-error": true, "round-full": true, "standings": true, "tournament": true}
	shot := func(name string) {
		t.Helper()
		screenshot(t, ctx, "secretary-"+name)
		if a11y[name] {
			checkA11y(t, ctx)
		}
	}
	shot("home-empty")

	// New tournament: a refused form names the field, then it is created.
	run(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-action="new-tournament"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name="name"]`)),
		js(`document.querySelector('[name="rounds_planned"]').value = "2"`),
		chromedp.Click(chromedp.CSS(`[data-action="create-tournament"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name="name"][aria-invalid="true"]`)),
	)
	if d := attr(t, ctx, `input[name="name"]`, "aria-describedby"); d == "" || text(t, ctx, "#"+d) == "" {
		t.Errorf("name error not pointed at: %q", d)
	}
	shot("new-error")
	run(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), "Torneo del giovedì"),
		chromedp.Click(chromedp.CSS(`[data-action="create-tournament"]`)),
		chromedp.WaitVisible(chromedp.CSS(`h1[data-tournament]`)),
	)
	tid := attr(t, ctx, `h1[data-tournament]`, "data-tournament")
	if !strings.HasSuffix(location(t, ctx), "/tournaments/"+tid) {
		t.Fatalf("after create at %s", location(t, ctx))
	}
	if step := attr(t, ctx, `[data-next-step]`, "data-next-step"); step != "secretary.next.entrants" {
		t.Errorf("next step %q, want add the entrants", step)
	}
	shot("tournament-new")

	// Entrants: a bad paste is refused whole with the row named.
	base := site.URL + "/tournaments/" + tid
	rows := []string{
		"1\tRossi Anna\tFT100001\tBianchi Luca\tFT100002",
		"2\t<script>alert(1)</script>\tFT100003\tVerdi Carla\tFT100004",
		"3\t=HYPERLINK(\"http://x\")\tFT100005\tNeri Paolo\tFT100006",
		"4\tGallo Rita\tFT100007\tConti Ugo\tFT100008",
		"5\tFerri Lia\tFT100009\tMarini Enzo\tFT100010",
		"6\tRicci Sara\tFT100011\tGreco Dino\tFT100012",
		"7\tBruno Ada\tFT100013\tColombo Ivo\tFT100014",
		"8\tRizzi Eva\tFT100015\tLeone Gino\tFT100016",
	}
	bad := strings.Join(append(append([]string{}, rows...), "8\tDoppio Nome\tFT1\tAltro Nome\tFT2"), "\n")
	run(t, ctx, chromedp.Navigate(base+"/entrants"), chromedp.WaitVisible(chromedp.CSS(`textarea[name="rows"]`)))
	setValue(t, ctx, `textarea[name="rows"]`, bad)
	run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="paste-entrants"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-errors="rows"]`)))
	if msg := text(t, ctx, `[data-errors="rows"]`); !strings.Contains(msg, "Riga 9") {
		t.Errorf("the duplicate row is not named: %q", msg)
	}
	if n := count(t, ctx, `table[data-list="entrants"] tr[data-entrant]`); n != 0 {
		t.Errorf("a refused paste entered %d entrants", n)
	}
	shot("entrants-error")
	setValue(t, ctx, `textarea[name="rows"]`, strings.Join(rows, "\n"))
	run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="paste-entrants"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-message="secretary.entrants_added"]`)))
	if n := count(t, ctx, `table[data-list="entrants"] tr[data-entrant]`); n != 8 {
		t.Fatalf("%d entrants, want 8", n)
	}
	if got := text(t, ctx, `tr[data-entrant="2"]`); !strings.Contains(got, "<script>alert(1)</script>") {
		t.Errorf("a script-like name is not shown as text: %q", got)
	}
	if got := text(t, ctx, `tr[data-entrant="3"]`); !strings.Contains(got, `=HYPERLINK("http://x")`) {
		t.Errorf("a formula-like name is not shown as text: %q", got)
	}
	// The club's registry now offers them.
	if n := count(t, ctx, `datalist#club-players option`); n != 16 {
		t.Errorf("the registry offers %d players, want 16", n)
	}
	shot("entrants")

	// Round 1: the proposed seating 1–2, 3–4, 5–6, 7–8.
	seatRound(t, ctx, base, 1, [][2]string{{"1", "2"}, {"3", "4"}, {"5", "6"}, {"7", "8"}})
	if n := count(t, ctx, `tr[data-table][data-status="empty"]`); n != 4 {
		t.Errorf("%d empty tables, want 4", n)
	}
	shot("round-new")

	// Table 1: a sum error shows on the input it is about, as typed.
	run(t, ctx, chromedp.Navigate(base+"/rounds/1/tables/1"), chromedp.WaitVisible(chromedp.CSS(`input[name="hands.0.ns.base"]`)))
	run(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`input[name="hands.0.ns.base"]`), "300"),
		chromedp.SendKeys(chromedp.CSS(`input[name="hands.0.ns.points"]`), "200"),
		chromedp.SendKeys(chromedp.CSS(`input[name="hands.0.ns.total"]`), "600"),
		chromedp.WaitVisible(chromedp.CSS(`[name="hands.0.ns.total"][aria-invalid="true"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-code="HAND_TOTAL_MISMATCH"]`)),
	)
	// The live check never replaces what is being typed.
	for name, want := range map[string]string{"hands.0.ns.base": "300", "hands.0.ns.points": "200", "hands.0.ns.total": "600"} {
		if got, _ := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(`[name="`+name+`"]`))); got != want {
			t.Errorf("%s holds %q after the live check, typed %q", name, got, want)
		}
	}
	if msg := text(t, ctx, `[data-code="HAND_TOTAL_MISMATCH"]`); !strings.Contains(msg, "500") || !strings.Contains(msg, "600") {
		t.Errorf("finding %q does not say 300 + 200 = 500, not 600", msg)
	}
	// Base 300 has several readings: a note (info), listed, marking nothing.
	run(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-code="UNVERIFIABLE_BREAKDOWN"][data-severity="info"]`)))
	if got := attr(t, ctx, `[name="hands.0.ns.base"]`, "aria-invalid"); got != "" {
		t.Errorf("a note marks its input after the live check: aria-invalid=%q", got)
	}
	desc := attr(t, ctx, `[name="hands.0.ns.total"]`, "aria-describedby")
	if !strings.Contains(desc, attr(t, ctx, `[data-code="HAND_TOTAL_MISMATCH"]`, "id")) {
		t.Errorf("the total's aria-describedby %q does not point at the finding", desc)
	}
	if sev := attr(t, ctx, `[data-code="HAND_TOTAL_MISMATCH"]`, "data-severity"); sev != "error" {
		t.Errorf("severity %q", sev)
	}
	shot("sheet-error")
	fillSheet(t, ctx, 3, 0)
	run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="save-sheet"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-message="secretary.sheet_saved"]`)))
	if n := count(t, ctx, `[data-code="HAND_TOTAL_MISMATCH"]`); n != 0 {
		t.Errorf("the fixed sheet still has %d sum errors", n)
	}
	shot("sheet-saved")
	for tb := 2; tb <= 4; tb++ {
		enterSheet(t, ctx, base, 1, tb, tb)
	}
	run(t, ctx, chromedp.Navigate(base+"/rounds/1"), chromedp.WaitVisible(chromedp.CSS(`tr[data-table="1"]`)))
	if n := count(t, ctx, `tr[data-table][data-status="awaiting_confirmation"]`); n != 4 {
		t.Errorf("%d tables awaiting confirmation, want 4", n)
	}
	shot("round-full")
	deliverAndPublish(t, ctx, base, 1)
	if n := count(t, ctx, `tr[data-table][data-status="delivered"]`); n != 4 {
		t.Errorf("%d tables delivered, want 4", n)
	}
	shot("round-published")

	// Round 2, seated by hand.
	seatRound(t, ctx, base, 2, [][2]string{{"1", "3"}, {"2", "4"}, {"5", "7"}, {"6", "8"}})
	for tb := 1; tb <= 4; tb++ {
		enterSheet(t, ctx, base, 2, tb, tb+4)
	}
	deliverAndPublish(t, ctx, base, 2)

	// Standings equal the API's.
	run(t, ctx, chromedp.Navigate(base+"/standings?after_round=2"), chromedp.WaitVisible(chromedp.CSS(`table[data-standings]`)))
	if p := attr(t, ctx, `table[data-standings]`, "data-provisional"); p != "" {
		t.Errorf("published standings marked provisional")
	}
	if c := text(t, ctx, `table[data-standings] caption`); !strings.Contains(c, "Classifica") || !strings.Contains(c, "2") {
		t.Errorf("caption %q", c)
	}
	token, _, err := site.Store.CreateToken(context.Background(), domain.RoleClub, "programma", "bc-roma")
	if err != nil {
		t.Fatal(err)
	}
	var api struct {
		Standings []struct {
			Rank    int    `json:"rank"`
			Entrant string `json:"entrant"`
			VP      int    `json:"vp"`
			MP      int    `json:"mp"`
		} `json:"standings"`
	}
	getJSON(t, site.URL+"/v1/tournaments/"+tid+"/standings?after_round=2", token, &api)
	if len(api.Standings) != 8 {
		t.Fatalf("API standings: %d rows", len(api.Standings))
	}
	for _, st := range api.Standings {
		row := `tr[data-entrant="` + st.Entrant + `"] `
		got := [3]string{text(t, ctx, row+`[data-col="rank"]`), text(t, ctx, row+`[data-col="vp"]`), text(t, ctx, row+`[data-col="mp"]`)}
		want := [3]string{strconv.Itoa(st.Rank), strconv.Itoa(st.VP), strconv.Itoa(st.MP)}
		if got != want {
			t.Errorf("entrant %s: page rank/vp/mp %v, API %v", st.Entrant, got, want)
		}
	}
	shot("standings")

	// The federation workbook downloads through the page's own route.
	run(t, ctx, chromedp.Navigate(base+"/export"), chromedp.WaitVisible(chromedp.CSS(`[data-download="workbook"]`)))
	shot("export")
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(document.querySelector('[data-download="workbook"]').href).then(async r => r.status + " " + r.headers.get("content-type") + " " + new Uint8Array(await r.arrayBuffer()).slice(0, 2).join(","))`, chromedp.EvalAwaitPromise))
	if err != nil || got != "200 application/vnd.openxmlformats-officedocument.spreadsheetml.sheet 80,75" {
		t.Errorf("workbook download: %q %v", got, err)
	}
	run(t, ctx, chromedp.Navigate(site.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-tournament="`+tid+`"]`)))
	shot("home")
	run(t, ctx, chromedp.Navigate(base), chromedp.WaitVisible(chromedp.CSS(`h1[data-tournament]`)))
	shot("tournament")
	run(t, ctx, chromedp.Navigate(base+"/imports"), chromedp.WaitVisible(chromedp.CSS(`[data-download="template"]`)))
	shot("imports")

	// Another club's secretary does not learn the tournament exists.
	other := site.createPerson(t, domain.RoleClub, "altro.circolo", "bc-milano")
	client := signedInClient(t, site, "altro.circolo", other)
	for _, path := range []string{"", "/entrants", "/rounds/1", "/rounds/1/tables/1", "/standings", "/export", "/export/workbook.xlsx"} {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("another club's GET %s: %d, want 404", path, resp.StatusCode)
		}
	}
	resp, err := client.PostForm(base+"/rounds/1/tables/1", url.Values{"hands.0.ns.base": {"1"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("another club's sheet POST: %d, want 404", resp.StatusCode)
	}
}

// setValue sets a field's value as if typed (long texts: SendKeys is slow).
func setValue(t testing.TB, ctx context.Context, sel, value string) {
	t.Helper()
	b, _ := json.Marshal(value)
	q, _ := json.Marshal(sel)
	run(t, ctx, js(fmt.Sprintf(`document.querySelector(%s).value = %s`, q, b)))
}

// fieldValue is the current value of the form field sel (an input's or
// a select's).
func fieldValue(t testing.TB, ctx context.Context, sel string) string {
	t.Helper()
	return evalSelector[string](t, ctx, "document.querySelector(%s).value", sel)
}

// count is how many elements match sel.
func count(t testing.TB, ctx context.Context, sel string) int {
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

// seatRound creates round n with the seating given (ns, eo per table).
func seatRound(t testing.TB, ctx context.Context, base string, n int, seats [][2]string) {
	t.Helper()
	run(t, ctx, chromedp.Navigate(base+"/rounds/new"), chromedp.WaitVisible(chromedp.CSS(`[data-action="create-round"]`)))
	if n == 1 {
		// UI.md §3: a table of table, ns, eo selects (a field of this
		// size), each offering every entrant and "—".
		if got := count(t, ctx, `select#tables-0-ns option`); got != count(t, ctx, `#r-byes option`)+1 || count(t, ctx, `select#tables-0-eo`) != 1 || count(t, ctx, `datalist`) != 0 {
			t.Errorf("seating fields are not selects of the entrants (%d options)", got)
		}
		fitsWidth(t, ctx, 360)
		screenshot(t, ctx, "secretary-round-form")
	}
	for i, s := range seats {
		setValue(t, ctx, fmt.Sprintf(`#tables-%d-table`, i), strconv.Itoa(i+1))
		setValue(t, ctx, fmt.Sprintf(`#tables-%d-ns`, i), s[0])
		setValue(t, ctx, fmt.Sprintf(`#tables-%d-eo`, i), s[1])
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="create-round"]`)), chromedp.WaitVisible(chromedp.CSS(`tr[data-table]`)))
	if !strings.HasSuffix(location(t, ctx), fmt.Sprintf("/rounds/%d", n)) {
		t.Fatalf("after seating round %d at %s", n, location(t, ctx))
	}
}

// fillSheet types a whole correct sheet of hands (the seed varies the
// scores) without written totals.
func fillSheet(t testing.TB, ctx context.Context, hands, seed int) {
	t.Helper()
	for h := 0; h < hands; h++ {
		ns := [2]int{300 + 100*((seed+h)%4), 200 + 50*h}
		eo := [2]int{100 + 50*((seed*3+h)%5), 100 + 20*seed}
		for _, f := range []struct {
			name string
			v    int
		}{{"ns.base", ns[0]}, {"ns.points", ns[1]}, {"eo.base", eo[0]}, {"eo.points", eo[1]}} {
			setValue(t, ctx, fmt.Sprintf(`[name="hands.%d.%s"]`, h, f.name), strconv.Itoa(f.v))
		}
		setValue(t, ctx, fmt.Sprintf(`[name="hands.%d.ns.total"]`, h), "")
		setValue(t, ctx, fmt.Sprintf(`[name="hands.%d.end"]`, h), "closed")
	}
}

// enterSheet types and saves the sheet of a table.
func enterSheet(t testing.TB, ctx context.Context, base string, round, table, seed int) {
	t.Helper()
	run(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/rounds/%d/tables/%d", base, round, table)), chromedp.WaitVisible(chromedp.CSS(`input[name="hands.0.ns.base"]`)))
	fillSheet(t, ctx, 3, seed)
	run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="save-sheet"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-message="secretary.sheet_saved"]`)))
}

// deliverAndPublish moves round n to sheets_delivered, then
// standings_published (a club tournament: the club may).
func deliverAndPublish(t testing.TB, ctx context.Context, base string, n int) {
	t.Helper()
	run(t, ctx,
		chromedp.Navigate(fmt.Sprintf("%s/rounds/%d", base, n)),
		chromedp.Click(chromedp.CSS(`[data-action="state-sheets_delivered"]`)),
		// Sheets typed by the secretary are not confirmed at the table:
		// closing asks first (issue 22), and the secretary confirms.
		chromedp.WaitVisible(chromedp.CSS(`[data-action="confirm-close"]`)),
		chromedp.Click(chromedp.CSS(`[data-action="confirm-close"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-round-state="sheets_delivered"]`)),
		chromedp.Click(chromedp.CSS(`[data-action="state-standings_published"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-round-state="standings_published"]`)),
	)
}

func getJSON(t testing.TB, u, token string, out any) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", u, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

// signedInClient is an HTTP client signed in through /login.
func signedInClient(t testing.TB, site *testSite, name, password string) *http.Client {
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
