package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

var fileIDs = regexp.MustCompile(`("exported_at": "[^"]*"|"id": "t_[^"]*")`)

// fileWorld is a club's tournament of two pairs, one round, one sheet of
// two hands (the tournament's planned hands), through the API.
func fileWorld(t *testing.T, db *store.DB) (e *env, club, base string) {
	t.Helper()
	e = newEnv(t, db)
	ctx := context.Background()
	if _, err := db.CreateClub(ctx, domain.Club{ID: "bc-roma", Name: "Burraco Roma"}); err != nil {
		t.Fatal(err)
	}
	var err error
	club, _, err = db.CreateToken(ctx, domain.RoleClub, "segreteria", "bc-roma")
	if err != nil {
		t.Fatal(err)
	}
	r := e.do(request{method: "POST", path: "/v1/tournaments", token: club, body: map[string]any{"name": "Coppa Autunno", "date": "2026-11-21",
		"level": "club", "ruleset": "fitab-2025", "kind": "pairs", "rounds_planned": 2, "hands_per_round": 2}})
	wantStatus(t, r, http.StatusCreated, "create")
	base = "/v1/tournaments/" + r.json(t)["id"].(string)
	wantStatus(t, e.do(request{method: "POST", path: base + "/entrants", token: club, body: map[string]any{"entrants": []any{
		map[string]any{"id": "1", "players": []any{map[string]any{"name": "Rossi Anna", "membership": "FT123456"}, map[string]any{"name": "Bianchi Luca", "membership": "FT654321"}}},
		map[string]any{"id": "2", "players": []any{map[string]any{"name": "Verdi Carla", "membership": ""}, map[string]any{"name": "Neri Paolo", "membership": ""}}},
	}}}), http.StatusCreated, "entrants")
	wantStatus(t, e.do(request{method: "POST", path: base + "/rounds", token: club, body: map[string]any{"number": 1, "hands_planned": 2,
		"phase": "danese", "tables": []any{map[string]any{"table": 1, "ns": "1", "eo": "2"}}, "byes": []any{}}}), http.StatusCreated, "round")
	r = e.do(request{method: "PUT", path: base + "/rounds/1/tables/1/sheet", token: club, body: map[string]any{"hands": []any{
		map[string]any{"ns": map[string]any{"base": 300, "points": 235}, "eo": map[string]any{"base": 100, "points": -120}},
		map[string]any{"ns": map[string]any{"base": 200, "points": 100}, "eo": map[string]any{"base": 0, "points": -50}},
	}}})
	if r.status != http.StatusOK && r.status != http.StatusCreated {
		t.Fatalf("sheet: %d %s", r.status, r.body)
	}
	return e, club, base
}

// API §4.4 through the JSON door: a tournament's file, its import as a
// new tournament (201) whose file is the same but for ids and
// exported_at, the verifier with no token (ok; then hand-edited
// standings named), a hostile file refused naming the field, the schema.
func TestTournamentFileRoutes(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		e, club, base := fileWorld(t, db)
		tid := strings.TrimPrefix(base, "/v1/tournaments/")
		file := e.do(request{method: "GET", path: base + "/tournament.json", token: club})
		wantStatus(t, file, http.StatusOK, "export")
		imp := e.do(request{method: "POST", path: "/v1/tournaments/import", token: club, body: file.body})
		wantStatus(t, imp, http.StatusCreated, "import")
		newID := imp.json(t)["id"].(string)
		if newID == tid || imp.header.Get("Location") != "/v1/tournaments/"+newID {
			t.Errorf("import answered id %s, Location %q", newID, imp.header.Get("Location"))
		}
		again := e.do(request{method: "GET", path: "/v1/tournaments/" + newID + "/tournament.json", token: club})
		wantStatus(t, again, http.StatusOK, "export of the import")
		if !bytes.Equal(fileIDs.ReplaceAll(file.body, nil), fileIDs.ReplaceAll(again.body, nil)) {
			t.Errorf("export → import → export differs:\n%s\n---\n%s", file.body, again.body)
		}

		v := e.do(request{method: "POST", path: "/v1/verify", body: file.body})
		wantStatus(t, v, http.StatusOK, "verify")
		if m := v.json(t); m["ok"] != true || m["standings_ok"] != true {
			t.Errorf("the service's own file does not verify: %s", v.body)
		}
		var doc map[string]any
		if err := json.Unmarshal(file.body, &doc); err != nil {
			t.Fatal(err)
		}
		row := doc["standings"].(map[string]any)["rows"].([]any)[0].(map[string]any)
		row["vp"] = row["vp"].(float64) + 3
		edited, _ := json.Marshal(doc)
		v = e.do(request{method: "POST", path: "/v1/verify?lang=it", body: edited})
		wantStatus(t, v, http.StatusOK, "verify edited")
		var rep struct {
			OK          bool `json:"ok"`
			StandingsOK bool `json:"standings_ok"`
			Differences []struct {
				Code    string  `json:"code"`
				Entrant *string `json:"entrant"`
				Rule    string  `json:"rule"`
			} `json:"differences"`
		}
		if err := json.Unmarshal(v.body, &rep); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, d := range rep.Differences {
			found = found || (d.Code == "STANDINGS_DIFFER" && d.Entrant != nil && *d.Entrant == row["entrant"] && d.Rule == "FITAB art. 18")
		}
		if rep.OK || !found {
			t.Errorf("hand-edited standings: %s", v.body)
		}

		wantProblem(t, e.do(request{method: "POST", path: "/v1/verify", body: `{"format": "segnapunti-tournament", "version": 1, "tournament": {"ruleset": 7}}`}),
			http.StatusUnprocessableEntity, "/tournament/ruleset")
		wantProblem(t, e.do(request{method: "POST", path: "/v1/tournaments/import", token: club, body: `{"format": "usebio"}`}),
			http.StatusUnprocessableEntity, "/format")
		wantProblem(t, e.do(request{method: "POST", path: "/v1/verify", body: `{"format": `}), http.StatusBadRequest, "")
		wantStatus(t, e.do(request{method: "POST", path: "/v1/tournaments/import", body: file.body}), http.StatusUnauthorized, "import without a token")
		wantStatus(t, e.do(request{method: "POST", path: "/v1/verify", body: file.body, header: map[string]string{"Content-Type": "text/plain"}}),
			http.StatusUnsupportedMediaType, "verify of text/plain")
		wantProblem(t, e.do(request{method: "POST", path: "/v1/verify?tabel=1", body: file.body}), http.StatusBadRequest, "tabel")
		wantProblem(t, e.do(request{method: "GET", path: base + "/tournament.json?x=1", token: club}), http.StatusBadRequest, "x")
		wantStatus(t, e.do(request{method: "GET", path: "/v1/tournaments/t_nobody/tournament.json", token: club}), http.StatusNotFound, "another's file")
		if _, err := db.CreateClub(context.Background(), domain.Club{ID: "bc-milano", Name: "Burraco Milano"}); err != nil {
			t.Fatal(err)
		}
		other, _, err := db.CreateToken(context.Background(), domain.RoleClub, "segreteria", "bc-milano")
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, e.do(request{method: "GET", path: base + "/tournament.json", token: other}), http.StatusNotFound, "another club's file")

		s := e.do(request{method: "GET", path: "/v1/schemas/tournament.json"})
		wantStatus(t, s, http.StatusOK, "schema")
		if !bytes.Contains(s.body, []byte(`"https://json-schema.org/draft/2020-12/schema"`)) {
			t.Errorf("the schema is not 2020-12: %.200s", s.body)
		}
	})
}

// API §4.4: the season screening, role federation. A file whose sheet was
// stored after its signatures, with a correction applied although its
// situation rejects it, is imported; the screening names both.
func TestSeasonScreeningRoute(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		e, club, base := fileWorld(t, db)
		ctx := context.Background()
		fed, _, err := db.CreateToken(ctx, domain.RoleFederation, "FITAB", "")
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, e.do(request{method: "POST", path: base + "/rounds/1/tables/1/sheet/confirm", token: club,
			body: map[string]any{"line": "eo", "entrant": "2"}}), http.StatusOK, "confirm")
		file := e.do(request{method: "GET", path: base + "/tournament.json", token: club})
		wantStatus(t, file, http.StatusOK, "export")
		var doc map[string]any
		if err := json.Unmarshal(file.body, &doc); err != nil {
			t.Fatal(err)
		}
		sheet := doc["sheets"].([]any)[0].(map[string]any)
		sheet["stored_at"] = "2026-12-01T10:00:00Z" // after the signatures
		doc["corrections"] = []any{map[string]any{"round": 1, "table": 1, "kind": "sum", "reason": "re-added",
			"situation": map[string]any{"ruleset": "fitab-2025", "kind": "sum", "level": "club", "phase": "danese", "error_round": 1,
				"current_round": 2, "current_round_started": true, "tournament_closed": true, "standings_published": true,
				"standings_contested": false, "positions_published": true, "both_lines_acknowledge": false, "referee_countersigned": false},
			"ruling": "apply", "rules": []any{}, "ruling_reason": "", "applied": true, "before": map[string]any{}, "after": map[string]any{},
			"sheet_version": 2, "by": "arbitro", "at": "2026-11-21T23:00:00Z"}}
		edited, _ := json.Marshal(doc)
		imp := e.do(request{method: "POST", path: "/v1/tournaments/import", token: fed, body: edited})
		wantStatus(t, imp, http.StatusCreated, "import")
		imported := imp.json(t)["id"].(string)

		wantStatus(t, e.do(request{method: "GET", path: "/v1/seasons/2026/screening", token: club}), http.StatusForbidden, "a club")
		wantProblem(t, e.do(request{method: "GET", path: "/v1/seasons/26/screening", token: fed}), http.StatusBadRequest, "season")
		r := e.do(request{method: "GET", path: "/v1/seasons/2026/screening?lang=it", token: fed})
		wantStatus(t, r, http.StatusOK, "screening")
		var got struct {
			Season int `json:"season"`
			Flags  []struct {
				Kind       string `json:"kind"`
				Tournament string `json:"tournament"`
				Reason     string `json:"reason"`
			} `json:"flags"`
		}
		if err := json.Unmarshal(r.body, &got); err != nil {
			t.Fatal(err)
		}
		kinds := map[string]string{}
		for _, f := range got.Flags {
			if f.Tournament == imported {
				kinds[f.Kind] = f.Reason
			} else if f.Kind == "changed_after_signature" || f.Kind == "correction_outside_ruling" {
				t.Errorf("the original tournament is flagged: %+v", f)
			}
		}
		if got.Season != 2026 || kinds["changed_after_signature"] == "" || kinds["correction_outside_ruling"] == "" {
			t.Errorf("screening: %s", r.body)
		}
		if !strings.Contains(kinds["changed_after_signature"], "firma") {
			t.Errorf("?lang=it: the reason is not Italian: %q", kinds["changed_after_signature"])
		}
	})
}
