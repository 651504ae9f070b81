package api

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/importers/sheetjson"
	"segnapunti/store"
)

// benchStandingsHTTP: GET .../standings in process (router, auth, app,
// store, domain, JSON) for a tournament of `entrants` pairs and `rounds`
// full rounds on PostgreSQL. "cold" builds a fresh server (every cache of
// the app and the API empty) per request: entrants, rounds, results and
// adjustments read, the ranking and the encoding; "afterwrite" is the
// live page: a sheet written, then the read; "cached" repeats the
// request: the stamp query and the cached bytes. Goals:
// 1,000 × 8 ≤ 20 ms, 10,000 × 8 ≤ 150 ms.
func benchStandingsHTTP(b *testing.B, entrants, rounds int) {
	db, raw := benchPostgres(b)
	ctx := context.Background()
	club, err := db.CreateClub(ctx, domain.Club{Name: "Circolo"})
	if err != nil {
		b.Fatal(err)
	}
	token, _, err := db.CreateToken(ctx, domain.RoleClub, "Segreteria", club.ID)
	if err != nil {
		b.Fatal(err)
	}
	tr, err := db.CreateTournament(ctx, domain.Tournament{Name: "Nazionale", Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC),
		ClubID: club.ID, Level: domain.LevelClub, Ruleset: domain.FITAB2025, Kind: domain.KindPairs, RoundsPlanned: rounds, HandsPerRound: 3})
	if err != nil {
		b.Fatal(err)
	}
	es := make([]domain.Entrant, entrants)
	for i := range es {
		es[i] = domain.Entrant{ID: strconv.Itoa(i + 1), Players: []domain.Player{{Name: fmt.Sprint("Giocatore ", i+1)}}}
	}
	if err := db.AddEntrants(ctx, tr.ID, es); err != nil {
		b.Fatal(err)
	}
	sheets, _, err := sheetjson.Decode(benchSheet)
	if err != nil {
		b.Fatal(err)
	}
	s := sheets[0]
	rep, err := reportjson.Marshal(domain.Validate(s), domain.English)
	if err != nil {
		b.Fatal(err)
	}
	tables := entrants / 2
	var imported []store.ImportedSheet
	for n := 1; n <= rounds; n++ {
		r := domain.Round{Number: n, HandsPlanned: 3, Phase: domain.PhaseMitchell}
		for t := 1; t <= tables; t++ {
			// A different opponent each round.
			ns, eo := t, (t-1+n-1)%tables+tables+1
			r.Tables = append(r.Tables, domain.TableAssignment{Table: t, NS: strconv.Itoa(ns), EO: strconv.Itoa(eo)})
			imported = append(imported, store.ImportedSheet{Round: n, Table: t, Sheet: s, ReportJSON: rep})
		}
		if err := db.CreateRound(ctx, tr.ID, r); err != nil {
			b.Fatal(err)
		}
	}
	for chunk := range slices.Chunk(imported, 4000) {
		imp := store.Import{TournamentID: tr.ID, Filename: "bench.json", CreatedBy: "bench", SHA256: fmt.Sprintf("%064d", chunk[0].Round*100000+chunk[0].Table)}
		if _, _, err := db.SaveImport(ctx, imp, chunk, true, func(store.Import, []store.SheetOutcome) ([]byte, error) { return []byte(`{}`), nil }); err != nil {
			b.Fatal(err)
		}
	}
	get := func(h http.Handler) {
		req := httptest.NewRequest(http.MethodGet, "/v1/tournaments/"+tr.ID+"/standings", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%d %s", rec.Code, rec.Body)
		}
	}
	log := slog.New(slog.DiscardHandler)
	// domain: the ranking alone on inputs read once (the baseline of the
	// goal "≤ 5× the domain computation").
	b.Run("domain", func(b *testing.B) {
		es, err := db.ListEntrants(ctx, tr.ID)
		if err != nil {
			b.Fatal(err)
		}
		rs, err := db.ListRounds(ctx, tr.ID)
		if err != nil {
			b.Fatal(err)
		}
		results, err := db.MatchResults(ctx, tr.ID, 0)
		if err != nil {
			b.Fatal(err)
		}
		m := newCPUMeter(raw)
		b.ResetTimer()
		m.start()
		defer m.report(b)
		for range b.N {
			if _, err := domain.OfficialStandings(domain.OfficialStandingsInput{Tournament: tr, Entrants: es, Rounds: rs, Results: results}); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The parts of an afterwrite request outside the ranking, each alone
	// (what the note in docs/performance.md names): the stamp query (the
	// stamp with its parts by round), the whole results read (a request
	// after a write reads one round of it), and the encoding of a
	// computed table.
	b.Run("stamp", func(b *testing.B) {
		m := newCPUMeter(raw)
		m.start()
		defer m.report(b)
		for b.Loop() {
			if _, _, err := db.StandingsStampByRound(ctx, tr.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("results", func(b *testing.B) {
		rs, err := db.ListRounds(ctx, tr.ID)
		if err != nil {
			b.Fatal(err)
		}
		m := newCPUMeter(raw)
		m.start()
		defer m.report(b)
		for b.Loop() {
			if _, err := db.MatchResultsSeated(ctx, tr.ID, 0, rs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode", func(b *testing.B) {
		st, err := app.New(db, nil, log).StandingsOf(ctx, tr, 0)
		if err != nil {
			b.Fatal(err)
		}
		st.Stamp = "" // never served from the encoded-answer cache
		var sb standingsBytes
		m := newCPUMeter(raw)
		m.start()
		defer m.report(b)
		for b.Loop() {
			sb.get(tr.ID, st)
		}
	})
	b.Run("cold", func(b *testing.B) {
		m := newCPUMeter(raw)
		m.start()
		defer m.report(b)
		for b.Loop() {
			get(NewServer(Config{}, db, log))
		}
	})
	// afterwrite: the live page's pattern on one server — a sheet is
	// written (outside the clock), then the standings are read: the
	// standings are recomputed (results and adjustments read again), the
	// entrants and rounds come from the per-version cache.
	afterwrite := func(b *testing.B) {
		h := NewServer(Config{}, db, log)
		get(h)
		m := newCPUMeter(raw)
		defer m.report(b)
		b.ResetTimer()
		for i := range b.N {
			b.StopTimer()
			if _, err := db.PutSheet(ctx, tr.ID, 1+i%rounds, 1+i%tables, s, rep, 0); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			m.start()
			get(h)
			m.stop()
		}
	}
	cached := func(b *testing.B) {
		h := NewServer(Config{}, db, log)
		get(h)
		m := newCPUMeter(raw)
		m.start()
		defer m.report(b)
		for b.Loop() {
			get(h)
		}
	}
	// First as the import left the tables (no page all-visible yet: the
	// results' index-only scans read the heap), then as autovacuum leaves
	// them within its naptime (migration 00022): the live evening is the
	// second with one round's pages written since.
	b.Run("afterwrite", afterwrite)
	b.Run("cached", cached)
	if _, err := raw.ExecContext(ctx, "VACUUM (ANALYZE) sheets"); err != nil {
		b.Fatal(err)
	}
	b.Run("afterwrite-vacuumed", afterwrite)
	b.Run("cached-vacuumed", cached)
}

// cpuMeter adds up the CPU time of this process and of the PostgreSQL
// backends serving the benchmark's database between start and stop (what
// runs between stop and the next start, e.g. afterwrite's sheet write,
// is left out) and reports both per operation: on a shared machine they
// move less with the load than the wall time. The backends' figure has
// the kernel's 10 ms tick for resolution; nothing is reported for them
// when /proc cannot be read.
type cpuMeter struct {
	pids          []int
	self, pg      time.Duration
	self0, pg0    time.Duration
	pgOK, running bool
}

func newCPUMeter(raw *sql.DB) *cpuMeter {
	m := &cpuMeter{pids: postgresBackends(raw)}
	_, m.pgOK = m.backends()
	return m
}

func (m *cpuMeter) backends() (time.Duration, bool) {
	var sum time.Duration
	for _, pid := range m.pids {
		t, ok := processCPU(pid)
		if !ok {
			return 0, false
		}
		sum += t
	}
	return sum, m.pids != nil
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (m *cpuMeter) start() {
	m.self0, m.running = selfCPU(), true
	m.pg0, _ = m.backends()
}

func (m *cpuMeter) stop() {
	if !m.running {
		return
	}
	m.self += selfCPU() - m.self0
	pg, ok := m.backends()
	m.pg += pg - m.pg0
	m.pgOK = m.pgOK && ok
	m.running = false
}

func (m *cpuMeter) report(b *testing.B) {
	m.stop()
	if b.N == 0 {
		return
	}
	b.ReportMetric(float64(m.self)/float64(b.N)/1e6, "cpu-ms/op")
	if m.pgOK {
		b.ReportMetric(float64(m.pg)/float64(b.N)/1e6, "pg-cpu-ms/op")
	}
}

func BenchmarkStandingsHTTP1000x8(b *testing.B)  { benchStandingsHTTP(b, 1000, 8) }
func BenchmarkStandingsHTTP10000x8(b *testing.B) { benchStandingsHTTP(b, 10000, 8) }
