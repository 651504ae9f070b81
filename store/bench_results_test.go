package store_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// seatTables creates a tournament of 2·tables pairs and `rounds` rounds of
// `tables` tables each (round r seats pair i against pair i+r, a simple
// movement); it returns the tournament id and its rounds.
func seatTables(b testing.TB, db *store.DB, tables, rounds int) (domain.Tournament, []domain.Round) {
	b.Helper()
	ctx := context.Background()
	tr, err := db.CreateTournament(ctx, tournament())
	if err != nil {
		b.Fatal(err)
	}
	n := 2 * tables
	var es []domain.Entrant
	for i := 1; i <= n; i++ {
		es = append(es, domain.Entrant{ID: strconv.Itoa(i), Players: []domain.Player{{Name: fmt.Sprint("Player ", i)}}})
	}
	for chunk := range slices.Chunk(es, 2000) {
		if err := db.AddEntrants(ctx, tr.ID, chunk); err != nil {
			b.Fatal(err)
		}
	}
	var rs []domain.Round
	for r := 1; r <= rounds; r++ {
		round := domain.Round{Number: r, HandsPlanned: 3, Phase: domain.PhaseMitchell}
		for t := 1; t <= tables; t++ {
			// NS pairs are the odd numbers, EO the even ones shifted by r.
			ns := 2*t - 1
			eo := 2*((t-1+r-1)%tables) + 2
			round.Tables = append(round.Tables, domain.TableAssignment{Table: t, NS: strconv.Itoa(ns), EO: strconv.Itoa(eo)})
		}
		if err := db.CreateRound(ctx, tr.ID, round); err != nil {
			b.Fatal(err)
		}
		rs = append(rs, round)
	}
	return tr, rs
}

// putSheetsP99 runs b.N PutOpenSheet calls from 32 goroutines, each at its
// own tables, after a warm-up (connections made, caches filled), and
// reports sheets/s and the p99 latency.
func putSheetsP99(b *testing.B, db *store.DB, tid string, tables int) {
	ctx := context.Background()
	s := fullSheet(b)
	rep := mustReport(b, s)
	const clients = 32
	// Warm-up: every client writes once (opens its connection).
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			if _, err := db.PutOpenSheet(ctx, tid, 1, c%tables+1, s, rep, 0); err != nil {
				b.Error(err)
			}
		})
	}
	wg.Wait()
	lat := make([][]time.Duration, clients)
	var next atomic.Int64
	b.ResetTimer()
	start := time.Now()
	for c := range clients {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				t0 := time.Now()
				if _, err := db.PutOpenSheet(ctx, tid, 1, int(i)%tables+1, s, rep, 0); err != nil {
					b.Error(err)
					return
				}
				lat[c] = append(lat[c], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) > 0 {
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "sheets/s")
}

// BenchmarkPutOpenSheet32: 32 clients entering whole sheets of a round
// being played, on PostgreSQL; the pgbench simple-update rate of the same
// server in the same run, when pgbench is installed. Goal:
// above the 396/s p99 228 ms measured before.
func BenchmarkPutOpenSheet32(b *testing.B) {
	db := dbtest.Postgres(b)
	tr, _ := seatTables(b, db, 256, 1)
	putSheetsP99(b, db, tr.ID, 256)
	store.CloseIdle(db) // pgbench needs 32 connections of its own
	if tps, ok := pgbenchTPS(b); ok {
		b.ReportMetric(tps, "pgbench-tps")
	}
	if tps, ok := pgbenchScriptTPS(b, db, tr.ID); ok {
		b.ReportMetric(tps, "pgbench-sheetsql-tps")
	}
}

// pgbenchScriptTPS runs docs/pgbench_sheet_write.sql (the service's own
// sheet write: the locks and the write statement in one pipeline) with 32
// clients for 5 s on the benchmark's database, right after the service's
// run; ok=false when pgbench or the server's URL is not at hand.
func pgbenchScriptTPS(b *testing.B, db *store.DB, tid string) (float64, bool) {
	url := os.Getenv("DATABASE_URL")
	bin, err := exec.LookPath("pgbench")
	if url == "" || err != nil {
		return 0, false
	}
	var name []string
	if err := store.Scan(context.Background(), db, &name, "SELECT current_database()"); err != nil || len(name) != 1 {
		b.Logf("pgbench script: %v", err)
		return 0, false
	}
	target := regexp.MustCompile(`/[^/?]*(\?|$)`).ReplaceAllString(url, "/"+name[0]+"$1")
	s := fullSheet(b)
	sheet, hands, result, err := store.PGBenchDocs(tid, 1, 1, s, mustReport(b, s))
	if err != nil {
		b.Fatal(err)
	}
	versions := func() int {
		var v []int
		if err := store.Scan(context.Background(), db, &v, "SELECT coalesce(sum(version), 0) FROM sheets WHERE tournament_id = ? AND round_no = 1 AND table_no <= 32", tid); err != nil {
			b.Fatal(err)
		}
		return v[0]
	}
	before := versions()
	script := b.TempDir() + "/pgbench_sheet_write.sql"
	if err := os.WriteFile(script, []byte(store.PGBenchScript()), 0o644); err != nil {
		b.Fatal(err)
	}
	out, err := exec.Command(bin, "-n", "-M", "prepared", "-c", "32", "-j", strconv.Itoa(runtime.NumCPU()), "-T", "5",
		"-f", script, "-D", "tid="+tid, "-D", "nhands="+strconv.Itoa(len(s.Hands)),
		"-D", "sheet="+sheet, "-D", "hands="+hands, "-D", "result="+result, target).CombinedOutput()
	if err != nil {
		b.Logf("pgbench -f: %v\n%s", err, out)
		return 0, false
	}
	m := regexp.MustCompile(`tps = ([0-9.]+)`).FindSubmatch(out)
	if m == nil {
		b.Logf("pgbench -f: no tps in\n%s", out)
		return 0, false
	}
	tps, _ := strconv.ParseFloat(string(m[1]), 64)
	// The script wrote what it claims: every transaction a new version.
	if n := regexp.MustCompile(`number of transactions actually processed: ([0-9]+)`).FindSubmatch(out); n != nil {
		done, _ := strconv.Atoi(string(n[1]))
		if got := versions() - before; got != done {
			b.Errorf("pgbench counted %d transactions, the sheets gained %d versions", done, got)
		}
	}
	return tps, true
}

// BenchmarkPutOpenSheet32Embedded: the same on the embedded database. Goal
// p99 ≤ 100 ms (2.0 s measured before).
func BenchmarkPutOpenSheet32Embedded(b *testing.B) {
	db := dbtest.SQLite(b)
	tr, _ := seatTables(b, db, 256, 1)
	putSheetsP99(b, db, tr.ID, 256)
}

// pgbenchTPS runs pgbench simple-update (-N) for 5 s with 32 clients on a
// scratch database of the test server; ok=false when pgbench or the
// server's URL is not at hand.
func pgbenchTPS(b *testing.B) (float64, bool) {
	url := os.Getenv("DATABASE_URL")
	bin, err := exec.LookPath("pgbench")
	if url == "" || err != nil {
		return 0, false
	}
	scratch := regexp.MustCompile(`/[^/?]*(\?|$)`).ReplaceAllString(url, "/pgbench_scratch$1")
	admin := dbtest.Postgres(b)
	_ = store.Exec(context.Background(), admin, "DROP DATABASE IF EXISTS pgbench_scratch")
	if err := store.Exec(context.Background(), admin, "CREATE DATABASE pgbench_scratch"); err != nil {
		b.Logf("pgbench: %v", err)
		return 0, false
	}
	defer store.Exec(context.Background(), admin, "DROP DATABASE IF EXISTS pgbench_scratch")
	if out, err := exec.Command(bin, "-i", "-q", scratch).CombinedOutput(); err != nil {
		b.Logf("pgbench -i: %v\n%s", err, out)
		return 0, false
	}
	out, err := exec.Command(bin, "-N", "-c", "32", "-j", strconv.Itoa(runtime.NumCPU()), "-T", "5", scratch).CombinedOutput()
	if err != nil {
		b.Logf("pgbench: %v\n%s", err, out)
		return 0, false
	}
	m := regexp.MustCompile(`tps = ([0-9.]+)`).FindSubmatch(out)
	if m == nil {
		return 0, false
	}
	tps, _ := strconv.ParseFloat(string(m[1]), 64)
	return tps, true
}

// benchStandings stores one sheet per table of every round, then measures
// MatchResults + domain.OfficialStandings (what GET standings will cost
// besides HTTP). Goals: 1,000 × 8 ≤ 20 ms, 10,000 × 8 ≤ 150 ms.
func benchStandings(b *testing.B, db *store.DB, entrants, rounds int) {
	ctx := context.Background()
	tables := entrants / 2
	tr, rs := seatTables(b, db, tables, rounds)
	s := fullSheet(b)
	var imported []store.ImportedSheet
	for _, r := range rs {
		for t := 1; t <= tables; t++ {
			imported = append(imported, store.ImportedSheet{Round: r.Number, Table: t, Sheet: s, ReportJSON: mustReport(b, s)})
		}
	}
	for chunk := range slices.Chunk(imported, 4000) {
		if _, _, err := db.SaveImport(ctx, store.Import{TournamentID: tr.ID, Filename: "bench.json", CreatedBy: "bench", SHA256: fmt.Sprintf("%064d", chunk[0].Round*100000+chunk[0].Table)}, chunk, true, benchImportReport); err != nil {
			b.Fatal(err)
		}
	}
	entrantsList, err := db.ListEntrants(ctx, tr.ID)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		results, err := db.MatchResults(ctx, tr.ID, 0)
		if err != nil {
			b.Fatal(err)
		}
		if len(results) != tables*rounds {
			b.Fatalf("%d results, want %d", len(results), tables*rounds)
		}
		st, err := domain.OfficialStandings(domain.OfficialStandingsInput{Tournament: tr, Entrants: entrantsList, Rounds: rs, Results: results})
		if err != nil {
			b.Fatal(err)
		}
		if len(st.Rows) != entrants {
			b.Fatalf("%d rows", len(st.Rows))
		}
	}
}

func BenchmarkStandings1000x8(b *testing.B) {
	benchStandings(b, dbtest.Postgres(b), 1000, 8)
}

func BenchmarkStandings10000x8(b *testing.B) {
	benchStandings(b, dbtest.Postgres(b), 10000, 8)
}

func benchImportReport(store.Import, []store.SheetOutcome) ([]byte, error) {
	return []byte(`{"ok":true}`), nil
}
