package browsertest

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"segnapunti/web/webtest"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// The entrants page offers a template with its header row in
// the page's language; the template filled in is uploaded as it is (its
// header row recognised), and the entrants are stored.
func TestEntrantsTemplateRoundTrip(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	c := webtest.SignedInClient(t, site, "segreteria", pw)
	resp, err := c.PostForm(site.URL+"/tournaments/new", url.Values{"name": {"Lista"}, "date": {"2026-11-26"}, "level": {"club"}, "ruleset": {"fitab-2025"}, "kind": {"pairs"}, "rounds_planned": {"2"}, "hands_per_round": {"3"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	base := resp.Request.URL.String()
	page, _ := c.Get(base + "/entrants")
	b, _ := io.ReadAll(page.Body)
	page.Body.Close()
	if !strings.Contains(string(b), `data-link="entrants-template"`) {
		t.Error("the entrants page has no link to the template")
	}
	for _, c2 := range []struct{ lang, first, disposition string }{
		{"it", "Numero|Nome giocatore 1|Tessera giocatore 1|Sesso giocatore 1|Anno di nascita giocatore 1|Nome giocatore 2|Tessera giocatore 2|Sesso giocatore 2|Anno di nascita giocatore 2|Circolo", "modello iscritti.xlsx"},
		{"en", "Number|Player 1 name|Player 1 membership|Player 1 sex|Player 1 birth year|Player 2 name|Player 2 membership|Player 2 sex|Player 2 birth year|Club", "entrants template.xlsx"},
	} {
		res, err := c.Get(base + "/entrants/template.xlsx?lang=" + c2.lang)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if _, params, _ := mime.ParseMediaType(res.Header.Get("Content-Disposition")); res.StatusCode != 200 || params["filename"] != c2.disposition {
			t.Fatalf("template (%s): %d, %q", c2.lang, res.StatusCode, res.Header.Get("Content-Disposition"))
		}
		f, err := excelize.OpenReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := f.GetRows(f.GetSheetList()[0])
		if len(rows) != 1 || strings.Join(rows[0], "|") != c2.first {
			t.Errorf("template (%s) rows %q, want the header %q", c2.lang, rows, c2.first)
		}
		if c2.lang != "it" {
			f.Close()
			continue
		}
		// Filled in and uploaded back: the header row is skipped.
		sheet := f.GetSheetList()[0]
		f.SetSheetRow(sheet, "A2", &[]any{1, "Rossi Anna", "FT100001", "F", 1950, "Bianchi Luca", "FT100002", "", "", "Circolo Roma"})
		var file bytes.Buffer
		f.Write(&file)
		f.Close()
		var form bytes.Buffer
		mw := multipart.NewWriter(&form)
		fw, _ := mw.CreateFormFile("file", "iscritti.xlsx")
		fw.Write(file.Bytes())
		mw.Close()
		up, err := c.Post(base+"/entrants/upload", mw.FormDataContentType(), &form)
		if err != nil {
			t.Fatal(err)
		}
		ub, _ := io.ReadAll(up.Body)
		up.Body.Close()
		if up.StatusCode != http.StatusOK || strings.Contains(string(ub), "Riga 1") {
			t.Errorf("the filled template uploaded: %d", up.StatusCode)
		}
	}
	tid := base[strings.LastIndex(base, "/")+1:]
	want := []domain.Player{{Name: "Rossi Anna", Membership: "FT100001", Sex: "F", BirthYear: 1950}, {Name: "Bianchi Luca", Membership: "FT100002"}}
	if es, err := db.ListEntrants(t.Context(), tid); err != nil || len(es) != 1 || es[0].ID != "1" || len(es[0].Players) != 2 ||
		es[0].Players[0] != want[0] || es[0].Players[1] != want[1] || es[0].Club != "Circolo Roma" {
		t.Errorf("entrants after the upload: %+v, %v", es, err)
	}
}
