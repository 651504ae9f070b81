package api

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestSubstitutionFIBurArt33FITABArt37ThroughTheAPI: RULES §12.4 through
// POST .../entrants/{id}/substitutions, on both databases.
func TestSubstitutionFIBurArt33FITABArt37ThroughTheAPI(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		for _, rs := range []string{"fibur-ita", "fitab-2025"} {
			body := tournamentBody("Sostituzioni "+rs, "club")
			body["ruleset"], body["rounds_planned"] = rs, 4
			tid := w.createTournament(w.club1, body)
			w.enterPairs(w.club1, tid, "1", "2") // player a of pair 1 has membership FT101
			path := "/v1/tournaments/" + tid + "/entrants/1/substitutions"
			post := func(b map[string]any) response {
				return w.do(request{method: "POST", path: path, token: w.club1, body: b})
			}
			in := map[string]any{"name": "Sostituto Sara", "membership": "FT999"}
			if rs == "fibur-ita" {
				// 4 rounds: from round 3 at the latest (half reached, not exceeded).
				p := wantProblem(t, post(map[string]any{"from_round": 4, "out": "FT101", "in": in}), http.StatusUnprocessableEntity, "/from_round")
				if !strings.Contains(string(mustJSON(t, p)), "FIBur-INT art. 33") {
					t.Errorf("the refusal does not cite FIBur-INT art. 33: %s", mustJSON(t, p))
				}
				wantStatus(t, post(map[string]any{"from_round": 3, "out": "FT101", "in": in}), http.StatusCreated, "fibur round 3")
			} else {
				p := wantProblem(t, post(map[string]any{"from_round": 4, "out": "FT101", "in": in}), http.StatusUnprocessableEntity, "/reason")
				if !strings.Contains(string(mustJSON(t, p)), "FITAB art. 37") {
					t.Errorf("the refusal does not cite FITAB art. 37: %s", mustJSON(t, p))
				}
				wantStatus(t, post(map[string]any{"from_round": 4, "out": "FT101", "in": in, "reason": "malore accertato"}), http.StatusCreated, "fitab round 4")
			}
			wantProblem(t, post(map[string]any{"from_round": 2, "out": "FT777", "in": in, "reason": "x"}), http.StatusUnprocessableEntity, "/out")
			// RULES §12.4: each round names the players who sat.
			for n := 1; n <= 4; n++ {
				r := w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/rounds", token: w.club1, body: map[string]any{
					"number": n, "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}}}})
				wantStatus(t, r, http.StatusCreated, "round")
				got := w.do(request{method: "GET", path: fmt.Sprintf("/v1/tournaments/%s/rounds/%d", tid, n), token: w.club1}).json(t)
				name := jsonPath(t, got, "tables", 0, "players", "ns", 0, "name")
				want := "Giocatore 1a"
				if (rs == "fibur-ita" && n >= 3) || (rs == "fitab-2025" && n >= 4) {
					want = "Sostituto Sara"
				}
				if name != want {
					t.Errorf("%s round %d: NS's first player %v, want %s", rs, n, name, want)
				}
			}
			wantProblem(t, w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/entrants/9/substitutions", token: w.club1,
				body: map[string]any{"from_round": 2, "out": "FT101", "in": in, "reason": "x"}}), http.StatusNotFound, "")
		}
	})
}
