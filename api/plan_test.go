package api

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// planTournament creates a club-level tournament of n pairs with a plan.
func (w *world) planTournament(rounds int, plan map[string]any, pairs int) string {
	w.t.Helper()
	b := tournamentBody("Programma", "club")
	b["rounds_planned"], b["plan"] = rounds, plan
	tid := w.createTournament(w.club1, b)
	var ids []string
	for i := 1; i <= pairs; i++ {
		ids = append(ids, fmt.Sprint(i))
	}
	w.enterPairs(w.club1, tid, ids...)
	return tid
}

// TestPlanFITABArt2ThroughTheAPI: the plan is announced with the
// tournament, may change until round 1 is published, and decides a
// round's system, phase and session (RULES §12.1, API §4.3).
func TestPlanFITABArt2ThroughTheAPI(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		// Refused plans name the member.
		bad := tournamentBody("Programma", "club")
		bad["rounds_planned"] = 5
		for ptr, plan := range map[string]map[string]any{
			"/plan/sessions":            {"sessions": []int{3, 3}},
			"/plan/first_round":         {"first_round": "danese"},
			"/plan/phases/0/from_round": {"phases": []map[string]any{{"from_round": 2, "system": "danese"}}},
			"/plan/phases/0/system":     {"phases": []map[string]any{{"from_round": 1, "system": "danese_modificato"}}},
		} {
			bad["plan"] = plan
			wantProblem(t, w.do(request{method: "POST", path: "/v1/tournaments", token: w.club1, body: bad}), http.StatusUnprocessableEntity, ptr)
		}

		plan := map[string]any{"first_round": "draw", "sessions": []int{3, 2},
			"phases": []map[string]any{{"from_round": 1, "system": "mitchell"}, {"from_round": 4, "system": "danese"}}}
		tid := w.planTournament(5, plan, 8)
		T := "/v1/tournaments/" + tid
		got := w.do(request{method: "GET", path: T, token: w.club1}).json(t)
		if jsonPath(t, got, "plan", "first_round") != "draw" || jsonPath(t, got, "plan", "phases", 1, "system") != "danese" ||
			jsonPath(t, got, "plan", "sessions", 1) != 2.0 {
			t.Errorf("plan read back: %v", got["plan"])
		}

		// Round 1 without a system: the plan's draw, phase mitchell
		// (FITAB art. 2: round 1 belongs to the Mitchell phase), session 1.
		r1 := w.generate(w.club1, tid, map[string]any{"number": 1})
		wantStatus(t, r1, http.StatusCreated, "generate round 1")
		j := r1.json(t)
		if j["system"] != "draw" || j["phase"] != "mitchell" || j["session"] != 1.0 || j["seed"] == nil {
			t.Errorf("round 1: system %v phase %v session %v seed %v", j["system"], j["phase"], j["session"], j["seed"])
		}
		// The plan may change while round 1 is only proposed…
		wantStatus(t, w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"plan": plan}}), http.StatusOK, "PATCH plan before round 1")
		wantStatus(t, w.publish(w.club1, tid, 1), http.StatusOK, "publish round 1")
		// …not once it is published.
		wantProblem(t, w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"plan": map[string]any{"sessions": []int{5}}}}), http.StatusConflict, "")

		// Round 2: the Mitchell movement; its check agrees.
		r2 := w.generate(w.club1, tid, map[string]any{"number": 2})
		wantStatus(t, r2, http.StatusCreated, "generate round 2")
		if j := r2.json(t); j["system"] != "mitchell" || j["phase"] != "mitchell" {
			t.Errorf("round 2: system %v phase %v", j["system"], j["phase"])
		}
		wantStatus(t, w.publish(w.club1, tid, 2), http.StatusOK, "publish round 2")
		for n := 1; n <= 2; n++ {
			if c := w.check(w.club1, tid, n); !c.OK {
				t.Errorf("round %d check: %+v", n, c)
			}
		}
	})
}

// TestHandPostedRoundCheckedAgainstThePlan: a round 2 posted by hand in a
// Mitchell event repeating round 1's meetings is checked as mitchell, not
// choice (RULES §11 "a pairing is checkable", §12.1).
func TestHandPostedRoundCheckedAgainstThePlan(t *testing.T) {
	t.Parallel()
	w := newWorld(t, postgresBackend(t))
	tid := w.planTournament(4, map[string]any{"first_round": "choice",
		"phases": []map[string]any{{"from_round": 1, "system": "mitchell"}}}, 8)
	T := "/v1/tournaments/" + tid
	seat := []map[string]any{{"table": 1, "ns": "1", "eo": "5"}, {"table": 2, "ns": "2", "eo": "6"}, {"table": 3, "ns": "3", "eo": "7"}, {"table": 4, "ns": "4", "eo": "8"}}
	for n := 1; n <= 2; n++ {
		r := w.do(request{method: "POST", path: T + "/rounds", token: w.club1, body: map[string]any{"number": n, "tables": seat}})
		wantStatus(t, r, http.StatusCreated, "post round")
		if ph := r.json(t)["phase"]; ph != "mitchell" {
			t.Errorf("round %d posted without a phase: %v, want the plan's mitchell", n, ph)
		}
	}
	c := w.check(w.club1, tid, 2)
	if c.System != "mitchell" || c.OK {
		t.Fatalf("check of hand-posted round 2: %+v, want mitchell and not ok", c)
	}
	var rematch, broken int
	for _, p := range c.Problems {
		switch p.Code {
		case "REMATCH":
			rematch++
		case "MOVEMENT_BROKEN":
			broken++
		}
	}
	if rematch != 4 || broken != 4 {
		t.Errorf("REMATCH %d, MOVEMENT_BROKEN %d, want 4 and 4: %+v", rematch, broken, c.Problems)
	}
	if c := w.check(w.club1, tid, 1); c.System != "choice" || !c.OK {
		t.Errorf("round 1 seated by choice: %+v", c)
	}
}

// TestRoundRobinOfSevenFromRound1: italiana seats round 1 (FITAB art. 2 D
// "secondo un calendario prestabilito"); over 7 rounds every two of 7
// pairs meet exactly once and each rests once (RULES §12.1); every round's
// check agrees.
func TestRoundRobinOfSevenFromRound1(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.planTournament(7, map[string]any{"first_round": "draw", "phases": []map[string]any{{"from_round": 1, "system": "italiana"}}}, 7)
		met := map[[2]string]int{}
		rests := map[string]int{}
		for n := 1; n <= 7; n++ {
			r := w.generate(w.club1, tid, map[string]any{"number": n})
			wantStatus(t, r, http.StatusCreated, fmt.Sprintf("generate round %d", n))
			j := r.json(t)
			if j["system"] != "italiana" || j["phase"] != "italiana" {
				t.Fatalf("round %d: system %v phase %v", n, j["system"], j["phase"])
			}
			for _, tb := range j["tables"].([]any) {
				m := tb.(map[string]any)
				p := []string{m["ns"].(string), m["eo"].(string)}
				slices.Sort(p)
				met[[2]string{p[0], p[1]}]++
			}
			for _, id := range j["byes"].([]any) {
				rests[id.(string)]++
			}
			wantStatus(t, w.publish(w.club1, tid, n), http.StatusOK, "publish")
			if c := w.check(w.club1, tid, n); !c.OK || c.System != "italiana" {
				t.Errorf("round %d check: %+v", n, c)
			}
		}
		if len(met) != 21 {
			t.Errorf("%d distinct meetings, want 21 (7·6/2)", len(met))
		}
		for pair, k := range met {
			if k != 1 {
				t.Errorf("%v met %d times", pair, k)
			}
		}
		for i := 1; i <= 7; i++ {
			if rests[fmt.Sprint(i)] != 1 {
				t.Errorf("pair %d rested %d times, want 1", i, rests[fmt.Sprint(i)])
			}
		}
	})
}
