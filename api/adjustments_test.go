package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"segnapunti/store/dbtest"
)

// gotAdjustment is an adjustment as answered.
type gotAdjustment struct {
	ID             int64   `json:"id"`
	Entrant        string  `json:"entrant"`
	Round          *int    `json:"round"`
	Reason         string  `json:"reason"`
	Party          *string `json:"party"`
	VP             *int    `json:"vp"`
	MP             *int    `json:"mp"`
	WarningsBefore int     `json:"warnings_before"`
	ByesBefore     int     `json:"byes_before"`
	Author         string  `json:"author"`
	Effect         struct {
		Result *struct {
			VP int `json:"vp"`
			MP int `json:"mp"`
		} `json:"result"`
		Bye     bool `json:"bye"`
		Awarded bool `json:"awarded"`
		Delta   struct {
			VP int `json:"vp"`
			MP int `json:"mp"`
		} `json:"delta"`
		LatePoints int      `json:"late_points"`
		Warning    bool     `json:"warning"`
		Flags      []string `json:"flags"`
		Rules      []string `json:"rules"`
		Reason     string   `json:"reason"`
	} `json:"effect"`
}

func (w *world) adjust(tid, token string, body map[string]any) response {
	w.t.Helper()
	return w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/adjustments", token: token, body: body})
}

func (w *world) adjustOK(tid, token string, body map[string]any) gotAdjustment {
	w.t.Helper()
	r := w.adjust(tid, token, body)
	wantStatus(w.t, r, http.StatusCreated, fmt.Sprintf("adjustment %v", body))
	a := decodeInto[gotAdjustment](w.t, r)
	if loc := r.header.Get("Location"); loc != fmt.Sprintf("/v1/tournaments/%s/adjustments/%d", tid, a.ID) {
		w.t.Errorf("Location %q", loc)
	}
	return a
}

func intOr(p *int, none int) int {
	if p == nil {
		return none
	}
	return *p
}

// TestAdjustmentsAndStandings: referee adjustments of RULES §7 and how the
// standings count them (FITAB 3-hand rounds: the equivalent MP of 1 VP is
// 65, the lower bound of the 11-9 band; the rest score is 14 VP / 365 MP).
//
//	round 1 (mitchell): 1 v 2 A B C (1 +125 11-9), 3 v 4 C C' (10-10), 5 rests
//	round 2 (mitchell): 1 v 3, 2 v 4, 5 rests again; no sheets — 3's match is
//	        awarded (1 more than 10 minutes late)
func TestAdjustmentsAndStandings(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		body := tournamentBody("Coppa Rettifiche", "regional")
		body["rounds_planned"] = 3
		tid := w.createTournament(w.club1, body)
		T := "/v1/tournaments/" + tid
		wantStatus(t, w.do(request{method: "PUT", path: T + "/referees/Arbitro%20Uno", token: w.club1}), http.StatusNoContent, "assign")
		w.enterPairs(w.club1, tid, "1", "2", "3", "4", "5")
		w.addRound(tid, 1, "mitchell", [][2]string{{"1", "2"}, {"3", "4"}}, "5")
		w.putSheetAt(tid, 1, 1, sheetOfHands(hA, hB, hC))
		w.putSheetAt(tid, 1, 2, sheetOfHands(hC, hCm))

		// RULES §7 bye: 14 VP / 365 MP, not a win (§8). 3 and 4 drew their
		// meeting and are level on everything: they share the place (§8 step 4).
		_, st := w.standingsAfter(tid, 0, w.ref1)
		wantRows(t, "standings after round 1", st, []rankRow{
			{1, "5", 14, 365, 0, false}, {2, "1", 11, 125, 1, false}, {3, "3", 10, 0, 0, true}, {3, "4", 10, 0, 0, true}, {5, "2", 9, -125, 0, false}})
		if len(st) == 5 {
			tb := *st[2].Tiebreak
			if !strings.Contains(tb, "head-to-head: 3 and 4 drew") || !strings.Contains(tb, "shared place") {
				t.Errorf("tie-break of a shared place: %q", tb)
			}
			if len(st[0].Players) != 2 {
				t.Errorf("standing players = %s", st[0].Players)
			}
		}

		// FITAB art. 21: the first warning costs nothing...
		first := w.adjustOK(tid, w.ref1, map[string]any{"entrant": "1", "round": 1, "reason": "warning", "note": "talking across the table"})
		if first.VP != nil || first.MP != nil || !first.Effect.Warning || first.WarningsBefore != 0 || first.Author != refereeOne {
			t.Errorf("first warning: %+v", first)
		}
		// ...a late arrival up to 5 minutes warns the late line (FITAB art.
		// 38), the second warning: -1 VP and the equivalent 65 MP.
		late := w.adjustOK(tid, w.ref1, map[string]any{"entrant": "1", "round": 1, "reason": "late_up_to_5", "party": "offender", "note": "2 minutes"})
		if late.WarningsBefore != 1 || intOr(late.VP, 0) != -1 || intOr(late.MP, 0) != -65 || late.Effect.Delta.VP != -1 ||
			!slices.Contains(late.Effect.Rules, "FITAB art. 21") || !slices.Contains(late.Effect.Rules, "FITAB art. 38") {
			t.Errorf("second warning (lateness): %+v", late)
		}
		// The present line is credited 100 points on the sheet (RULES §6),
		// not VP.
		credit := w.adjustOK(tid, w.ref1, map[string]any{"entrant": "2", "round": 1, "reason": "late_up_to_5", "party": "innocent"})
		if credit.Effect.LatePoints != 100 || credit.Effect.Warning || credit.VP != nil {
			t.Errorf("lateness credit: %+v", credit)
		}
		// A third warning, tournament-wide: no cost (every second one costs).
		third := w.adjustOK(tid, w.ref1, map[string]any{"entrant": "1", "reason": "warning", "note": "late again at the table"})
		if third.WarningsBefore != 2 || third.VP != nil || third.Round != nil {
			t.Errorf("third warning: %+v", third)
		}
		// A bye recorded for a round whose byes list has the entrant: the
		// same rest score, counted once.
		bye := w.adjustOK(tid, w.ref1, map[string]any{"entrant": "5", "round": 1, "reason": "bye"})
		if bye.ByesBefore != 0 || bye.Effect.Result == nil || bye.Effect.Result.VP != 14 || bye.Effect.Result.MP != 365 || !bye.Effect.Bye || len(bye.Effect.Flags) != 0 {
			t.Errorf("bye: %+v", bye)
		}
		_, st = w.standingsAfter(tid, 0, w.club1)
		wantRows(t, "standings after round 1 with the adjustments", st, []rankRow{
			{1, "5", 14, 365, 0, false}, {2, "1", 10, 60, 1, false}, {3, "3", 10, 0, 0, true}, {3, "4", 10, 0, 0, true}, {5, "2", 9, -125, 0, false}})
		if len(st) == 5 {
			var ids []int64
			for _, a := range st[1].Adjustments {
				ids = append(ids, a.ID)
			}
			if !slices.Equal(ids, []int64{first.ID, late.ID, third.ID}) {
				t.Errorf("entrant 1's adjustments in the standings: %v, want %d, %d, %d", ids, first.ID, late.ID, third.ID)
			}
		}

		// Round 2: 5 rests again — flagged (FITAB art. 38: once per session).
		w.addRound(tid, 2, "mitchell", [][2]string{{"1", "3"}, {"2", "4"}}, "5")
		second := w.adjustOK(tid, w.ref1, map[string]any{"entrant": "5", "round": 2, "reason": "bye"})
		if second.ByesBefore != 1 || !slices.Equal(second.Effect.Flags, []string{"SECOND_BYE_IN_SESSION"}) {
			t.Errorf("second bye: %+v", second)
		}
		// One result per entrant and round.
		wantProblem(t, w.adjust(tid, w.ref1, map[string]any{"entrant": "5", "round": 2, "reason": "bye"}), http.StatusConflict, "")
		// FITAB art. 38, more than 10 minutes: the present line gets 70% of
		// 20 VP in a 3-hand round (14, equivalent 365 MP), a win; the late
		// line 6 VP (-365 MP) and a warning — its fourth, costing 1 VP.
		awarded := w.adjustOK(tid, w.ref1, map[string]any{"entrant": "3", "round": 2, "reason": "late_over_10", "party": "innocent"})
		if awarded.Effect.Result == nil || *awarded.Effect.Result != (struct {
			VP int `json:"vp"`
			MP int `json:"mp"`
		}{14, 365}) || !awarded.Effect.Awarded {
			t.Errorf("awarded match: %+v", awarded)
		}
		lost := w.adjustOK(tid, w.ref1, map[string]any{"entrant": "1", "round": 2, "reason": "late_over_10", "party": "offender"})
		if lost.WarningsBefore != 3 || intOr(lost.VP, 0) != 5 || intOr(lost.MP, 0) != -430 {
			t.Errorf("lost match with a fourth warning: %+v, want 6-1 = 5 VP, -365-65 = -430 MP", lost)
		}
		// Without after_round the standings stop at the last round with a
		// sheet (round 1); after round 2 they count its adjustments:
		// 5 28/730, 3 24/365 (awarded: a win), 1 15/-370, 4 10/0, 2 9/-125.
		after, st := w.standingsAfter(tid, 0, w.fed)
		if after != 1 {
			t.Errorf("after_round %d, want 1", after)
		}
		// Round 2's awarded match (14 VP) is not counted yet: 3 has
		// 24 − 14 = 10 VP after round 1.
		for _, r := range st {
			if r.Entrant == "3" && r.VP != 10 {
				t.Errorf("entrant 3 after round 1: %d VP, want 10 (round 2 not counted)", r.VP)
			}
		}
		after, st = w.standingsAfter(tid, 2, w.fed)
		if after != 2 {
			t.Errorf("after_round %d, want 2", after)
		}
		wantRows(t, "standings after round 2", st, []rankRow{
			{1, "5", 28, 730, 0, false}, {2, "3", 24, 365, 1, false}, {3, "1", 15, -370, 1, false}, {4, "4", 10, 0, 0, false}, {5, "2", 9, -125, 0, false}})

		r := w.do(request{method: "GET", path: T + "/adjustments", token: w.club1})
		wantStatus(t, r, http.StatusOK, "list adjustments")
		list := decodeInto[struct {
			Adjustments []gotAdjustment `json:"adjustments"`
		}](t, r).Adjustments
		var reasons []string
		for _, a := range list {
			reasons = append(reasons, a.Entrant+":"+a.Reason)
		}
		if want := []string{"1:warning", "1:late_up_to_5", "2:late_up_to_5", "1:warning", "5:bye", "5:bye", "3:late_over_10", "1:late_over_10"}; !slices.Equal(reasons, want) {
			t.Errorf("adjustments listed %v, want %v (oldest first)", reasons, want)
		}
		one := w.do(request{method: "GET", path: fmt.Sprintf("%s/adjustments/%d", T, late.ID), token: w.fed})
		wantStatus(t, one, http.StatusOK, "one adjustment")
		if got := decodeInto[gotAdjustment](t, one); got.ID != late.ID || got.Reason != "late_up_to_5" {
			t.Errorf("GET one adjustment: %+v", got)
		}
		wantProblem(t, w.do(request{method: "GET", path: T + "/adjustments/999999", token: w.fed}), http.StatusNotFound, "")
		wantProblem(t, w.do(request{method: "DELETE", path: fmt.Sprintf("%s/adjustments/%d", T, late.ID), token: w.admin}), http.StatusMethodNotAllowed, "")

		// Bad requests name the field and store nothing.
		for _, tc := range []struct {
			name    string
			body    any
			pointer string
		}{
			{"unknown field", map[string]any{"entrant": "1", "reason": "warning", "points": 5}, "/points"},
			{"RULES §7 unknown reason", map[string]any{"entrant": "1", "reason": "rudeness"}, "/reason"},
			{"entrant not entered", map[string]any{"entrant": "9", "reason": "warning"}, "/entrant"},
			{"a bye needs its round", map[string]any{"entrant": "5", "reason": "bye"}, "/round"},
			{"no such round", map[string]any{"entrant": "5", "round": 3, "reason": "bye"}, "/round"},
			{"a warning takes no score", map[string]any{"entrant": "1", "reason": "warning", "vp": -1}, "/vp"},
			{"lateness needs the party", map[string]any{"entrant": "1", "round": 1, "reason": "late_5_to_10"}, "/party"},
			{"a warning takes no party", map[string]any{"entrant": "1", "reason": "warning", "party": "offender"}, "/party"},
			{"unknown party", map[string]any{"entrant": "1", "round": 1, "reason": "late_5_to_10", "party": "victim"}, "/party"},
			{"referee_score needs a reason (RULES §7)", map[string]any{"entrant": "1", "reason": "referee_score", "vp": 2, "mp": 100}, "/note"},
			{"referee_score needs its VP", map[string]any{"entrant": "1", "reason": "referee_score", "note": "x", "mp": 100}, "/vp"},
			{"played is forced_removal's", map[string]any{"entrant": "5", "round": 1, "reason": "bye", "played": map[string]any{"vp": 8, "mp": -100}}, "/played"},
			{"FITAB art. 37/bis played VP out of 0..20", map[string]any{"entrant": "2", "round": 1, "reason": "forced_removal", "party": "innocent", "played": map[string]any{"vp": 25, "mp": 0}}, "/played/vp"},
			{"round as text", map[string]any{"entrant": "1", "round": "1", "reason": "warning"}, "/round"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := w.do(request{method: "POST", path: T + "/adjustments", token: w.ref1, body: tc.body})
				wantProblem(t, r, http.StatusUnprocessableEntity, tc.pointer)
			})
		}
		r = w.do(request{method: "GET", path: T + "/adjustments", token: w.admin})
		if n := len(decodeInto[struct {
			Adjustments []gotAdjustment `json:"adjustments"`
		}](t, r).Adjustments); n != len(list) {
			t.Errorf("%d adjustments after the refused requests, want %d", n, len(list))
		}

		// Standings parameters.
		for _, q := range []string{"?after_round=4", "?after_round=0", "?after_round=x", "?round=1", "?after_round=1&after_round=2"} {
			wantProblem(t, w.do(request{method: "GET", path: T + "/standings" + q, token: w.ref1}), http.StatusBadRequest, "")
		}
	})
}

// Who may make adjustments and read adjustments and standings (API §4).
func TestAdjustmentsAuthorization(t *testing.T) {
	t.Parallel()
	w := newWorld(t, backend{db: dbtest.SQLite(t)})
	T := "/v1/tournaments/" + w.tid
	for r := none; r < nRoles; r++ {
		res := w.adjust(w.tid, w.tokenOf(r), map[string]any{"entrant": "1", "reason": "warning"})
		if want := refereeT[r]; (want == ok && res.status != http.StatusCreated) || (want != ok && res.status != want) {
			t.Errorf("POST adjustments as %s: %d, want %d\n%s", roleNames[r], res.status, want, res.body)
		}
		for _, path := range []string{T + "/adjustments", T + "/standings"} {
			res := w.do(request{method: "GET", path: path, token: w.tokenOf(r)})
			if want := readT[r]; (want == ok && res.status != http.StatusOK) || (want != ok && res.status != want) {
				t.Errorf("GET %s as %s: %d, want %d", path, roleNames[r], res.status, want)
			}
		}
	}
	// At club level the organising club may (it may have no referee).
	tid := w.createTournament(w.club1, tournamentBody("Torneo sociale", "club"))
	w.enterPairs(w.club1, tid, "1", "2")
	w.adjustOK(tid, w.club1, map[string]any{"entrant": "1", "reason": "warning"})
	wantProblem(t, w.adjust(tid, w.fed, map[string]any{"entrant": "1", "reason": "warning"}), http.StatusForbidden, "")
}

// RULES §8: two entrants level on VP and MP that did not meet are told
// apart by the best won match (step 2), and the answer says so.
//
//	round 1: 1 v 2 A B C (1 +125 11-9), 3 v 4 C C' (10-10)
//	round 2: 4 v 1 A B C (4 +125 11-9), 2 v 3 C C' (10-10)
//
// 4 21/+125; 1 and 3 both 20/0 — 1 won a match with 11 VP, 3 won none; 2 19/-125.
func TestStandingsTieBrokenByTheBestWin(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		body := tournamentBody("Coppa Pari Merito", "club")
		body["rounds_planned"] = 2
		tid := w.createTournament(w.club1, body)
		w.enterPairs(w.club1, tid, "1", "2", "3", "4")
		w.addRound(tid, 1, "mitchell", [][2]string{{"1", "2"}, {"3", "4"}})
		w.putSheetAt(tid, 1, 1, sheetOfHands(hA, hB, hC))
		w.putSheetAt(tid, 1, 2, sheetOfHands(hC, hCm))
		w.addRound(tid, 2, "mitchell", [][2]string{{"4", "1"}, {"2", "3"}})
		w.putSheetAt(tid, 2, 1, sheetOfHands(hA, hB, hC))
		w.putSheetAt(tid, 2, 2, sheetOfHands(hC, hCm))
		_, st := w.standingsAfter(tid, 0, w.club1)
		wantRows(t, "standings", st, []rankRow{{1, "4", 21, 125, 1, false}, {2, "1", 20, 0, 1, true}, {3, "3", 20, 0, 0, true}, {4, "2", 19, -125, 0, false}})
		if len(st) == 4 && st[1].Tiebreak != nil {
			tb := *st[1].Tiebreak
			if !strings.Contains(tb, "head-to-head not applicable (1 and 3 did not meet)") || !strings.Contains(tb, "highest VP in a won match") {
				t.Errorf("tie-break reason %q, want head-to-head not applicable, then the best won match", tb)
			}
			if st[2].Tiebreak == nil || *st[2].Tiebreak != tb {
				t.Errorf("the two tied entrants give different reasons: %q / %v", tb, st[2].Tiebreak)
			}
		}
	})
}
