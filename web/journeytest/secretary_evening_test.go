package journeytest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// The secretary's whole evening (UI.md §3, §5, §8): sign in, create a
// tournament of 8 pairs (pasted rows), seat two rounds by hand, type a
// sheet with a sum error and see it on the right input, fix it, enter the
// other tables, deliver, publish, compare the standings with the API's,
// download the federation workbook. Screenshots of every page.
func TestBrowserSecretaryEvening(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.Postgres(t))
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "segreteria", pw)
	// Screenshots of every page; axe-core on the main ones (it costs
	// seconds a page, and the browser budget is two minutes).
	a11y := map[string]bool{"new-error": true, "entrants": true, "round-new": true, "sheet-error": true, "round-full": true, "standings": true, "tournament": true}
	shot := func(name string) {
		t.Helper()
		webtest.Screenshot(t, ctx, "secretary-"+name)
		if a11y[name] {
			webtest.CheckA11y(t, ctx)
		}
	}
	shot("home-empty")

	// New tournament: a refused form names the field, then it is created.
	webtest.Run(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-action="new-tournament"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name="name"]`)),
		webtest.JS(`document.querySelector('[name="rounds_planned"]').value = "2"`),
		chromedp.Click(chromedp.CSS(`[data-action="create-tournament"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name="name"][aria-invalid="true"]`)),
	)
	if d := webtest.Attr(t, ctx, `input[name="name"]`, "aria-describedby"); d == "" || webtest.Text(t, ctx, "#"+d) == "" {
		t.Errorf("name error not pointed at: %q", d)
	}
	shot("new-error")
	webtest.Run(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), "Torneo del giovedì"),
		chromedp.Click(chromedp.CSS(`[data-action="create-tournament"]`)),
		chromedp.WaitVisible(chromedp.CSS(`h1[data-tournament]`)),
	)
	tid := webtest.Attr(t, ctx, `h1[data-tournament]`, "data-tournament")
	if !strings.HasSuffix(webtest.Location(t, ctx), "/tournaments/"+tid) {
		t.Fatalf("after create at %s", webtest.Location(t, ctx))
	}
	if step := webtest.Attr(t, ctx, `[data-next-step]`, "data-next-step"); step != "secretary.next.entrants" {
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
	webtest.Run(t, ctx, chromedp.Navigate(base+"/entrants"), chromedp.WaitVisible(chromedp.CSS(`textarea[name="rows"]`)))
	webtest.SetValue(t, ctx, `textarea[name="rows"]`, bad)
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="paste-entrants"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-errors="rows"]`)))
	if msg := webtest.Text(t, ctx, `[data-errors="rows"]`); !strings.Contains(msg, "Riga 9") {
		t.Errorf("the duplicate row is not named: %q", msg)
	}
	if n := webtest.Count(t, ctx, `table[data-list="entrants"] tr[data-entrant]`); n != 0 {
		t.Errorf("a refused paste entered %d entrants", n)
	}
	shot("entrants-error")
	webtest.SetValue(t, ctx, `textarea[name="rows"]`, strings.Join(rows, "\n"))
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="paste-entrants"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-message="secretary.entrants_added"]`)))
	if n := webtest.Count(t, ctx, `table[data-list="entrants"] tr[data-entrant]`); n != 8 {
		t.Fatalf("%d entrants, want 8", n)
	}
	if got := webtest.Text(t, ctx, `tr[data-entrant="2"]`); !strings.Contains(got, "<script>alert(1)</script>") {
		t.Errorf("a script-like name is not shown as text: %q", got)
	}
	if got := webtest.Text(t, ctx, `tr[data-entrant="3"]`); !strings.Contains(got, `=HYPERLINK("http://x")`) {
		t.Errorf("a formula-like name is not shown as text: %q", got)
	}
	// The club's registry now offers them.
	if n := webtest.Count(t, ctx, `datalist#club-players option`); n != 16 {
		t.Errorf("the registry offers %d players, want 16", n)
	}
	shot("entrants")

	// Round 1: the proposed seating 1–2, 3–4, 5–6, 7–8.
	seatRound(t, ctx, base, 1, [][2]string{{"1", "2"}, {"3", "4"}, {"5", "6"}, {"7", "8"}})
	if n := webtest.Count(t, ctx, `tr[data-table][data-status="empty"]`); n != 4 {
		t.Errorf("%d empty tables, want 4", n)
	}
	shot("round-new")

	// Table 1: a sum error shows on the input it is about, as typed.
	webtest.Run(t, ctx, chromedp.Navigate(base+"/rounds/1/tables/1"), chromedp.WaitVisible(chromedp.CSS(`input[name="hands.0.ns.base"]`)))
	webtest.Run(t, ctx,
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
	if msg := webtest.Text(t, ctx, `[data-code="HAND_TOTAL_MISMATCH"]`); !strings.Contains(msg, "500") || !strings.Contains(msg, "600") {
		t.Errorf("finding %q does not say 300 + 200 = 500, not 600", msg)
	}
	// Base 300 has several readings: a note (info), listed, marking nothing.
	webtest.Run(t, ctx, chromedp.WaitVisible(chromedp.CSS(`[data-code="UNVERIFIABLE_BREAKDOWN"][data-severity="info"]`)))
	if got := webtest.Attr(t, ctx, `[name="hands.0.ns.base"]`, "aria-invalid"); got != "" {
		t.Errorf("a note marks its input after the live check: aria-invalid=%q", got)
	}
	desc := webtest.Attr(t, ctx, `[name="hands.0.ns.total"]`, "aria-describedby")
	if !strings.Contains(desc, webtest.Attr(t, ctx, `[data-code="HAND_TOTAL_MISMATCH"]`, "id")) {
		t.Errorf("the total's aria-describedby %q does not point at the finding", desc)
	}
	if sev := webtest.Attr(t, ctx, `[data-code="HAND_TOTAL_MISMATCH"]`, "data-severity"); sev != "error" {
		t.Errorf("severity %q", sev)
	}
	shot("sheet-error")
	webtest.FillSheet(t, ctx, 3, 0)
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="save-sheet"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-message="secretary.sheet_saved"]`)))
	if n := webtest.Count(t, ctx, `[data-code="HAND_TOTAL_MISMATCH"]`); n != 0 {
		t.Errorf("the fixed sheet still has %d sum errors", n)
	}
	shot("sheet-saved")
	for tb := 2; tb <= 4; tb++ {
		webtest.EnterSheet(t, ctx, base, 1, tb, tb)
	}
	webtest.Run(t, ctx, chromedp.Navigate(base+"/rounds/1"), chromedp.WaitVisible(chromedp.CSS(`tr[data-table="1"]`)))
	if n := webtest.Count(t, ctx, `tr[data-table][data-status="awaiting_confirmation"]`); n != 4 {
		t.Errorf("%d tables awaiting confirmation, want 4", n)
	}
	shot("round-full")
	webtest.DeliverAndPublish(t, ctx, base, 1)
	if n := webtest.Count(t, ctx, `tr[data-table][data-status="delivered"]`); n != 4 {
		t.Errorf("%d tables delivered, want 4", n)
	}
	shot("round-published")

	// Round 2, seated by hand.
	seatRound(t, ctx, base, 2, [][2]string{{"1", "3"}, {"2", "4"}, {"5", "7"}, {"6", "8"}})
	for tb := 1; tb <= 4; tb++ {
		webtest.EnterSheet(t, ctx, base, 2, tb, tb+4)
	}
	webtest.DeliverAndPublish(t, ctx, base, 2)

	// Standings equal the API's.
	webtest.Run(t, ctx, chromedp.Navigate(base+"/standings?after_round=2"), chromedp.WaitVisible(chromedp.CSS(`table[data-standings]`)))
	if p := webtest.Attr(t, ctx, `table[data-standings]`, "data-provisional"); p != "" {
		t.Errorf("published standings marked provisional")
	}
	if c := webtest.Text(t, ctx, `table[data-standings] caption`); !strings.Contains(c, "Classifica") || !strings.Contains(c, "2") {
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
		got := [3]string{webtest.Text(t, ctx, row+`[data-col="rank"]`), webtest.Text(t, ctx, row+`[data-col="vp"]`), webtest.Text(t, ctx, row+`[data-col="mp"]`)}
		want := [3]string{strconv.Itoa(st.Rank), strconv.Itoa(st.VP), strconv.Itoa(st.MP)}
		if got != want {
			t.Errorf("entrant %s: page rank/vp/mp %v, API %v", st.Entrant, got, want)
		}
	}
	shot("standings")

	// The federation workbook downloads through the page's own route.
	webtest.Run(t, ctx, chromedp.Navigate(base+"/export"), chromedp.WaitVisible(chromedp.CSS(`[data-download="workbook"]`)))
	shot("export")
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(document.querySelector('[data-download="workbook"]').href).then(async r => r.status + " " + r.headers.get("content-type") + " " + new Uint8Array(await r.arrayBuffer()).slice(0, 2).join(","))`, chromedp.EvalAwaitPromise))
	if err != nil || got != "200 application/vnd.openxmlformats-officedocument.spreadsheetml.sheet 80,75" {
		t.Errorf("workbook download: %q %v", got, err)
	}
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-tournament="`+tid+`"]`)))
	shot("home")
	webtest.Run(t, ctx, chromedp.Navigate(base), chromedp.WaitVisible(chromedp.CSS(`h1[data-tournament]`)))
	shot("tournament")
	webtest.Run(t, ctx, chromedp.Navigate(base+"/imports"), chromedp.WaitVisible(chromedp.CSS(`[data-download="template"]`)))
	shot("imports")

	// Another club's secretary does not learn the tournament exists.
	other := site.CreatePerson(t, domain.RoleClub, "altro.circolo", "bc-milano")
	client := webtest.SignedInClient(t, site, "altro.circolo", other)
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

// seatRound creates round n with the seating given (ns, eo per table).
func seatRound(t testing.TB, ctx context.Context, base string, n int, seats [][2]string) {
	t.Helper()
	webtest.Run(t, ctx, chromedp.Navigate(base+"/rounds/new"), chromedp.WaitVisible(chromedp.CSS(`[data-action="create-round"]`)))
	if n == 1 {
		// UI.md §3: a table of table, ns, eo selects (a field of this
		// size), each offering every entrant and "—".
		if got := webtest.Count(t, ctx, `select#tables-0-ns option`); got != webtest.Count(t, ctx, `#r-byes option`)+1 || webtest.Count(t, ctx, `select#tables-0-eo`) != 1 || webtest.Count(t, ctx, `datalist`) != 0 {
			t.Errorf("seating fields are not selects of the entrants (%d options)", got)
		}
		webtest.FitsWidth(t, ctx, 360)
		webtest.Screenshot(t, ctx, "secretary-round-form")
	}
	for i, s := range seats {
		webtest.SetValue(t, ctx, fmt.Sprintf(`#tables-%d-table`, i), strconv.Itoa(i+1))
		webtest.SetValue(t, ctx, fmt.Sprintf(`#tables-%d-ns`, i), s[0])
		webtest.SetValue(t, ctx, fmt.Sprintf(`#tables-%d-eo`, i), s[1])
	}
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="create-round"]`)), chromedp.WaitVisible(chromedp.CSS(`tr[data-table]`)))
	if !strings.HasSuffix(webtest.Location(t, ctx), fmt.Sprintf("/rounds/%d", n)) {
		t.Fatalf("after seating round %d at %s", n, webtest.Location(t, ctx))
	}
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
