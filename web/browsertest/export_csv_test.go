package browsertest

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"segnapunti/web/webtest"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// The page's CSV downloads are in the Italian form (";" and a
// BOM) on an Italian page, comma-separated in English, and named after
// the tournament with its accents.
func TestExportCSVItalianAndNamed(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	c := webtest.SignedInClient(t, site, "segreteria", pw)
	resp, err := c.PostForm(site.URL+"/tournaments/new", map[string][]string{"name": {"Torneo del Giovedì"}, "date": {"2026-11-26"}, "level": {"club"},
		"ruleset": {"fitab-2025"}, "kind": {"pairs"}, "rounds_planned": {"2"}, "hands_per_round": {"3"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	base := resp.Request.URL.String()
	get := func(lang string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", base+"/export/Torneo.csv", nil)
		req.Header.Set("Accept-Language", lang)
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	res, body := get("it")
	if res.StatusCode != 200 {
		t.Fatalf("the Torneo CSV: %d", res.StatusCode)
	}
	if !bytes.HasPrefix(body, []byte("\xef\xbb\xbf")) || !strings.Contains(string(body), ";") {
		t.Errorf("Italian CSV: no BOM or no ';': %.60q", body)
	}
	if _, params, _ := mime.ParseMediaType(res.Header.Get("Content-Disposition")); params["filename"] != "Torneo del Giovedì 2026-11-26 torneo.csv" {
		cd := res.Header.Get("Content-Disposition")
		t.Errorf("Content-Disposition %q", cd)
	}
	if _, body = get("en"); bytes.HasPrefix(body, []byte("\xef\xbb\xbf")) {
		t.Errorf("English CSV has a BOM: %.60q", body)
	}
}
