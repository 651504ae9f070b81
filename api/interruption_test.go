package api

import (
	"net/http"
	"strings"
	"testing"
)

// TestInterruptionFITABArt39ThroughTheAPI: a referee records an
// interruption after the k-th completed round; FITAB art. 39 rules it
// valid or void, and the tournament and its standings carry it.
func TestInterruptionFITABArt39ThroughTheAPI(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		cases := []struct {
			name    string
			planned int
			done    int
			valid   bool
		}{
			{"FITAB art. 39: 4 rounds, the third completed: valid", 4, 3, true},
			{"FITAB art. 39: 4 rounds, two completed: void", 4, 2, false},
		}
		for _, c := range cases {
			body := tournamentBody(c.name, "club")
			body["rounds_planned"] = c.planned
			tid := w.createTournament(w.club1, body)
			T := "/v1/tournaments/" + tid
			w.enterPairs(w.club1, tid, "1", "2", "3", "4")
			for n := 1; n <= c.done; n++ {
				w.addRound(tid, n, "mitchell", [][2]string{{"1", "3"}, {"2", "4"}})
				w.fillSheets(tid, n)
				w.setState(tid, n, w.club1, "sheets_delivered")
			}
			// Refused: a round not completed, no reason, a second interruption.
			wantProblem(t, w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"interrupted_after_round": c.done + 1, "reason": "alluvione"}}),
				http.StatusUnprocessableEntity, "/interrupted_after_round")
			wantProblem(t, w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"interrupted_after_round": c.done}}),
				http.StatusUnprocessableEntity, "/reason")
			r := w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"interrupted_after_round": c.done, "reason": "alluvione"}})
			wantStatus(t, r, http.StatusOK, "interrupt")
			j := r.json(t)
			if j["valid"] != c.valid || j["rule"] != "FITAB art. 39" || j["void"] != !c.valid || j["interrupted_after_round"] != float64(c.done) {
				t.Errorf("%s: answer %v", c.name, j)
			}
			wantProblem(t, w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"interrupted_after_round": c.done, "reason": "ancora"}}), http.StatusConflict, "")
			st := w.do(request{method: "GET", path: T + "/standings", token: w.club1}).json(t)
			if st["void"] != !c.valid || st["interrupted_after_round"] != float64(c.done) || st["after_round"] != float64(c.done) {
				t.Errorf("%s: standings %v", c.name, st)
			}
			x := w.do(request{method: "GET", path: T + "/export.xlsx", token: w.club1})
			wantStatus(t, x, http.StatusOK, "export")
			_, rows := rowsOf(t, openWorkbook(t, x.body), "Torneo", true)
			state := ""
			for _, r := range rows {
				if len(r) > 1 && r[0] == "Stato" {
					state = r[1]
				}
			}
			if want := "interrotto dopo il turno"; !c.valid {
				if !strings.HasPrefix(state, "annullato") {
					t.Errorf("%s: Torneo Stato %q, want annullato", c.name, state)
				}
			} else if !strings.HasPrefix(state, want) {
				t.Errorf("%s: Torneo Stato %q, want %q", c.name, state, want)
			}
		}
	})
}
