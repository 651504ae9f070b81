package browsertest

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"segnapunti/web/webtest"
	"strconv"
	"strings"
	"testing"
	"time"

	"segnapunti/store/dbtest"
)

// FITAB art. 19, UI.md §9: on the phone page the scoring line
// signs first, then only the other line confirms; the scoring line's own
// number is refused with a finding data-code="CONFIRM_OWN_LINE" next to
// the input, in Italian.
func TestTablePageConfirmOwnLineArt19(t *testing.T) {
	site := webtest.StartSite(t, dbtest.SQLite(t))
	club, tid := tableWorld(t, site)
	hand := func(nb, np, eb, ep int) map[string]any {
		return map[string]any{"end": "closed", "ns": map[string]any{"base": nb, "points": np}, "eo": map[string]any{"base": eb, "points": ep}}
	}
	apiCall(t, site, "PUT", "/v1/tournaments/"+tid+"/rounds/1/tables/1/sheet", club,
		map[string]any{"hands": []any{hand(300, 235, 100, -120), hand(0, -55, 400, 180), hand(350, 120, 200, 65)}}, 201)
	code := entryCode(t, site, club, tid)
	send := func(method, path string, form url.Values) (int, string) {
		return site.Send(t, method, path, form)
	}
	// All hands in: the page asks the scoring line to sign, not for a
	// confirmation.
	st, body := send("GET", "/table/"+code, nil)
	if st != 200 || !strings.Contains(body, `data-action="end-sheet"`) || strings.Contains(body, `data-action="confirm"`) {
		t.Fatalf("all hands in: %d, want the scoring line's end and no confirm step", st)
	}
	// A crafted confirmation by number before the end is refused.
	if st, _ = send("POST", "/table/"+code+"/confirm", url.Values{"entrant": {"1"}}); st != http.StatusConflict {
		t.Errorf("a confirmation before the end: %d, want 409", st)
	}
	if st, body = send("POST", "/table/"+code+"/end", url.Values{"line": {"ns"}, "scorer_entrant": {"1"}}); st != 200 || !strings.Contains(body, `data-action="confirm"`) {
		t.Fatalf("NS ends: %d, want the confirm step", st)
	}
	st, body = send("POST", "/table/"+code+"/confirm", url.Values{"entrant": {"1"}})
	if st != http.StatusConflict || !strings.Contains(body, `data-code="CONFIRM_OWN_LINE"`) || !strings.Contains(body, `aria-describedby="entrant-error"`) ||
		!strings.Contains(body, "lo conferma solo la linea avversaria") {
		t.Errorf("the scoring line's own number: %d, want 409 with CONFIRM_OWN_LINE next to the input", st)
	}
	st, body = send("POST", "/table/"+code+"/confirm", url.Values{"entrant": {"3"}})
	if st != 200 || !strings.Contains(body, `data-delivered="true"`) || !strings.Contains(body, `data-confirmation="ns" data-kind="end" data-signed-by="ns"`) ||
		!strings.Contains(body, `data-confirmation="eo" data-kind="confirm" data-signed-by="eo"`) {
		t.Errorf("the other line's number: %d, want delivered with NS's end and EO's confirmation", st)
	}
	// The signatures' times are the hall's clock, not UTC.
	m := regexp.MustCompile(`<time datetime="([^"]+)">([0-9:]+)</time>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no signature time")
	}
	at, err := time.Parse(time.RFC3339, m[1])
	rome, lerr := time.LoadLocation("Europe/Rome")
	if lerr != nil {
		t.Fatal(lerr)
	}
	if err != nil || m[2] != at.In(rome).Format("15:04") {
		t.Errorf("signature time %s shown as %s, want the Europe/Rome clock %s", m[1], m[2], at.In(rome).Format("15:04"))
	}
}

// Once the hands are in, the phone shows the match's MP and VP
// (as the report computes them); info notes such as
// UNVERIFIABLE_BREAKDOWN are folded under "Dettagli", their codes in small
// print; before the last hand no result is shown.
func TestTablePageResultAndDetails(t *testing.T) {
	site := webtest.StartSite(t, dbtest.SQLite(t))
	club, tid := tableWorld(t, site)
	hand := func(nb, np, eb, ep int) map[string]any {
		return map[string]any{"end": "closed", "ns": map[string]any{"base": nb, "points": np}, "eo": map[string]any{"base": eb, "points": ep}}
	}
	sheet := "/v1/tournaments/" + tid + "/rounds/1/tables/1/sheet"
	apiCall(t, site, "PUT", sheet, club, map[string]any{"hands": []any{hand(300, 235, 100, -120), hand(0, -55, 400, 180)}}, 201)
	code := entryCode(t, site, club, tid)
	get := func() string {
		req, _ := http.NewRequest("GET", site.URL+"/table/"+code, nil)
		req.Header.Set("Accept-Language", "it")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	if page := get(); strings.Contains(page, `data-result="mp"`) {
		t.Error("MP shown with 2 of 3 hands")
	}
	apiCall(t, site, "PUT", sheet, club, map[string]any{"hands": []any{hand(300, 235, 100, -120), hand(0, -55, 400, 180), hand(350, 120, 200, 65)}}, 200)
	rep := apiCall(t, site, "GET", sheet, club, nil, 200)["report"].(map[string]any)["computed"].(map[string]any)
	page := get()
	for _, l := range []string{"ns", "eo"} {
		line := rep[l].(map[string]any)
		for _, k := range []string{"mp", "vp"} {
			want := `data-` + k + `="` + l + `">` + strconv.Itoa(int(line[k].(float64))) + `<`
			if !strings.Contains(page, want) {
				t.Errorf("the phone lacks %s", want)
			}
		}
	}
	at := strings.Index(page, `data-details="info"`)
	if at < 0 {
		t.Fatal("no Dettagli section")
	}
	details := page[at:]
	if !strings.Contains(details, `data-code="UNVERIFIABLE_BREAKDOWN"`) || !strings.Contains(page, "Dettagli (") {
		t.Error("the info notes are not folded under Dettagli")
	}
	if before := page[:at]; strings.Contains(before, `data-code="UNVERIFIABLE_BREAKDOWN"`) {
		t.Error("an info note is shown outside Dettagli")
	}
}
