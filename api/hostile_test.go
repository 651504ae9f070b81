package api

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestHostileRequests sends requests no client should send. Each must be a
// 4xx problem naming what is wrong — never a 500, never a panic — and the
// database must be exactly as it was (row counts of every table, and every
// stored value read back).
func TestHostileRequests(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: goodSheet()}), http.StatusCreated, "seed sheet")
		T := "/v1/tournaments/" + w.tid
		sheetAt := func(table string) string { return T + "/rounds/1/tables/" + table + "/sheet" }
		tenMB := bytes.Repeat([]byte(" "), 10<<20)
		copy(tenMB, `{"name":"`)
		deepArray := strings.Repeat("[", 200000) + strings.Repeat("]", 200000)
		deepObject := strings.Repeat(`{"hands":`, 5000) + "1" + strings.Repeat("}", 5000)
		withField := func(base map[string]any, key string, v any) map[string]any {
			out := map[string]any{}
			for k, x := range base {
				out[k] = x
			}
			out[key] = v
			return out
		}
		tb := tournamentBody("Ostile", "club")
		handWith := func(line string, field string, v any) map[string]any {
			h := hand("closed", 300, 235, 100, -120)
			h[line].(map[string]any)[field] = v
			return h
		}
		sheetWith := func(key string, v any) map[string]any { return withField(goodSheet(), key, v) }
		pair := func(id string) map[string]any {
			return map[string]any{"id": id, "players": []map[string]any{{"name": "A"}, {"name": "B"}}}
		}
		tables := func(ts ...map[string]any) map[string]any {
			return map[string]any{"number": 2, "phase": "mitchell", "tables": ts}
		}
		tooManyEntrants := make([]map[string]any, maxEntrants+1)
		for i := range tooManyEntrants {
			tooManyEntrants[i] = pair(fmt.Sprint(1000 + i))
		}

		cases := []struct {
			name    string
			rq      request
			status  int
			pointer string // pointer, parameter or header the problem must name
		}{
			// Not JSON, or not one JSON document.
			{"malformed JSON", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: `{"name": `}, 400, ""},
			{"malformed JSON in a sheet", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: `{"hands": [}`}, 400, ""},
			{"malformed JSON to validate", request{method: "POST", path: "/v1/validate", body: `{"ruleset": "fitab-2025",`}, 400, ""},
			{"trailing data", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: `{"name":"x"} {"name":"y"}`}, 400, ""},
			{"empty body", request{method: "POST", path: T + "/entrants", token: w.club1, body: ""}, 400, ""},
			{"duplicate key", request{method: "PATCH", path: T + "/rounds/1", token: w.ref1, body: `{"state":"sheets_delivered","state":"playing"}`}, 400, "/state"},
			{"not JSON at all", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: "name=x", header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}, 415, "Content-Type"},
			// Size.
			{"10 MB tournament", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: tenMB}, 413, ""},
			{"10 MB sheet", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: tenMB}, 413, ""},
			{"10 MB to validate", request{method: "POST", path: "/v1/validate", body: tenMB}, 413, ""},
			{"10 MB chunked, no length", request{method: "POST", path: T + "/entrants", token: w.club1, body: io.MultiReader(bytes.NewReader(tenMB))}, 413, ""},
			{"10 MB hand, chunked", request{method: "POST", path: sheetAt("2") + "/hands", token: w.club1, body: io.MultiReader(bytes.NewReader(tenMB))}, 413, ""},
			// Nesting.
			{"deep array", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: deepArray}, 400, ""},
			{"deep array sheet", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: deepArray}, 400, ""},
			{"deep array to validate", request{method: "POST", path: "/v1/validate", body: deepArray}, 400, ""},
			{"deep object sheet", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: deepObject}, 400, ""},
			{"deep object to validate", request{method: "POST", path: "/v1/validate", body: deepObject}, 422, "/hands"},
			{"deep object hand", request{method: "POST", path: sheetAt("2") + "/hands", token: w.club1, body: deepObject}, 400, ""},
			// Numbers.
			{"1e300 rounds", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: withField(tb, "rounds_planned", 1e300)}, 422, "/rounds_planned"},
			{"1e300 in a sheet", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: `{"hands":[{"ns":{"base":1e300,"points":0},"eo":{"base":0,"points":0}}]}`}, 422, "/hands/0/ns/base"},
			{"1e300 in a hand", request{method: "POST", path: sheetAt("2") + "/hands", token: w.club1, body: `{"ns":{"base":100,"points":1e300},"eo":{"base":0,"points":0}}`}, 422, "/ns/points"},
			{"1e300 to validate", request{method: "POST", path: "/v1/validate", body: `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"base":1e300,"points":0},"eo":{"base":0,"points":0}}]}`}, 422, "/hands/0/ns/base"},
			{"huge integer", request{method: "POST", path: T + "/rounds", token: w.club1, body: `{"number": 123456789012345678901234567890, "phase": "mitchell", "tables": []}`}, 422, "/number"},
			{"fraction", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: withField(tb, "hands_per_round", 3.5)}, 422, "/hands_per_round"},
			{"VP diff out of range", request{method: "GET", path: "/v1/vp?table=fitab-3&diff=1e300"}, 400, "diff"},
			// Types and fields.
			{"unknown field", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: withField(tb, "prize", 100)}, 422, "/prize"},
			{"string for a number", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: withField(tb, "rounds_planned", "4")}, 422, "/rounds_planned"},
			{"unknown field in a sheet", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: sheetWith("bonus", 1)}, 422, "/bonus"},
			{"unknown field in a hand", request{method: "POST", path: sheetAt("2") + "/hands", token: w.club1, body: handWith("eo", "bonus", 5)}, 422, "/eo/bonus"},
			{"batch where a sheet belongs", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: map[string]any{"sheets": []any{goodSheet()}}}, 422, "/sheets"},
			{"array as a hand", request{method: "POST", path: sheetAt("2") + "/hands", token: w.club1, body: `[]`}, 422, ""},
			{"null as a hand", request{method: "POST", path: sheetAt("2") + "/hands", token: w.club1, body: `null`}, 422, ""},
			{"unknown role", request{method: "POST", path: "/v1/tokens", token: w.admin, body: map[string]any{"role": "root", "name": "x"}}, 422, "/role"},
			{"club token without a club", request{method: "POST", path: "/v1/tokens", token: w.admin, body: map[string]any{"role": "club", "name": "x"}}, 422, "/club"},
			{"club token for a missing club", request{method: "POST", path: "/v1/tokens", token: w.admin, body: map[string]any{"role": "club", "club": "nope", "name": "x"}}, 422, "/club"},
			{"referee token with a club", request{method: "POST", path: "/v1/tokens", token: w.admin, body: map[string]any{"role": "referee", "club": w.c1, "name": "x"}}, 422, "/club"},
			{"duplicate club id", request{method: "POST", path: "/v1/clubs", token: w.admin, body: map[string]any{"id": w.c1, "name": "Doppione"}}, 409, ""},
			{"club id with a slash", request{method: "POST", path: "/v1/clubs", token: w.admin, body: map[string]any{"id": "a/b", "name": "x"}}, 422, "/id"},
			// Rules of the domain.
			{"unknown ruleset", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: withField(tb, "ruleset", "fitab-2099")}, 422, "/ruleset"},
			{"unknown ruleset to validate", request{method: "POST", path: "/v1/validate", body: withField(sheetWith("hands_planned", 3), "ruleset", "burraco-libero")}, 422, "/ruleset"},
			{"unknown VP table", request{method: "GET", path: "/v1/vp?table=fitab-9&diff=100"}, 400, "table"},
			{"unknown ruleset for VP", request{method: "GET", path: "/v1/vp?ruleset=x&hands=3&diff=100"}, 400, "ruleset"},
			{"VP table and ruleset", request{method: "GET", path: "/v1/vp?table=fitab-3&ruleset=fitab-2025&diff=100"}, 400, "ruleset"},
			{"unknown query parameter", request{method: "GET", path: "/v1/vp?table=fitab-3&diff=100&tabel=x"}, 400, "tabel"},
			{"unknown level", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: withField(tb, "level", "world")}, 422, "/level"},
			{"bad date", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: withField(tb, "date", "21/11/2026")}, 422, "/date"},
			{"five hands a round", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: withField(tb, "hands_per_round", 5)}, 422, "/hands_per_round"},
			{"control character in a name", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: withField(tb, "name", "Coppa\u0000")}, 422, "/name"},
			{"blank name", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: withField(tb, "name", "   ")}, 422, "/name"},
			{"overlong name", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: withField(tb, "name", strings.Repeat("é", 201))}, 422, "/name"},
			{"unknown language", request{method: "POST", path: "/v1/validate?lang=fr", body: "{}"}, 400, "lang"},
			// Entrants: all or nothing (one bad entrant, none written).
			{"entrant already entered", request{method: "POST", path: T + "/entrants", token: w.club1, body: map[string]any{"entrants": []any{pair("90"), pair("1")}}}, 422, "/entrants/1/id"},
			{"entrant twice in a request", request{method: "POST", path: T + "/entrants", token: w.club1, body: map[string]any{"entrants": []any{pair("90"), pair("90")}}}, 422, "/entrants/1/id"},
			{"a pair of three", request{method: "POST", path: T + "/entrants", token: w.club1, body: map[string]any{"entrants": []any{map[string]any{"id": "91", "players": []map[string]any{{"name": "A"}, {"name": "B"}, {"name": "C"}}}}}}, 422, "/entrants/0/players"},
			{"SQL in an entrant id", request{method: "POST", path: T + "/entrants", token: w.club1, body: map[string]any{"entrants": []any{pair("1' OR '1'='1")}}}, 422, "/entrants/0/id"},
			{"too many entrants", request{method: "POST", path: T + "/entrants", token: w.club1, body: map[string]any{"entrants": tooManyEntrants}}, 422, "/entrants"},
			{"no entrants", request{method: "POST", path: T + "/entrants", token: w.club1, body: map[string]any{"entrants": []any{}}}, 422, "/entrants"},
			// Rounds.
			{"negative table number in a round", request{method: "POST", path: T + "/rounds", token: w.club1, body: tables(map[string]any{"table": -3, "ns": "1", "eo": "2"})}, 422, "/tables/0/table"},
			{"entrant not entered", request{method: "POST", path: T + "/rounds", token: w.club1, body: tables(map[string]any{"table": 1, "ns": "1", "eo": "99"})}, 422, "/tables/0/eo"},
			{"entrant twice in a round", request{method: "POST", path: T + "/rounds", token: w.club1, body: tables(map[string]any{"table": 1, "ns": "1", "eo": "2"}, map[string]any{"table": 2, "ns": "3", "eo": "1"})}, 422, "/tables/1/eo"},
			{"table twice in a round", request{method: "POST", path: T + "/rounds", token: w.club1, body: tables(map[string]any{"table": 1, "ns": "1", "eo": "2"}, map[string]any{"table": 1, "ns": "3", "eo": "4"})}, 422, "/tables/1/table"},
			{"round beyond the plan", request{method: "POST", path: T + "/rounds", token: w.club1, body: map[string]any{"number": 7, "phase": "mitchell", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}}}}, 422, "/number"},
			{"unknown phase", request{method: "POST", path: T + "/rounds", token: w.club1, body: map[string]any{"number": 2, "phase": "swiss", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}}}}, 422, "/phase"},
			{"round 1 again", request{method: "POST", path: T + "/rounds", token: w.club1, body: map[string]any{"number": 1, "phase": "mitchell", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}}}}, 409, ""},
			{"unknown round state", request{method: "PATCH", path: T + "/rounds/1", token: w.ref1, body: map[string]any{"state": "finished"}}, 422, "/state"},
			{"missing round", request{method: "PATCH", path: T + "/rounds/5", token: w.ref1, body: map[string]any{"state": "sheets_delivered"}}, 404, ""},
			// Sheets.
			{"negative table number", request{method: "PUT", path: sheetAt("-1"), token: w.club1, body: goodSheet()}, 400, "t"},
			{"table zero", request{method: "GET", path: sheetAt("0"), token: w.club1}, 400, "t"},
			{"table with a sign", request{method: "GET", path: sheetAt("+1"), token: w.club1}, 400, "t"},
			{"round not a number", request{method: "GET", path: T + "/rounds/uno", token: w.club1}, 400, "n"},
			{"table not in the round", request{method: "PUT", path: sheetAt("99"), token: w.club1, body: goodSheet()}, 404, ""},
			{"hand at a table not in the round", request{method: "POST", path: sheetAt("99") + "/hands", token: w.club1, body: goodHands[0]}, 404, ""},
			{"round that does not exist", request{method: "PUT", path: T + "/rounds/3/tables/1/sheet", token: w.club1, body: goodSheet()}, 404, ""},
			{"sheet for a pair not in the round", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: sheetWith("ns", map[string]any{"id": "4"})}, 422, "/ns/id"},
			{"sheet for the other table's pair", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: sheetWith("eo", map[string]any{"id": "2", "players": []string{"X"}})}, 422, "/eo/id"},
			{"sheet of another ruleset", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: sheetWith("ruleset", "fibur-int")}, 422, "/ruleset"},
			{"sheet of unknown ruleset", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: sheetWith("ruleset", "fitab-1999")}, 422, "/ruleset"},
			{"sheet planning 4 hands in a 3-hand round", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: sheetWith("hands_planned", 4)}, 422, "/hands_planned"},
			{"sheet of another round", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: sheetWith("round", 2)}, 422, "/round"},
			{"sheet of another table", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: sheetWith("table", 2)}, 422, "/table"},
			{"sheet pinning a VP table", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: sheetWith("vp_table", "fitab-4")}, 422, "/vp_table"},
			{"sheet of another kind", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: sheetWith("kind", "teams")}, 422, "/kind"},
			{"sheet with five hands", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: sheetWith("hands", []any{goodHands[0], goodHands[1], goodHands[2], goodHands[0], goodHands[1]})}, 422, "/hands"},
			{"sheet without hands", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: `{}`}, 422, "/hands"},
			{"hand without points", request{method: "POST", path: sheetAt("2") + "/hands", token: w.club1, body: `{"ns":{"base":100},"eo":{"base":0,"points":0}}`}, 422, "/ns/points"},
			{"hand with an unknown end", request{method: "POST", path: sheetAt("2") + "/hands", token: w.club1, body: withField(goodHands[0], "end", "abandoned")}, 422, "/end"},
			{"stale If-Match", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: goodSheet(), header: map[string]string{"If-Match": `"7"`}}, 412, "If-Match"},
			{"If-Match on a missing sheet", request{method: "PUT", path: sheetAt("2"), token: w.club1, body: goodSheet(), header: map[string]string{"If-Match": `"1"`}}, 412, "If-Match"},
			{"If-Match * on a missing sheet", request{method: "PUT", path: sheetAt("2"), token: w.club1, body: goodSheet(), header: map[string]string{"If-Match": "*"}}, 412, "If-Match"},
			{"malformed If-Match", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: goodSheet(), header: map[string]string{"If-Match": "1"}}, 400, "If-Match"},
			{"weak If-Match never matches (RFC 9110 §13.1.1)", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: goodSheet(), header: map[string]string{"If-Match": `W/"1"`}}, 412, "If-Match"},
			{"a well-formed tag that is no version is 412, not 400", request{method: "PUT", path: sheetAt("1"), token: w.club1, body: goodSheet(), header: map[string]string{"If-Match": `"stale-0"`}}, 412, "If-Match"},
			{"Idempotency-Key with spaces", request{method: "POST", path: sheetAt("2") + "/hands", token: w.club1, body: goodHands[0], header: map[string]string{"Idempotency-Key": "a b"}}, 400, "Idempotency-Key"},
			{"overlong Idempotency-Key", request{method: "POST", path: sheetAt("2") + "/hands", token: w.club1, body: goodHands[0], header: map[string]string{"Idempotency-Key": strings.Repeat("k", 256)}}, 400, "Idempotency-Key"},
			// Paths.
			{"SQL-looking tournament id", request{method: "GET", path: "/v1/tournaments/'%20OR%201=1--", token: w.club1}, 404, ""},
			{"overlong tournament id", request{method: "GET", path: "/v1/tournaments/" + strings.Repeat("t", 500), token: w.admin}, 404, ""},
			{"unicode tournament id", request{method: "GET", path: "/v1/tournaments/%F0%9F%82%A1", token: w.admin}, 404, ""},
			{"blank referee name", request{method: "PUT", path: T + "/referees/%20", token: w.club1}, 400, "name"},
			{"control character in a referee name", request{method: "PUT", path: T + "/referees/a%00b", token: w.club1}, 400, "name"},
			{"no such route", request{method: "GET", path: "/v1/nothing", token: w.admin}, 404, ""},
			{"trailing slash", request{method: "GET", path: "/v1/tournaments/", token: w.admin}, 404, ""},
			{"wrong method", request{method: "POST", path: T, token: w.admin}, 405, ""},
		}
		before := w.snapshot()
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r := w.do(tc.rq)
				p := wantProblem(t, r, tc.status, tc.pointer)
				if p.Detail == "" {
					t.Errorf("no detail: %s", r.body)
				}
			})
		}
		w.wantUnchanged(before)
		// The database still answers, and the seeded sheet is intact.
		r := w.do(request{method: "GET", path: w.sheetPath(1, 1), token: w.club1})
		wantStatus(t, r, http.StatusOK, "sheet after the storm")
		if r.header.Get("ETag") != `"1"` {
			t.Errorf("the sheet changed: ETag %s", r.header.Get("ETag"))
		}
	})
}

// TestNamesAreStoredVerbatim: unicode and SQL-looking text is data, stored
// and read back exactly, harming nothing.
func TestNamesAreStoredVerbatim(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		names := []string{
			"Robert'); DROP TABLE tournaments;--",
			`Coppa "Città di Forlì" 🂡 — 第一回`,
			"\u202eevil RTL\u202c and ' OR 1=1 --",
		}
		for i, name := range names {
			body := tournamentBody(name, "club")
			tid := w.createTournament(w.club1, body)
			r := w.do(request{method: "GET", path: "/v1/tournaments/" + tid, token: w.club1})
			wantStatus(t, r, http.StatusOK, "read back")
			if got := r.json(t)["name"]; got != name {
				t.Errorf("name %d read back as %q", i, got)
			}
			r = w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/entrants", token: w.club1, body: map[string]any{"entrants": []any{
				map[string]any{"id": "1", "players": []map[string]any{{"name": name, "membership": "FT123"}, {"name": "Ünïcødé"}}, "club": name}}}})
			wantStatus(t, r, http.StatusCreated, "entrant with such names")
			r = w.do(request{method: "GET", path: "/v1/tournaments/" + tid + "/entrants", token: w.club1})
			if got := jsonPath(t, r.json(t), "entrants", 0, "players", 0, "name"); got != name {
				t.Errorf("player name read back as %q", got)
			}
		}
		// A referee whose name looks like SQL, assigned through the path.
		ref := w.token(map[string]any{"role": "referee", "name": "O'Brien; DELETE FROM tokens"})
		r := w.do(request{method: "PUT", path: "/v1/tournaments/" + w.tid + "/referees/O%27Brien%3B%20DELETE%20FROM%20tokens", token: w.club1})
		wantStatus(t, r, http.StatusNoContent, "assign")
		wantStatus(t, w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid, token: ref}), http.StatusOK, "that referee reads")
		// A name with an encoded slash is one path segment.
		ref2 := w.token(map[string]any{"role": "referee", "name": "Rossi/Bianchi"})
		wantStatus(t, w.do(request{method: "PUT", path: "/v1/tournaments/" + w.tid + "/referees/Rossi%2FBianchi", token: w.club1}), http.StatusNoContent, "assign")
		wantStatus(t, w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid, token: ref2}), http.StatusOK, "that referee reads")
	})
}
