package api

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"segnapunti/exporters/reportjson"
)

func decodeReport(t *testing.T, raw any) reportjson.Report {
	t.Helper()
	b, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := reportjson.Decode(b)
	if err != nil {
		t.Fatalf("report does not read back: %v\n%s", err, b)
	}
	return rep
}

func hasFinding(rep reportjson.Report, code string) bool {
	for _, f := range rep.Findings {
		if f.Code == code {
			return true
		}
	}
	return false
}

// TestFullFlow walks API §4.1 end to end on both databases: a club, its
// tournament, entrants, a round, a whole sheet, a sheet entered hand by
// hand with an idempotent retry, reads with ETag, a stale If-Match, the
// round delivered and its sheets closed.
func TestFullFlow(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		e := newEnv(t, b.db)
		admin := e.adminToken()

		r := e.do(request{method: "POST", path: "/v1/clubs", token: admin, body: map[string]any{"name": "Circolo del Burraco Perùgia"}})
		wantStatus(t, r, http.StatusCreated, "create club")
		club := r.json(t)
		cid := club["id"].(string)
		if loc := r.header.Get("Location"); loc != "/v1/clubs/"+cid {
			t.Errorf("Location %q", loc)
		}
		r = e.do(request{method: "POST", path: "/v1/tokens", token: admin, body: map[string]any{"role": "club", "club": cid, "name": "Segreteria"}})
		wantStatus(t, r, http.StatusCreated, "create club token")
		if r.header.Get("Cache-Control") != "no-store" {
			t.Errorf("a token answer must not be cached")
		}
		clubTok := r.json(t)["token"].(string)
		r = e.do(request{method: "POST", path: "/v1/tokens", token: admin, body: map[string]any{"role": "referee", "name": "Mario Arbitro"}})
		wantStatus(t, r, http.StatusCreated, "create referee token")
		refTok := r.json(t)["token"].(string)

		// Tournament (API §4.1): the club is the caller's own.
		r = e.do(request{method: "POST", path: "/v1/tournaments", token: clubTok, body: map[string]any{
			"name": "Coppa Autunno", "date": "2026-11-21", "level": "regional", "ruleset": "fitab-2025",
			"kind": "pairs", "rounds_planned": 4, "hands_per_round": 3, "vp_table": nil, "club": nil}})
		wantStatus(t, r, http.StatusCreated, "create tournament")
		tour := r.json(t)
		tid := tour["id"].(string)
		if !strings.HasPrefix(tid, "t_") || tour["club"] != cid || tour["vp_table"] != nil || tour["kind"] != "pairs" {
			t.Errorf("tournament %v", tour)
		}
		if loc := r.header.Get("Location"); loc != "/v1/tournaments/"+tid {
			t.Errorf("Location %q", loc)
		}
		base := "/v1/tournaments/" + tid
		r = e.do(request{method: "GET", path: base, token: clubTok})
		wantStatus(t, r, http.StatusOK, "get tournament")
		if got := r.json(t); got["name"] != "Coppa Autunno" || got["date"] != "2026-11-21" {
			t.Errorf("read back %v", got)
		}
		wantStatus(t, e.do(request{method: "PUT", path: base + "/referees/Mario%20Arbitro", token: clubTok}), http.StatusNoContent, "assign referee")
		// Assigning again changes nothing.
		wantStatus(t, e.do(request{method: "PUT", path: base + "/referees/Mario%20Arbitro", token: clubTok}), http.StatusNoContent, "assign referee again")
		r = e.do(request{method: "GET", path: "/v1/tournaments", token: refTok})
		wantStatus(t, r, http.StatusOK, "referee lists")
		if n := len(r.json(t)["tournaments"].([]any)); n != 1 {
			t.Errorf("the referee sees %d tournaments, want its 1", n)
		}

		// Entrants in bulk.
		r = e.do(request{method: "POST", path: base + "/entrants", token: clubTok, body: map[string]any{"entrants": []map[string]any{
			{"id": "1", "players": []map[string]any{{"name": "Rossi Anna", "membership": "FT123456"}, {"name": "Bianchi Luca", "membership": "FT654321"}}, "team": nil},
			{"id": "2", "players": []map[string]any{{"name": "Greco Ada"}, {"name": "De Luca Ugo"}}},
			{"id": "3", "players": []map[string]any{{"name": "Verdi Carla"}, {"name": "Neri Paolo"}}},
			{"id": "4", "players": []map[string]any{{"name": "Longo Ida"}, {"name": "Fontana Leo"}}},
			{"id": "5", "players": []map[string]any{{"name": "Riva Eva"}, {"name": "Sala Gino"}}},
		}}})
		wantStatus(t, r, http.StatusCreated, "enter entrants")
		r = e.do(request{method: "GET", path: base + "/entrants", token: refTok})
		wantStatus(t, r, http.StatusOK, "list entrants")
		es := r.json(t)["entrants"].([]any)
		if len(es) != 5 || jsonPath(t, es[0], "players", 0, "membership") != "FT123456" {
			t.Errorf("entrants read back %v", es)
		}

		// Round 1: Mitchell, two tables and a bye; hands from the tournament.
		r = e.do(request{method: "POST", path: base + "/rounds", token: clubTok, body: map[string]any{
			"number": 1, "phase": "mitchell", "byes": []string{"5"},
			"tables": []map[string]any{{"table": 1, "ns": "1", "eo": "3"}, {"table": 2, "ns": "2", "eo": "4"}}}})
		wantStatus(t, r, http.StatusCreated, "create round")
		round := r.json(t)
		if round["hands_planned"] != 3.0 || round["state"] != "playing" {
			t.Errorf("round %v", round)
		}
		if loc := r.header.Get("Location"); loc != base+"/rounds/1" {
			t.Errorf("Location %q", loc)
		}
		wantStatus(t, e.do(request{method: "GET", path: base + "/rounds", token: clubTok}), http.StatusOK, "list rounds")

		// A whole sheet at table 1, typed without ruleset and ids (API §4.1).
		sheet1 := base + "/rounds/1/tables/1/sheet"
		r = e.do(request{method: "PUT", path: sheet1, token: clubTok, body: goodSheet()})
		wantStatus(t, r, http.StatusCreated, "put sheet")
		if r.header.Get("ETag") != `"1"` || r.header.Get("Location") != sheet1 {
			t.Errorf("ETag %q Location %q", r.header.Get("ETag"), r.header.Get("Location"))
		}
		got := r.json(t)
		if got["version"] != 1.0 || jsonPath(t, got, "sheet", "ruleset") != "fitab-2025" ||
			jsonPath(t, got, "sheet", "ns", "id") != "1" || jsonPath(t, got, "sheet", "eo", "id") != "3" ||
			jsonPath(t, got, "sheet", "hands_planned") != 3.0 {
			t.Errorf("stored sheet %v", got["sheet"])
		}
		rep := decodeReport(t, got["report"])
		// RULES §6: 950 v 825, MP ±125, FITAB 3 hands 65-160 → 11-9.
		if !rep.OK || rep.Computed.NS.Total != 950 || rep.Computed.EO.Total != 825 ||
			rep.Computed.NS.MP != 125 || rep.Computed.EO.MP != -125 || rep.Computed.NS.VP != 11 || rep.Computed.EO.VP != 9 || rep.VPTable != "fitab-3" {
			t.Errorf("report %+v", rep)
		}

		// A replacement with a sum error (FITAB art. 20): stored, and reported.
		bad := goodSheet()
		bad["hands"] = []map[string]any{goodHands[0], goodHands[1], goodHands[2]}
		h1 := hand("closed", 300, 235, 100, -120)
		h1["ns"].(map[string]any)["total"] = 545
		bad["hands"].([]map[string]any)[0] = h1
		r = e.do(request{method: "PUT", path: sheet1 + "?lang=it", token: clubTok, body: bad, header: map[string]string{"If-Match": `"1"`}})
		wantStatus(t, r, http.StatusOK, "replace sheet")
		if r.header.Get("ETag") != `"2"` {
			t.Errorf("ETag %q, want \"2\"", r.header.Get("ETag"))
		}
		rep = decodeReport(t, r.json(t)["report"])
		if rep.OK || !hasFinding(rep, "HAND_TOTAL_MISMATCH") {
			t.Errorf("a written 545 for 300 + 235 must be HAND_TOTAL_MISMATCH: %+v", rep)
		}

		// Hand by hand at table 2, with an Idempotency-Key and a retry.
		hands2 := base + "/rounds/1/tables/2/sheet/hands"
		key := map[string]string{"Idempotency-Key": "tavolo2-mano1"}
		r = e.do(request{method: "POST", path: hands2, token: clubTok, body: goodHands[0], header: key})
		wantStatus(t, r, http.StatusCreated, "first hand")
		first := r.json(t)
		if first["hands"] != 1.0 || first["version"] != 1.0 || r.header.Get("Idempotent-Replayed") != "" {
			t.Errorf("first hand: %v", first)
		}
		r = e.do(request{method: "POST", path: hands2, token: clubTok, body: goodHands[0], header: key})
		wantStatus(t, r, http.StatusCreated, "retried first hand")
		if retry := r.json(t); retry["hands"] != 1.0 || retry["version"] != 1.0 || r.header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("the retry added a hand: %v", retry)
		}
		r = e.do(request{method: "POST", path: hands2, token: clubTok, body: goodHands[1], header: map[string]string{"Idempotency-Key": "tavolo2-mano2"}})
		wantStatus(t, r, http.StatusCreated, "second hand")
		second := r.json(t)
		if second["hands"] != 2.0 || second["version"] != 2.0 {
			t.Errorf("second hand: %v", second)
		}
		rep = decodeReport(t, second["report"])
		// Two of three planned hands: -20 - 55 ... NS 535 - 55 = 480, EO -20 + 580 = 560.
		if rep.Computed.NS.Total != 480 || rep.Computed.EO.Total != 560 || len(rep.Computed.Hands) != 2 {
			t.Errorf("report so far %+v", rep.Computed)
		}

		// Read back with its ETag; If-None-Match gives 304.
		sheet2 := base + "/rounds/1/tables/2/sheet"
		r = e.do(request{method: "GET", path: sheet2, token: refTok})
		wantStatus(t, r, http.StatusOK, "get sheet")
		if r.header.Get("ETag") != `"2"` {
			t.Errorf("ETag %q", r.header.Get("ETag"))
		}
		stored := r.json(t)
		if n := len(jsonPath(t, stored, "sheet", "hands").([]any)); n != 2 || stored["corrections"] == nil {
			t.Errorf("stored sheet %v", stored)
		}
		wantStatus(t, e.do(request{method: "GET", path: sheet2, token: refTok, header: map[string]string{"If-None-Match": `"2"`}}), http.StatusNotModified, "conditional get")

		// A stale If-Match is 412 and writes nothing; the fresh one works.
		whole := goodSheet()
		p := wantProblem(t, e.do(request{method: "PUT", path: sheet2, token: clubTok, body: whole, header: map[string]string{"If-Match": `"1"`}}),
			http.StatusPreconditionFailed, "If-Match")
		if p.Type != typePrecondition {
			t.Errorf("type %q", p.Type)
		}
		r = e.do(request{method: "PUT", path: sheet2, token: clubTok, body: whole, header: map[string]string{"If-Match": `"2"`}})
		wantStatus(t, r, http.StatusOK, "fresh If-Match")
		if r.json(t)["version"] != 3.0 {
			t.Errorf("version after replace: %s", r.body)
		}
		// If-Match: * replaces what is there.
		r = e.do(request{method: "PUT", path: sheet2, token: clubTok, body: whole, header: map[string]string{"If-Match": "*"}})
		wantStatus(t, r, http.StatusOK, "If-Match *")
		// The sheet has the three hands its round plans: the match is over
		// (RULES §6.3), and a fourth hand entered one by one is refused.
		wantProblem(t, e.do(request{method: "POST", path: hands2, token: clubTok, body: goodHands[2]}), http.StatusConflict, "")

		// Italian messages on request.
		r = e.do(request{method: "GET", path: sheet1 + "?lang=it", token: clubTok})
		wantStatus(t, r, http.StatusOK, "get in Italian")
		rep = decodeReport(t, r.json(t)["report"])
		if len(rep.Findings) == 0 || rep.Findings[0].Message == "" {
			t.Errorf("findings %+v", rep.Findings)
		}

		// The referee delivers the round (RULES §10): the sheets are final.
		r = e.do(request{method: "PATCH", path: base + "/rounds/1", token: refTok, body: map[string]any{"state": "sheets_delivered"}})
		wantStatus(t, r, http.StatusOK, "deliver")
		if r.json(t)["state"] != "sheets_delivered" {
			t.Errorf("state %s", r.body)
		}
		// The same state again changes nothing; back is a 409.
		wantStatus(t, e.do(request{method: "PATCH", path: base + "/rounds/1", token: refTok, body: map[string]any{"state": "sheets_delivered"}}), http.StatusOK, "same state")
		wantProblem(t, e.do(request{method: "PATCH", path: base + "/rounds/1", token: refTok, body: map[string]any{"state": "playing"}}), http.StatusConflict, "")
		p = wantProblem(t, e.do(request{method: "PUT", path: sheet1, token: clubTok, body: goodSheet()}), http.StatusConflict, "")
		if p.Type != typeRoundClosed || !strings.Contains(p.Detail, "referee") || !strings.Contains(p.Detail, "corrections") {
			t.Errorf("a delivered round's sheet: %+v", p)
		}
		wantProblem(t, e.do(request{method: "POST", path: hands2, token: clubTok, body: goodHands[0]}), http.StatusConflict, "")
		// Forward, skipping a state, is fine.
		r = e.do(request{method: "PATCH", path: base + "/rounds/1", token: refTok, body: map[string]any{"state": "next_pairing_published"}})
		wantStatus(t, r, http.StatusOK, "skip forward")

		// Every request was logged once, as structured JSON, without tokens.
		logs := e.logs.String()
		for _, tok := range []string{admin, clubTok, refTok} {
			if strings.Contains(logs, tok) {
				t.Errorf("a token is in the logs")
			}
		}
		if !strings.Contains(logs, `"route":"/v1/tournaments/:tid/rounds/:n/tables/:t/sheet"`) {
			t.Errorf("the log lines lack the route pattern:\n%.2000s", logs)
		}
		if strings.Contains(logs, "Rossi Anna") {
			t.Errorf("a request body is in the logs")
		}
	})
}

// TestSheetDefaults: a sheet may leave out — or give as null — what the
// tournament, round and table say (API §4.1); what it gives is kept.
func TestSheetDefaults(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		sheet := goodSheet()
		sheet["ruleset"] = nil
		sheet["ns"] = nil
		sheet["eo"] = map[string]any{"players": []string{"Verdi Carla", "Neri Paolo"}}
		sheet["hands_planned"] = 3
		r := w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: sheet})
		wantStatus(t, r, http.StatusCreated, "put")
		got := r.json(t)["sheet"]
		for _, c := range []struct {
			path []any
			want any
		}{
			{[]any{"ruleset"}, "fitab-2025"},
			{[]any{"hands_planned"}, 3.0},
			{[]any{"round"}, 1.0},
			{[]any{"table"}, 1.0},
			{[]any{"ns", "id"}, "1"},
			{[]any{"eo", "id"}, "3"},
			{[]any{"eo", "players", 1}, "Neri Paolo"},
		} {
			if v := jsonPath(t, got, c.path...); v != c.want {
				t.Errorf("sheet%v = %v, want %v", c.path, v, c.want)
			}
		}
	})
}

// TestClubLevelRoundStates: in a club-level tournament the organising club
// may move rounds (it may have no referee); in a higher level only a
// referee or an admin may (API §4 roles).
func TestClubLevelRoundStates(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		for _, tc := range []struct {
			level string
			want  int
		}{{"club", http.StatusOK}, {"provincial", http.StatusForbidden}} {
			tid := w.createTournament(w.club1, tournamentBody("Torneo "+tc.level, tc.level))
			w.enterPairs(w.club1, tid, "1", "2")
			r := w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/rounds", token: w.club1, body: map[string]any{
				"number": 1, "phase": "danese", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}}}})
			wantStatus(t, r, http.StatusCreated, "round")
			sheet := fmt.Sprintf("/v1/tournaments/%s/rounds/1/tables/1/sheet", tid)
			wantStatus(t, w.do(request{method: "PUT", path: sheet, token: w.club1, body: goodSheet()}), http.StatusCreated, "sheet") // RULES §12.2
			r = w.do(request{method: "PATCH", path: fmt.Sprintf("/v1/tournaments/%s/rounds/1", tid), token: w.club1, body: map[string]any{"state": "sheets_delivered"}})
			if r.status != tc.want {
				t.Errorf("%s level: club PATCH %d, want %d", tc.level, r.status, tc.want)
			}
		}
	})
}

// TestValidateEndpoint: POST /v1/validate needs no token, stores nothing,
// answers a report or a batch of reports in input order.
func TestValidateEndpoint(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		before := w.snapshot()
		sheet := goodSheet()
		sheet["ruleset"] = "fitab-2025"
		sheet["hands_planned"] = 3
		r := w.do(request{method: "POST", path: "/v1/validate", body: sheet})
		wantStatus(t, r, http.StatusOK, "validate")
		if rep := decodeReport(t, r.json(t)); !rep.OK || rep.Computed.NS.VP != 11 {
			t.Errorf("report %+v", rep)
		}
		wrong := goodSheet()
		wrong["ruleset"] = "fibur-int" // 350 is no sum of 200s, 100s and a closing 100 in steps of 100 (RULES §4)
		wrong["hands_planned"] = 3
		r = w.do(request{method: "POST", path: "/v1/validate?lang=it", token: w.club1, body: map[string]any{"sheets": []any{sheet, wrong}}})
		wantStatus(t, r, http.StatusOK, "validate batch")
		reports, err := reportjson.DecodeBatch(r.body)
		if err != nil || len(reports) != 2 {
			t.Fatalf("batch: %v %s", err, r.body)
		}
		if !reports[0].OK || reports[1].OK || !hasFinding(reports[1], "BASE_NOT_REPRESENTABLE") {
			t.Errorf("batch reports in order: %+v", reports)
		}
		w.wantUnchanged(before)
	})
}

// TestValidateBatchLimit: a batch over MaxBatchSheets is a 422 naming
// /sheets; at the limit it is answered.
func TestValidateBatchLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	e.srv.Config.Handler = NewServer(Config{MaxBatchSheets: 2}, nil, slog.New(slog.DiscardHandler))
	sheet := goodSheet()
	sheet["ruleset"], sheet["hands_planned"] = "fitab-2025", 3
	r := e.do(request{method: "POST", path: "/v1/validate", body: map[string]any{"sheets": []any{sheet, sheet}}})
	wantStatus(t, r, http.StatusOK, "two sheets")
	wantProblem(t, e.do(request{method: "POST", path: "/v1/validate", body: map[string]any{"sheets": []any{sheet, sheet, sheet}}}), http.StatusUnprocessableEntity, "/sheets")
	// The same over streamAbove, where sheets are decoded one at a time.
	one, _ := json.Marshal(sheet)
	pad := strings.Repeat(" ", streamAbove)
	big := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = string(one)
		}
		return `{"sheets": [` + pad + strings.Join(parts, ",") + `]}`
	}
	r = e.do(request{method: "POST", path: "/v1/validate", body: big(2)})
	wantStatus(t, r, http.StatusOK, "two sheets, streamed")
	if reports, err := reportjson.DecodeBatch(r.body); err != nil || len(reports) != 2 {
		t.Errorf("streamed batch: %v %d", err, len(reports))
	}
	wantProblem(t, e.do(request{method: "POST", path: "/v1/validate", body: big(3)}), http.StatusUnprocessableEntity, "/sheets")
	r = e.do(request{method: "POST", path: "/v1/validate", body: map[string]any{"sheets": []any{}}})
	wantStatus(t, r, http.StatusOK, "no sheets")
	if string(r.body) != `{"reports":[]}` {
		t.Errorf("empty batch: %s", r.body)
	}
}
