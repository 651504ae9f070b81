package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// Individual tournaments in the service (API §4.2, RULES
// §8, §11): a line is two players, in rounds, sheets, confirmations,
// generated rounds, the check, the standings and the public reads.

type indTable struct {
	Table int      `json:"table"`
	NS    []string `json:"ns"`
	EO    []string `json:"eo"`
}

type indRound struct {
	Number int        `json:"number"`
	State  string     `json:"state"`
	System string     `json:"system"`
	Tables []indTable `json:"tables"`
	Byes   []string   `json:"byes"`
}

func decodeIndRound(t *testing.T, r response) indRound {
	t.Helper()
	var out indRound
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatalf("not an individual round: %v\n%s", err, r.body)
	}
	return out
}

// individualWorld is the world with, as w.tid, a club-level individual
// tournament of club 1 with players "1".."10".
func individualWorld(t *testing.T, b backend) (w *world, pairsTID string) {
	w = newWorld(t, b)
	pairsTID = w.tid
	body := tournamentBody("Individuale d'autunno", "club")
	body["kind"] = "individual"
	w.tid = w.createTournament(w.club1, body)
	var es []map[string]any
	for i := 1; i <= 10; i++ {
		es = append(es, map[string]any{"id": strconv.Itoa(i), "players": []map[string]any{{"name": "Giocatore " + strconv.Itoa(i)}}})
	}
	r := w.do(request{method: "POST", path: "/v1/tournaments/" + w.tid + "/entrants", token: w.club1, body: map[string]any{"entrants": es}})
	wantStatus(t, r, http.StatusCreated, "enter players")
	return w, pairsTID
}

func TestIndividualRoundsSheetsStandings(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w, pairsTID := individualWorld(t, b)
		rounds := "/v1/tournaments/" + w.tid + "/rounds"
		round := func(tables ...map[string]any) map[string]any {
			return map[string]any{"number": 1, "phase": "danese", "tables": tables, "byes": []string{"9", "10"}}
		}
		tb := func(n int, ns, eo any) map[string]any { return map[string]any{"table": n, "ns": ns, "eo": eo} }

		// The wrong shape, a player twice, an unknown player: 422 naming the field.
		for _, c := range []struct {
			name    string
			body    map[string]any
			pointer string
		}{
			{"one id in an individual tournament", round(tb(1, "1", []string{"3", "4"}), tb(2, []string{"5", "6"}, []string{"7", "8"})), "/tables/0/ns"},
			{"three players", round(tb(1, []string{"1", "2", "3"}, []string{"3", "4"}), tb(2, []string{"5", "6"}, []string{"7", "8"})), "/tables/0/ns"},
			{"a player twice", round(tb(1, []string{"1", "2"}, []string{"3", "4"}), tb(2, []string{"5", "6"}, []string{"1", "8"})), "/tables/1/eo/0"},
			{"an unknown player", round(tb(1, []string{"1", "2"}, []string{"3", "44"}), tb(2, []string{"5", "6"}, []string{"7", "8"})), "/tables/0/eo/1"},
			{"not a string", round(tb(1, []string{"1", "2"}, 3), tb(2, []string{"5", "6"}, []string{"7", "8"})), "/tables/0/eo"},
		} {
			t.Run(c.name, func(t *testing.T) {
				wantProblem(t, w.do(request{method: "POST", path: rounds, token: w.club1, body: c.body}), http.StatusUnprocessableEntity, c.pointer)
			})
		}
		// In Italian when asked (api/problem_it.go).
		it := wantProblem(t, w.do(request{method: "POST", path: rounds, token: w.club1, header: map[string]string{"Accept-Language": "it"},
			body: round(tb(1, "1", []string{"3", "4"}), tb(2, []string{"5", "6"}, []string{"7", "8"}))}), http.StatusUnprocessableEntity, "/tables/0/ns")
		if len(it.Errors) == 0 || !strings.Contains(it.Errors[0].Detail, "due giocatori") {
			t.Errorf("Italian detail: %+v", it.Errors)
		}
		// A pairs tournament keeps its shape: an array is refused.
		wantProblem(t, w.do(request{method: "POST", path: "/v1/tournaments/" + pairsTID + "/rounds", token: w.club1, body: map[string]any{
			"number": 2, "phase": "danese", "tables": []map[string]any{tb(1, []string{"1", "2"}, "3")}}}), http.StatusUnprocessableEntity, "/tables/0/ns")

		res := w.do(request{method: "POST", path: rounds, token: w.club1,
			body: round(tb(1, []string{"1", "2"}, []string{"3", "4"}), tb(2, []string{"5", "6"}, []string{"7", "8"}))})
		wantStatus(t, res, http.StatusCreated, "create individual round 1")
		r1 := decodeIndRound(t, res)
		if !slices.Equal(r1.Tables[0].NS, []string{"1", "2"}) || !slices.Equal(r1.Tables[1].EO, []string{"7", "8"}) {
			t.Fatalf("round 1 tables: %+v", r1.Tables)
		}

		// Table 1: the whole sheet, ids taken from the round.
		wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: goodSheet()}), http.StatusCreated, "PUT sheet")
		got := w.do(request{method: "GET", path: w.sheetPath(1, 1), token: w.fed})
		wantStatus(t, got, http.StatusOK, "GET sheet")
		if ids := jsonPath(t, got.json(t), "sheet", "ns", "ids"); fmt.Sprint(ids) != "[1 2]" {
			t.Errorf("sheet ns.ids = %v, want [1 2]", ids)
		}
		withIDs := func(ns, eo any, key string) map[string]any {
			s := goodSheet()
			s["ns"], s["eo"] = map[string]any{key: ns}, map[string]any{"ids": eo}
			return s
		}
		wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: withIDs([]string{"2", "1"}, []string{"3", "4"}, "ids")}), http.StatusOK, "ids in either order")
		wantProblem(t, w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: withIDs([]string{"1", "5"}, []string{"3", "4"}, "ids")}), http.StatusUnprocessableEntity, "/ns/ids")
		wantProblem(t, w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: withIDs("1", []string{"3", "4"}, "id")}), http.StatusUnprocessableEntity, "/ns/id")

		// Table 2: hand by hand with the table's code; either player of a
		// line confirms for it.
		code, _ := w.issueLink(w.club1, 1, 2)
		for i, h := range goodHands {
			wantStatus(t, w.do(request{method: "POST", path: w.sheetPath(1, 2) + "/hands", token: code, body: h}), http.StatusCreated, "hand "+strconv.Itoa(i+1))
		}
		confirm := func(line, entrant string) response {
			return w.do(request{method: "POST", path: w.sheetPath(1, 2) + "/confirm", token: code, body: map[string]any{"line": line, "entrant": entrant}})
		}
		wantProblem(t, confirm("eo", "5"), http.StatusUnprocessableEntity, "/entrant")
		wantStatus(t, confirm("eo", "8"), http.StatusOK, "player 8 confirms for EO")

		// Standings per player (RULES §8): NS won 11-9 at both tables; the
		// players of a line share its VP and MP; 9 and 10 rest.
		st := w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid + "/standings", token: w.fed})
		wantStatus(t, st, http.StatusOK, "standings")
		var sr standingsResponse
		if err := json.Unmarshal(st.body, &sr); err != nil {
			t.Fatal(err)
		}
		if len(sr.Standings) != 10 {
			t.Fatalf("%d rows, want one per player", len(sr.Standings))
		}
		for _, row := range sr.Standings {
			want := map[string][2]int{"1": {11, 125}, "2": {11, 125}, "5": {11, 125}, "6": {11, 125},
				"3": {9, -125}, "4": {9, -125}, "7": {9, -125}, "8": {9, -125}}[row.Entrant]
			if want != [2]int{} && (row.VP != want[0] || row.MP != want[1]) {
				t.Errorf("player %s: %d VP %d MP, want %v", row.Entrant, row.VP, row.MP, want)
			}
		}

		// The check of a round seated by hand; generating round 2 (draw:
		// the individual schedule); danese does not seat individuals.
		if c := w.check(w.fed, w.tid, 1); !c.OK {
			t.Errorf("round 1 check: %+v", c)
		}
		wantProblem(t, w.generate(w.club1, w.tid, map[string]any{"number": 2, "system": "danese"}), http.StatusUnprocessableEntity, "/system")
		res = w.generate(w.club1, w.tid, map[string]any{"number": 2, "system": "draw"})
		wantStatus(t, res, http.StatusCreated, "generate round 2")
		r2 := decodeIndRound(t, res)
		if r2.State != "proposed" || len(r2.Tables) != 2 || len(r2.Byes) != 2 {
			t.Fatalf("round 2: %+v", r2)
		}
		partners := map[[2]string]bool{{"1", "2"}: true, {"3", "4"}: true, {"5", "6"}: true, {"7", "8"}: true}
		seated := map[string]int{}
		for _, tb := range r2.Tables {
			for _, line := range [][]string{tb.NS, tb.EO} {
				if len(line) != 2 {
					t.Fatalf("a line of %d players: %+v", len(line), tb)
				}
				p := [2]string{line[0], line[1]}
				slices.Sort(p[:])
				if partners[p] {
					t.Errorf("RULES §11: %v are partners again", p)
				}
				seated[line[0]]++
				seated[line[1]]++
			}
		}
		for _, id := range r2.Byes {
			seated[id]++
			if id == "9" || id == "10" {
				t.Errorf("player %s rests twice (FITAB art. 38)", id)
			}
		}
		if len(seated) != 10 {
			t.Errorf("round 2 seats %d players once, want 10: %v", len(seated), seated)
		}
		wantStatus(t, w.publish(w.club1, w.tid, 2), http.StatusOK, "publish round 2")
		if c := w.check(w.fed, w.tid, 2); !c.OK || c.System != "draw" {
			t.Errorf("round 2 check: %+v", c)
		}

		// A round seated by hand that puts former partners together again:
		// the check says so (RULES §11, REPEATED_PARTNER).
		res = w.do(request{method: "POST", path: rounds, token: w.club1, body: map[string]any{"number": 3, "phase": "danese",
			"tables": []map[string]any{tb(1, []string{"1", "2"}, []string{"3", "5"}), tb(2, []string{"4", "6"}, []string{"7", "9"})}, "byes": []string{"8", "10"}}})
		wantStatus(t, res, http.StatusCreated, "round 3 by hand")
		c3 := w.check(w.fed, w.tid, 3)
		if c3.OK || !slices.ContainsFunc(c3.Problems, func(p pairingProblemJSON) bool { return p.Code == "REPEATED_PARTNER" && p.Table == 1 }) {
			t.Errorf("round 3 check: %+v, want REPEATED_PARTNER at table 1", c3)
		}

		// PUT .../rounds/3 redefines the seating (no sheet yet): the same
		// shapes as POST.
		wantProblem(t, w.do(request{method: "PUT", path: rounds + "/3", token: w.club1, body: map[string]any{"number": 3, "phase": "danese",
			"tables": []map[string]any{tb(1, "1", []string{"3", "5"})}}}), http.StatusUnprocessableEntity, "/tables/0/ns")
		res = w.do(request{method: "PUT", path: rounds + "/3", token: w.club1, body: map[string]any{"number": 3, "phase": "danese",
			"tables": []map[string]any{tb(1, []string{"1", "7"}, []string{"3", "5"}), tb(2, []string{"4", "10"}, []string{"2", "9"})}, "byes": []string{"6", "8"}}})
		wantStatus(t, res, http.StatusOK, "redefine round 3")
		if r3 := decodeIndRound(t, res); !slices.Equal(r3.Tables[0].NS, []string{"1", "7"}) {
			t.Errorf("redefined round 3: %+v", r3.Tables)
		}

		// Exports (API §6): the JSON rounds name the two players of a line
		// as API §4.2 does; a match names them in ids; Turni shows "1 / 2";
		// Classifica is per player.
		ex := w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid + "/export.json", token: w.club1})
		wantStatus(t, ex, http.StatusOK, "export JSON")
		exj := ex.json(t)
		if ns := jsonPath(t, exj, "rounds", 0, "tables", 0, "ns"); fmt.Sprint(ns) != "[1 2]" {
			t.Errorf("export round 1 table 1 ns = %v", ns)
		}
		if ids := jsonPath(t, exj, "matches", 0, "ns", "ids"); fmt.Sprint(ids) != "[1 2]" {
			t.Errorf("export match ns.ids = %v", ids)
		}
		xl := w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid + "/export.xlsx", token: w.club1})
		wantStatus(t, xl, http.StatusOK, "export xlsx")
		f, err := excelize.OpenReader(bytes.NewReader(xl.body))
		if err != nil {
			t.Fatal(err)
		}
		turni, err := f.GetRows("Turni")
		if err != nil || len(turni) < 2 || turni[1][2] != "1 / 2" || turni[1][3] != "3 / 4" {
			t.Errorf("Turni: %q (%v)", turni, err)
		}
		classifica, err := f.GetRows("Classifica")
		if err != nil || len(classifica) != 11 {
			t.Errorf("Classifica: %d rows, want a header and one per player (%v)", len(classifica), err)
		}

		// Public reads show the two players of each line.
		wantStatus(t, w.do(request{method: "PATCH", path: "/v1/tournaments/" + w.tid, token: w.club1, body: map[string]any{"public": true}}), http.StatusOK, "make public")
		pr := w.do(request{method: "GET", path: "/v1/public/tournaments/" + w.tid + "/rounds/1"})
		wantStatus(t, pr, http.StatusOK, "public round")
		if ns := jsonPath(t, pr.json(t), "tables", 0, "ns"); fmt.Sprint(ns) != "[1 2]" {
			t.Errorf("public round 1 table 1 ns = %v", ns)
		}
		ps := w.do(request{method: "GET", path: "/v1/public/tournaments/" + w.tid + "/standings"})
		wantStatus(t, ps, http.StatusOK, "public standings")
	})
}

// API §5 in an individual tournament: the tidy layout's ns/eo cell names
// the line's two players ("2 / 1", "3-4", in either order); a cell naming
// one player is that match's error naming the cell. The template for an
// individual tournament says so.
func TestIndividualImport(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w, _ := individualWorld(t, b)
		res := w.do(request{method: "POST", path: "/v1/tournaments/" + w.tid + "/rounds", token: w.club1, body: map[string]any{
			"number": 1, "phase": "danese", "byes": []string{"9", "10"},
			"tables": []map[string]any{{"table": 1, "ns": []string{"1", "2"}, "eo": []string{"3", "4"}}, {"table": 2, "ns": []string{"5", "6"}, "eo": []string{"7", "8"}}}}})
		wantStatus(t, res, http.StatusCreated, "round 1")
		wb := tidyWorkbook(t, "fitab-2025", 3, genMatches(seating{1, 1, "2 / 1", "3-4"}, seating{1, 2, "5-6", "7"}), nil)
		up := w.upload(w.club1, w.tid, "turno1.xlsx", wb)
		wantStatus(t, up, http.StatusCreated, "import")
		rep := decodeImport(t, up)
		for _, m := range rep.Matches {
			switch m.Table {
			case 1:
				if m.Status != "created" {
					t.Errorf("table 1: %+v", m)
				}
			case 2:
				if m.Error == nil || m.Error.Cell != "Smazzate!E5" {
					t.Errorf("table 2 (one player at EO): %+v", m)
				}
			}
		}
		got := w.do(request{method: "GET", path: w.sheetPath(1, 1), token: w.club1})
		wantStatus(t, got, http.StatusOK, "imported sheet")
		if ids := jsonPath(t, got.json(t), "sheet", "eo", "ids"); fmt.Sprint(ids) != "[3 4]" {
			t.Errorf("imported eo.ids = %v", ids)
		}

		tpl := w.do(request{method: "GET", path: "/v1/templates/scoresheet.xlsx?kind=individual"})
		wantStatus(t, tpl, http.StatusOK, "individual template")
		wantStatus(t, w.do(request{method: "GET", path: "/v1/templates/scoresheet.xlsx?kind=doubles"}), http.StatusBadRequest, "unknown kind")
	})
}
