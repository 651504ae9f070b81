package browsertest

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The table page without JavaScript: the form posts a hand; a wrong value
// is named next to its input; a dead code says why in Italian.
func TestTablePageWithoutScript(t *testing.T) {
	site, club, tid, code := sqliteTable(t)
	post := func(path string, form url.Values) (int, string) {
		return site.PostForm(t, path, form)
	}
	hand := url.Values{"index": {"0"}, "idem": {"k1"}, "hands.0.ns.base": {"300"}, "hands.0.ns.points": {"235"},
		"hands.0.eo.base": {"100"}, "hands.0.eo.points": {"-120"}, "hands.0.end": {"closed"}}
	status, body := post("/table/"+code, hand)
	if status != 200 || !strings.Contains(body, `data-hand="1"`) || !strings.Contains(body, `name="hands.1.ns.base"`) {
		t.Fatalf("after a hand: %d\n%.400s", status, body)
	}
	if status, _ = post("/table/"+code, hand); status != 200 { // the same form again: the key adds it once
		t.Errorf("the resent form: %d, want the page again", status)
	}
	if n := len(apiCall(t, site, "GET", "/v1/tournaments/"+tid+"/rounds/1/tables/1/sheet", club, nil, 200)["sheet"].(map[string]any)["hands"].([]any)); n != 1 {
		t.Errorf("a resent form stored %d hands, want 1", n)
	}
	bad := url.Values{"index": {"1"}, "hands.1.ns.base": {"tre"}, "hands.1.ns.points": {"5"}, "hands.1.eo.base": {"0"}, "hands.1.eo.points": {"0"}}
	status, body = post("/table/"+code, bad)
	if status != http.StatusUnprocessableEntity || !strings.Contains(body, `aria-describedby="hands.1.ns.base-error"`) {
		t.Errorf("a word for a number: %d\n%.300s", status, body)
	}
	status, body = post("/table/"+code+"/call-referee", url.Values{})
	if status != 200 || !strings.Contains(body, "arbitro è stato chiamato") {
		t.Errorf("call the referee: %d", status)
	}
	if calls, err := site.Store.RefereeCalls(context.Background(), tid); err != nil || len(calls) != 1 || calls[0].Table != 1 {
		t.Errorf("referee calls = %v, %v; want table 1", calls, err)
	}
	apiCall(t, site, "PATCH", "/v1/tournaments/"+tid+"/rounds/1", club, map[string]any{"state": "sheets_delivered"}, 200)
	req, _ := http.NewRequest("GET", site.URL+"/table/"+code, nil)
	req.Header.Set("Accept-Language", "it")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusGone || !strings.Contains(string(b), "già stati consegnati") {
		t.Errorf("code of a delivered round: %d\n%.300s", res.StatusCode, b)
	}
}
