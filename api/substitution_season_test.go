package api

import (
	"net/http"
	"strconv"
	"testing"
)

// TestSeasonCreditsPlayersAsTheySatRULES12_4: "a player's season total
// counts only the rounds the player played". Pair 1 (FT101, Giocatore 1b)
// wins round 1 11-9 (goodSheet, pair 1 NS); from round 2 FT101 is replaced
// by a substitute, and pair 1 wins round 2 11-9 again. The season's
// Partecipazioni credit FT101 with round 1 (11 VP, 125 MP), the substitute
// with round 2 (11, 125), Giocatore 1b with both (22, 250); pair 2's
// players with its 18 VP, −250 MP.
func TestSeasonCreditsPlayersAsTheySatRULES12_4(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		body := tournamentBody("Sostituzioni", "club")
		body["rounds_planned"] = 2
		tid := w.createTournament(w.club1, body)
		w.enterPairs(w.club1, tid, "1", "2")
		T := "/v1/tournaments/" + tid
		for n := 1; n <= 2; n++ {
			wantStatus(t, w.do(request{method: "POST", path: T + "/rounds", token: w.club1, body: map[string]any{
				"number": n, "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}}}}), http.StatusCreated, "round")
			if n == 2 {
				wantStatus(t, w.do(request{method: "POST", path: T + "/entrants/1/substitutions", token: w.club1, body: map[string]any{
					"from_round": 2, "out": "FT101", "in": map[string]any{"name": "Sostituto Sandro", "membership": "FT999"}, "reason": "malore"}}), http.StatusCreated, "substitution")
			}
			wantStatus(t, w.do(request{method: "PUT", path: T + "/rounds/" + strconv.Itoa(n) + "/tables/1/sheet", token: w.club1, body: goodSheet()}), http.StatusCreated, "sheet")
		}
		r := w.do(request{method: "GET", path: "/v1/seasons/2026-2027/export.xlsx", token: w.fed})
		wantStatus(t, r, http.StatusOK, "season")
		_, rows := rowsOf(t, openWorkbook(t, r.body), "Partecipazioni", false)
		got := map[string][2]string{}
		for _, row := range rows {
			if row[3] == "Sostituzioni" {
				got[row[0]] = [2]string{row[7], row[8]}
			}
		}
		want := map[string][2]string{
			"Giocatore 1a": {"11", "125"}, "Sostituto Sandro": {"11", "125"}, "Giocatore 1b": {"22", "250"},
			"Giocatore 2a": {"18", "-250"}, "Giocatore 2b": {"18", "-250"},
		}
		if len(got) != len(want) {
			t.Errorf("rows %v, want %v", got, want)
		}
		for p, v := range want {
			if got[p] != v {
				t.Errorf("%s credited %v VP/MP, want %v", p, got[p], v)
			}
		}
	})
}

// TestSeasonCreditsTeamPlayersByLineupRULES12_5: a team of six plays a
// match with four of them, as its line-ups seat them ("modificare gli
// accoppiamenti prima dell'inizio di ogni partita"); the season credits
// the four with the team's result and the two who did not sit with
// nothing (RULES §12.4: only the rounds the player played).
func TestSeasonCreditsTeamPlayersByLineupRULES12_5(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		body := tournamentBody("Squadre da sei", "club")
		body["kind"], body["rounds_planned"] = "teams", 1
		tid := w.createTournament(w.club1, body)
		T := "/v1/tournaments/" + tid
		var es []map[string]any
		for i := 1; i <= 2; i++ {
			var players []map[string]any
			for p := 1; p <= 6; p++ {
				players = append(players, map[string]any{"name": "Giocatore " + strconv.Itoa(i) + "-" + strconv.Itoa(p), "membership": "FT" + strconv.Itoa(i) + "0" + strconv.Itoa(p)})
			}
			es = append(es, map[string]any{"id": strconv.Itoa(i), "team": "Squadra " + strconv.Itoa(i), "players": players})
		}
		wantStatus(t, w.do(request{method: "POST", path: T + "/entrants", token: w.club1, body: map[string]any{"entrants": es}}), http.StatusCreated, "teams")
		wantStatus(t, w.do(request{method: "POST", path: T + "/rounds", token: w.club1, body: map[string]any{"number": 1, "tables": teamTables([2]string{"1", "2"})}}), http.StatusCreated, "round")
		for tb, l := range map[int][2][]string{1: {{"FT101", "FT102"}, {"FT201", "FT202"}}, 2: {{"FT203", "FT204"}, {"FT103", "FT104"}}} {
			wantStatus(t, w.do(request{method: "PUT", path: T + "/rounds/1/tables/" + strconv.Itoa(tb) + "/lineup", token: w.club1, body: map[string]any{"ns": l[0], "eo": l[1]}}), http.StatusOK, "line-up")
		}
		w.putSheetAt(tid, 1, 1, teamSheet(false))
		w.putSheetAt(tid, 1, 2, teamSheet(true))
		st := w.standings(tid)
		teamVP := map[string]int{}
		for _, s := range st {
			teamVP[s.Entrant] = s.VP
		}
		r := w.do(request{method: "GET", path: "/v1/seasons/2026-2027/export.xlsx", token: w.fed})
		wantStatus(t, r, http.StatusOK, "season")
		_, rows := rowsOf(t, openWorkbook(t, r.body), "Partecipazioni", false)
		got := map[string]string{}
		for _, row := range rows {
			if row[3] == "Squadre da sei" {
				got[row[1]] = row[7]
			}
		}
		for i := 1; i <= 2; i++ {
			for p := 1; p <= 6; p++ {
				m := "FT" + strconv.Itoa(i) + "0" + strconv.Itoa(p)
				want := strconv.Itoa(teamVP[strconv.Itoa(i)])
				if p > 4 {
					want = "0" // did not sit
				}
				if got[m] != want {
					t.Errorf("%s credited %q VP, want %s", m, got[m], want)
				}
			}
		}
	})
}
