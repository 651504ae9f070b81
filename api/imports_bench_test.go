package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// The goal: a workbook of 1,000 matches (3,000 hand rows) is read,
// checked against the tournament, validated and stored in PostgreSQL in at
// most 2.5 times what excelize alone takes to open it and stream its rows
// (BenchmarkImportBareExcelizeRows), within 200 MB of peak RSS. Run each
// benchmark in its own process so that peak-rss-MB is its own:
//
//	go test ./api -run '^$' -bench 'BenchmarkImportWorkbook$' -benchtime 10x
//	go test ./api -run '^$' -bench 'BenchmarkImportBareExcelizeRows$' -benchtime 10x

const (
	benchImportMatches = 1000
	benchImportTables  = 50 // per round: 20 rounds of 50 tables
)

// benchImportSeats seats match m at round m/50+1, table m%50+1, pairs
// 2t-1 v 2t.
func benchImportSeats() []genMatch {
	ms := make([]genMatch, benchImportMatches)
	for m := range ms {
		table := m%benchImportTables + 1
		ms[m] = genMatch{seating: seating{m/benchImportTables + 1, table, strconv.Itoa(2*table - 1), strconv.Itoa(2 * table)}}
	}
	return ms
}

var (
	benchImportOnce sync.Once
	benchImportData []byte
)

func benchImportWorkbook(b *testing.B) []byte {
	benchImportOnce.Do(func() { benchImportData = tidyWorkbook(b, domain.FITAB2025, 3, benchImportSeats(), nil) })
	return benchImportData
}

// benchImportTournament enters the tournament the workbook belongs to.
func benchImportTournament(b *testing.B, db *store.DB) domain.Tournament {
	ctx := context.Background()
	t, err := db.CreateTournament(ctx, domain.Tournament{Name: "Benchmark", Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC),
		Level: domain.LevelClub, Ruleset: domain.FITAB2025, Kind: domain.KindPairs, RoundsPlanned: 20, HandsPerRound: 3})
	if err != nil {
		b.Fatal(err)
	}
	var es []domain.Entrant
	for i := 1; i <= 2*benchImportTables; i++ {
		es = append(es, domain.Entrant{ID: strconv.Itoa(i), Players: []domain.Player{{Name: "A"}, {Name: "B"}}})
	}
	if err := db.AddEntrants(ctx, t.ID, es); err != nil {
		b.Fatal(err)
	}
	for n := 1; n <= benchImportMatches/benchImportTables; n++ {
		r := domain.Round{Number: n, HandsPlanned: 3, Phase: domain.PhaseMitchell}
		for table := 1; table <= benchImportTables; table++ {
			r.Tables = append(r.Tables, domain.TableAssignment{Table: table, NS: strconv.Itoa(2*table - 1), EO: strconv.Itoa(2 * table)})
		}
		if err := db.CreateRound(ctx, t.ID, r); err != nil {
			b.Fatal(err)
		}
	}
	return t
}

// BenchmarkImportWorkbook: the whole import of the 1,000-match workbook
// into PostgreSQL — read, fit, validate, report, one transaction writing
// 1,000 sheets and 3,000 hands. The first iteration creates the sheets,
// the next ones replace them (each iteration is a new file to the service:
// its hash is made unique, the bytes are the same).
func BenchmarkImportWorkbook(b *testing.B) {
	data := benchImportWorkbook(b)
	db, raw := benchPostgres(b)
	t := benchImportTournament(b, db)
	ops := app.New(db, nil, nil)
	admin := app.Principal{Role: domain.RoleAdmin, Name: "bench"}
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer reportImportResources(b)()
	defer reportPostgresCPU(b, raw)()
	for i := 0; b.Loop(); i++ {
		h := sha256.New()
		h.Write(data)
		binary.Write(h, binary.LittleEndian, int64(i))
		up := app.Upload{Filename: "bench.xlsx", Data: data, SHA256: hex.EncodeToString(h.Sum(nil))}
		res, err := runImport(ctx, ops, admin, t.ID, up, app.ImportOptions{})
		if err != nil || res.Replayed || len(res.Import.ReportJSON) == 0 {
			b.Fatalf("import: replayed %v, %v", res.Replayed, err)
		}
	}
}

// BenchmarkImportWorkbookReplace: the 1,000-match import replacing every
// sheet each iteration (?replace=true; each replaced sheet is
// compared first and kept in the history). Two workbooks of the same
// tables with other hands (the matches in reverse order draw the same
// random hands in another order) take turns. BenchmarkImportWorkbook's
// iterations after the first upload the same sheets again: unchanged,
// nothing written.
func BenchmarkImportWorkbookReplace(b *testing.B) {
	seats := benchImportSeats()
	reversed := slices.Clone(seats)
	slices.Reverse(reversed)
	books := [2][]byte{benchImportWorkbook(b), tidyWorkbook(b, domain.FITAB2025, 3, reversed, nil)}
	db, raw := benchPostgres(b)
	t := benchImportTournament(b, db)
	ops := app.New(db, nil, nil)
	admin := app.Principal{Role: domain.RoleAdmin, Name: "bench"}
	ctx := context.Background()
	run := func(i int) app.ImportResult {
		data := books[(i+2)%2]
		h := sha256.New()
		h.Write(data)
		binary.Write(h, binary.LittleEndian, int64(i))
		up := app.Upload{Filename: "bench.xlsx", Data: data, SHA256: hex.EncodeToString(h.Sum(nil))}
		res, err := runImport(ctx, ops, admin, t.ID, up, app.ImportOptions{Replace: true})
		if err != nil || res.Replayed {
			b.Fatalf("import: replayed %v, %v", res.Replayed, err)
		}
		return res
	}
	run(-1) // the sheets exist before the clock starts
	b.SetBytes(int64(len(books[0])))
	b.ReportAllocs()
	defer reportImportResources(b)()
	defer reportPostgresCPU(b, raw)()
	for i := 0; b.Loop(); i++ {
		if res := run(i); res.Counts.Replaced < benchImportMatches*9/10 {
			b.Fatalf("iteration %d replaced %d sheets", i, res.Counts.Replaced)
		}
	}
}

// BenchmarkImportUploadHTTP: the same, through the handler: multipart
// body, authentication, hashing. The import row is deleted between
// iterations (untimed) so that the same file is imported again, not
// answered as a repeat.
func BenchmarkImportUploadHTTP(b *testing.B) {
	data := benchImportWorkbook(b)
	db, raw := benchPostgres(b)
	t := benchImportTournament(b, db)
	tok, _, err := db.CreateToken(context.Background(), domain.RoleAdmin, "bench", "")
	if err != nil {
		b.Fatal(err)
	}
	h := NewServer(Config{}, db, slog.New(slog.DiscardHandler))
	body, ct := multipartBody(b, "file", "bench.xlsx", data)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	defer reportImportResources(b)()
	defer reportPostgresCPU(b, raw)()
	b.ResetTimer()
	for range b.N {
		req := httptest.NewRequest(http.MethodPost, importsPath(t.ID), bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			b.Fatalf("%d %.500s", rec.Code, rec.Body)
		}
		b.StopTimer()
		if _, err := raw.Exec(`DELETE FROM imports`); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// benchPostgres is a fresh PostgreSQL database through the store, and a
// plain connection to it for what the store does not do.
func benchPostgres(b *testing.B) (*store.DB, *sql.DB) {
	url := dbtest.PostgresURL(b)
	db, err := store.Open(context.Background(), url, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	raw, err := sql.Open("pgx", url)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { raw.Close() })
	return db, raw
}

// reportPostgresCPU reports the CPU time per operation of the PostgreSQL
// backends serving the benchmark's database (read from /proc: the server
// runs on this machine in tests), so that the cost of a write is counted
// whichever process pays it. Nothing is reported when /proc cannot be read.
func reportPostgresCPU(b *testing.B, raw *sql.DB) func() {
	backends := func() map[int]time.Duration {
		pids := postgresBackends(raw)
		if pids == nil {
			return nil
		}
		out := map[int]time.Duration{}
		for _, pid := range pids {
			t, ok := processCPU(pid)
			if !ok {
				return nil
			}
			out[pid] = t
		}
		return out
	}
	start := backends()
	return func() {
		end := backends()
		if start == nil || end == nil || b.N == 0 {
			return
		}
		var spent time.Duration
		for pid, t := range end {
			spent += t - start[pid] // a backend started meanwhile began at 0
		}
		b.ReportMetric(float64(spent)/float64(b.N), "pg-cpu-ns/op")
	}
}

// postgresBackends is the process ids of the PostgreSQL backends serving
// raw's database, nil when they cannot be listed.
func postgresBackends(raw *sql.DB) []int {
	rows, err := raw.Query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		return nil
	}
	defer rows.Close()
	out := []int{}
	for rows.Next() {
		var pid int
		if rows.Scan(&pid) != nil {
			return nil
		}
		out = append(out, pid)
	}
	return out
}

// processCPU is the user + system CPU time of process pid, read from
// /proc (the PostgreSQL server runs on this machine in tests).
func processCPU(pid int) (time.Duration, bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// Fields 14 and 15 (utime, stime, in clock ticks) follow the command
	// name, which is in parentheses.
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(f) < 13 {
		return 0, false
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond, true // USER_HZ = 100
}

// BenchmarkImportBareExcelizeRows: what excelize alone costs to open the
// same workbook and stream every row of every sheet — the yardstick of the
// goal.
func BenchmarkImportBareExcelizeRows(b *testing.B) {
	data := benchImportWorkbook(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer reportImportResources(b)()
	for b.Loop() {
		f, err := excelize.OpenReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		cells := 0
		for _, s := range f.GetSheetList() {
			rows, err := f.Rows(s)
			if err != nil {
				b.Fatal(err)
			}
			for rows.Next() {
				cols, err := rows.Columns()
				if err != nil {
					b.Fatal(err)
				}
				cells += len(cols)
			}
			rows.Close()
		}
		f.Close()
		if cells < benchImportMatches*3*11 {
			b.Fatalf("%d cells", cells)
		}
	}
}

// reportImportResources reports the process CPU time per operation (user +
// system, GC included: on a shared machine wall time also counts other
// processes) and the process's peak RSS. PostgreSQL's own CPU is not in
// it: the server is another process.
func reportImportResources(b *testing.B) func() {
	usage := func() syscall.Rusage {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return ru
	}
	cpu := func(ru syscall.Rusage) time.Duration { return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()) }
	start := cpu(usage())
	return func() {
		end := usage()
		if b.N > 0 {
			b.ReportMetric(float64(cpu(end)-start)/float64(b.N), "cpu-ns/op")
		}
		b.ReportMetric(float64(end.Maxrss)/1024, "peak-rss-MB") // Linux: kilobytes
	}
}

// runImport runs an upload as the door does: the scope, a slot, the run.
func runImport(ctx context.Context, ops *app.App, p app.Principal, tid string, up app.Upload, opts app.ImportOptions) (app.ImportResult, error) {
	scope, err := ops.TournamentScope(ctx, p, tid, app.TournamentImport)
	if err != nil {
		return app.ImportResult{}, err
	}
	slot, err := ops.ImportSlot(ctx, scope, opts)
	if err != nil {
		return app.ImportResult{}, err
	}
	defer slot.Release()
	return ops.RunImport(ctx, slot, up)
}
