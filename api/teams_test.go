package api

import (
	"fmt"
	"net/http"
	"testing"
)

// teamTournament creates a club-level team tournament of n teams of four
// players (membership FT<team>01..FT<team>04).
func (w *world) teamTournament(rounds, n int, plan map[string]any) string {
	w.t.Helper()
	b := tournamentBody("Squadre", "club")
	b["kind"], b["rounds_planned"] = "teams", rounds
	if plan != nil {
		b["plan"] = plan
	}
	tid := w.createTournament(w.club1, b)
	var es []map[string]any
	for i := 1; i <= n; i++ {
		var players []map[string]any
		for p := 1; p <= 4; p++ {
			players = append(players, map[string]any{"name": fmt.Sprintf("Giocatore %d-%d", i, p), "membership": fmt.Sprintf("FT%d%02d", i, p)})
		}
		es = append(es, map[string]any{"id": fmt.Sprint(i), "team": fmt.Sprintf("Squadra %d", i), "players": players})
	}
	wantStatus(w.t, w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/entrants", token: w.club1, body: map[string]any{"entrants": es}}), http.StatusCreated, "enter teams")
	return tid
}

func teamTables(matches ...[2]string) []map[string]any {
	var out []map[string]any
	for k, m := range matches {
		out = append(out,
			map[string]any{"table": 2*k + 1, "match": k + 1, "ns": m[0], "eo": m[1]},
			map[string]any{"table": 2*k + 2, "match": k + 1, "ns": m[1], "eo": m[0]})
	}
	return out
}

// RULES §12.5, API §4.3: a team round seats both tables of a match (not
// "entrant appears twice"); a table whose match is not the same two teams
// swapped is a 422 naming it; a pairs tournament refuses "match"; a
// generated team round seats each pairing as the two tables of one match,
// and its check agrees.
func TestTeamRoundsFITABArt2_2(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.teamTournament(3, 5, nil)
		T := "/v1/tournaments/" + tid

		bad := teamTables([2]string{"1", "2"}, [2]string{"3", "4"})
		bad[3]["ns"], bad[3]["eo"] = "3", "4" // table 4 not swapped
		wantProblem(t, w.do(request{method: "POST", path: T + "/rounds", token: w.club1,
			body: map[string]any{"number": 1, "tables": bad, "byes": []string{"5"}}}), http.StatusUnprocessableEntity, "/tables/3")
		lone := teamTables([2]string{"1", "2"})[:1]
		wantProblem(t, w.do(request{method: "POST", path: T + "/rounds", token: w.club1,
			body: map[string]any{"number": 1, "tables": lone, "byes": []string{"3", "4", "5"}}}), http.StatusUnprocessableEntity, "/tables/0")

		r1 := w.do(request{method: "POST", path: T + "/rounds", token: w.club1,
			body: map[string]any{"number": 1, "tables": teamTables([2]string{"1", "2"}, [2]string{"3", "4"}), "byes": []string{"5"}}})
		wantStatus(t, r1, http.StatusCreated, "post team round 1")
		if m := jsonPath(t, r1.json(t), "tables", 1, "match"); m != 1.0 {
			t.Errorf("round 1 table 2: match %v, want 1", m)
		}

		// Generated: a round robin of 5 teams (italiana from round 1,
		// score-independent), each pairing two tables of one match.
		rr := w.teamTournament(5, 5, map[string]any{"phases": []map[string]any{{"from_round": 1, "system": "italiana"}}})
		for n := 1; n <= 2; n++ {
			r := w.generate(w.club1, rr, map[string]any{"number": n})
			wantStatus(t, r, http.StatusCreated, fmt.Sprintf("generate team round %d", n))
			j := r.json(t)
			tables, _ := j["tables"].([]any)
			if len(tables) != 4 {
				t.Fatalf("round %d: %d tables, want 4 (two matches of two tables): %v", n, len(tables), j)
			}
			for k := 0; k < 4; k += 2 {
				a, b := tables[k].(map[string]any), tables[k+1].(map[string]any)
				if a["match"] != b["match"] || a["match"] == nil || a["ns"] != b["eo"] || a["eo"] != b["ns"] {
					t.Errorf("round %d tables %v and %v are not one match", n, a, b)
				}
			}
			wantStatus(t, w.publish(w.club1, rr, n), http.StatusOK, fmt.Sprintf("publish round %d", n))
			if c := w.check(w.club1, rr, n); !c.OK {
				t.Errorf("round %d check: %+v", n, c)
			}
		}

		// A pairs tournament has no matches.
		pt := w.createTournament(w.club1, tournamentBody("Coppie", "club"))
		w.enterPairs(w.club1, pt, "1", "2", "3", "4")
		wantProblem(t, w.do(request{method: "POST", path: "/v1/tournaments/" + pt + "/rounds", token: w.club1,
			body: map[string]any{"number": 1, "tables": []map[string]any{{"table": 1, "match": 1, "ns": "1", "eo": "2"}, {"table": 2, "ns": "3", "eo": "4"}}}}),
			http.StatusUnprocessableEntity, "/tables/0/match")
	})
}

// RULES §12.5, API §4.3 (FITAB art. 2.2): PUT …/lineup seats two players of
// each team at a table, replaced whole; a player of the other team, one at
// both tables of the match, or a line of one player is a 422 naming the
// field; a pairs tournament has no line-ups; a missing table is a 404.
func TestTeamLineupFITABArt2_2(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.teamTournament(3, 4, nil)
		T := "/v1/tournaments/" + tid
		wantStatus(t, w.do(request{method: "POST", path: T + "/rounds", token: w.club1,
			body: map[string]any{"number": 1, "tables": teamTables([2]string{"1", "2"}, [2]string{"3", "4"})}}), http.StatusCreated, "post team round 1")
		lineup := func(table int, ns, eo []string) response {
			return w.do(request{method: "PUT", path: fmt.Sprintf("%s/rounds/1/tables/%d/lineup", T, table), token: w.club1, body: map[string]any{"ns": ns, "eo": eo}})
		}
		r := lineup(1, []string{"FT101", "FT102"}, []string{"FT201", "FT202"})
		wantStatus(t, r, http.StatusOK, "line-up of table 1")
		if j := r.json(t); jsonPath(t, j, "ns", 1) != "FT102" || jsonPath(t, j, "eo", 0) != "FT201" {
			t.Errorf("line-up answer: %v", j)
		}
		wantStatus(t, lineup(1, []string{"FT103", "FT104"}, []string{"FT201", "FT202"}), http.StatusOK, "line-up of table 1 changed")
		// table 2 seats team 2 NS and team 1 EO: FT201 is at table 1 already.
		wantProblem(t, lineup(2, []string{"FT201", "FT203"}, []string{"FT101", "FT102"}), http.StatusUnprocessableEntity, "/ns/0")
		wantProblem(t, lineup(2, []string{"FT203", "FT204"}, []string{"FT101", "FT301"}), http.StatusUnprocessableEntity, "/eo/1")
		wantProblem(t, lineup(2, []string{"FT203"}, []string{"FT101", "FT102"}), http.StatusUnprocessableEntity, "/ns")
		wantStatus(t, lineup(2, []string{"FT203", "FT204"}, []string{"FT101", "FT102"}), http.StatusOK, "line-up of table 2")
		wantProblem(t, lineup(9, []string{"FT203", "FT204"}, []string{"FT101", "FT102"}), http.StatusNotFound, "")
		// The match has started at table 1 (its sheet is in): its line-up
		// no longer changes ("prima dell'inizio di ogni partita").
		w.putSheetAt(tid, 1, 1, teamSheet(false))
		wantProblem(t, lineup(1, []string{"FT101", "FT102"}, []string{"FT203", "FT204"}), http.StatusConflict, "")

		pt := w.createTournament(w.club1, tournamentBody("Coppie", "club"))
		w.enterPairs(w.club1, pt, "1", "2")
		wantStatus(t, w.do(request{method: "POST", path: "/v1/tournaments/" + pt + "/rounds", token: w.club1,
			body: map[string]any{"number": 1, "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}}}}), http.StatusCreated, "pairs round")
		wantProblem(t, w.do(request{method: "PUT", path: "/v1/tournaments/" + pt + "/rounds/1/tables/1/lineup", token: w.club1,
			body: map[string]any{"ns": []string{"FT101", "FT102"}, "eo": []string{"FT201", "FT202"}}}), http.StatusUnprocessableEntity, "/ns")
	})
}

// teamSheet is goodSheet's hands with the lines swapped when swap (NS 825,
// EO 950), the written bottom on the fibur-teams table (a 125 difference
// is 10-10 at one table).
func teamSheet(swap bool) map[string]any {
	hands := []map[string]any{hand("closed", 300, 235, 100, -120), hand("closed", 0, -55, 400, 180), hand("closed", 350, 120, 200, 65)}
	ns, eo := map[string]any{"total": 950, "mp": 125, "vp": 10}, map[string]any{"total": 825, "mp": -125, "vp": 10}
	if swap {
		for _, h := range hands {
			h["ns"], h["eo"] = h["eo"], h["ns"]
		}
		ns, eo = eo, ns
	}
	return map[string]any{"hands": hands, "written": map[string]any{"ns": ns, "eo": eo}}
}

// RULES §12.5 through GET …/standings (API §4.3): per team {rank, entrant,
// team, vp, mp, matches}; the match counts from the team totals on the
// fibur-teams table once both its tables have a sheet; a resting team gets
// the teams' bye score (FITAB art. 38: 12 VP, 365 MP).
func TestTeamStandingsFITABArt2_2(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.teamTournament(3, 3, nil)
		T := "/v1/tournaments/" + tid
		wantStatus(t, w.do(request{method: "POST", path: T + "/rounds", token: w.club1,
			body: map[string]any{"number": 1, "tables": teamTables([2]string{"1", "2"}), "byes": []string{"3"}}}), http.StatusCreated, "post team round 1")
		// Table 1: team 1 NS 950, team 2 EO 825. Only one sheet: the match
		// does not count yet.
		w.putSheetAt(tid, 1, 1, teamSheet(false))
		st := w.do(request{method: "GET", path: T + "/standings", token: w.club1})
		wantStatus(t, st, http.StatusOK, "standings after one table")
		for _, row := range st.json(t)["standings"].([]any) {
			r := row.(map[string]any)
			if r["entrant"] != "3" && (r["vp"] != 0.0 || r["mp"] != 0.0) {
				t.Errorf("half a match counts: %v", r)
			}
		}
		// Table 2: team 2 NS 825, team 1 EO 950 → team 1 1900, team 2 1650,
		// difference 250 → fibur-teams 11-9 (155-350).
		w.putSheetAt(tid, 1, 2, teamSheet(true))
		st = w.do(request{method: "GET", path: T + "/standings", token: w.club1})
		wantStatus(t, st, http.StatusOK, "standings after the match")
		rows := st.json(t)["standings"].([]any)
		want := map[string][3]float64{"1": {11, 250, 2}, "3": {12, 365, 1}, "2": {9, -250, 3}}
		for _, row := range rows {
			r := row.(map[string]any)
			w := want[r["entrant"].(string)]
			if r["vp"] != w[0] || r["mp"] != w[1] || r["rank"] != w[2] {
				t.Errorf("team %v: rank %v vp %v mp %v, want %v", r["entrant"], r["rank"], r["vp"], r["mp"], w)
			}
			if r["team"] != "Squadra "+r["entrant"].(string) {
				t.Errorf("team %v: name %v", r["entrant"], r["team"])
			}
			if r["entrant"] == "1" {
				m := jsonPath(t, r, "matches", 0).(map[string]any)
				if m["opponent"] != "2" || m["total"] != 1900.0 || m["opponent_total"] != 1650.0 || m["vp"] != 11.0 {
					t.Errorf("team 1's match: %v", m)
				}
			}
		}
		// The public standings give the same team figures.
		wantStatus(t, w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"public": true}}), http.StatusOK, "make public")
		pub := w.do(request{method: "GET", path: "/v1/public/tournaments/" + tid + "/standings"})
		wantStatus(t, pub, http.StatusOK, "public standings")
		first := jsonPath(t, pub.json(t), "standings", 0).(map[string]any)
		if first["entrant"] != "3" || first["vp"] != 12.0 || first["team"] != "Squadra 3" {
			t.Errorf("public standings' first row: %v", first)
		}
		pr := w.do(request{method: "GET", path: "/v1/public/tournaments/" + tid + "/rounds/1"})
		wantStatus(t, pr, http.StatusOK, "public round")
		if m := jsonPath(t, pr.json(t), "tables", 1, "match"); m != 1.0 {
			t.Errorf("public round table 2: match %v, want 1", m)
		}
		second := jsonPath(t, pub.json(t), "standings", 1).(map[string]any)
		if m := jsonPath(t, second, "matches", 0).(map[string]any); m["vp"] != 11.0 || m["total"] != 1900.0 {
			t.Errorf("public standings' team 1 match: %v", m)
		}
	})
}

// RULES §12.4 with §12.5: after a substitution from round 1, the line-up
// seats the substitute and refuses the player replaced.
func TestTeamLineupAfterSubstitutionRULES12_4(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.teamTournament(3, 2, nil)
		T := "/v1/tournaments/" + tid
		wantStatus(t, w.do(request{method: "POST", path: T + "/rounds", token: w.club1,
			body: map[string]any{"number": 1, "tables": teamTables([2]string{"1", "2"})}}), http.StatusCreated, "post team round 1")
		wantStatus(t, w.do(request{method: "POST", path: T + "/entrants/1/substitutions", token: w.club1,
			body: map[string]any{"from_round": 1, "out": "FT102", "in": map[string]any{"name": "Riserva", "membership": "FT109"}, "reason": "malattia"}}), http.StatusCreated, "substitution")
		lineup := func(ns []string) response {
			return w.do(request{method: "PUT", path: T + "/rounds/1/tables/1/lineup", token: w.club1, body: map[string]any{"ns": ns, "eo": []string{"FT201", "FT202"}}})
		}
		wantProblem(t, lineup([]string{"FT101", "FT102"}), http.StatusUnprocessableEntity, "/ns/1")
		wantStatus(t, lineup([]string{"FT101", "FT109"}), http.StatusOK, "line-up with the substitute")
		// The workbook's Turni names who sat at the table that round — the
		// line-up, the substitute by name — and the team match (RULES
		// §12.4, §12.5).
		w.putSheetAt(tid, 1, 1, teamSheet(false))
		x := w.do(request{method: "GET", path: T + "/export.xlsx", token: w.club1})
		wantStatus(t, x, http.StatusOK, "export")
		header, rows := rowsOf(t, openWorkbook(t, x.body), "Turni", true)
		if len(header) != 16 || header[13] != "Incontro" || header[14] != "Giocatori NS" || header[15] != "Giocatori EO" {
			t.Fatalf("Turni header %q", header)
		}
		if len(rows) != 1 || len(rows[0]) != 16 {
			t.Fatalf("Turni rows %q", rows)
		}
		if got := rows[0][13:]; got[0] != "1" || got[1] != "Giocatore 1-1 – Riserva" || got[2] != "Giocatore 2-1 – Giocatore 2-2" {
			t.Errorf("Turni table 1: match and players %q, want 1, the line-up with the substitute", got)
		}
	})
}
