package api

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// Pairings in the service (API §4.2, RULES §10, §11).

type roundAnswer struct {
	Number       int         `json:"number"`
	HandsPlanned int         `json:"hands_planned"`
	Phase        string      `json:"phase"`
	State        string      `json:"state"`
	System       string      `json:"system"`
	Seed         *uint64     `json:"seed"`
	Tables       []pairTable `json:"tables"`
	Byes         []string    `json:"byes"`
}

// pairTable is a table of a pairs round as answered (one entrant a line).
type pairTable struct {
	Table int    `json:"table"`
	NS    string `json:"ns"`
	EO    string `json:"eo"`
}

func decodeRound(t *testing.T, r response) roundAnswer {
	t.Helper()
	var out roundAnswer
	if err := json.Unmarshal(r.body, &out); err != nil { // uint64 seeds stay exact
		t.Fatalf("not a round: %v\n%s", err, r.body)
	}
	return out
}

type checkAnswer struct {
	System   string               `json:"system"`
	OK       bool                 `json:"ok"`
	Problems []pairingProblemJSON `json:"problems"`
}

func (w *world) generate(token, tid string, body map[string]any) response {
	w.t.Helper()
	return w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/rounds/generate", token: token, body: body})
}

func (w *world) publish(token, tid string, n int) response {
	w.t.Helper()
	return w.do(request{method: "PATCH", path: fmt.Sprintf("/v1/tournaments/%s/rounds/%d", tid, n), token: token, body: map[string]any{"state": "playing"}})
}

func (w *world) check(token, tid string, n int) checkAnswer {
	w.t.Helper()
	r := w.do(request{method: "GET", path: fmt.Sprintf("/v1/tournaments/%s/rounds/%d/check", tid, n), token: token})
	wantStatus(w.t, r, http.StatusOK, "check round")
	var out checkAnswer
	if err := json.Unmarshal(r.body, &out); err != nil {
		w.t.Fatal(err)
	}
	return out
}

// playRound enters the same correct sheet at every table of round n: NS
// wins 11-9 (goodSheet).
func (w *world) playRound(token, tid string, r roundAnswer) {
	w.t.Helper()
	for _, tb := range r.Tables {
		res := w.do(request{method: "PUT", path: fmt.Sprintf("/v1/tournaments/%s/rounds/%d/tables/%d/sheet", tid, r.Number, tb.Table), token: token, body: goodSheet()})
		if res.status != http.StatusOK && res.status != http.StatusCreated {
			w.t.Fatalf("sheet of round %d table %d: %d\n%s", r.Number, tb.Table, res.status, res.body)
		}
	}
}

func lineSet(tb pairTable) []string {
	s := []string{tb.NS, tb.EO}
	slices.Sort(s)
	return s
}

// Generate → proposed (no sheets) → regenerate replaces → publish →
// sheets; publishing again and regenerating a published round are 409;
// the roles of API §4.2.
func TestGeneratePublishSheets(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.tid
		// Round 1 (manual): 1 v 3, 2 v 4; NS wins at both tables, so the
		// standings after round 1 are {1, 2} on 11 VP, then {3, 4} on 9.
		r1 := w.do(request{method: "GET", path: "/v1/tournaments/" + tid + "/rounds/1", token: w.ref1})
		w.playRound(w.club1, tid, decodeRound(t, r1))

		// The club of a regional tournament is not its referee; the
		// federation reads only.
		wantProblem(t, w.generate(w.club1, tid, map[string]any{"number": 2, "system": "danese"}), http.StatusForbidden, "")
		wantProblem(t, w.generate(w.fed, tid, map[string]any{"number": 2, "system": "danese"}), http.StatusForbidden, "")
		wantProblem(t, w.generate(w.club2, tid, map[string]any{"number": 2, "system": "danese"}), http.StatusNotFound, "")

		res := w.generate(w.ref1, tid, map[string]any{"number": 2, "system": "danese", "hands_planned": 3, "seed": nil})
		wantStatus(t, res, http.StatusCreated, "generate round 2")
		if loc := res.header.Get("Location"); loc != "/v1/tournaments/"+tid+"/rounds/2" {
			t.Errorf("Location %q", loc)
		}
		got := decodeRound(t, res)
		if got.State != "proposed" || got.System != "danese" || got.Seed != nil || got.HandsPlanned != 3 || len(got.Tables) != 2 {
			t.Fatalf("proposed round: %+v", got)
		}
		// RULES §11 danese: 1st v 2nd at table 1, 3rd v 4th at table 2.
		if !slices.Equal(lineSet(got.Tables[0]), []string{"1", "2"}) || !slices.Equal(lineSet(got.Tables[1]), []string{"3", "4"}) {
			t.Errorf("danese after round 1: %+v", got.Tables)
		}
		// A proposed round takes no sheet.
		wantProblem(t, w.do(request{method: "PUT", path: w.sheetPath(2, 1), token: w.club1, body: goodSheet()}), http.StatusConflict, "")
		// GET shows the proposal; the federation may check it.
		if g := decodeRound(t, w.do(request{method: "GET", path: "/v1/tournaments/" + tid + "/rounds/2", token: w.fed})); g.State != "proposed" {
			t.Errorf("GET round 2: state %q", g.State)
		}
		if c := w.check(w.fed, tid, 2); !c.OK || c.System != "danese" {
			t.Errorf("check of the proposal: %+v", c)
		}

		// Regenerating a proposal replaces it.
		res = w.generate(w.ref1, tid, map[string]any{"number": 2, "system": "danese", "hands_planned": 4})
		wantStatus(t, res, http.StatusCreated, "regenerate round 2")
		if g := decodeRound(t, w.do(request{method: "GET", path: "/v1/tournaments/" + tid + "/rounds/2", token: w.ref1})); g.HandsPlanned != 4 || g.State != "proposed" {
			t.Errorf("after regenerating: %+v", g)
		}
		if n := b.rowCounts(t)["proposed_rounds"]; n != 1 {
			t.Errorf("%d proposed rounds stored, want 1 (replaced)", n)
		}

		// Only a referee of a regional tournament (or an admin) publishes;
		// a hand sent to the proposal is refused like a whole sheet.
		wantProblem(t, w.publish(w.club1, tid, 2), http.StatusForbidden, "")
		wantProblem(t, w.publish(w.fed, tid, 2), http.StatusForbidden, "")
		wantProblem(t, w.do(request{method: "POST", path: w.sheetPath(2, 1) + "/hands", token: w.club1, body: goodHands[0]}), http.StatusConflict, "")
		// Publish: proposed → playing; the proposal is gone.
		res = w.publish(w.ref1, tid, 2)
		wantStatus(t, res, http.StatusOK, "publish round 2")
		pub := decodeRound(t, res)
		if pub.State != "playing" || pub.System != "danese" || pub.HandsPlanned != 4 {
			t.Errorf("published: %+v", pub)
		}
		if n := b.rowCounts(t)["proposed_rounds"]; n != 0 {
			t.Errorf("%d proposed rounds left after publishing", n)
		}
		// Publishing twice and regenerating a published round: 409, and
		// the round is unchanged.
		before := w.snapshot()
		wantProblem(t, w.publish(w.ref1, tid, 2), http.StatusConflict, "")
		wantProblem(t, w.generate(w.ref1, tid, map[string]any{"number": 2, "system": "danese"}), http.StatusConflict, "")
		w.wantUnchanged(before)

		// Sheets now go in.
		sheet := goodSheet()
		hands := slices.Clone(goodHands)
		hands = append(hands, hand("closed", 300, 235, 100, -120))
		sheet["hands"] = hands
		delete(sheet, "written")
		res = w.do(request{method: "PUT", path: w.sheetPath(2, 1), token: w.club1, body: sheet})
		if res.status != http.StatusOK && res.status != http.StatusCreated {
			t.Fatalf("sheet in the published round: %d\n%s", res.status, res.body)
		}
		if c := w.check(w.fed, tid, 2); !c.OK || c.System != "danese" {
			t.Errorf("check of the published round: %+v", c)
		}
		// The manual round 1 is checked as choice.
		if c := w.check(w.ref1, tid, 1); c.System != "choice" || !c.OK {
			t.Errorf("check of the manual round 1: %+v", c)
		}
	})
}

// FITAB marks danese_modificato "attualmente non in funzione" (RULES §11):
// 422 citing FITAB art. 2; other bad requests name their field.
func TestGenerateRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t, postgresBackend(t))
	before := w.snapshot()
	p := wantProblem(t, w.generate(w.ref1, w.tid, map[string]any{"number": 2, "system": "danese_modificato"}), http.StatusUnprocessableEntity, "/system")
	if !strings.Contains(string(mustJSON(t, p)), "FITAB art. 2") {
		t.Errorf("refusal does not cite FITAB art. 2: %+v", p)
	}
	wantProblem(t, w.generate(w.ref1, w.tid, map[string]any{"number": 2, "system": "svizzero"}), http.StatusUnprocessableEntity, "/system")
	// No system: the plan's (danese), which RULES §12.2 pairs only from
	// complete standings: round 1 has no sheets, so 409 naming it and its tables.
	if p := wantProblem(t, w.generate(w.ref1, w.tid, map[string]any{"number": 2}), http.StatusConflict, ""); !strings.Contains(string(mustJSON(t, p)), `"tables":[1,2]`) {
		t.Errorf("FITAB art. 2 A: the 409 does not list round 1's tables: %s", mustJSON(t, p))
	}
	wantProblem(t, w.generate(w.ref1, w.tid, map[string]any{"number": 9, "system": "danese"}), http.StatusUnprocessableEntity, "/number")
	wantProblem(t, w.generate(w.ref1, w.tid, map[string]any{"number": 2, "system": "choice"}), http.StatusUnprocessableEntity, "/system")
	wantProblem(t, w.generate(w.ref1, w.tid, map[string]any{"number": 2, "system": "danese", "seed": 5}), http.StatusUnprocessableEntity, "/seed")
	wantProblem(t, w.generate(w.ref1, w.tid, map[string]any{"number": 2, "system": "danese", "hands_planned": 9}), http.StatusUnprocessableEntity, "/hands_planned")
	// Round 1 exists already: published rounds never change.
	wantProblem(t, w.generate(w.ref1, w.tid, map[string]any{"number": 1, "system": "entry_order"}), http.StatusConflict, "")
	// Round 3 needs round 2 published.
	wantProblem(t, w.generate(w.ref1, w.tid, map[string]any{"number": 3, "system": "danese"}), http.StatusConflict, "")
	w.wantUnchanged(before)
	// Danese for a first round: refused by the engine, naming the system.
	tid := w.createTournament(w.club1, tournamentBody("Primo", "club"))
	w.enterPairs(w.club1, tid, "1", "2", "3", "4")
	wantProblem(t, w.generate(w.club1, tid, map[string]any{"number": 1, "system": "danese"}), http.StatusUnprocessableEntity, "/system")
	wantProblem(t, w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/rounds/generate", token: w.club1, body: `{"number": 1, "system": "draw", "seed": -1}`}), http.StatusUnprocessableEntity, "")
	// Individual tournaments are seated by their randomised schedule
	// (api/individual_test.go); a system that pairs lines is refused.
	ind := tournamentBody("Individuale", "club")
	ind["kind"], ind["rounds_planned"] = "individual", 5
	iid := w.createTournament(w.club1, ind)
	var es []map[string]any
	for i := 1; i <= 8; i++ {
		es = append(es, map[string]any{"id": fmt.Sprint(i), "players": []map[string]any{{"name": fmt.Sprintf("Giocatore %d", i)}}})
	}
	wantStatus(t, w.do(request{method: "POST", path: "/v1/tournaments/" + iid + "/entrants", token: w.club1, body: map[string]any{"entrants": es}}), http.StatusCreated, "enter players")
	wantProblem(t, w.generate(w.club1, iid, map[string]any{"number": 1, "system": "mitchell"}), http.StatusUnprocessableEntity, "/system")
}

// postgresBackend is one fresh PostgreSQL database.
func postgresBackend(t *testing.T) backend {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dsn := dbtest.PostgresURL(t)
	db, err := store.Open(ctx, dsn, nil)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	raw, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatalf("open raw: %v", err)
	}
	t.Cleanup(func() { raw.Close() })
	return backend{db: db, raw: raw}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A whole FIBur club tournament of 9 pairs seated by the service: a draw,
// then danese, danese_modificato and danese (Mitchell after a Danish round
// with a rest: see TestCheckFindsInjectedRematch, even entrants). Every generated round
// passes the independent checker (GET .../check); the draw replays from
// its recorded seed, through the service and through the domain.
func TestGeneratedTournamentPassesTheChecker(t *testing.T) {
	t.Parallel()
	w := newWorld(t, postgresBackend(t))
	body := tournamentBody("Coppa FIBur", "club")
	body["ruleset"], body["rounds_planned"] = "fibur-ita", 5
	tid := w.createTournament(w.club1, body)
	ids := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	w.enterPairs(w.club1, tid, ids...)

	res := w.generate(w.club1, tid, map[string]any{"number": 1, "system": "draw", "seed": nil})
	wantStatus(t, res, http.StatusCreated, "draw round 1")
	drawn := decodeRound(t, res)
	if drawn.Seed == nil {
		t.Fatalf("a draw answers its seed: %s", res.body)
	}
	if len(drawn.Tables) != 4 || len(drawn.Byes) != 1 {
		t.Fatalf("9 pairs: want 4 tables and 1 rest, got %+v", drawn)
	}
	// Replay: the same seed gives the same seating, in the service and in
	// the domain.
	again := decodeRound(t, w.generate(w.club1, tid, map[string]any{"number": 1, "system": "draw", "seed": *drawn.Seed}))
	if !slices.Equal(again.Tables, drawn.Tables) || !slices.Equal(again.Byes, drawn.Byes) || *again.Seed != *drawn.Seed {
		t.Errorf("replay of seed %d: %+v, want %+v", *drawn.Seed, again, drawn)
	}
	dom, err := domain.GeneratePairing(domain.PairingRequest{Ruleset: "fibur-ita", System: domain.SystemDraw, Round: 1, RoundsPlanned: 5, Entrants: ids, Seed: drawn.Seed})
	if err != nil {
		t.Fatal(err)
	}
	for i, tb := range dom.Tables {
		if tb.NS[0] != drawn.Tables[i].NS || tb.EO[0] != drawn.Tables[i].EO {
			t.Errorf("table %d: domain %v v %v, service %+v", tb.Table, tb.NS, tb.EO, drawn.Tables[i])
		}
	}
	wantStatus(t, w.publish(w.club1, tid, 1), http.StatusOK, "publish round 1")
	if g := decodeRound(t, w.do(request{method: "GET", path: "/v1/tournaments/" + tid + "/rounds/1", token: w.fed})); g.Seed == nil || *g.Seed != *drawn.Seed {
		t.Errorf("the seed is not recorded with the published round: %+v", g)
	}
	if c := w.check(w.fed, tid, 1); !c.OK || c.System != "draw" {
		t.Errorf("round 1: %+v", c)
	}
	w.playRound(w.club1, tid, drawn)

	for _, step := range []struct {
		n      int
		system string
	}{{2, "danese"}, {3, "danese_modificato"}, {4, "danese"}, {5, "danese"}} {
		res := w.generate(w.club1, tid, map[string]any{"number": step.n, "system": step.system})
		wantStatus(t, res, http.StatusCreated, "generate round "+step.system)
		r := decodeRound(t, res)
		seated := map[string]int{}
		for _, tb := range r.Tables {
			seated[tb.NS]++
			seated[tb.EO]++
		}
		for _, b := range r.Byes {
			seated[b]++
		}
		for _, id := range ids {
			if seated[id] != 1 {
				t.Errorf("round %d: entrant %s seated %d times", step.n, id, seated[id])
			}
		}
		wantStatus(t, w.publish(w.club1, tid, step.n), http.StatusOK, "publish")
		if c := w.check(w.fed, tid, step.n); !c.OK || c.System != step.system {
			t.Errorf("round %d (%s) fails the checker: %+v", step.n, step.system, c)
		}
		w.playRound(w.club1, tid, r)
	}
	// Standings per pair after the five rounds come from the same
	// operation the danese rounds were paired from.
	st := w.do(request{method: "GET", path: "/v1/tournaments/" + tid + "/standings", token: w.fed})
	wantStatus(t, st, http.StatusOK, "standings")
	if rows := jsonPath(t, st.json(t), "standings").([]any); len(rows) != len(ids) {
		t.Errorf("%d standings rows, want %d", len(rows), len(ids))
	}
}

// The check re-derives a stored round: a rematch injected into a stored
// Mitchell round is found at its table.
func TestCheckFindsInjectedRematch(t *testing.T) {
	t.Parallel()
	b := postgresBackend(t)
	w := newWorld(t, b)
	tid := w.createTournament(w.club1, tournamentBody("Mitchell", "club"))
	w.enterPairs(w.club1, tid, "1", "2", "3", "4", "5", "6")
	r1 := decodeRound(t, w.generate(w.club1, tid, map[string]any{"number": 1, "system": "entry_order"}))
	wantStatus(t, w.publish(w.club1, tid, 1), http.StatusOK, "publish 1")
	r2 := decodeRound(t, w.generate(w.club1, tid, map[string]any{"number": 2, "system": "mitchell"}))
	wantStatus(t, w.publish(w.club1, tid, 2), http.StatusOK, "publish 2")
	if c := w.check(w.fed, tid, 2); !c.OK {
		t.Fatalf("the generated Mitchell round fails: %+v", c)
	}
	// Inject: table 3 of round 2 gets its round-1 opponent back; the EO
	// line that sat there moves to where that opponent was.
	old := r1.Tables[2].EO
	moved := r2.Tables[2].EO
	var at int
	for _, tb := range r2.Tables {
		if tb.EO == old {
			at = tb.Table
		}
	}
	for _, q := range []struct {
		eo    string
		table int
	}{{old, 3}, {moved, at}} {
		if _, err := b.raw.Exec(`UPDATE round_tables SET eo_entrant = $1 WHERE tournament_id = $2 AND round_no = 2 AND table_no = $3`, q.eo, tid, q.table); err != nil {
			t.Fatal(err)
		}
	}
	c := w.check(w.fed, tid, 2)
	if c.OK || c.System != "mitchell" {
		t.Fatalf("check after the injection: %+v", c)
	}
	found := false
	for _, p := range c.Problems {
		if p.Code == "REMATCH" && p.Table == 3 {
			found = true
		}
	}
	if !found {
		t.Errorf("no REMATCH at table 3: %+v", c.Problems)
	}
}
