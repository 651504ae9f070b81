package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/importers/sheetjson"
	"segnapunti/store/dbtest"
)

// Hands for the sheets of these tests, all correct fitab-2025 hands (the
// three of goodHands and their mirror images, lines swapped):
//
//	A  NS 300+235 = 535, EO 100-120 = -20     A' NS -20, EO 535
//	B  NS   0-55  = -55, EO 400+180 = 580     B' NS 580, EO -55
//	C  NS 350+120 = 470, EO 200+65  = 265     C' NS 265, EO 470
//
// Match totals (RULES §6) and the FITAB 3-hand VP table (§6.1: 0-60 10-10,
// 65-160 11-9, 165-260 12-8, 515-660 15-5), worked out by hand:
//
//	A B C     NS 950,  EO 825:  NS +125, 11-9
//	A' B' C'  NS 825,  EO 950:  EO +125, 11-9
//	A A' C    NS 985,  EO 780:  NS +205, 12-8
//	A A' B    NS 460,  EO 1095: EO +635, 15-5
//	C C'      NS 735,  EO 735:  draw, 10-10 (two hands of three: the table
//	          of the planned hands, RULES §6.2)
var (
	hA  = hand("closed", 300, 235, 100, -120)
	hAm = hand("closed", 100, -120, 300, 235)
	hB  = hand("closed", 0, -55, 400, 180)
	hBm = hand("closed", 400, 180, 0, -55)
	hC  = hand("closed", 350, 120, 200, 65)
	hCm = hand("closed", 200, 65, 350, 120)
	// hCbad is C with the NS points mis-subtracted on the sheet (20 for
	// 120): NS 350+20 = 370.
	hCbad = hand("closed", 350, 20, 200, 65)
)

func sheetOfHands(hands ...map[string]any) map[string]any {
	return map[string]any{"hands": hands}
}

// gotStanding is one row of a standings answer.
type gotStanding struct {
	Rank        int               `json:"rank"`
	Entrant     string            `json:"entrant"`
	VP          int               `json:"vp"`
	MP          int               `json:"mp"`
	Wins        int               `json:"wins"`
	Tiebreak    *string           `json:"tiebreak"`
	Players     []json.RawMessage `json:"players"`
	Adjustments []struct {
		ID     int64  `json:"id"`
		Reason string `json:"reason"`
		VP     *int   `json:"vp"`
		MP     *int   `json:"mp"`
	} `json:"adjustments"`
}

// rankRow is the part of a standing these tests write down by hand.
type rankRow struct {
	Rank      int
	Entrant   string
	VP, MP    int
	Wins      int
	Tiebroken bool
}

func rankRows(st []gotStanding) []rankRow {
	out := make([]rankRow, len(st))
	for i, s := range st {
		out[i] = rankRow{s.Rank, s.Entrant, s.VP, s.MP, s.Wins, s.Tiebreak != nil}
	}
	return out
}

func decodeInto[T any](t *testing.T, r response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("answer %d: %v\n%s", r.status, err, r.body)
	}
	return v
}

// standingsAfter reads the standings (after 0: every round).
func (w *world) standingsAfter(tid string, after int, token string) (int, []gotStanding) {
	w.t.Helper()
	path := "/v1/tournaments/" + tid + "/standings"
	if after > 0 {
		path += fmt.Sprintf("?after_round=%d", after)
	}
	r := w.do(request{method: "GET", path: path, token: token})
	wantStatus(w.t, r, http.StatusOK, "standings")
	v := decodeInto[struct {
		AfterRound int           `json:"after_round"`
		Standings  []gotStanding `json:"standings"`
	}](w.t, r)
	return v.AfterRound, v.Standings
}

func wantRows(t *testing.T, what string, got []gotStanding, want []rankRow) {
	t.Helper()
	if d := cmp.Diff(want, rankRows(got)); d != "" {
		t.Errorf("%s (-want +got):\n%s", what, d)
	}
}

func (w *world) setState(tid string, round int, token string, states ...string) {
	w.t.Helper()
	for _, s := range states {
		r := w.do(request{method: "PATCH", path: fmt.Sprintf("/v1/tournaments/%s/rounds/%d", tid, round), token: token, body: map[string]any{"state": s}})
		wantStatus(w.t, r, http.StatusOK, fmt.Sprintf("round %d → %s", round, s))
	}
}

func (w *world) addRound(tid string, n int, phase string, tables [][2]string, byes ...string) {
	w.t.Helper()
	var tb []map[string]any
	for i, t := range tables {
		tb = append(tb, map[string]any{"table": i + 1, "ns": t[0], "eo": t[1]})
	}
	body := map[string]any{"number": n, "phase": phase, "tables": tb}
	if len(byes) > 0 {
		body["byes"] = byes
	}
	wantStatus(w.t, w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/rounds", token: w.club1, body: body}), http.StatusCreated, fmt.Sprintf("round %d", n))
}

func (w *world) putSheetAt(tid string, round, table int, sheet map[string]any) {
	w.t.Helper()
	path := fmt.Sprintf("/v1/tournaments/%s/rounds/%d/tables/%d/sheet", tid, round, table)
	wantStatus(w.t, w.do(request{method: "PUT", path: path, token: w.club1, body: sheet}), http.StatusCreated, fmt.Sprintf("sheet %d/%d", round, table))
}

// answer of POST .../corrections.
type correctionAnswer struct {
	Ruling struct {
		Ruling string   `json:"ruling"`
		Rules  []string `json:"rules"`
		Reason string   `json:"reason"`
	} `json:"ruling"`
	Applied         bool          `json:"applied"`
	StandingsBefore []gotStanding `json:"standings_before"`
	StandingsAfter  []gotStanding `json:"standings_after"`
	Correction      gotCorrection `json:"correction"`
	Version         int           `json:"version"`
}

type gotCorrection struct {
	ID        int64           `json:"id"`
	Round     int             `json:"round"`
	Table     int             `json:"table"`
	Kind      string          `json:"kind"`
	Ruling    string          `json:"ruling"`
	Rules     []string        `json:"rules"`
	Reason    string          `json:"reason"`
	Applied   bool            `json:"applied"`
	Situation rulingRequest   `json:"situation"`
	Before    json.RawMessage `json:"before"`
	After     json.RawMessage `json:"after"`
	Version   int             `json:"version"`
	Author    string          `json:"author"`
}

func (w *world) correct(tid, token string, body map[string]any, header map[string]string) response {
	w.t.Helper()
	return w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/corrections", token: token, body: body, header: header})
}

// TestCorrectionsAndStandingsThroughThreeRounds plays a regional FITAB
// pairs tournament of three rounds sheet by sheet, checks the standings
// after each round against figures worked out by hand from the sheets, and
// makes the corrections of RULES §9.1 along the way:
//
//	round 1 (mitchell): 1 v 3 A B C (1 +125 11-9); 2 v 4 A A' C, entered with
//	        the NS points of hand 3 mis-subtracted (A A' Cbad: NS 885, EO 780,
//	        2 +105 11-9), then corrected (sum) to 2 +205 12-8;
//	round 2 (danese): 2 v 1 A' B' C' (1 +125 11-9); 3 v 4 C C' (10-10), with a
//	        written NS total 745 for 735, corrected (sum) once round 3's
//	        tables are out;
//	round 3 (danese): 1 v 2 A A' B (2 +635 15-5); 3 v 4 A B C (3 +125 11-9);
//	        after it, an inversion and a recount are asked and rejected.
func TestCorrectionsAndStandingsThroughThreeRounds(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		body := tournamentBody("Trofeo Tre Turni", "regional")
		body["rounds_planned"] = 3
		tid := w.createTournament(w.club1, body)
		T := "/v1/tournaments/" + tid
		for _, name := range []string{"Arbitro%20Uno", "Arbitro%20Due"} {
			wantStatus(t, w.do(request{method: "PUT", path: T + "/referees/" + name, token: w.club1}), http.StatusNoContent, "assign")
		}
		w.enterPairs(w.club1, tid, "1", "2", "3", "4")

		// Round 1.
		w.addRound(tid, 1, "mitchell", [][2]string{{"1", "3"}, {"2", "4"}})
		w.putSheetAt(tid, 1, 1, sheetOfHands(hA, hB, hC))
		w.putSheetAt(tid, 1, 2, sheetOfHands(hA, hAm, hCbad))
		after, st := w.standingsAfter(tid, 0, w.ref1)
		if after != 1 {
			t.Errorf("after_round %d, want 1 (the last round with a sheet)", after)
		}
		// 1: 11 VP +125; 2: 11 VP +105; 4: 9 VP -105; 3: 9 VP -125 (RULES §8: VP, then MP).
		round1Entered := []rankRow{{1, "1", 11, 125, 1, false}, {2, "2", 11, 105, 1, false}, {3, "4", 9, -105, 0, false}, {4, "3", 9, -125, 0, false}}
		wantRows(t, "standings after round 1 as entered", st, round1Entered)

		w.setState(tid, 1, w.ref1, "sheets_delivered")
		// RULES §10, FITAB art. 20: a delivered round's sheets are final for
		// the club; what changes goes through a referee's correction.
		r := w.do(request{method: "PUT", path: fmt.Sprintf("%s/rounds/1/tables/2/sheet", T), token: w.club1, body: sheetOfHands(hA, hAm, hC)})
		if p := wantProblem(t, r, http.StatusConflict, ""); p.Type != typeRoundClosed {
			t.Errorf("club edit of a delivered sheet: %+v", p)
		}
		r = w.do(request{method: "POST", path: fmt.Sprintf("%s/rounds/1/tables/2/sheet/hands", T), token: w.club1, body: hC})
		wantProblem(t, r, http.StatusConflict, "")
		// A round only moves forward (RULES §10).
		r = w.do(request{method: "PATCH", path: T + "/rounds/1", token: w.ref1, body: map[string]any{"state": "playing"}})
		wantProblem(t, r, http.StatusConflict, "")

		// RULES §9.1 rule 5: a sum error found while round 2 is being paired
		// after a Mitchell round → apply.
		sum := map[string]any{"round": 1, "table": 2, "kind": "sum", "reason": "NS points of hand 3 re-subtracted: 140 - 20 is 120",
			"corrected": map[string]any{"hands": []any{hA, hAm, hC}}}
		r = w.correct(tid, w.ref1, sum, map[string]string{"If-Match": `"1"`})
		wantStatus(t, r, http.StatusCreated, "sum correction in a Mitchell round")
		ans := decodeInto[correctionAnswer](t, r)
		if ans.Ruling.Ruling != "apply" || !ans.Applied || ans.Version != 2 || r.header.Get("ETag") != `"2"` ||
			!slices.Contains(ans.Ruling.Rules, "FITAB art. 20") || !strings.Contains(ans.Ruling.Reason, "does not depend on the scores (mitchell)") {
			t.Errorf("Mitchell sum correction: %+v (ETag %s)", ans, r.header.Get("ETag"))
		}
		// Only round 1 exists: it is the current round, started (RULES §9,
		// API §4.1: the current round comes from the service's records).
		if sit := ans.Correction.Situation; sit.CurrentRound != 1 || !sit.CurrentRoundStarted || sit.Phase != "mitchell" {
			t.Errorf("recorded situation %+v: want current round 1, started, mitchell", sit)
		}
		wantRows(t, "standings_before", ans.StandingsBefore, round1Entered)
		// 2: 12 VP +205; 1: 11 +125; 3: 9 -125; 4: 8 -205.
		round1 := []rankRow{{1, "2", 12, 205, 1, false}, {2, "1", 11, 125, 1, false}, {3, "3", 9, -125, 0, false}, {4, "4", 8, -205, 0, false}}
		wantRows(t, "standings_after", ans.StandingsAfter, round1)
		_, st = w.standingsAfter(tid, 0, w.fed)
		wantRows(t, "standings after round 1, corrected", st, round1)
		sheet := w.do(request{method: "GET", path: T + "/rounds/1/tables/2/sheet", token: w.club1})
		wantStatus(t, sheet, http.StatusOK, "corrected sheet")
		if v := jsonPath(t, sheet.json(t), "sheet", "hands", 2, "ns", "points"); v != 120.0 {
			t.Errorf("corrected hand 3 NS points = %v, want 120", v)
		}

		// Round 2 (Danish: 1st v 2nd, 3rd v 4th).
		w.setState(tid, 1, w.ref1, "standings_published", "next_pairing_published")
		w.addRound(tid, 2, "danese", [][2]string{{"2", "1"}, {"3", "4"}})
		w.putSheetAt(tid, 2, 1, sheetOfHands(hAm, hBm, hCm))
		draw := sheetOfHands(hC, hCm)
		draw["written"] = map[string]any{"ns": map[string]any{"total": 745, "mp": 0, "vp": 10}, "eo": map[string]any{"total": 735, "mp": 0, "vp": 10}}
		w.putSheetAt(tid, 2, 2, draw)
		// 1: 22 +250; 2: 21 +80; 3: 19 -125; 4: 18 -205.
		round2 := []rankRow{{1, "1", 22, 250, 2, false}, {2, "2", 21, 80, 1, false}, {3, "3", 19, -125, 0, false}, {4, "4", 18, -205, 0, false}}
		_, st = w.standingsAfter(tid, 0, w.club1)
		wantRows(t, "standings after round 2", st, round2)

		w.setState(tid, 2, w.ref2, "sheets_delivered", "standings_published", "next_pairing_published")
		w.addRound(tid, 3, "danese", [][2]string{{"1", "2"}, {"3", "4"}})
		round3Before := w.do(request{method: "GET", path: T + "/rounds/3", token: w.ref1}).body

		// RULES §9.1 rule 6: the same kind of error in a Danish round once
		// round 3's positions are out → apply, keeping the pairing.
		keep := map[string]any{"round": 2, "table": 2, "kind": "sum", "reason": "NS total re-added: 470 + 265 is 735",
			"corrected": map[string]any{"written": map[string]any{"ns": map[string]any{"total": 735}}}, "version": 1}
		r = w.correct(tid, w.ref2, keep, nil)
		wantStatus(t, r, http.StatusCreated, "sum correction after the next positions")
		ans = decodeInto[correctionAnswer](t, r)
		if ans.Ruling.Ruling != "apply_keep_pairing" || !ans.Applied || ans.Version != 2 || !strings.Contains(ans.Ruling.Reason, "(FITAB art. 20, point B)") {
			t.Errorf("Danish correction: %+v", ans.Ruling)
		}
		sit := ans.Correction.Situation
		if sit.CurrentRound != 3 || !sit.CurrentRoundStarted || !sit.PositionsPublished || !sit.StandingsPublished || sit.Phase != "danese" || sit.TournamentClosed {
			t.Errorf("derived situation %+v, want round 3 started, danese, round 2's standings and positions published", sit)
		}
		// The written MP and VP (0, 10-10) already were the computed ones:
		// only the total changes, the standings (RULES §8: the written
		// result) do not move.
		wantRows(t, "standings_before", ans.StandingsBefore, round2)
		wantRows(t, "standings_after", ans.StandingsAfter, round2)
		if got := w.do(request{method: "GET", path: T + "/rounds/3", token: w.ref1}).body; string(got) != string(round3Before) {
			t.Errorf("apply_keep_pairing changed round 3:\nbefore %s\nafter  %s", round3Before, got)
		}
		sheet = w.do(request{method: "GET", path: T + "/rounds/2/tables/2/sheet", token: w.ref2})
		if v := jsonPath(t, sheet.json(t), "sheet", "written", "ns", "total"); v != 735.0 {
			t.Errorf("written NS total after the correction = %v, want 735", v)
		}
		if v := jsonPath(t, sheet.json(t), "sheet", "written", "eo", "vp"); v != 10.0 {
			t.Errorf("written EO VP = %v: the merge lost a field it did not name", v)
		}
		if got := jsonPath(t, sheet.json(t), "corrections"); len(got.([]any)) != 1 {
			t.Errorf("sheet's correction history = %v, want the one correction", got)
		}

		// Round 3.
		w.putSheetAt(tid, 3, 1, sheetOfHands(hA, hAm, hB))
		w.putSheetAt(tid, 3, 2, sheetOfHands(hA, hB, hC))
		w.setState(tid, 3, w.ref1, "sheets_delivered")
		// 2: 36 +715; 3: 30 0; 4: 27 -330; 1: 27 -385.
		final := []rankRow{{1, "2", 36, 715, 2, false}, {2, "3", 30, 0, 1, false}, {3, "4", 27, -330, 0, false}, {4, "1", 27, -385, 2, false}}
		after, st = w.standingsAfter(tid, 0, w.ref2)
		if after != 3 {
			t.Errorf("after_round %d, want 3", after)
		}
		wantRows(t, "final standings", st, final)
		_, st = w.standingsAfter(tid, 1, w.ref2)
		wantRows(t, "standings ?after_round=1 at the end", st, round1)
		_, st = w.standingsAfter(tid, 2, w.ref2)
		wantRows(t, "standings ?after_round=2 at the end", st, round2)

		// RULES §9.1 rule 3: an inversion found after the last round's sheet
		// was delivered → reject (recorded, sheet untouched).
		inversion := map[string]any{"round": 3, "table": 1, "kind": "inversion", "both_lines_acknowledge": true,
			"reason": "the lines' results were swapped", "corrected": map[string]any{"hands": []any{hAm, hA, hBm}}}
		r = w.correct(tid, w.ref1, inversion, nil)
		wantStatus(t, r, http.StatusCreated, "inversion after the last round")
		ans = decodeInto[correctionAnswer](t, r)
		if ans.Ruling.Ruling != "reject" || ans.Applied || ans.Version != 1 || !strings.Contains(ans.Ruling.Reason, "inversion of the scores found after the last round") || !ans.Correction.Situation.TournamentClosed {
			t.Errorf("inversion after the last round: %+v, situation %+v", ans.Ruling, ans.Correction.Situation)
		}
		wantRows(t, "standings after a rejected correction", ans.StandingsAfter, final)
		// RULES §9.1 rule 1: any substantive change → reject.
		other := map[string]any{"round": 3, "table": 2, "kind": "other", "reason": "NS claim a burraco not counted",
			"corrected": map[string]any{"hands": []any{hA, hB, hand("closed", 550, 120, 200, 65)}}}
		r = w.correct(tid, w.ref2, other, nil)
		wantStatus(t, r, http.StatusCreated, "recount")
		ans = decodeInto[correctionAnswer](t, r)
		if ans.Ruling.Ruling != "reject" || ans.Applied || !strings.Contains(ans.Ruling.Reason, "valid and final") {
			t.Errorf("other change: %+v", ans.Ruling)
		}
		for _, table := range []int{1, 2} {
			sh := w.do(request{method: "GET", path: fmt.Sprintf("%s/rounds/3/tables/%d/sheet", T, table), token: w.ref1})
			if v := sh.header.Get("ETag"); v != `"1"` {
				t.Errorf("round 3 table %d: ETag %s after a rejected correction, want \"1\"", table, v)
			}
		}
		_, st = w.standingsAfter(tid, 0, w.admin)
		wantRows(t, "final standings after the rejections", st, final)

		// The audit trail: every request, oldest first, with who and the ruling.
		r = w.do(request{method: "GET", path: T + "/corrections", token: w.club1})
		wantStatus(t, r, http.StatusOK, "trail")
		trail := decodeInto[struct {
			Corrections []gotCorrection `json:"corrections"`
		}](t, r).Corrections
		type entry struct {
			Round, Table  int
			Kind, Ruling  string
			Applied       bool
			Author        string
			Version       int
			Before, After bool
		}
		var got []entry
		for _, c := range trail {
			got = append(got, entry{c.Round, c.Table, c.Kind, c.Ruling, c.Applied, c.Author, c.Version, string(c.Before) != "null", string(c.After) != "null"})
		}
		want := []entry{
			{1, 2, "sum", "apply", true, refereeOne, 2, true, true},
			{2, 2, "sum", "apply_keep_pairing", true, refereeTwo, 2, true, true},
			{3, 1, "inversion", "reject", false, refereeOne, 1, true, true},
			{3, 2, "other", "reject", false, refereeTwo, 1, true, true},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("audit trail (-want +got):\n%s", d)
		}
		if len(trail) == 4 {
			if !strings.Contains(string(trail[0].Before), `"points":20`) || !strings.Contains(string(trail[0].After), `"points":120`) {
				t.Errorf("trail[0] before %s after %s: want the mis-subtracted and the corrected points", trail[0].Before, trail[0].After)
			}
			if string(trail[1].Before) != `{"written":{"ns":{"total":745,"mp":0,"vp":10},"eo":{"total":735,"mp":0,"vp":10}}}` {
				t.Errorf("trail[1] before = %s", trail[1].Before)
			}
			one := w.do(request{method: "GET", path: fmt.Sprintf("%s/corrections/%d", T, trail[2].ID), token: w.fed})
			wantStatus(t, one, http.StatusOK, "one correction")
			if c := decodeInto[gotCorrection](t, one); c.ID != trail[2].ID || c.Kind != "inversion" {
				t.Errorf("GET one correction = %+v", c)
			}
		}
		// Append-only: no route changes or deletes an entry.
		for _, m := range []string{"PUT", "PATCH", "DELETE"} {
			wantProblem(t, w.do(request{method: m, path: T + "/corrections/1", token: w.admin}), http.StatusMethodNotAllowed, "")
			wantProblem(t, w.do(request{method: m, path: T + "/corrections", token: w.admin}), http.StatusMethodNotAllowed, "")
		}
	})
}

// Bad correction requests are refused, naming the field, and recorded
// nowhere; only a referee of the tournament or an admin (at club level, the
// organising club too) may ask.
func TestCorrectionRefusals(t *testing.T) {
	t.Parallel()
	b := backend{db: dbtest.SQLite(t)}
	w := newWorld(t, b)
	T := "/v1/tournaments/" + w.tid
	wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: goodSheet()}), http.StatusCreated, "sheet")
	good := func() map[string]any {
		return map[string]any{"round": 1, "table": 1, "kind": "sum", "reason": "re-added",
			"corrected": map[string]any{"written": map[string]any{"ns": map[string]any{"total": 950}}}}
	}
	with := func(k string, v any) map[string]any {
		b := good()
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	for _, tc := range []struct {
		name    string
		body    any
		header  map[string]string
		status  int
		pointer string
	}{
		{"malformed JSON", `{"round": 1,`, nil, 400, ""},
		{"unknown field", with("referee", "me"), nil, 422, "/referee"},
		{"round as text", with("round", "1"), nil, 422, "/round"},
		{"unknown kind (RULES §9)", with("kind", "arithmetic"), nil, 422, "/kind"},
		{"reason is required (RULES §9: every correction says why)", with("reason", nil), nil, 422, "/reason"},
		{"blank reason", with("reason", "   "), nil, 422, "/reason"},
		{"corrected is required", with("corrected", nil), nil, 422, "/corrected"},
		{"corrected names an unknown part", with("corrected", map[string]any{"ruleset": "fibur-int"}), nil, 422, "/corrected/ruleset"},
		{"corrected hands are a sheet's hands", with("corrected", map[string]any{"hands": []any{map[string]any{"ns": map[string]any{"base": "x"}}}}), nil, 422, "/corrected/hands/0/ns/base"},
		{"corrected written field unknown", with("corrected", map[string]any{"written": map[string]any{"ns": map[string]any{"totale": 950}}}), nil, 422, "/corrected/written/ns/totale"},
		{"no such round", with("round", 5), nil, 422, "/round"},
		{"no such table", with("table", 9), nil, 422, "/table"},
		{"no sheet at the table", with("table", 2), nil, 422, "/table"},
		{"version disagrees with If-Match", with("version", 2), map[string]string{"If-Match": `"1"`}, 422, "/version"},
		{"bad If-Match", good(), map[string]string{"If-Match": "1"}, 400, "If-Match"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := w.do(request{method: "POST", path: T + "/corrections", token: w.ref1, body: tc.body, header: tc.header})
			wantProblem(t, r, tc.status, tc.pointer)
		})
	}
	// Who may ask (API §4: round states, corrections, adjustments are the
	// referee's).
	for r := none; r < nRoles; r++ {
		want := refereeT[r]
		if want == ok {
			want = http.StatusCreated
		}
		res := w.do(request{method: "POST", path: T + "/corrections", token: w.tokenOf(r), body: good()})
		if res.status != want {
			t.Errorf("POST corrections as %s: %d, want %d\n%s", roleNames[r], res.status, want, res.body)
		}
		res = w.do(request{method: "GET", path: T + "/corrections", token: w.tokenOf(r)})
		if want := readT[r]; (want == ok && res.status != http.StatusOK) || (want != ok && res.status != want) {
			t.Errorf("GET corrections as %s: %d, want %d", roleNames[r], res.status, want)
		}
	}
	trail := decodeInto[struct {
		Corrections []gotCorrection `json:"corrections"`
	}](t, w.do(request{method: "GET", path: T + "/corrections", token: w.admin})).Corrections
	if len(trail) != 2 || trail[0].Author != refereeOne || trail[1].Author != "root" {
		t.Errorf("trail after the refusals = %+v, want the referee's and the admin's requests only", trail)
	}
	// A club-level tournament may have no referee: its club corrects.
	tid := w.createTournament(w.club1, tournamentBody("Torneo sociale", "club"))
	w.enterPairs(w.club1, tid, "1", "2")
	w.addRound(tid, 1, "mitchell", [][2]string{{"1", "2"}})
	w.putSheetAt(tid, 1, 1, goodSheet())
	wantStatus(t, w.correct(tid, w.club1, good(), nil), http.StatusCreated, "club-level correction by the club")
	wantProblem(t, w.correct(tid, w.club2, good(), nil), http.StatusNotFound, "")
}

// Two referees correct the same sheet at the same moment from the same
// version: one correction is applied, the other is refused with the version
// that won, and the sheet holds exactly the winner's correction — never a
// lost update. Repeated so the race has a chance to go either way.
func TestConcurrentCorrectionsOfOneSheet(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		T := "/v1/tournaments/" + w.tid
		wantStatus(t, w.do(request{method: "PUT", path: T + "/referees/Arbitro%20Due", token: w.club1}), http.StatusNoContent, "assign")
		wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: goodSheet()}), http.StatusCreated, "sheet")
		w.fillSheets(w.tid, 1)
		w.setState(w.tid, 1, w.ref1, "sheets_delivered")
		const attempts = 3
		for i := range attempts {
			version := i + 1
			tokens := []string{w.ref1, w.ref2}
			totals := []int{2000 + 10*i, 2001 + 10*i}
			res := make([]response, 2)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for k := range 2 {
				wg.Go(func() {
					<-start
					res[k] = w.do(request{method: "POST", path: T + "/corrections", token: tokens[k], header: map[string]string{"If-Match": fmt.Sprintf(`"%d"`, version)},
						body: map[string]any{"round": 1, "table": 1, "kind": "sum", "reason": fmt.Sprintf("attempt %d by referee %d", i, k+1),
							"corrected": map[string]any{"written": map[string]any{"ns": map[string]any{"total": totals[k]}}}}})
				})
			}
			close(start)
			wg.Wait()
			winner, loser := 0, 1
			if res[1].status == http.StatusCreated {
				winner, loser = 1, 0
			}
			if res[winner].status != http.StatusCreated || res[loser].status != http.StatusPreconditionFailed {
				t.Fatalf("attempt %d: statuses %d and %d, want one 201 and one 412\n%s\n%s", i, res[0].status, res[1].status, res[0].body, res[1].body)
			}
			stale := decodeInto[struct {
				CurrentVersion int `json:"current_version"`
			}](t, res[loser])
			if stale.CurrentVersion != version+1 || res[loser].header.Get("ETag") != fmt.Sprintf(`"%d"`, version+1) {
				t.Errorf("attempt %d: the loser is told version %d (ETag %s), want %d", i, stale.CurrentVersion, res[loser].header.Get("ETag"), version+1)
			}
			sh := w.do(request{method: "GET", path: w.sheetPath(1, 1), token: w.ref1})
			if v := jsonPath(t, sh.json(t), "sheet", "written", "ns", "total"); v != float64(totals[winner]) {
				t.Errorf("attempt %d: the sheet's NS total is %v, want the winner's %d", i, v, totals[winner])
			}
			if v := jsonPath(t, sh.json(t), "version"); v != float64(version+1) {
				t.Errorf("attempt %d: sheet version %v, want %d", i, v, version+1)
			}
		}
		trail := decodeInto[struct {
			Corrections []gotCorrection `json:"corrections"`
		}](t, w.do(request{method: "GET", path: T + "/corrections", token: w.ref1})).Corrections
		if len(trail) != attempts {
			t.Errorf("%d corrections recorded, want %d (one per attempt, the losers' none)", len(trail), attempts)
		}
	})
}

// POST /v1/rulings (API §4): no token, nothing stored; every field checked,
// a bad one named by its pointer.
func TestRulingsEndpoint(t *testing.T) {
	t.Parallel()
	e := newEnv(t, dbtest.SQLite(t))
	base := func() map[string]any {
		return map[string]any{"ruleset": "fitab-2025", "kind": "sum", "level": "regional", "phase": "mitchell",
			"error_round": 1, "current_round": 2, "current_round_started": false, "tournament_closed": false,
			"standings_published": true, "standings_contested": false, "positions_published": false,
			"both_lines_acknowledge": false, "referee_countersigned": false}
	}
	with := func(kv ...any) map[string]any {
		b := base()
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(b, kv[i].(string))
			} else {
				b[kv[i].(string)] = kv[i+1]
			}
		}
		return b
	}
	for _, tc := range []struct {
		name     string
		body     any
		status   int
		pointers []string
	}{
		{"malformed JSON", `{"ruleset": `, 400, nil},
		{"not an object", `[1, 2]`, 422, []string{""}},
		{"unknown field", with("round", 1), 422, []string{"/round"}},
		{"round as text", with("error_round", "1"), 422, []string{"/error_round"}},
		{"boolean as text", with("tournament_closed", "no"), 422, []string{"/tournament_closed"}},
		{"RULES §2 unknown ruleset", with("ruleset", "fitab-2024"), 422, []string{"/ruleset"}},
		{"RULES §9 unknown kind", with("kind", "typo"), 422, []string{"/kind"}},
		{"RULES §10 unknown level", with("level", "world"), 422, []string{"/level"}},
		{"RULES §10 unknown phase", with("phase", "swiss"), 422, []string{"/phase"}},
		{"rounds start at 1", with("error_round", 0), 422, []string{"/error_round"}},
		{"error round after the current round", with("error_round", 3), 422, []string{"/error_round"}},
		{"missing strings and rounds are each named", map[string]any{}, 422, []string{"/ruleset", "/kind", "/level", "/phase", "/error_round", "/current_round"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(request{method: "POST", path: "/v1/rulings", body: tc.body})
			p := wantProblem(t, r, tc.status, "")
			for _, ptr := range tc.pointers {
				if !slices.ContainsFunc(p.Errors, func(f fieldError) bool { return f.Pointer == ptr }) {
					t.Errorf("problem does not name %q: %s", ptr, r.body)
				}
			}
		})
	}
	for _, tc := range []struct {
		name   string
		body   map[string]any
		ruling string
		rule   string
	}{
		{"FITAB art. 20 rule 5: Mitchell → apply", base(), "apply", "does not depend on the scores"},
		{"FITAB art. 20 rule 2: regional, third round after started → reject", with("phase", "danese", "error_round", 1, "current_round", 4, "current_round_started", true, "positions_published", true), "reject", "third round following"},
		{"FITAB art. 20 rule 6: Danish, positions published → keep pairing", with("phase", "danese", "positions_published", true), "apply_keep_pairing", "(FITAB art. 20, point B)"},
		{"FIBur-INT art. 19 rule 2: inversion not acknowledged → reject", with("ruleset", "fibur-int", "kind", "inversion"), "reject", "jointly acknowledges"},
		{"FIBur-INT art. 19 rule 3: transcription after positions → keep pairing", with("ruleset", "fibur-ita", "kind", "transcription", "positions_published", true, "tournament_closed", true), "apply_keep_pairing", "transcription error is corrected even after"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(request{method: "POST", path: "/v1/rulings", body: tc.body})
			wantStatus(t, r, http.StatusOK, "ruling")
			got := decodeInto[rulingJSON](t, r)
			if got.Ruling != tc.ruling || !strings.Contains(got.Reason, tc.rule) || !slices.Contains(got.Rules, "FITAB art. 20") && !slices.Contains(got.Rules, "FIBur-INT art. 19") {
				t.Errorf("ruling %+v, want %s by %s with a reason", got, tc.ruling, tc.rule)
			}
		})
	}
}

// FuzzCorrectSheet: whatever "corrected" holds, correctSheet never panics;
// it refuses with a 4xx naming a field, or gives a sheet that encodes.
func FuzzCorrectSheet(f *testing.F) {
	for _, seed := range []string{
		`{"written": {"ns": {"total": 1450}}}`,
		`{"written": {"ns": null, "eo": {"vp": 12}}}`,
		`{"hands": [{"ns": {"base": 300, "points": 235}, "eo": {"base": 100, "points": -120}}]}`,
		`{"hands": []}`,
		`{"written": {"ns": {"total": "x"}}}`,
		`{"hands": [{"ns": {"base": 1e400}}]}`,
		`{"written": {}, "hands": [{}]}`,
	} {
		f.Add(seed)
	}
	cur := domain.Sheet{Ruleset: domain.FITAB2025, HandsPlanned: 3, Sides: [2]domain.Side{{ID: "1"}, {ID: "2"}},
		Hands:   []domain.Hand{{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 235}, {Base: 100, Points: -120}}}},
		Written: [2]domain.WrittenResult{{Total: domain.Int(535)}, {Total: domain.Int(-20)}}}
	f.Fuzz(func(t *testing.T, corrected string) {
		v, err := parseJSON([]byte(corrected))
		if err != nil || v.kind != jsonObject {
			return
		}
		if _, errs := (correctionRequest{Round: 1, Table: 1, Kind: "sum", Reason: "x", Corrected: v}).check(); len(errs) > 0 {
			return
		}
		sh, before, after, err := correctSheet(cur, v)
		if err != nil {
			if p := problemFor(err); p.Status != http.StatusUnprocessableEntity {
				t.Fatalf("correctSheet(%s): %v → %d, want a 422", corrected, err, p.Status)
			}
			return
		}
		if !json.Valid(before) || !json.Valid(after) {
			t.Fatalf("before %s / after %s are not JSON", before, after)
		}
		if _, err := sheetjson.Encode(sh); err != nil {
			t.Fatalf("corrected sheet does not encode: %v", err)
		}
	})
}
