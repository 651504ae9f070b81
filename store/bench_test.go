package store_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"segnapunti/store"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// BenchmarkPutSheet: 32 clients entering whole 3-hand sheets at once on
// PostgreSQL, each at its own table (a round of a large tournament being
// keyed in). Goal: ≥ 1,000 sheets/s.
func BenchmarkPutSheet(b *testing.B) {
	db := dbtest.Postgres(b)
	ctx := context.Background()
	tr, err := db.CreateTournament(ctx, tournament())
	if err != nil {
		b.Fatal(err)
	}
	const tables = 256
	var es []domain.Entrant
	for i := 1; i <= 2*tables; i++ {
		es = append(es, domain.Entrant{ID: strconv.Itoa(i), Players: []domain.Player{{Name: fmt.Sprint("Player ", i)}}})
	}
	if err := db.AddEntrants(ctx, tr.ID, es); err != nil {
		b.Fatal(err)
	}
	r := domain.Round{Number: 1, HandsPlanned: 3, Phase: domain.PhaseMitchell}
	for t := 1; t <= tables; t++ {
		r.Tables = append(r.Tables, domain.TableAssignment{Table: t, NS: strconv.Itoa(2*t - 1), EO: strconv.Itoa(2 * t)})
	}
	if err := db.CreateRound(ctx, tr.ID, r); err != nil {
		b.Fatal(err)
	}
	s := fullSheet(b)
	rep := mustReport(b, s)
	// Warm up: every table has its sheet (later puts replace it, as in a
	// round being keyed in), written by 32 goroutines at once, so the
	// pool's 32 connections are open and each has prepared the statements
	// before the clock starts (the timed loop measured connection set-up
	// when the warm-up was sequential: one connection).
	var wg sync.WaitGroup
	for c := range 32 {
		wg.Go(func() {
			for t := 1 + c; t <= tables; t += 32 {
				if _, err := db.PutSheet(ctx, tr.ID, 1, t, s, rep, 0); err != nil {
					b.Error(err)
				}
			}
		})
	}
	wg.Wait()
	var next atomic.Int64
	b.SetParallelism(max(1, 32/runtime.GOMAXPROCS(0))) // 32 goroutines
	cpuBefore := cpuTime(b, db)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		table := int(next.Add(1)-1)%tables + 1
		for pb.Next() {
			if _, err := db.PutSheet(ctx, tr.ID, 1, table, s, rep, 0); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sheets/s")
	// The machine may be shared: CPU spent per sheet (this process and the
	// PostgreSQL server's processes) says what the sheets cost whatever
	// else runs, and what they would reach on otherwise idle cores.
	if cpu := cpuTime(b, db) - cpuBefore; cpu > 0 {
		perSheet := cpu / time.Duration(b.N)
		b.ReportMetric(float64(perSheet.Microseconds()), "cpu-µs/sheet")
		b.ReportMetric(float64(runtime.NumCPU())*float64(time.Second)/float64(perSheet), "sheets/s-if-idle")
	}
}

// cpuTime is the CPU time used so far by this process and by the
// PostgreSQL server's processes that are alive now (Linux /proc; 0 if it
// cannot be read, e.g. a server on another machine).
func cpuTime(b *testing.B, db *store.DB) time.Duration {
	var pids []int
	if err := store.Scan(context.Background(), db, &pids, "SELECT pid FROM pg_stat_activity"); err != nil {
		b.Fatal(err)
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	total := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	for _, pid := range pids {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return 0
		}
		// Fields after the command (which is in parentheses): utime is
		// the 12th, stime the 13th, in clock ticks of 1/100 s.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		for _, f := range fields[11:13] {
			ticks, _ := strconv.ParseInt(f, 10, 64)
			total += time.Duration(ticks) * 10 * time.Millisecond
		}
	}
	return total
}
