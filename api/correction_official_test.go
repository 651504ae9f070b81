package api

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSumCorrectionSetsTheOfficialResult_S8: an applied sum correction
// that gives no written values makes the official result what the
// corrected sheet adds up to (RULES §8; FITAB art. 20: the error was in the
// written figures) — the referee need not retype the bottom. A correction that gives written values keeps them.
func TestSumCorrectionSetsTheOfficialResult_S8(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.createTournament(w.club1, tournamentBody("Coppa Rettifica", "regional"))
		T := "/v1/tournaments/" + tid
		wantStatus(t, w.do(request{method: "PUT", path: T + "/referees/Arbitro%20Uno", token: w.club1}), http.StatusNoContent, "assign")
		w.enterPairs(w.club1, tid, "1", "2", "3", "4")
		w.addRound(tid, 1, "mitchell", [][2]string{{"1", "3"}, {"2", "4"}})
		// Hands 735 – 735, a draw; both sheets write NS 745 and an 11-9 win.
		for table := 1; table <= 2; table++ {
			wrong := sheetOfHands(hC, hCm)
			wrong["written"] = map[string]any{"ns": map[string]any{"total": 745, "mp": 10, "vp": 11}, "eo": map[string]any{"total": 735, "mp": -10, "vp": 9}}
			w.putSheetAt(tid, 1, table, wrong)
		}
		w.setState(tid, 1, w.ref1, "sheets_delivered")

		// Table 1: the hands re-entered, no written values: the official
		// result becomes the computed draw.
		hands := sheetOfHands(hC, hCm)["hands"]
		fix := map[string]any{"round": 1, "table": 1, "kind": "sum", "reason": "NS re-added",
			"corrected": map[string]any{"hands": hands}}
		r := w.correct(tid, w.ref1, fix, nil)
		wantStatus(t, r, http.StatusCreated, "sum correction without written values")
		ans := decodeInto[correctionAnswer](t, r)
		if !ans.Applied {
			t.Fatalf("not applied: %+v", ans.Ruling)
		}
		after := map[string][2]int{"1": {10, 0}, "2": {11, 10}, "3": {10, 0}, "4": {9, -10}}
		if d := cmp.Diff(after, vpmp(ans.StandingsAfter)); d != "" {
			t.Errorf("standings after: table 1 is the computed draw (-want +got):\n%s", d)
		}
		sheet := w.do(request{method: "GET", path: T + "/rounds/1/tables/1/sheet", token: w.ref1}).json(t)
		if v := jsonPath(t, sheet, "sheet", "written", "ns", "total"); v != 735.0 {
			t.Errorf("stored written NS total %v, want 735 (what the sheet adds up to)", v)
		}

		// Table 2: the written values given stand as given.
		fix = map[string]any{"round": 1, "table": 2, "kind": "sum", "reason": "as the lines agreed",
			"corrected": map[string]any{"hands": hands, "written": map[string]any{"ns": map[string]any{"total": 740, "mp": 5, "vp": 10}, "eo": map[string]any{"mp": -5, "vp": 10}}}}
		r = w.correct(tid, w.ref1, fix, nil)
		wantStatus(t, r, http.StatusCreated, "sum correction with written values")
		ans = decodeInto[correctionAnswer](t, r)
		given := map[string][2]int{"1": {10, 0}, "2": {10, 5}, "3": {10, 0}, "4": {10, -5}}
		if d := cmp.Diff(given, vpmp(ans.StandingsAfter)); d != "" {
			t.Errorf("standings after: table 2 as written in the correction (-want +got):\n%s", d)
		}
	})
}
