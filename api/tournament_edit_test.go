package api

import (
	"net/http"
	"testing"
)

// A tournament's fields can be put right while nothing is
// played, by its club or an admin only; once a sheet is entered it is a
// 409 and nothing changes.
func TestPatchTournament(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		T := "/v1/tournaments/" + w.tid

		for _, tc := range []struct {
			who    string
			token  string
			status int
		}{{"club 2", w.club2, 404}, {"federation", w.fed, 403}, {"referee", w.ref1, 403}, {"nobody", "", 401}} {
			before := w.snapshot()
			r := w.do(request{method: "PATCH", path: T, token: tc.token, body: map[string]any{"name": "Coppa Inverno"}})
			wantStatus(t, r, tc.status, "PATCH as "+tc.who)
			w.wantUnchanged(before)
		}

		before := w.snapshot()
		for _, bad := range []struct {
			body    map[string]any
			pointer string
		}{
			{map[string]any{"name": ""}, "/name"},
			{map[string]any{"date": "21/11/2026"}, "/date"},
			{map[string]any{"hands_per_round": 5}, "/hands_per_round"},
			{map[string]any{"level": "galactic"}, "/level"},
			{map[string]any{"rounds_planned": 0}, "/rounds_planned"},
		} {
			wantProblem(t, w.do(request{method: "PATCH", path: T, token: w.club1, body: bad.body}), http.StatusUnprocessableEntity, bad.pointer)
		}
		wantStatus(t, w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"kind": "individual"}}), http.StatusConflict, "kind with entrants")
		w.wantUnchanged(before)

		r := w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"name": "Coppa Inverno", "date": "2026-12-12", "hands_per_round": 4}})
		wantStatus(t, r, http.StatusOK, "PATCH as club 1")
		got := r.json(t)
		if got["name"] != "Coppa Inverno" || got["date"] != "2026-12-12" || got["hands_per_round"] != 4.0 || got["level"] != "regional" {
			t.Errorf("after PATCH: %v", got)
		}
		if g := w.do(request{method: "GET", path: T, token: w.fed}).json(t); g["name"] != "Coppa Inverno" || g["hands_per_round"] != 4.0 {
			t.Errorf("GET after PATCH: %v", g)
		}
		wantStatus(t, w.do(request{method: "PATCH", path: T, token: w.admin, body: map[string]any{"hands_per_round": 3}}), http.StatusOK, "PATCH as admin")

		// A sheet is entered: the tournament is played.
		wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: goodSheet()}), http.StatusCreated, "enter a sheet")
		before = w.snapshot()
		wantStatus(t, w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"hands_per_round": 2}}), http.StatusConflict, "PATCH once played")
		wantStatus(t, w.do(request{method: "DELETE", path: T, token: w.admin}), http.StatusConflict, "DELETE once played")
		w.wantUnchanged(before)

		// One PATCH is one transaction: with a field that may no longer
		// change, public does not change either; alone it still may.
		wantStatus(t, w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"name": "Altro nome", "public": true}}), http.StatusConflict, "PATCH of a field and public once played")
		if g := w.do(request{method: "GET", path: T, token: w.club1}).json(t); g["public"] != false || g["name"] != "Coppa Inverno" {
			t.Errorf("a refused PATCH changed the tournament: %v", g)
		}
		r = w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"public": true}})
		wantStatus(t, r, http.StatusOK, "PATCH of public alone once played")
		if r.json(t)["public"] != true {
			t.Errorf("public alone: %s", r.body)
		}
	})
}

// A PATCH of fields and public changes both, in one transaction, while
// nothing is played.
func TestPatchTournamentFieldsAndPublicTogether(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.createTournament(w.club1, tournamentBody("Insieme", "club"))
		T := "/v1/tournaments/" + tid
		r := w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"name": "Insieme, pubblico", "public": true}})
		wantStatus(t, r, http.StatusOK, "PATCH of name and public")
		if g := w.do(request{method: "GET", path: T, token: w.club1}).json(t); g["public"] != true || g["name"] != "Insieme, pubblico" {
			t.Errorf("after PATCH: %v", g)
		}
		wantStatus(t, w.do(request{method: "GET", path: "/v1/public/tournaments/" + tid}), http.StatusOK, "the public read opens at once")
	})
}

// A tournament created by mistake is deleted while empty.
func TestDeleteTournament(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.createTournament(w.club1, tournamentBody("Per sbaglio", "club"))
		T := "/v1/tournaments/" + tid
		before := w.snapshot()
		wantStatus(t, w.do(request{method: "DELETE", path: T, token: w.club2}), http.StatusNotFound, "other club")
		wantStatus(t, w.do(request{method: "DELETE", path: T, token: w.fed}), http.StatusForbidden, "federation")
		wantStatus(t, w.do(request{method: "DELETE", path: "/v1/tournaments/" + w.tid, token: w.club1}), http.StatusConflict, "a tournament with entrants")
		w.wantUnchanged(before)
		wantStatus(t, w.do(request{method: "DELETE", path: T, token: w.club1}), http.StatusNoContent, "own empty tournament")
		wantStatus(t, w.do(request{method: "GET", path: T, token: w.admin}), http.StatusNotFound, "after DELETE")
		wantStatus(t, w.do(request{method: "DELETE", path: T, token: w.club1}), http.StatusNotFound, "twice")
	})
}
