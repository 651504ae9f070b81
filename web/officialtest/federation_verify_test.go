package officialtest

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// UI.md §9, API §4.4 through the page door: a club sees its tournament's
// verification and downloads its file; the federation uploads a file to
// /federation/verify (each difference [data-code]; a hostile file is
// refused naming the field) and screens the season
// (tr[data-flag="{kind}"], each opening what it is about). A club does
// not reach the federation's pages.
func TestFederationVerifyAndScreeningPages(t *testing.T) {
	site := webtest.StartSite(t, dbtest.SQLite(t))
	w := newRefereeWorld(t, site.Store, "fitab-2025", false)
	T := "/tournaments/" + w.tid
	clubPW := site.CreatePerson(t, domain.RoleClub, "segreteria.c1", "c1")
	club := webtest.SignInClient(t, site, "segreteria.c1", clubPW)
	fedPW := site.CreatePerson(t, domain.RoleFederation, "fitab", "")
	fed := webtest.SignInClient(t, site, "fitab", fedPW)

	st, body := club.Get(T)
	if st != http.StatusOK || !strings.Contains(body, `data-link="verification"`) || !strings.Contains(body, `data-link="tournament-file"`) {
		t.Fatalf("tournament page: %d, links to the verification and the file missing", st)
	}
	st, body = club.Get(T + "/verification")
	if st != http.StatusOK || !strings.Contains(body, `data-verification="`) || !strings.Contains(body, "data-verdict") {
		t.Fatalf("verification page: %d\n%s", st, body)
	}
	st, file := club.Get(T + "/export/segnapunti-tournament.json")
	if st != http.StatusOK || !strings.Contains(file, `"format": "segnapunti-tournament"`) {
		t.Fatalf("file download: %d %.100s", st, file)
	}
	if st, _ := club.Get("/federation/verify"); st == http.StatusOK {
		t.Error("a club reaches /federation/verify")
	}
	if st, _ := club.Get("/federation/screening?season=2026"); st == http.StatusOK {
		t.Error("a club reaches /federation/screening")
	}

	// The federation verifies the file with its standings edited by hand.
	var doc map[string]any
	if err := json.Unmarshal([]byte(file), &doc); err != nil {
		t.Fatal(err)
	}
	row := doc["standings"].(map[string]any)["rows"].([]any)[0].(map[string]any)
	row["vp"] = row["vp"].(float64) + 5
	edited, _ := json.Marshal(doc)
	if st, body := fed.Get("/federation/verify"); st != http.StatusOK || !strings.Contains(body, `name="file"`) {
		t.Fatalf("verify form: %d", st)
	}
	st, body = postWorkbook(t, fed.Client, fed.Base+"/federation/verify", "coppa.json", edited)
	if st != http.StatusOK || !strings.Contains(body, `data-code="STANDINGS_DIFFER"`) || !strings.Contains(body, `data-entrant="`+row["entrant"].(string)+`"`) ||
		!strings.Contains(body, `data-verification="differences"`) {
		t.Errorf("verify of edited standings: %d\n%s", st, body)
	}
	st, body = postWorkbook(t, fed.Client, fed.Base+"/federation/verify", "bad.json", []byte(`{"format": "segnapunti-tournament", "version": 1, "tournament": {"ruleset": 7}}`))
	if st != http.StatusUnprocessableEntity || !strings.Contains(body, `data-file-error="/tournament/ruleset"`) || !strings.Contains(body, `aria-invalid="true"`) {
		t.Errorf("verify of a hostile file: %d\n%s", st, body)
	}

	// A file with a correction recorded with a ruling its situation does not
	// give (apply where the codes give apply_keep_pairing), imported
	// into the season, is flagged on the screening page.
	doc["corrections"] = []any{map[string]any{"round": 1, "table": 1, "kind": "sum", "reason": "x",
		"situation": map[string]any{"ruleset": "fitab-2025", "kind": "sum", "level": "club", "phase": "danese", "error_round": 1,
			"current_round": 3, "current_round_started": true, "tournament_closed": true, "standings_published": true,
			"standings_contested": false, "positions_published": true, "both_lines_acknowledge": false, "referee_countersigned": false},
		"ruling": "apply", "rules": []any{}, "ruling_reason": "", "applied": true, "before": map[string]any{}, "after": map[string]any{},
		"sheet_version": 2, "by": "arbitro", "at": "2026-11-21T23:00:00Z"}}
	withCorrection, _ := json.Marshal(doc)
	ops := app.New(site.Store, nil, slog.New(slog.DiscardHandler))
	imported, err := ops.ImportTournamentFile(context.Background(), app.Principal{Role: domain.RoleFederation, Name: "fitab"}, withCorrection)
	if err != nil {
		t.Fatal(err)
	}
	if st, body := fed.Get("/federation/screening"); st != http.StatusOK || !strings.Contains(body, `name="season"`) {
		t.Fatalf("screening form: %d", st)
	}
	st, body = fed.Get("/federation/screening?season=2026")
	if st != http.StatusOK || !strings.Contains(body, `<tr data-flag="correction_outside_ruling" data-tournament="`+imported.ID+`"`) ||
		!strings.Contains(body, `href="/tournaments/`+imported.ID+`/rounds/1/tables/1" data-action="open-sheet"`) {
		t.Errorf("screening: %d\n%s", st, body)
	}
	if st, body := fed.Get("/federation/screening?season=2026&club=c1"); st != http.StatusOK || !strings.Contains(body, `data-flag="correction_outside_ruling"`) ||
		!strings.Contains(body, `<option value="c1" selected>`) {
		t.Errorf("screening of club c1: %d", st)
	}
	if st, body := fed.Get("/federation/screening?season=2025"); st != http.StatusOK || !strings.Contains(body, `data-empty="flags"`) {
		t.Errorf("screening of a season without tournaments: %d", st)
	}
	if st, body := fed.Get("/federation/screening?season=twenty"); st != http.StatusBadRequest || !strings.Contains(body, `aria-invalid="true"`) {
		t.Errorf("screening of a bad season: %d", st)
	}
}
