package browsertest

import (
	"io"
	"net/http"
	"regexp"
	"segnapunti/web/webtest"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// UI.md §6, FITAB art. 19: when the other line's confirmation alone ends
// and delivers the sheet, the scorer's line did not sign: the sheet page
// and the table page say so and give it no time (not the confirmation's).
func TestSignatureEndedByConfirmation(t *testing.T) {
	site := webtest.StartSite(t, dbtest.SQLite(t))
	club, tid := tableWorld(t, site)
	sheet := "/v1/tournaments/" + tid + "/rounds/1/tables/1/sheet"
	hand := func(nb, np, eb, ep int) map[string]any {
		return map[string]any{"end": "closed", "ns": map[string]any{"base": nb, "points": np}, "eo": map[string]any{"base": eb, "points": ep}}
	}
	apiCall(t, site, "PUT", sheet, club, map[string]any{"hands": []any{hand(300, 235, 100, -120), hand(0, -55, 400, 180), hand(350, 120, 200, 65)}}, 201)
	code := entryCode(t, site, club, tid)
	apiCall(t, site, "POST", sheet+"/confirm", code, map[string]any{"line": "eo", "entrant": "3"}, 200)

	get := func(c *http.Client, path string) string {
		t.Helper()
		req, _ := http.NewRequest("GET", site.URL+path, nil)
		req.Header.Set("Accept-Language", "it")
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d", path, res.StatusCode)
		}
		return string(b)
	}
	item := func(body, open string) string {
		t.Helper()
		m := regexp.MustCompile(`(?s)<li ` + regexp.QuoteMeta(open) + `[^>]*>(.*?)</li>`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no <li %s …>", open)
		}
		return m[0]
	}
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria.uno", "c1")
	page := get(webtest.SignedInClient(t, site, "segreteria.uno", pw), "/tournaments/"+tid+"/rounds/1/tables/1")
	// The summary says exactly who signed, not "both lines".
	if !strings.Contains(page, `data-signatures-summary="confirmed-alone"`) || !strings.Contains(page, "Consegnato dalla sola conferma della Linea EO (coppia n. 3)") ||
		strings.Contains(page, "ciascuna con il proprio numero") {
		t.Errorf("the sheet page's summary of a sheet EO's confirmation alone delivered does not say so")
	}
	for _, c := range []struct{ page, ns, eo, says string }{
		{page, `data-signature="ns"`, `data-signature="eo"`, "chiuso dalla conferma della Linea EO"},
		{get(http.DefaultClient, "/table/"+code), `data-confirmation="ns"`, `data-confirmation="eo"`, "chiuso dalla conferma della Linea EO"},
	} {
		ns, eo := item(c.page, c.ns), item(c.page, c.eo)
		if !strings.Contains(ns, `data-kind="end" data-signed-by="eo"`) || strings.Contains(ns, "<time") || !strings.Contains(ns, c.says) {
			t.Errorf("NS, ended by EO's confirmation: %s", ns)
		}
		if !strings.Contains(eo, `data-kind="confirm" data-signed-by="eo"`) || !strings.Contains(eo, "<time") {
			t.Errorf("EO's confirmation: %s", eo)
		}
	}
}
