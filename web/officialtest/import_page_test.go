package officialtest

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// paperMatch is one paper-layout sheet (API §5 B) of a test workbook.
type paperMatch struct {
	round, table int
	ns, eo       string
	nsTotal1     int // hand 1's written NS total (300+120 = 420 is right)
}

// importWorkbook writes one paper-layout sheet per match, T1, T2, …: the
// header block, the hand header in row 5, hands in rows 6–8.
func importWorkbook(t testing.TB, matches ...paperMatch) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, m := range matches {
		name := "T" + strconv.Itoa(i+1)
		if i == 0 {
			if err := f.SetSheetName("Sheet1", name); err != nil {
				t.Fatal(err)
			}
		} else if _, err := f.NewSheet(name); err != nil {
			t.Fatal(err)
		}
		rows := [][]any{
			{"Torneo", "Prova"},
			{"Turno", m.round, "Tavolo", m.table},
			{"Coppia NS", m.ns, "Coppia EO", m.eo},
			{},
			{"Smazzata", "NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "EO Totale"},
			{1, 300, 120, m.nsTotal1, 100, -40, 60},
			{2, 0, -55, -55, 400, 180, 580},
			{3, 350, 120, 470, 200, 65, 265},
		}
		for r, values := range rows {
			if err := f.SetSheetRow(name, "A"+strconv.Itoa(r+1), &values); err != nil {
				t.Fatal(err)
			}
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// postWorkbook posts data as the form's file field.
func postWorkbook(t *testing.T, c *http.Client, url, filename string, data []byte) (int, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if data != nil {
		fw, _ := mw.CreateFormFile("file", filename)
		fw.Write(data)
	}
	mw.Close()
	resp, err := c.Post(url, mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// UI.md §3 / API §5: the page's upload stores the workbook's sheets through
// the same operation as the API, shows the report sheet by sheet with the
// cells named, answers the same file again unchanged, and refuses a
// workbook that does not fit the tournament naming the cell, storing
// nothing.
func TestImportPageUpload(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	tid := webtest.SeedBigTournament(t, db, 2) // round 1, tables 1–2 stored once
	c := webtest.SignedInClient(t, site, "segreteria", pw)
	page := site.URL + "/tournaments/" + tid + "/imports"
	ctx := context.Background()
	ops := app.New(db, nil, nil)
	p := app.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "bc-roma"}

	// A workbook that does not fit: round 1 has no table 9. Refused, the
	// cell named, nothing stored.
	status, body := postWorkbook(t, c, page, "sbagliato.xlsx", importWorkbook(t,
		paperMatch{1, 1, "1", "2", 420}, paperMatch{1, 9, "17", "18", 420}))
	if status != http.StatusUnprocessableEntity || !strings.Contains(body, `id="import-refusal"`) || !strings.Contains(body, `data-cell="T2!D2"`) {
		t.Fatalf("misfit: %d, refusal shown %v, cell named %v", status, strings.Contains(body, "import-refusal"), strings.Contains(body, `data-cell="T2!D2"`))
	}
	if v, err := ops.Sheet(ctx, p, tid, 1, 1); err != nil || v.Stored.Version != 1 {
		t.Fatalf("a refused workbook changed table 1: version %d, %v", v.Stored.Version, err)
	}

	// No file: the field is named and marked.
	status, body = postWorkbook(t, c, page, "", nil)
	if status != http.StatusUnprocessableEntity || !strings.Contains(body, `aria-invalid="true" aria-describedby="file-error"`) {
		t.Errorf("no file: %d", status)
	}

	// A workbook that fits: table 1 right, table 2 with a wrong written
	// total in hand 1 (D6). Both tables hold other sheets: refused, the
	// tables listed with their totals, nothing stored.
	data := importWorkbook(t, paperMatch{1, 1, "1", "2", 420}, paperMatch{1, 2, "3", "4", 421})
	stored, _ := ops.Sheet(ctx, p, tid, 1, 1)
	status, body = postWorkbook(t, c, page, "turno 1.xlsx", data)
	if status != http.StatusConflict || !strings.Contains(body, `id="import-would-replace"`) || !strings.Contains(body, `action="/tournaments/`+tid+`/imports?replace=true"`) ||
		!strings.Contains(body, `data-replacing data-round="1" data-table="2"`) || !strings.Contains(body, "Sostituisci i fogli già inseriti") {
		t.Fatalf("would replace: %d\n%s", status, body)
	}
	if v, _ := ops.Sheet(ctx, p, tid, 1, 1); v.Stored.Version != 1 || len(v.History) != 0 {
		t.Fatalf("a refused upload changed table 1: version %d", v.Stored.Version)
	}
	// Sent again with replace.
	status, body = postWorkbook(t, c, page+"?replace=true", "turno 1.xlsx", data)
	if status != http.StatusOK || !strings.Contains(body, `id="import-report"`) {
		t.Fatalf("upload: %d\n%s", status, body)
	}
	for _, want := range []string{
		`data-round="1" data-table="1" data-cell="T1!A5" data-status="replaced"`,
		`data-round="1" data-table="2" data-cell="T2!A5" data-status="replaced"`,
		`data-code="HAND_TOTAL_MISMATCH" data-severity="error" data-cell="T2!D6"`,
		"Sostituito",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the report lacks %s in\n%s", want, body[strings.Index(body, "<tbody>"):])
		}
	}
	for table, nsTotal := range map[int]int{1: 420, 2: 421} {
		v, err := ops.Sheet(ctx, p, tid, 1, table)
		if err != nil {
			t.Fatal(err)
		}
		h := v.Stored.Sheet.Hands
		if v.Stored.Version != 2 || len(h) != 3 || h[0].Lines[0].Base != 300 || h[0].Lines[0].Total == nil || *h[0].Lines[0].Total != nsTotal {
			t.Errorf("table %d stored: version %d, hands %+v", table, v.Stored.Version, h)
		}
	}

	// The same file again: answered from the record, nothing written.
	status, body = postWorkbook(t, c, page, "turno 1.xlsx", data)
	if status != http.StatusOK || !strings.Contains(body, `data-replayed="true"`) || !strings.Contains(body, `data-code="HAND_TOTAL_MISMATCH"`) {
		t.Errorf("same file again: %d, replayed shown %v", status, strings.Contains(body, "data-replayed"))
	}
	if v, _ := ops.Sheet(ctx, p, tid, 1, 1); v.Stored.Version != 2 {
		t.Errorf("the same file wrote again: version %d", v.Stored.Version)
	}

	// The list offers the undo; undone, table 1 is as it was stored.
	id := body[strings.Index(body, `data-import="`)+len(`data-import="`):]
	id = id[:strings.Index(id, `"`)]
	if !strings.Contains(body, `action="/tournaments/`+tid+`/imports/`+id+`/undo"`) || !strings.Contains(body, "Annulla importazione") {
		t.Fatalf("no undo offered for import %s", id)
	}
	resp, err := c.PostForm(page+"/"+id+"/undo", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `data-import="`+id+`" data-undone="true"`) || !strings.Contains(string(b), "Importazione annullata") {
		t.Errorf("undo: %d\n%s", resp.StatusCode, b)
	}
	if v, _ := ops.Sheet(ctx, p, tid, 1, 1); v.Stored.Version != 3 || !reflect.DeepEqual(v.Stored.Sheet, stored.Stored.Sheet) || len(v.History) != 2 {
		t.Errorf("after undo: version %d, history %d, sheet back %v", v.Stored.Version, len(v.History), reflect.DeepEqual(v.Stored.Sheet, stored.Stored.Sheet))
	}

	// Not a workbook at all.
	if status, body = postWorkbook(t, c, page, "x.xlsx", []byte("non è un file excel")); status != http.StatusUnprocessableEntity || !strings.Contains(body, `id="import-refusal"`) {
		t.Errorf("not a workbook: %d", status)
	}
}

// UI.md §3 in a browser: choose the file, upload; it would replace the
// entered sheets, so the page lists them and sends the file again on
// "Sostituisci i fogli già inseriti"; read the report; the sheet page
// lists the replaced version; undo the upload from the list.
func TestImportPageBrowser(t *testing.T) {
	t.Parallel()
	db := dbtest.Postgres(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	tid := webtest.SeedBigTournament(t, db, 2)
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "segreteria", pw)

	file := filepath.Join(t.TempDir(), "turno 1.xlsx")
	if err := os.WriteFile(file, importWorkbook(t, paperMatch{1, 1, "1", "2", 420}, paperMatch{1, 2, "3", "4", 421}), 0o644); err != nil {
		t.Fatal(err)
	}
	webtest.Run(t, ctx,
		chromedp.Navigate(site.URL+"/tournaments/"+tid+"/imports"),
		chromedp.WaitVisible(chromedp.CSS(`label[for="file"]`)),
	)
	webtest.Screenshot(t, ctx, "import-form")
	webtest.CheckA11y(t, ctx)
	webtest.Run(t, ctx,
		chromedp.SetUploadFiles(chromedp.CSS(`input[type="file"][name="file"]`), []string{file}),
		chromedp.Click(chromedp.CSS(`#import-form button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#import-would-replace`)),
	)
	if got := webtest.Attr(t, ctx, `tr[data-replacing][data-table="2"]`, "data-round"); got != "1" {
		t.Errorf("table 2 listed in round %q", got)
	}
	if got := webtest.Text(t, ctx, `#import-replace-form button[type="submit"]`); got != "Sostituisci i fogli già inseriti" {
		t.Errorf("replace button %q", got)
	}
	webtest.Screenshot(t, ctx, "import-would-replace")
	webtest.CheckA11y(t, ctx)
	webtest.Run(t, ctx,
		chromedp.SetUploadFiles(chromedp.CSS(`#file-replace`), []string{file}),
		chromedp.Click(chromedp.CSS(`#import-replace-form button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#import-report`)),
	)
	if got := webtest.Attr(t, ctx, `tr[data-table="2"]`, "data-status"); got != "replaced" {
		t.Errorf("table 2 status %q", got)
	}
	if got := webtest.Attr(t, ctx, `tr[data-table="2"] [data-code="HAND_TOTAL_MISMATCH"]`, "data-cell"); got != "T2!D6" {
		t.Errorf("the finding's cell %q", got)
	}
	if got := webtest.Text(t, ctx, `#messages`); !strings.Contains(got, "salvati") {
		t.Errorf("announcement %q", got)
	}
	webtest.Screenshot(t, ctx, "import-report")
	webtest.CheckA11y(t, ctx)

	// The sheet page lists the version the upload replaced.
	webtest.Run(t, ctx,
		chromedp.Navigate(site.URL+"/tournaments/"+tid+"/rounds/1/tables/1"),
		chromedp.WaitVisible(chromedp.CSS(`[data-list="versions"]`)),
	)
	if got := webtest.Attr(t, ctx, `[data-list="versions"] li`, "data-source"); got != "import" {
		t.Errorf("version source %q", got)
	}
	webtest.Screenshot(t, ctx, "sheet-versions")
	webtest.CheckA11y(t, ctx)

	// Undo it from the list: open, read, confirm.
	webtest.Run(t, ctx,
		chromedp.Navigate(site.URL+"/tournaments/"+tid+"/imports"),
		chromedp.WaitVisible(chromedp.CSS(`#import-list details.import-undo summary`)),
		chromedp.Click(chromedp.CSS(`#import-list details.import-undo summary`)),
		chromedp.WaitVisible(chromedp.CSS(`#import-list button[data-undo]`)),
	)
	webtest.Screenshot(t, ctx, "import-undo-confirm")
	webtest.Run(t, ctx,
		chromedp.Click(chromedp.CSS(`#import-list button[data-undo]`)),
		chromedp.WaitVisible(chromedp.CSS(`#import-list tr[data-undone="true"]`)),
	)
	if got := webtest.Text(t, ctx, `#messages`); !strings.Contains(got, "annullata") {
		t.Errorf("announcement after undo %q", got)
	}
	webtest.Screenshot(t, ctx, "import-undone")
	webtest.CheckA11y(t, ctx)
}
