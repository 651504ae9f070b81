package store_test

import (
	"context"
	"regexp"
	"slices"
	"testing"

	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// BenchmarkPGSheetWriteParts: where PostgreSQL's time per sheet goes.
// pgbench replays the service's sheet write (store.PGBenchScript) with 32
// clients, then the same write without some of its parts, each variant
// twice and alternately, on the benchmark's own database (which it
// changes: run it alone). Metrics: each variant's rate as a ratio to the
// whole write's in the same run (tps-<variant>/whole), and the whole's own
// rate. Needs DATABASE_URL and pgbench. Variants:
//
//   - no-history: without the history row of the replaced version
//   - empty-history: the history row with '{}' for the copy (the row
//     itself, its indexes and foreign keys, without building the copy)
//   - no-history-fk: the whole write, the history's foreign key to the
//     tournament dropped (every writer locks that one row FOR KEY SHARE)
//   - no-checks: the whole write, every CHECK of the three tables dropped
//     (after no-history-fk: both dropped)
func BenchmarkPGSheetWriteParts(b *testing.B) {
	db := dbtest.Postgres(b)
	tr, _ := seatTables(b, db, 256, 1)
	whole := store.PGBenchScript()
	noHistory := regexp.MustCompile(`sv AS \(INSERT INTO sheet_versions .*? FROM sheets o JOIN s ON s\.id = o\.id\), `).ReplaceAllString(whole, "")
	copyDoc := regexp.MustCompile(`json_build_object\('row', to_json\(o\), .*?'\[\]'::json\)\)`)
	emptyHistory := copyDoc.ReplaceAllString(whole, "'{}'::json")
	if noHistory == whole || emptyHistory == whole {
		b.Fatal("the history row's statement changed: update the variants")
	}
	ctx := context.Background()
	var tps = map[string][]float64{}
	run := func(variant, script string) {
		store.CloseIdle(db) // pgbench needs 32 connections of its own
		r, ok := pgbenchScriptRun(b, db, tr.ID, script)
		if !ok {
			b.Skip("pgbench or DATABASE_URL not at hand")
		}
		tps[variant] = append(tps[variant], r.tps)
		b.Logf("%-14s %7.1f tps, p50 %5.1f ms, p99 %6.1f ms", variant, r.tps, r.p50, r.p99)
	}
	drop := func(kind string, names ...string) {
		var cons []struct{ Rel, Name string }
		if err := store.Scan(ctx, db, &cons, `SELECT conrelid::regclass::text AS rel, conname AS name FROM pg_constraint
			WHERE contype = ? AND conrelid::regclass::text IN ('sheets', 'sheet_hands', 'sheet_versions')`, kind); err != nil {
			b.Fatal(err)
		}
		for _, c := range cons {
			if len(names) > 0 && !slices.Contains(names, c.Name) {
				continue
			}
			if err := store.Exec(ctx, db, "ALTER TABLE "+c.Rel+" DROP CONSTRAINT "+c.Name); err != nil {
				b.Fatal(err)
			}
		}
	}
	// Once per call, not per b.Loop iteration: the variants drop the
	// constraints of this call's own database, so a second pass on it
	// would measure the "whole" write without them.
	for range 2 {
		run("whole", whole)
		run("no-history", noHistory)
		run("empty-history", emptyHistory)
	}
	drop("f", "sheet_versions_tournament_id_fkey")
	for range 2 {
		run("no-history-fk", whole)
	}
	drop("c")
	for range 2 {
		run("no-checks", whole)
	}
	mean := func(v []float64) float64 {
		sum := 0.0
		for _, x := range v {
			sum += x
		}
		return sum / float64(len(v))
	}
	base := mean(tps["whole"])
	b.ReportMetric(base, "tps-whole")
	for _, v := range []string{"no-history", "empty-history", "no-history-fk", "no-checks"} {
		b.ReportMetric(mean(tps[v])/base, "tps-"+v+"/whole")
	}
}
