package api

import (
	"net/http"
	"strings"
	"testing"
)

// An entrant's players are put right through PATCH, by its
// club or an admin only, checked as when entering; bad input changes
// nothing.
func TestPatchEntrant(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		E := "/v1/tournaments/" + w.tid + "/entrants/"
		fix := map[string]any{"players": []map[string]any{{"name": "Maria Rossi", "membership": "FT999"}, {"name": "Anna Bianchi"}}}

		before := w.snapshot()
		for _, tc := range []struct {
			who    string
			token  string
			status int
		}{{"club 2", w.club2, 404}, {"federation", w.fed, 403}, {"referee", w.ref1, 403}, {"nobody", "", 401}} {
			wantStatus(t, w.do(request{method: "PATCH", path: E + "1", token: tc.token, body: fix}), tc.status, "PATCH as "+tc.who)
		}
		wantStatus(t, w.do(request{method: "PATCH", path: E + "99", token: w.club1, body: fix}), http.StatusNotFound, "unknown entrant")
		for _, bad := range []struct {
			body    map[string]any
			pointer string
		}{
			{map[string]any{"players": []map[string]any{{"name": "Sola"}}}, "/players"},
			{map[string]any{"players": []map[string]any{{"name": ""}, {"name": "Anna"}}}, "/players/0/name"},
			{map[string]any{"club": strings.Repeat("x", 201)}, "/club"},
			{map[string]any{}, "/players"},
		} {
			wantProblem(t, w.do(request{method: "PATCH", path: E + "1", token: w.club1, body: bad.body}), http.StatusUnprocessableEntity, bad.pointer)
		}
		w.wantUnchanged(before)

		r := w.do(request{method: "PATCH", path: E + "1", token: w.club1, body: fix})
		wantStatus(t, r, http.StatusOK, "PATCH as club 1")
		if got := r.json(t); got["id"] != "1" {
			t.Errorf("after PATCH: %v", got)
		}
		wantStatus(t, w.do(request{method: "PATCH", path: E + "2", token: w.admin, body: map[string]any{"club": "Circolo Tre"}}), http.StatusOK, "PATCH as admin")
		es, err := w.db.ListEntrants(t.Context(), w.tid)
		if err != nil {
			t.Fatal(err)
		}
		if e := es[0]; e.ID != "1" || len(e.Players) != 2 || e.Players[0].Name != "Maria Rossi" || e.Players[0].Membership != "FT999" || e.Players[1].Name != "Anna Bianchi" {
			t.Errorf("entrant 1 after PATCH: %+v", e)
		}
		if e := es[1]; e.Club != "Circolo Tre" || e.Players[0].Name != "Giocatore 2a" {
			t.Errorf("entrant 2 after PATCH of its club: %+v", e)
		}
		// The round still seats entrant 1.
		rd := w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid + "/rounds/1", token: w.club1}).json(t)
		if tb := rd["tables"].([]any)[0].(map[string]any); tb["ns"] != "1" {
			t.Errorf("round 1 after PATCH: %v", rd)
		}
	})
}

// An entrant entered by mistake is withdrawn while it is seated
// in no round; seated (table or bye), it is a 409 and nothing changes.
func TestWithdrawEntrant(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		E := "/v1/tournaments/" + w.tid + "/entrants/"
		R1 := "/v1/tournaments/" + w.tid + "/rounds/1"
		w.enterPairs(w.club1, w.tid, "5")

		before := w.snapshot()
		wantStatus(t, w.do(request{method: "DELETE", path: E + "5", token: w.club2}), http.StatusNotFound, "other club")
		wantStatus(t, w.do(request{method: "DELETE", path: E + "5", token: w.ref1}), http.StatusForbidden, "referee")
		wantStatus(t, w.do(request{method: "DELETE", path: E + "5", token: w.fed}), http.StatusForbidden, "federation")
		wantStatus(t, w.do(request{method: "DELETE", path: E + "1", token: w.club1}), http.StatusConflict, "seated at a table")
		w.wantUnchanged(before)

		// Seated by a bye: still a 409.
		withBye := map[string]any{"number": 1, "phase": "mitchell", "byes": []string{"5"},
			"tables": []map[string]any{{"table": 1, "ns": "1", "eo": "3"}, {"table": 2, "ns": "2", "eo": "4"}}}
		wantStatus(t, w.do(request{method: "PUT", path: R1, token: w.club1, body: withBye}), http.StatusOK, "give 5 a bye")
		before = w.snapshot()
		wantStatus(t, w.do(request{method: "DELETE", path: E + "5", token: w.club1}), http.StatusConflict, "given a bye")
		w.wantUnchanged(before)

		delete(withBye, "byes")
		wantStatus(t, w.do(request{method: "PUT", path: R1, token: w.club1, body: withBye}), http.StatusOK, "take the bye back")
		wantStatus(t, w.do(request{method: "DELETE", path: E + "5", token: w.club1}), http.StatusNoContent, "withdraw 5")
		for _, e := range w.do(request{method: "GET", path: E[:len(E)-1], token: w.club1}).json(t)["entrants"].([]any) {
			if e.(map[string]any)["id"] == "5" {
				t.Errorf("entrant 5 still listed after DELETE")
			}
		}
		wantStatus(t, w.do(request{method: "DELETE", path: E + "5", token: w.club1}), http.StatusNotFound, "twice")
		// The id is free again.
		w.enterPairs(w.admin, w.tid, "5")
		wantStatus(t, w.do(request{method: "DELETE", path: E + "5", token: w.admin}), http.StatusNoContent, "withdraw as admin")
	})
}

// A round not yet played is redefined with PUT (the body of
// POST .../rounds); once a sheet is entered, or the round is no longer
// playing, it is a 409 and nothing changes.
func TestPutRound(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		T := "/v1/tournaments/" + w.tid
		R1 := T + "/rounds/1"
		swapped := map[string]any{"number": 1, "phase": "danese", "hands_planned": 2,
			"tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}, {"table": 2, "ns": "3", "eo": "4"}}}

		before := w.snapshot()
		for _, tc := range []struct {
			who    string
			token  string
			status int
		}{{"club 2", w.club2, 404}, {"federation", w.fed, 403}, {"referee", w.ref1, 403}, {"nobody", "", 401}} {
			wantStatus(t, w.do(request{method: "PUT", path: R1, token: tc.token, body: swapped}), tc.status, "PUT as "+tc.who)
		}
		wantStatus(t, w.do(request{method: "PUT", path: T + "/rounds/3", token: w.club1, body: map[string]any{"number": 3, "phase": "mitchell",
			"tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}}}}), http.StatusNotFound, "a round not created")
		for _, bad := range []struct {
			body    map[string]any
			pointer string
		}{
			{map[string]any{"number": 2, "phase": "mitchell", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}}}, "/number"},
			{map[string]any{"number": 1, "phase": "mitchell", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "9"}}}, "/tables/0/eo"},
			{map[string]any{"number": 1, "phase": "mitchell", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "1"}}}, "/tables/0/eo"},
			{map[string]any{"number": 1, "phase": "mitchell", "tables": []map[string]any{}}, "/tables"},
			{map[string]any{"number": 1, "phase": "boh", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}}}, "/phase"},
		} {
			wantProblem(t, w.do(request{method: "PUT", path: R1, token: w.club1, body: bad.body}), http.StatusUnprocessableEntity, bad.pointer)
		}
		w.wantUnchanged(before)

		r := w.do(request{method: "PUT", path: R1, token: w.club1, body: swapped})
		wantStatus(t, r, http.StatusOK, "PUT as club 1")
		got := w.do(request{method: "GET", path: R1, token: w.fed}).json(t)
		tables := got["tables"].([]any)
		if got["phase"] != "danese" || got["hands_planned"] != 2.0 || got["state"] != "playing" || len(tables) != 2 ||
			tables[0].(map[string]any)["eo"] != "2" || tables[1].(map[string]any)["ns"] != "3" {
			t.Errorf("round 1 after PUT: %v", got)
		}
		// A sheet for the new seating: 1 plays 2 at table 1.
		wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: goodSheet()}), http.StatusCreated, "enter a sheet")
		before = w.snapshot()
		wantStatus(t, w.do(request{method: "PUT", path: R1, token: w.admin, body: swapped}), http.StatusConflict, "PUT once a sheet is entered")
		w.wantUnchanged(before)

		// Round 2: delivered only with its tables' sheets (RULES §12.2);
		// then no longer playing.
		R2 := T + "/rounds/2"
		r2 := map[string]any{"number": 2, "phase": "mitchell", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "4"}, {"table": 2, "ns": "2", "eo": "3"}}}
		wantStatus(t, w.do(request{method: "POST", path: T + "/rounds", token: w.club1, body: r2}), http.StatusCreated, "create round 2")
		wantStatus(t, w.do(request{method: "PUT", path: R2, token: w.admin, body: r2}), http.StatusOK, "PUT as admin")
		wantStatus(t, w.do(request{method: "PATCH", path: R2, token: w.ref1, body: map[string]any{"state": "sheets_delivered"}}), http.StatusConflict, "deliver round 2 without sheets")
		for _, table := range []int{1, 2} {
			wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(2, table), token: w.club1, body: goodSheet()}), http.StatusCreated, "enter a round 2 sheet")
		}
		wantStatus(t, w.do(request{method: "PATCH", path: R2, token: w.ref1, body: map[string]any{"state": "sheets_delivered"}}), http.StatusOK, "deliver round 2")
		before = w.snapshot()
		wantStatus(t, w.do(request{method: "PUT", path: R2, token: w.club1, body: r2}), http.StatusConflict, "PUT once delivered")
		w.wantUnchanged(before)
	})
}
