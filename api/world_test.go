package api

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// world is a service with two clubs, a tournament of the first with a
// referee, four pairs and a first round, and a token for every role of the
// authorization matrix.
type world struct {
	*env
	b                                    backend
	admin, club1, club2, ref1, ref2, fed string // tokens
	c1, c2                               string // club ids
	tid                                  string // tournament of club 1; ref1 is its referee
}

const (
	refereeOne = "Arbitro Uno"
	refereeTwo = "Arbitro Due"
)

func newWorld(t *testing.T, b backend) *world {
	t.Helper()
	w := &world{env: newEnv(t, b.db), b: b}
	w.admin = w.adminToken()
	w.c1 = w.createClub("c1", "Circolo Uno")
	w.c2 = w.createClub("c2", "Circolo Due")
	w.club1 = w.token(map[string]any{"role": "club", "club": w.c1, "name": "Segreteria Uno"})
	w.club2 = w.token(map[string]any{"role": "club", "club": w.c2, "name": "Segreteria Due"})
	w.ref1 = w.token(map[string]any{"role": "referee", "name": refereeOne})
	w.ref2 = w.token(map[string]any{"role": "referee", "name": refereeTwo})
	w.fed = w.token(map[string]any{"role": "federation", "name": "FITAB"})
	w.tid = w.createTournament(w.club1, tournamentBody("Coppa Autunno", "regional"))
	r := w.do(request{method: "PUT", path: "/v1/tournaments/" + w.tid + "/referees/" + "Arbitro%20Uno", token: w.club1})
	wantStatus(t, r, http.StatusNoContent, "assign referee")
	w.enterPairs(w.club1, w.tid, "1", "2", "3", "4")
	r = w.do(request{method: "POST", path: "/v1/tournaments/" + w.tid + "/rounds", token: w.club1, body: map[string]any{
		"number": 1, "phase": "mitchell",
		"tables": []map[string]any{{"table": 1, "ns": "1", "eo": "3"}, {"table": 2, "ns": "2", "eo": "4"}},
	}})
	wantStatus(t, r, http.StatusCreated, "create round 1")
	return w
}

func (w *world) createClub(id, name string) string {
	w.t.Helper()
	r := w.do(request{method: "POST", path: "/v1/clubs", token: w.admin, body: map[string]any{"id": id, "name": name}})
	wantStatus(w.t, r, http.StatusCreated, "create club")
	return r.json(w.t)["id"].(string)
}

func (w *world) token(body map[string]any) string {
	w.t.Helper()
	r := w.do(request{method: "POST", path: "/v1/tokens", token: w.admin, body: body})
	wantStatus(w.t, r, http.StatusCreated, "create token")
	return r.json(w.t)["token"].(string)
}

func tournamentBody(name, level string) map[string]any {
	return map[string]any{"name": name, "date": "2026-11-21", "level": level, "ruleset": "fitab-2025",
		"kind": "pairs", "rounds_planned": 6, "hands_per_round": 3}
}

func (w *world) createTournament(token string, body map[string]any) string {
	w.t.Helper()
	r := w.do(request{method: "POST", path: "/v1/tournaments", token: token, body: body})
	wantStatus(w.t, r, http.StatusCreated, "create tournament")
	return r.json(w.t)["id"].(string)
}

func (w *world) enterPairs(token, tid string, ids ...string) {
	w.t.Helper()
	var es []map[string]any
	for _, id := range ids {
		es = append(es, map[string]any{"id": id, "players": []map[string]any{
			{"name": "Giocatore " + id + "a", "membership": "FT" + id + "01"},
			{"name": "Giocatore " + id + "b"},
		}})
	}
	r := w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/entrants", token: token, body: map[string]any{"entrants": es}})
	wantStatus(w.t, r, http.StatusCreated, "enter pairs")
}

func (w *world) sheetPath(round, table int) string {
	return fmt.Sprintf("/v1/tournaments/%s/rounds/%d/tables/%d/sheet", w.tid, round, table)
}

// A correct three-hand fitab-2025 sheet, hand by hand (RULES §4, §5):
//
//	hand 1, NS closed: base 300 (pulito 200 + closing 100), points 235 → 535;
//	        EO base 100 (sporco), points -120 → -20
//	hand 2, EO closed: base 400 (pulito + sporco + closing), points 180 → 580;
//	        NS base 0, points -55 → -55
//	hand 3, NS closed: base 350 (semipulito 150 + sporco + closing), points 120 → 470;
//	        EO base 200 (pulito), points 65 → 265
//
// Totals (RULES §6): NS 535 - 55 + 470 = 950, EO -20 + 580 + 265 = 825;
// MP ±125; FITAB 3-hand table (§6.1): 65-160 is 11-9.
var goodHands = []map[string]any{
	hand("closed", 300, 235, 100, -120),
	hand("closed", 0, -55, 400, 180),
	hand("closed", 350, 120, 200, 65),
}

func hand(end string, nsBase, nsPoints, eoBase, eoPoints int) map[string]any {
	return map[string]any{"end": end,
		"ns": map[string]any{"base": nsBase, "points": nsPoints, "total": nsBase + nsPoints},
		"eo": map[string]any{"base": eoBase, "points": eoPoints, "total": eoBase + eoPoints}}
}

// goodSheet is the sheet as a club types it: no ruleset, no ids.
func goodSheet() map[string]any {
	return map[string]any{
		"hands": goodHands,
		"written": map[string]any{
			"ns": map[string]any{"total": 950, "mp": 125, "vp": 11},
			"eo": map[string]any{"total": 825, "mp": -125, "vp": 9},
		},
	}
}

// snapshot is everything the service stores, read back through the store:
// a hostile request must leave it as it was.
type snapshot struct {
	Rows        map[string]int
	Clubs       []string
	Tournaments []string
	Entrants    map[string][]string
	Rounds      map[string][]string
	Sheets      map[string]string
}

func (w *world) snapshot() snapshot {
	w.t.Helper()
	ctx := context.Background()
	s := snapshot{Rows: w.b.rowCounts(w.t), Entrants: map[string][]string{}, Rounds: map[string][]string{}, Sheets: map[string]string{}}
	check := func(err error) {
		if err != nil {
			w.t.Fatalf("snapshot: %v", err)
		}
	}
	clubs, err := w.db.ListClubs(ctx)
	check(err)
	for _, c := range clubs {
		s.Clubs = append(s.Clubs, c.ID+"|"+c.Name)
	}
	ts, err := w.db.ListTournaments(ctx, store.TournamentFilter{})
	check(err)
	for _, t := range ts {
		s.Tournaments = append(s.Tournaments, fmt.Sprintf("%+v", t))
		es, err := w.db.ListEntrants(ctx, t.ID)
		check(err)
		for _, e := range es {
			s.Entrants[t.ID] = append(s.Entrants[t.ID], fmt.Sprintf("%+v", e))
		}
		rs, err := w.db.ListRounds(ctx, t.ID)
		check(err)
		for _, r := range rs {
			s.Rounds[t.ID] = append(s.Rounds[t.ID], fmt.Sprintf("%+v", r))
			for _, tb := range r.Tables {
				st, err := w.db.GetSheet(ctx, t.ID, r.Number, tb.Table)
				if err == nil {
					s.Sheets[fmt.Sprintf("%s/%d/%d", t.ID, r.Number, tb.Table)] = fmt.Sprintf("v%d hands=%d", st.Version, len(st.Sheet.Hands))
				}
			}
		}
	}
	sort.Strings(s.Clubs)
	sort.Strings(s.Tournaments)
	return s
}

func (w *world) wantUnchanged(before snapshot) {
	w.t.Helper()
	if d := cmp.Diff(before, w.snapshot()); d != "" {
		w.t.Errorf("the database changed (-before +after):\n%s", d)
	}
}

// backend is one database under test, with a second plain connection to
// count rows behind the store's back.
type backend struct {
	db  *store.DB
	raw *sql.DB
}

// eachBackend runs f on a fresh PostgreSQL database and on a fresh SQLite
// file: the same table of cases, both databases (STYLE habit 8).
func eachBackend(t *testing.T, f func(t *testing.T, b backend)) {
	t.Helper()
	open := func(t *testing.T, dsn, driver string) backend {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		db, err := store.Open(ctx, dsn, nil)
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		t.Cleanup(func() { db.Close() })
		// The drivers are those the store links in: pgx's database/sql
		// driver and modernc.org/sqlite's "sqlite" (under libtnb/sqlite).
		raw, err := sql.Open(driver, dsn)
		if err != nil {
			t.Fatalf("open raw: %v", err)
		}
		t.Cleanup(func() { raw.Close() })
		return backend{db: db, raw: raw}
	}
	t.Run(store.DialectPostgres, func(t *testing.T) { f(t, open(t, dbtest.PostgresURL(t), "pgx")) })
	t.Run(store.DialectSQLite, func(t *testing.T) { f(t, open(t, dbtest.SQLitePath(t), "sqlite")) })
}

// rowCounts counts the rows of every table of the schema.
func (b backend) rowCounts(t *testing.T) map[string]int {
	t.Helper()
	q := `SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`
	if b.db.Dialect() == store.DialectSQLite {
		q = `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	}
	rows, err := b.raw.Query(q)
	if err != nil {
		t.Fatalf("list tables: %v", err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	if len(tables) < 5 {
		t.Fatalf("found only tables %v", tables)
	}
	counts := map[string]int{}
	for _, name := range tables {
		var n int
		if err := b.raw.QueryRow(`SELECT count(*) FROM "` + name + `"`).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", name, err)
		}
		counts[name] = n
	}
	return counts
}

// fillSheets enters goodSheet at every table of the rounds that has none,
// so that they may be delivered (RULES §12.2: a round's sheets are
// delivered when every table's are).
func (w *world) fillSheets(tid string, rounds ...int) {
	w.t.Helper()
	for _, n := range rounds {
		r := w.do(request{method: "GET", path: fmt.Sprintf("/v1/tournaments/%s/rounds/%d", tid, n), token: w.admin})
		wantStatus(w.t, r, http.StatusOK, "read round")
		for _, tb := range r.json(w.t)["tables"].([]any) {
			table := int(tb.(map[string]any)["table"].(float64))
			path := fmt.Sprintf("/v1/tournaments/%s/rounds/%d/tables/%d/sheet", tid, n, table)
			if w.do(request{method: "GET", path: path, token: w.admin}).status == http.StatusOK {
				continue
			}
			wantStatus(w.t, w.do(request{method: "PUT", path: path, token: w.admin, body: goodSheet()}), http.StatusCreated, "fill sheet")
		}
	}
}
