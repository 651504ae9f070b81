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

// TestWithdrawalDuringARoundIsAnAbandonFITABArt37: an entrant that leaves
// for good while its round is being played has abandoned that round too
// (RULES §12.3, §7; FITAB art. 37): the request says whether the abandon
// is justified; the leaving line gets its abandon score, the line left at
// the table the rest score ("Alla coppia incolpevole è attribuito un
// punteggio per riposo"), and that table then counts as complete (§12.2).
// FITAB, 3 hands: rest score 14 VP / 365 MP (art. 38); the guilty line
// "perde la partita a 0": 0 VP and −365 MP [INTERP, RULES §7].
func TestWithdrawalDuringARoundIsAnAbandonFITABArt37(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.planTournament(3, map[string]any{"first_round": "entry_order"}, 6)
		T := "/v1/tournaments/" + tid
		r1 := w.generate(w.club1, tid, map[string]any{"number": 1})
		wantStatus(t, r1, http.StatusCreated, "round 1")
		wantStatus(t, w.publish(w.club1, tid, 1), http.StatusOK, "publish 1")
		// Who sits against 6 in round 1.
		var opp string
		var table int
		for _, tb := range r1.json(t)["tables"].([]any) {
			m := tb.(map[string]any)
			switch {
			case m["ns"] == "6":
				opp, table = m["eo"].(string), int(m["table"].(float64))
			case m["eo"] == "6":
				opp, table = m["ns"].(string), int(m["table"].(float64))
			}
		}
		if opp == "" {
			t.Fatalf("round 1 does not seat 6: %s", r1.body)
		}
		withdraw := func(body map[string]any) response {
			return w.do(request{method: "PATCH", path: T + "/entrants/6", token: w.club1, body: body})
		}
		// During round 1 the abandon must be named, and be one of the two.
		wantProblem(t, withdraw(map[string]any{"withdrawn_from_round": 1, "reason": "lite"}), http.StatusUnprocessableEntity, "/abandon")
		wantProblem(t, withdraw(map[string]any{"withdrawn_from_round": 1, "reason": "lite", "abandon": "temporary"}), http.StatusUnprocessableEntity, "/abandon")
		// Nothing was written by the refusals.
		if v := w.do(request{method: "GET", path: T + "/entrants/6", token: w.club1}).json(t)["withdrawn_from_round"]; v != nil {
			t.Errorf("a refused withdrawal was stored: %v", v)
		}
		wantStatus(t, withdraw(map[string]any{"withdrawn_from_round": 1, "reason": "lite", "abandon": "unjustified"}), http.StatusOK, "withdraw 6 during round 1")
		// Sent again: nothing is added twice.
		wantStatus(t, withdraw(map[string]any{"withdrawn_from_round": 1, "reason": "lite", "abandon": "unjustified"}), http.StatusOK, "again")
		list := decodeInto[struct {
			Adjustments []gotAdjustment `json:"adjustments"`
		}](t, w.do(request{method: "GET", path: T + "/adjustments", token: w.club1})).Adjustments
		got := map[string]string{}
		for _, a := range list {
			if a.Round == nil || *a.Round != 1 || a.Effect.Result == nil || a.Party == nil {
				t.Errorf("adjustment %+v", a)
				continue
			}
			got[a.Entrant] = fmt.Sprintf("%s %s %d/%d", a.Reason, *a.Party, a.Effect.Result.VP, a.Effect.Result.MP)
		}
		want := map[string]string{"6": "abandon_unjustified offender 0/-365", opp: "abandon_unjustified innocent 14/365"}
		if fmt.Sprint(got) != fmt.Sprint(want) || len(list) != 2 {
			t.Errorf("adjustments %v, want %v", got, want)
		}
		// The other tables get their sheets; table of 6 is complete by the
		// adjustments (RULES §12.2), so the round's sheets are delivered.
		rd := w.do(request{method: "GET", path: T + "/rounds/1", token: w.admin}).json(t)
		for _, tb := range rd["tables"].([]any) {
			n := int(tb.(map[string]any)["table"].(float64))
			if n == table {
				continue
			}
			wantStatus(t, w.do(request{method: "PUT", path: fmt.Sprintf("%s/rounds/1/tables/%d/sheet", T, n), token: w.admin, body: goodSheet()}), http.StatusCreated, "sheet")
		}
		wantStatus(t, w.do(request{method: "PATCH", path: T + "/rounds/1", token: w.club1, body: map[string]any{"state": "sheets_delivered"}}), http.StatusOK, "delivered")
		st := w.do(request{method: "GET", path: T + "/standings", token: w.club1}).json(t)
		for _, row := range st["standings"].([]any) {
			m := row.(map[string]any)
			switch m["entrant"] {
			case "6":
				if m["vp"] != 0.0 || m["mp"] != -365.0 || m["withdrawn_from_round"] != 1.0 {
					t.Errorf("6 in the standings: %v", m)
				}
			case opp:
				if m["vp"] != 14.0 || m["mp"] != 365.0 {
					t.Errorf("%s (left at the table) in the standings: %v", opp, m)
				}
			}
		}
		// Between rounds there is no abandon: naming one is refused.
		wantProblem(t, w.do(request{method: "PATCH", path: T + "/entrants/5", token: w.club1, body: map[string]any{"withdrawn_from_round": 2, "abandon": "justified"}}),
			http.StatusUnprocessableEntity, "/abandon")
		wantStatus(t, w.do(request{method: "PATCH", path: T + "/entrants/5", token: w.club1, body: map[string]any{"withdrawn_from_round": 2}}), http.StatusOK, "5 between rounds")
	})
}

// TestHandPostedRoundRecordsVacatedRULES12_3: a round posted by hand can
// leave an entrant alone because its fixed-calendar opponent withdrew
// ("alle coppie con cui avrebbero dovuto giocare nei turni successivi è
// attribuito il punteggio per riposo", FITAB art. 37): stored, read back,
// accepted by the checker as the generator's own, scored with the bye
// score; refused while nobody has withdrawn, and for the withdrawn entrant
// itself.
func TestHandPostedRoundRecordsVacatedRULES12_3(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		mitchell := map[string]any{"first_round": "entry_order", "phases": []map[string]any{{"from_round": 1, "system": "mitchell"}}}
		gen := w.planTournament(3, mitchell, 8)
		hand := w.planTournament(3, mitchell, 8)
		H := "/v1/tournaments/" + hand
		r1 := w.generate(w.club1, gen, map[string]any{"number": 1}).json(t)
		// Round 1 by hand, with a vacated entrant while nobody withdrew.
		post := map[string]any{"number": 1, "tables": r1["tables"], "byes": []string{}, "vacated": []string{"3"}}
		wantProblem(t, w.do(request{method: "POST", path: H + "/rounds", token: w.club1, body: post}), http.StatusUnprocessableEntity, "/vacated/0")
		delete(post, "vacated")
		wantStatus(t, w.do(request{method: "POST", path: H + "/rounds", token: w.club1, body: post}), http.StatusCreated, "round 1 by hand")
		for _, tid := range []string{gen, hand} {
			wantStatus(t, w.publish(w.club1, tid, 1), http.StatusOK, "publish 1")
			w.fillSheets(tid, 1)
			wantStatus(t, w.do(request{method: "PATCH", path: "/v1/tournaments/" + tid + "/entrants/6", token: w.club1, body: map[string]any{"withdrawn_from_round": 2, "reason": "malore"}}), http.StatusOK, "withdraw 6")
		}
		r2 := w.generate(w.club1, gen, map[string]any{"number": 2}).json(t)
		if fmt.Sprint(r2["vacated"]) != "[3]" {
			t.Fatalf("generated round 2 vacated %v", r2["vacated"])
		}
		// The withdrawn entrant itself cannot be the one left alone.
		bad := map[string]any{"number": 2, "tables": r2["tables"], "byes": []string{}, "vacated": []string{"3", "6"}}
		wantProblem(t, w.do(request{method: "POST", path: H + "/rounds", token: w.club1, body: bad}), http.StatusUnprocessableEntity, "/vacated/1")
		// Seated twice: at a table and vacated.
		tb0 := r2["tables"].([]any)[0].(map[string]any)
		twice := map[string]any{"number": 2, "tables": r2["tables"], "byes": []string{}, "vacated": []string{tb0["ns"].(string)}}
		wantProblem(t, w.do(request{method: "POST", path: H + "/rounds", token: w.club1, body: twice}), http.StatusUnprocessableEntity, "/vacated/0")
		ok := map[string]any{"number": 2, "tables": r2["tables"], "byes": []string{}, "vacated": []string{"3"}}
		wantStatus(t, w.do(request{method: "POST", path: H + "/rounds", token: w.club1, body: ok}), http.StatusCreated, "round 2 by hand")
		got := w.do(request{method: "GET", path: H + "/rounds/2", token: w.club1}).json(t)
		if fmt.Sprint(got["vacated"]) != "[3]" || fmt.Sprint(got["byes"]) != "[]" {
			t.Errorf("hand-posted round 2 read back: vacated %v byes %v", got["vacated"], got["byes"])
		}
		wantStatus(t, w.publish(w.club1, hand, 2), http.StatusOK, "publish 2")
		if c := w.check(w.club1, hand, 2); !c.OK {
			t.Errorf("check of the hand-posted round: %+v", c)
		}
		// Redefined while playing: vacated kept as sent.
		wantStatus(t, w.do(request{method: "PUT", path: H + "/rounds/2", token: w.club1, body: ok}), http.StatusOK, "redefine round 2")
		w.fillSheets(hand, 2)
		st := w.do(request{method: "GET", path: H + "/standings?after_round=2", token: w.club1}).json(t)
		for _, row := range st["standings"].([]any) {
			m := row.(map[string]any)
			// 3 sat NS in round 1 and won 11-9 (goodSheet), then alone: +14
			// VP, the FITAB 3-hand bye score (art. 38).
			if m["entrant"] == "3" && m["vp"] != 25.0 {
				t.Errorf("entrant 3: %v VP, want 11 + 14", m["vp"])
			}
		}
	})
}
