package api

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// TestWithdrawalRULES12_3ThroughTheAPI: a referee withdraws an entrant
// from a round; the Danish round generated from it leaves it out (an odd
// field rests one line as usual), a Mitchell round leaves its would-be
// opponent alone with the bye score and no rest; the standings keep it,
// marked (FITAB art. 37, FIBur-INT art. 33).
func TestWithdrawalRULES12_3ThroughTheAPI(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		// Danese: 6 pairs, 6 withdraws from round 2.
		tid := w.planTournament(3, map[string]any{"first_round": "entry_order"}, 6)
		T := "/v1/tournaments/" + tid
		wantStatus(t, w.generate(w.club1, tid, map[string]any{"number": 1}), http.StatusCreated, "round 1")
		wantStatus(t, w.publish(w.club1, tid, 1), http.StatusOK, "publish 1")
		w.fillSheets(tid, 1)
		wantProblem(t, w.do(request{method: "PATCH", path: T + "/entrants/6", token: w.club1, body: map[string]any{"withdrawn_from_round": 9, "reason": "x"}}),
			http.StatusUnprocessableEntity, "/withdrawn_from_round")
		wantProblem(t, w.do(request{method: "PATCH", path: T + "/entrants/99", token: w.club1, body: map[string]any{"withdrawn_from_round": 2}}), http.StatusNotFound, "")
		r := w.do(request{method: "PATCH", path: T + "/entrants/6", token: w.club1, body: map[string]any{"withdrawn_from_round": 2, "reason": "malore"}})
		wantStatus(t, r, http.StatusOK, "withdraw 6")
		if v := r.json(t)["withdrawn_from_round"]; v != 2.0 {
			t.Errorf("entrant answer withdrawn_from_round %v, want 2", v)
		}
		r2 := w.generate(w.club1, tid, map[string]any{"number": 2})
		wantStatus(t, r2, http.StatusCreated, "round 2")
		j := r2.json(t)
		seated := []string{}
		for _, tb := range j["tables"].([]any) {
			m := tb.(map[string]any)
			seated = append(seated, m["ns"].(string), m["eo"].(string))
		}
		byes := j["byes"].([]any)
		if slices.Contains(seated, "6") || slices.Contains(byes, any("6")) || len(seated) != 4 || len(byes) != 1 {
			t.Errorf("round 2 after 6 withdrew: seated %v byes %v", seated, byes)
		}
		st := w.do(request{method: "GET", path: T + "/standings", token: w.club1}).json(t)
		marked := 0
		for _, row := range st["standings"].([]any) {
			m := row.(map[string]any)
			if m["entrant"] == "6" && m["withdrawn_from_round"] == 2.0 {
				marked++
			} else if m["withdrawn_from_round"] != nil {
				t.Errorf("entrant %v marked withdrawn", m["entrant"])
			}
		}
		if marked != 1 {
			t.Errorf("standings keep 6 marked withdrawn: %v", st["standings"])
		}
		// The tournament workbook marks it too (API §6, RULES §12.3).
		x := w.do(request{method: "GET", path: T + "/export.xlsx", token: w.club1})
		wantStatus(t, x, http.StatusOK, "export")
		header, rows := rowsOf(t, openWorkbook(t, x.body), "Classifica", true)
		if len(header) < 12 || header[11] != "Ritirato dal turno" {
			t.Fatalf("Classifica header %v", header)
		}
		for _, r := range rows {
			cell := ""
			if len(r) > 11 {
				cell = r[11]
			}
			if (r[1] == "6") != (cell == "2") {
				t.Errorf("Classifica row %v: withdrawn column %q", r, cell)
			}
		}

		// Mitchell: 8 pairs, 6 withdraws from round 2; 3 would have met it.
		mid := w.planTournament(3, map[string]any{"first_round": "entry_order", "phases": []map[string]any{{"from_round": 1, "system": "mitchell"}}}, 8)
		M := "/v1/tournaments/" + mid
		wantStatus(t, w.generate(w.club1, mid, map[string]any{"number": 1}), http.StatusCreated, "mitchell round 1")
		wantStatus(t, w.publish(w.club1, mid, 1), http.StatusOK, "publish")
		wantStatus(t, w.do(request{method: "PATCH", path: M + "/entrants/6", token: w.club1, body: map[string]any{"withdrawn_from_round": 2, "reason": "malore"}}), http.StatusOK, "withdraw")
		m2 := w.generate(w.club1, mid, map[string]any{"number": 2})
		wantStatus(t, m2, http.StatusCreated, "mitchell round 2")
		mj := m2.json(t)
		if v := mj["vacated"]; fmt.Sprint(v) != "[3]" || len(mj["byes"].([]any)) != 0 || len(mj["tables"].([]any)) != 3 {
			t.Errorf("mitchell round 2: vacated %v byes %v tables %v", v, mj["byes"], mj["tables"])
		}
		wantStatus(t, w.publish(w.club1, mid, 2), http.StatusOK, "publish 2")
		if c := w.check(w.club1, mid, 2); !c.OK {
			t.Errorf("check: %+v", c)
		}
		w.fillSheets(mid, 1, 2)
		st = w.do(request{method: "GET", path: M + "/standings?after_round=2", token: w.club1}).json(t)
		for _, row := range st["standings"].([]any) {
			m := row.(map[string]any)
			// 3 sat NS in round 1 and won 11-9 (goodSheet), then sat alone in
			// round 2: 11 + the FITAB 3-hand bye score, 14 VP.
			if m["entrant"] == "3" && m["vp"] != 25.0 {
				t.Errorf("entrant 3: %v VP, want 11 + 14 (bye score, FITAB art. 37/38)", m["vp"])
			}
		}
	})
}
