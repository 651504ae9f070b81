package api

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type gotDiscrepancy struct {
	Round       int            `json:"round"`
	Table       int            `json:"table"`
	Line        string         `json:"line"`
	Official    map[string]int `json:"official"`
	Computed    map[string]int `json:"computed"`
	Kind        string         `json:"kind"`
	Correctable string         `json:"correctable"`
}

type standingWithDiscrepancies struct {
	Entrant       string           `json:"entrant"`
	VP            int              `json:"vp"`
	MP            int              `json:"mp"`
	Discrepancies []gotDiscrepancy `json:"discrepancies"`
}

func vpmp(rows []gotStanding) map[string][2]int {
	out := map[string][2]int{}
	for _, s := range rows {
		out[s.Entrant] = [2]int{s.VP, s.MP}
	}
	return out
}

func (w *world) discrepancies(tid string) map[string][]gotDiscrepancy {
	w.t.Helper()
	r := w.do(request{method: "GET", path: "/v1/tournaments/" + tid + "/standings", token: w.ref1})
	wantStatus(w.t, r, http.StatusOK, "standings")
	v := decodeInto[struct {
		Standings []standingWithDiscrepancies `json:"standings"`
	}](w.t, r)
	out := map[string][]gotDiscrepancy{}
	for _, s := range v.Standings {
		if s.Discrepancies == nil {
			w.t.Errorf("entrant %s: discrepancies is null, want a list", s.Entrant)
		}
		if len(s.Discrepancies) > 0 {
			out[s.Entrant] = s.Discrepancies
		}
	}
	return out
}

// RULES §8, first paragraph: the delivered sheet's WRITTEN result counts,
// not the one recomputed from the hands; the standings list the difference
// (with the ruling a correction would get) and an applied correction of
// the written figures moves the standings.
func TestStandingsCountTheWrittenResultAndACorrectionMovesThem_S8(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.createTournament(w.club1, tournamentBody("Coppa Scritta", "regional"))
		T := "/v1/tournaments/" + tid
		wantStatus(t, w.do(request{method: "PUT", path: T + "/referees/Arbitro%20Uno", token: w.club1}), http.StatusNoContent, "assign")
		w.enterPairs(w.club1, tid, "1", "2", "3", "4")
		w.addRound(tid, 1, "mitchell", [][2]string{{"1", "3"}, {"2", "4"}})
		// Hands 735 – 735, a draw; the sheet writes NS 745 and a 10-point
		// win, 11-9.
		wrong := sheetOfHands(hC, hCm)
		wrong["written"] = map[string]any{"ns": map[string]any{"total": 745, "mp": 10, "vp": 11}, "eo": map[string]any{"total": 735, "mp": -10, "vp": 9}}
		w.putSheetAt(tid, 1, 1, wrong)
		w.putSheetAt(tid, 1, 2, sheetOfHands(hC, hCm))

		_, st := w.standingsAfter(tid, 0, w.ref1)
		written := map[string][2]int{"1": {11, 10}, "2": {10, 0}, "3": {9, -10}, "4": {10, 0}}
		if d := cmp.Diff(written, vpmp(st)); d != "" {
			t.Errorf("standings count the written 11-9 (-want +got):\n%s", d)
		}
		if st[0].Entrant != "1" || st[3].Entrant != "3" {
			t.Errorf("ranking %v: want 1 first and 3 last", st)
		}
		want := map[string][]gotDiscrepancy{
			"1": {{Round: 1, Table: 1, Line: "ns", Official: map[string]int{"total": 745, "mp": 10, "vp": 11}, Computed: map[string]int{"total": 735, "mp": 0, "vp": 10}, Kind: "sum", Correctable: "apply"}},
			"3": {{Round: 1, Table: 1, Line: "eo", Official: map[string]int{"total": 735, "mp": -10, "vp": 9}, Computed: map[string]int{"total": 735, "mp": 0, "vp": 10}, Kind: "sum", Correctable: "apply"}},
		}
		if d := cmp.Diff(want, w.discrepancies(tid)); d != "" {
			t.Errorf("discrepancies (-want +got):\n%s", d)
		}

		w.setState(tid, 1, w.ref1, "sheets_delivered")
		fix := map[string]any{"round": 1, "table": 1, "kind": "sum", "reason": "NS total re-added: 735, a draw",
			"corrected": map[string]any{"written": map[string]any{"ns": map[string]any{"total": 735, "mp": 0, "vp": 10}, "eo": map[string]any{"mp": 0, "vp": 10}}}}
		r := w.correct(tid, w.ref1, fix, nil)
		wantStatus(t, r, http.StatusCreated, "sum correction")
		ans := decodeInto[correctionAnswer](t, r)
		if !ans.Applied || ans.Ruling.Ruling != "apply" {
			t.Fatalf("correction not applied: %+v", ans.Ruling)
		}
		draw := map[string][2]int{"1": {10, 0}, "2": {10, 0}, "3": {10, 0}, "4": {10, 0}}
		if d := cmp.Diff(written, vpmp(ans.StandingsBefore)); d != "" {
			t.Errorf("standings_before (-want +got):\n%s", d)
		}
		if d := cmp.Diff(draw, vpmp(ans.StandingsAfter)); d != "" {
			t.Errorf("standings_after: the corrected written result counts (-want +got):\n%s", d)
		}
		_, st = w.standingsAfter(tid, 0, w.club1)
		if d := cmp.Diff(draw, vpmp(st)); d != "" {
			t.Errorf("standings after the correction (-want +got):\n%s", d)
		}
		if d := w.discrepancies(tid); len(d) != 0 {
			t.Errorf("discrepancies after the correction: %+v, want none", d)
		}
	})
}
