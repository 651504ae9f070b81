package officialtest

import (
	"bytes"
	"context"
	"encoding/base64"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// The federation officer opens /federation, sees every club's
// tournaments, and downloads the season workbook of one club and level
// through the season form: the file is an xlsx whose rows are that
// club's tournament only. PostgreSQL.
func TestFederationSeasonWorkbookForOneClub(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.Postgres(t))
	newClubWorld(t, site.Store, "c1", "Coppa Uno", "fitab-2025", false)
	newClubWorld(t, site.Store, "c2", "Trofeo Due", "fitab-2025", false)
	pw := site.CreatePerson(t, domain.RoleFederation, "fitab", "")
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "fitab", pw)

	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/federation"), chromedp.WaitVisible(chromedp.CSS(`form[data-form="season-export"]`)))
	if n := evalString(t, ctx, `String(document.querySelectorAll('[data-list="federation-tournaments"] tr[data-tournament]').length)`); n != "2" {
		t.Errorf("tournaments listed: %s, want both clubs' 2", n)
	}
	webtest.Screenshot(t, ctx, "federation")
	webtest.CheckA11y(t, ctx)

	// The list's filter narrows to one club.
	webtest.Run(t, ctx, webtest.JS(`document.querySelector('#f-club').value='c2'`), chromedp.Click(chromedp.CSS(`[data-action="filter"]`)))
	// The old list is on screen until the filtered page has loaded.
	webtest.WaitFor(t, ctx, `location.search.includes("club=c2") && document.readyState === "complete" && !!document.querySelector('[data-list="federation-tournaments"]')`, 10*time.Second, "the filtered list")
	if got := webtest.Text(t, ctx, `[data-list="federation-tournaments"] tbody`); !strings.Contains(got, "Trofeo Due") || strings.Contains(got, "Coppa Uno") {
		t.Errorf("filtered by club c2: %q", got)
	}

	webtest.Run(t, ctx, webtest.JS(`document.querySelector('#s-season').value='2026'`), webtest.JS(`document.querySelector('#s-club').value='c1'`),
		webtest.JS(`document.querySelector('#s-level').value='provincial'`))
	b64, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async()=>{const f=document.querySelector('form[data-form="season-export"]');
		const u=f.action+'?'+new URLSearchParams(new FormData(f));
		const r=await fetch(u); if(!r.ok) return 'status '+r.status;
		const b=new Uint8Array(await r.arrayBuffer()); let s=''; for(const x of b) s+=String.fromCharCode(x); return btoa(s);})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatalf("download: %s", b64)
	}
	if !bytes.HasPrefix(raw, []byte("PK\x03\x04")) {
		t.Fatalf("not an xlsx (zip) file: % x", raw[:min(8, len(raw))])
	}
	wb, err := excelize.OpenReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	rows, err := wb.GetRows(wb.GetSheetList()[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 {
		t.Fatalf("season workbook has %d rows", len(rows))
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, r := range rows[1:] {
		if r[col["Torneo"]] != "Coppa Uno" || r[col["Livello"]] != "provinciale" {
			t.Errorf("row of another club or level: %v", r)
		}
	}
	if len(rows) != 1+8 { // 4 pairs × 2 players
		t.Errorf("%d player rows, want 8", len(rows)-1)
	}
}

// UI.md §9: the federation officer uploads a tournament file whose
// standings were edited by hand at /federation/verify and sees each
// difference ([data-code]) with its article; then screens the season at
// /federation/screening (tr[data-flag]). Both pages pass the
// accessibility check at 360 and 1280 px. Embedded database.
func TestFederationVerifyAndScreeningInTheBrowser(t *testing.T) {
	site := webtest.StartSite(t, dbtest.SQLite(t))
	w := newClubWorld(t, site.Store, "c1", "Coppa Uno", "fitab-2025", false)
	ops := app.New(site.Store, nil, slog.New(slog.DiscardHandler))
	fedP := app.Principal{Role: domain.RoleFederation, Name: "fitab"}
	file, _, err := ops.MarshalTournamentFile(context.Background(), fedP, w.tid)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(file, []byte(`"rank": 1,`), []byte(`"rank": 2,`), 1)
	path := filepath.Join(t.TempDir(), "coppa.tournament.json")
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	pw := site.CreatePerson(t, domain.RoleFederation, "fitab", "")
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "fitab", pw)

	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/federation"), chromedp.WaitVisible(chromedp.CSS(`[data-link="verify"]`)))
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-link="verify"]`)), chromedp.WaitVisible(chromedp.CSS(`form[data-form="verify"]`)))
	webtest.Run(t, ctx, chromedp.SetUploadFiles(`#verify-file`, []string{path}), chromedp.Click(chromedp.CSS(`[data-action="verify"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-verification]`)))
	if got := webtest.Attr(t, ctx, `[data-verification]`, "data-verification"); got != "differences" {
		t.Errorf("verification %q, want differences", got)
	}
	if n := evalString(t, ctx, `String(document.querySelectorAll('tr[data-code="STANDINGS_DIFFER"]').length)`); n == "0" {
		t.Error("no STANDINGS_DIFFER row for standings edited by hand")
	}
	webtest.Screenshot(t, ctx, "federation-verify")
	webtest.CheckA11y(t, ctx)

	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/federation/screening?season=2026"), chromedp.WaitVisible(chromedp.CSS(`form[data-form="screening"]`)))
	webtest.Screenshot(t, ctx, "federation-screening")
	webtest.CheckA11y(t, ctx)
}
