package browsertest

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// UI.md §5: a sheet changed meanwhile by someone else is not overwritten
// by a save made on the older version; the person is told and sees both.
func TestSecretarySheetSaveOnStaleVersion(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	tid := webtest.SeedBigTournament(t, db, 2) // every sheet stored once: version 1
	c := webtest.SignedInClient(t, site, "segreteria", pw)
	sheet := site.URL + "/tournaments/" + tid + "/rounds/1/tables/1"

	// Someone else saves version 2.
	ops := app.New(db, nil, nil)
	p := app.Principal{Role: domain.RoleClub, Name: "altro", ClubID: "bc-roma"}
	theirs := []domain.Hand{{Lines: [2]domain.LineScore{{Base: 700, Points: 5}, {Base: 0, Points: 10}}}}
	if _, err := webtest.PutSheet(ops, context.Background(), p, tid, 1, 1, webtest.SheetOf(theirs, [2]domain.WrittenResult{}), 1); err != nil {
		t.Fatal(err)
	}
	mine := url.Values{"version": {"1"}, "hands.0.ns.base": {"100"}, "hands.0.ns.points": {"20"}, "hands.0.eo.base": {"300"}, "hands.0.eo.points": {"40"}}
	resp, err := c.PostForm(sheet, mine)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusConflict || !strings.Contains(string(body), `data-conflict="true"`) || !strings.Contains(string(body), "700") {
		t.Fatalf("stale save: %d, conflict shown: %v", resp.StatusCode, strings.Contains(string(body), "data-conflict"))
	}
	view, err := ops.Sheet(context.Background(), p, tid, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if view.Stored.Version != 2 || view.Stored.Sheet.Hands[0].Lines[0].Base != 700 {
		t.Errorf("the stale save overwrote the sheet: version %d, %+v", view.Stored.Version, view.Stored.Sheet.Hands)
	}
	// Saving again, now on version 2, replaces theirs deliberately.
	mine.Set("version", "2")
	resp, err = c.PostForm(sheet, mine)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Request.URL.RawQuery, "saved=1") {
		t.Errorf("save on the current version: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	// A field that is not a number is named; nothing is stored.
	resp, err = c.PostForm(sheet, url.Values{"version": {"3"}, "hands.0.ns.base": {"tre"}, "hands.0.ns.points": {"1"}, "hands.0.eo.base": {"1"}, "hands.0.eo.points": {"1"}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), `name="hands.0.ns.base" type="text" inputmode="numeric" pattern="-?[0-9]*" autocomplete="off" value="tre" aria-invalid="true"`) {
		t.Errorf("unreadable number: %d", resp.StatusCode)
	}
}

// UI.md §3: an uploaded .xlsx list enters the entrants; a malformed row
// refuses the list with the row named.
func TestSecretaryEntrantsUpload(t *testing.T) {
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
	upload := func(rows [][]any) (int, string) {
		f := excelize.NewFile()
		for i, row := range rows {
			cell, _ := excelize.CoordinatesToCellName(1, i+1)
			f.SetSheetRow("Sheet1", cell, &row)
		}
		var file bytes.Buffer
		f.Write(&file)
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		fw, _ := mw.CreateFormFile("file", "iscritti.xlsx")
		fw.Write(file.Bytes())
		mw.Close()
		resp, err := c.Post(base+"/entrants/upload", mw.FormDataContentType(), &body)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	header := []any{"Numero", "Nome", "Tessera", "Nome", "Tessera"}
	long := strings.Repeat("9", 41) // over the 40 characters of a membership number
	status, body := upload([][]any{header, {1, "Rossi Anna", "FT1", "Bianchi Luca", "FT2"}, {2, "Verdi Carla", long, "Neri Paolo", "FT4"}})
	if status != http.StatusUnprocessableEntity || !strings.Contains(body, "Riga 3, colonna C (n. 2)") {
		t.Errorf("malformed membership: %d, row named: %v", status, strings.Contains(body, "Riga 3"))
	}
	if es, _ := db.ListEntrants(context.Background(), base[strings.LastIndex(base, "/")+1:]); len(es) != 0 {
		t.Errorf("a refused list entered %d entrants", len(es))
	}
	status, body = upload([][]any{header, {1, "Rossi Anna", "FT1", "Bianchi Luca", "FT2"}, {2, "Verdi Carla", "FT3", "Neri Paolo", "FT4"}})
	if status != http.StatusOK || !strings.Contains(body, `data-entrant="2"`) {
		t.Errorf("upload: %d", status)
	}
	if status, _ := upload(nil); status != http.StatusUnprocessableEntity {
		t.Errorf("empty workbook: %d", status)
	}
}
