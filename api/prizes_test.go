package api

import (
	"fmt"
	"net/http"
	"testing"
)

// prizes, through GET/PUT /v1/tournaments/{tid}/prizes on both
// databases. Four pairs, one round: 1 beats 2 and 3 beats 4 (goodSheet,
// 11-9), so 1 and 3 lead, level. Worked by hand, with the categories in
// the order dame, assoluta, senior (born by 1955), locale (the host club):
//   - dame: 1 (F F) — of the leaders the only all-F pair;
//   - assoluta: 1 has won, so the leader left, 3;
//   - senior: 1 (1950, 1952) has won; 3 (1970) no; 2 (1958) no; 4 (1940,
//     1945);
//   - locale (Circolo Uno, the organising club, filled in by the service):
//     1 has won; 2 is the other Circolo Uno pair.
func TestPrizes_Issue22_ThroughTheAPI(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.createTournament(w.club1, tournamentBody("Premi", "club"))
		pair := func(id, club string, a, b map[string]any) map[string]any {
			return map[string]any{"id": id, "club": club, "players": []map[string]any{a, b}}
		}
		pl := func(name, sex string, year int) map[string]any {
			p := map[string]any{"name": name}
			if sex != "" {
				p["sex"] = sex
			}
			if year != 0 {
				p["birth_year"] = year
			}
			return p
		}
		entrants := "/v1/tournaments/" + tid + "/entrants"
		// A sex other than F/M, a year out of range: 422 naming the field.
		wantProblem(t, w.do(request{method: "POST", path: entrants, token: w.club1, body: map[string]any{"entrants": []map[string]any{
			pair("9", "Circolo Uno", pl("A", "X", 0), pl("B", "", 0))}}}), http.StatusUnprocessableEntity, "/entrants/0/players/0/sex")
		wantProblem(t, w.do(request{method: "POST", path: entrants, token: w.club1, body: map[string]any{"entrants": []map[string]any{
			pair("9", "Circolo Uno", pl("A", "", 0), pl("B", "", 1800))}}}), http.StatusUnprocessableEntity, "/entrants/0/players/1/birth_year")
		wantStatus(t, w.do(request{method: "POST", path: entrants, token: w.club1, body: map[string]any{"entrants": []map[string]any{
			pair("1", "Circolo Uno", pl("Rossi Anna", "F", 1950), pl("Verdi Carla", "F", 1952)),
			pair("2", "Circolo Uno", pl("Neri Paolo", "M", 1958), pl("Gallo Rita", "F", 1956)),
			pair("3", "Circolo Due", pl("Bianchi Luca", "M", 1970), pl("Russo Marco", "M", 1972)),
			pair("4", "Circolo Due", pl("Conti Ugo", "M", 1940), pl("Greco Ivo", "M", 1945)),
		}}}), http.StatusCreated, "enter pairs")
		got := w.do(request{method: "GET", path: entrants, token: w.club1}).json(t)
		if sex, year := jsonPath(t, got, "entrants", 0, "players", 0, "sex"), jsonPath(t, got, "entrants", 0, "players", 0, "birth_year"); sex != "F" || year != float64(1950) {
			t.Errorf("entrant 1's first player: sex %v, birth_year %v", sex, year)
		}
		wantStatus(t, w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/rounds", token: w.club1, body: map[string]any{
			"number": 1, "phase": "mitchell", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}, {"table": 2, "ns": "3", "eo": "4"}}}}),
			http.StatusCreated, "round 1")
		w.putSheetAt(tid, 1, 1, goodSheet())
		w.putSheetAt(tid, 1, 2, goodSheet())

		prizes := "/v1/tournaments/" + tid + "/prizes"
		empty := w.do(request{method: "GET", path: prizes, token: w.club1})
		wantStatus(t, empty, http.StatusOK, "no categories")
		if n := len(jsonPath(t, empty.json(t), "awards").([]any)); n != 0 {
			t.Errorf("%d awards without categories", n)
		}
		cats := []map[string]any{
			{"id": "dame", "kind": "ladies", "label": "Coppie femminili", "places": 1},
			{"id": "assoluta", "kind": "overall", "label": "Assoluta", "places": 1},
			{"id": "senior", "kind": "seniors", "label": "Senior", "places": 1, "born_by": 1955},
			{"id": "locale", "kind": "host_club", "label": "Miglior coppia locale", "places": 1},
		}
		// Another club does not see the club tournament; the federation
		// reads it but does not define its prizes.
		wantProblem(t, w.do(request{method: "PUT", path: prizes, token: w.club2, body: map[string]any{"categories": cats}}), http.StatusNotFound, "")
		wantProblem(t, w.do(request{method: "PUT", path: prizes, token: w.fed, body: map[string]any{"categories": cats}}), http.StatusForbidden, "")
		bad := []map[string]any{cats[0], {"id": "assoluta", "kind": "overall", "label": "Assoluta", "places": 0}}
		wantProblem(t, w.do(request{method: "PUT", path: prizes, token: w.club1, body: map[string]any{"categories": bad}}), http.StatusUnprocessableEntity, "/categories/1/places")
		bad = []map[string]any{cats[0], cats[0]}
		wantProblem(t, w.do(request{method: "PUT", path: prizes, token: w.club1, body: map[string]any{"categories": bad}}), http.StatusUnprocessableEntity, "/categories/1/id")

		put := w.do(request{method: "PUT", path: prizes, token: w.club1, body: map[string]any{"categories": cats}})
		wantStatus(t, put, http.StatusOK, "put prizes")
		if club := jsonPath(t, put.json(t), "categories", 3, "club"); club != "Circolo Uno" {
			t.Errorf("host club %v, want the organising club's name", club)
		}
		for _, who := range []string{w.club1, w.admin} {
			var list string
			ans := w.do(request{method: "GET", path: prizes, token: who})
			wantStatus(t, ans, http.StatusOK, "get prizes")
			for _, a := range jsonPath(t, ans.json(t), "awards").([]any) {
				m := a.(map[string]any)
				list += fmt.Sprintf("%s/%v=%s ", m["category"], m["place"], m["entrant"])
			}
			if want := "dame/1=1 assoluta/1=3 senior/1=4 locale/1=2 "; list != want {
				t.Errorf("awards %q, want %q", list, want)
			}
		}
		// The workbook's sheet Premi has the same awards, row for row.
		xl := w.do(request{method: "GET", path: "/v1/tournaments/" + tid + "/export.xlsx", token: w.club1})
		wantStatus(t, xl, http.StatusOK, "export")
		header, rows := rowsOf(t, openWorkbook(t, xl.body), "Premi", true)
		if header[1] != "Codice categoria" || header[4] != "Concorrente" {
			t.Errorf("Premi header %q", header)
		}
		var sheet string
		for _, r := range rows {
			sheet += fmt.Sprintf("%s/%s=%s ", r[1], r[2], r[4])
		}
		if want := "dame/1=1 assoluta/1=3 senior/1=4 locale/1=2 "; sheet != want {
			t.Errorf("Premi rows %q, want %q", sheet, want)
		}
		// FITAB art. 39: a void tournament (6 rounds planned, interrupted
		// after round 1) gives no prizes; its categories stay.
		w.setState(tid, 1, w.club1, "sheets_delivered")
		wantStatus(t, w.do(request{method: "PATCH", path: "/v1/tournaments/" + tid, token: w.club1,
			body: map[string]any{"interrupted_after_round": 1, "reason": "alluvione"}}), http.StatusOK, "interrupt")
		void := w.do(request{method: "GET", path: prizes, token: w.club1}).json(t)
		if void["void"] != true || len(void["awards"].([]any)) != 0 || len(void["categories"].([]any)) != 4 {
			t.Errorf("void tournament: %v", void)
		}
		xl = w.do(request{method: "GET", path: "/v1/tournaments/" + tid + "/export.xlsx", token: w.club1})
		if _, rows := rowsOf(t, openWorkbook(t, xl.body), "Premi", true); len(rows) != 0 {
			t.Errorf("void tournament: Premi has %d rows", len(rows))
		}
		// Clearing.
		wantStatus(t, w.do(request{method: "PUT", path: prizes, token: w.club1, body: map[string]any{"categories": []any{}}}), http.StatusOK, "clear")
		wantProblem(t, w.do(request{method: "GET", path: "/v1/tournaments/nope/prizes", token: w.club1}), http.StatusNotFound, "")
	})
}
