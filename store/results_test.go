package store_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// fullSheet's result: the hands give NS 935 (late points in), EO 820, MP
// ±115, fitab-3 11-9; the sheet says 1450 / 1150, ±300, 13-7. The written
// result counts (RULES §8), the difference is a sum error.
var fullSheetOfficial = [2]domain.LineResult{{Total: 1450, MP: 300, VP: 13}, {Total: 1150, MP: -300, VP: 7}}
var fullSheetComputed = [2]domain.LineResult{{Total: 935, MP: 115, VP: 11}, {Total: 820, MP: -115, VP: 9}}

func oneResult(t *testing.T, db *store.DB, tid string, afterRound int) domain.TableResult {
	t.Helper()
	rs, err := db.MatchResults(context.Background(), tid, afterRound)
	wantErr(t, err, nil)
	seatedAgrees(t, db, tid, afterRound, rs)
	if len(rs) != 1 {
		t.Fatalf("MatchResults = %+v, want one result", rs)
	}
	return rs[0]
}

// RULES §8: a stored sheet's result is its written result, with the
// computed one beside it and the kind of error between them, credited to
// the entrants the round seats at the table.
func TestMatchResultsWrittenWithTheSheet_S8(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		rs, err := db.MatchResults(ctx, tid, 0)
		wantErr(t, err, nil)
		if len(rs) != 0 {
			t.Fatalf("results before any sheet: %+v", rs)
		}
		s := fullSheet(t)
		s.Sides[domain.NS].ID, s.Sides[domain.EO].ID = "99", "98" // the ids written on the sheet do not count
		_, err = db.PutOpenSheet(ctx, tid, 1, 1, s, mustReport(t, s), 0)
		wantErr(t, err, nil)
		got := oneResult(t, db, tid, 0)
		want := domain.TableResult{Round: 1, Table: 1, NS: "1", EO: "2", Official: fullSheetOfficial, Computed: fullSheetComputed,
			Differs: true, Kind: domain.CorrectionSum}
		if got != want {
			t.Errorf("result = %+v\nwant %+v", got, want)
		}
		if rs, _ := db.MatchResults(ctx, tid, 0); len(rs) != 1 {
			t.Errorf("a second read differs: %+v", rs)
		}

		// A sheet written again replaces its result.
		s.Written = [2]domain.WrittenResult{}
		_, err = db.PutSheet(ctx, tid, 1, 1, s, mustReport(t, s), 0)
		wantErr(t, err, nil)
		got = oneResult(t, db, tid, 0)
		if got.Official != fullSheetComputed || got.Differs || got.Kind != "" {
			t.Errorf("nothing written: result %+v, want the computed one, not differing", got)
		}
	})
}

// RULES §8, §9: only an applied correction changes the official result.
func TestMatchResultsChangedByAppliedCorrection_S9(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		_, err := db.PutSheet(ctx, tid, 1, 1, fullSheet(t), mustReport(t, fullSheet(t)), 0)
		wantErr(t, err, nil)
		_, err = db.CorrectSheet(ctx, tid, 1, 1, 0, decideWith(domain.RulingReject, 0))
		wantErr(t, err, nil)
		if got := oneResult(t, db, tid, 0); got.Official != fullSheetOfficial {
			t.Errorf("a rejected correction changed the official result: %+v", got.Official)
		}
		// The correction sets the NS written total to 1250: the written MP
		// and VP still stand as written (only they were not corrected).
		_, err = db.CorrectSheet(ctx, tid, 1, 1, 0, decideWith(domain.RulingApply, 1250))
		wantErr(t, err, nil)
		got := oneResult(t, db, tid, 0)
		if got.Official[domain.NS].Total != 1250 || got.Official[domain.NS].VP != 13 {
			t.Errorf("after the correction: %+v, want NS total 1250 and the written 13 VP", got.Official)
		}
	})
}

// A sheet entered hand by hand has a result after every hand.
func TestMatchResultsAfterAppendHand(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		empty := domain.Sheet{Ruleset: domain.FITAB2025, HandsPlanned: 3}
		h := domain.Hand{Lines: [2]domain.LineScore{{Base: 300, Points: 235}, {Base: 100, Points: -120}}}
		_, _, err := db.AppendHand(ctx, tid, 1, 2, empty, h, "", report)
		wantErr(t, err, nil)
		got := oneResult(t, db, tid, 0)
		if got.NS != "3" || got.EO != "4" || got.Official[domain.NS].MP != 555 {
			t.Errorf("after hand 1: %+v, want 3 v 4, NS +555", got)
		}
		h.Lines[domain.NS].Total = domain.Int(100) // a written hand total counts (RULES §8)
		_, _, err = db.AppendHand(ctx, tid, 1, 2, empty, h, "", report)
		wantErr(t, err, nil)
		got = oneResult(t, db, tid, 0)
		if got.Official[domain.NS].Total != 535+100 || got.Computed[domain.NS].Total != 1070 || got.Kind != domain.CorrectionSum {
			t.Errorf("after hand 2: %+v", got)
		}
	})
}

func TestMatchResultsAfterRound(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		r := domain.Round{Number: 2, HandsPlanned: 3, Phase: domain.PhaseMitchell, Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "3"}}}
		wantErr(t, db.CreateRound(ctx, tid, r), nil)
		for round := 1; round <= 2; round++ {
			_, err := db.PutSheet(ctx, tid, round, 1, minimalSheet(), mustReport(t, minimalSheet()), 0)
			wantErr(t, err, nil)
		}
		if got := oneResult(t, db, tid, 1); got.Round != 1 {
			t.Errorf("after round 1: %+v", got)
		}
		rs, err := db.MatchResults(ctx, tid, 0)
		wantErr(t, err, nil)
		seatedAgrees(t, db, tid, 0, rs)
		if len(rs) != 2 || rs[1].NS != "1" || rs[1].EO != "3" {
			t.Errorf("every round: %+v", rs)
		}
		_, err = db.MatchResults(ctx, tid, -1)
		wantErr(t, err, domain.ErrInvalid)
	})
}

// threeSheets is a fresh database (its dsn, open) with the tournament of
// setup and fullSheet stored at tables 1–3 of round 1.
func threeSheets(t *testing.T, dialect string) (string, *store.DB, string) {
	t.Helper()
	dsn := emptyDSN(t, dialect)
	db := open(t, dsn)
	tid := setup(t, db)
	for table := 1; table <= 3; table++ {
		_, err := db.PutSheet(context.Background(), tid, 1, table, fullSheet(t), mustReport(t, fullSheet(t)), 0)
		wantErr(t, err, nil)
	}
	return dsn, db, tid
}

// Migration 00005 cannot compute results; Open recomputes those missing or
// stale, and a second Open finds nothing to do.
func TestOpenBackfillsMatchResults(t *testing.T) {
	t.Parallel()
	for _, dialect := range []string{store.DialectPostgres, store.DialectSQLite} {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			dsn, db, tid := threeSheets(t, dialect)
			// Migration 00022: the results are columns of the sheet row,
			// match_results a read-only view of them.
			if err := store.Exec(ctx, db, "DELETE FROM match_results"); err == nil {
				t.Fatal("a DELETE through the view match_results was taken")
			}
			wantErr(t, store.Exec(ctx, db, `UPDATE sheets SET res_version = NULL, res_ns_total = NULL, res_ns_mp = NULL, res_ns_vp = NULL,
				res_eo_total = NULL, res_eo_mp = NULL, res_eo_vp = NULL, res_computed_ns_total = NULL, res_computed_ns_mp = NULL,
				res_computed_ns_vp = NULL, res_computed_eo_total = NULL, res_computed_eo_mp = NULL, res_computed_eo_vp = NULL,
				res_differs = NULL, res_kind = NULL WHERE table_no <> 2`), nil)
			wantErr(t, store.Exec(ctx, db, "UPDATE sheets SET res_version = 7, res_ns_vp = 0 WHERE res_version IS NOT NULL"), nil)
			db.Close()

			db = open(t, dsn)
			rs, err := db.MatchResults(ctx, tid, 0)
			wantErr(t, err, nil)
			if len(rs) != 3 {
				t.Fatalf("after reopening: %d results, want 3", len(rs))
			}
			for _, r := range rs {
				if r.Official != fullSheetOfficial || r.Computed != fullSheetComputed {
					t.Errorf("table %d: %+v", r.Table, r)
				}
			}
		})
	}
}

// The standings stamp changes with every sheet write and state change, and
// the cache recomputes only then.
func TestStandingsStampAndCache(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		var cache store.StandingsCache[int]
		computed := 0
		get := func() int {
			t.Helper()
			st, err := db.StandingsStamp(ctx, tid)
			wantErr(t, err, nil)
			v, err := cache.Get(tid, 0, st, func() (int, error) { computed++; return computed, nil })
			wantErr(t, err, nil)
			return v
		}
		if get() != 1 || get() != 1 {
			t.Fatal("an unchanged tournament was recomputed")
		}
		_, err := db.PutSheet(ctx, tid, 1, 1, minimalSheet(), mustReport(t, minimalSheet()), 0)
		wantErr(t, err, nil)
		if get() != 2 {
			t.Error("a new sheet did not change the stamp")
		}
		_, err = db.PutSheet(ctx, tid, 1, 1, minimalSheet(), mustReport(t, minimalSheet()), 0)
		wantErr(t, err, nil)
		if get() != 3 {
			t.Error("a rewritten sheet did not change the stamp")
		}
		// Fill the facts cache, then change the state.
		_, err = db.GetTournament(ctx, tid)
		wantErr(t, err, nil)
		if r, err := db.GetRoundTable(ctx, tid, 1, 1); err != nil || r.State != domain.RoundPlaying {
			t.Fatalf("GetRoundTable before the state change: %v %v", r.State, err)
		}
		wantErr(t, db.SetRoundState(ctx, tid, 1, domain.RoundPlaying, domain.RoundSheetsDelivered), nil)
		if get() != 4 {
			t.Error("a round state change did not change the stamp")
		}
		// The facts cache follows the state change at once (RULES §10).
		r, err := db.GetRoundTable(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if r.State != domain.RoundSheetsDelivered {
			t.Errorf("GetRoundTable after the state change: %s", r.State)
		}
		_, err = db.PutOpenSheet(ctx, tid, 1, 1, minimalSheet(), mustReport(t, minimalSheet()), 0)
		wantErr(t, err, store.ErrRoundClosed)
		if _, err := db.StandingsStamp(ctx, "nope"); err == nil {
			t.Error("stamp of an unknown tournament")
		}
	})
}

// seatedAgrees: MatchResultsSeated with the rounds as ListRounds gives
// them reads exactly what MatchResults (the join) reads.
func seatedAgrees(t *testing.T, db *store.DB, tid string, afterRound int, want []domain.TableResult) {
	t.Helper()
	rounds, err := db.ListRounds(context.Background(), tid)
	wantErr(t, err, nil)
	got, err := db.MatchResultsSeated(context.Background(), tid, afterRound, rounds)
	wantErr(t, err, nil)
	if !slices.Equal(got, want) {
		t.Errorf("MatchResultsSeated = %+v\nMatchResults       = %+v", got, want)
	}
}

// MatchResultsSeated puts the rows in round and table order itself (its
// PostgreSQL query has no ORDER BY) and sends a computed figure only
// where it differs from the official one: over three rounds of sheets
// written out of order, some rewritten (their rows move) and one
// corrected, it reads exactly what the join reads, at every after_round;
// a round the caller does not pass is left out.
func TestMatchResultsSeatedOrderAndFigures(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tr, err := db.CreateTournament(ctx, tournament())
		wantErr(t, err, nil)
		const tables = 12
		var es []domain.Entrant
		for i := 1; i <= 2*tables; i++ {
			es = append(es, domain.Entrant{ID: strconv.Itoa(i), Players: []domain.Player{{Name: fmt.Sprint("Player ", i)}}})
		}
		wantErr(t, db.AddEntrants(ctx, tr.ID, es), nil)
		for n := 1; n <= 3; n++ {
			r := domain.Round{Number: n, HandsPlanned: 3, Phase: domain.PhaseMitchell}
			for tb := 1; tb <= tables; tb++ {
				r.Tables = append(r.Tables, domain.TableAssignment{Table: tb, NS: strconv.Itoa(tb), EO: strconv.Itoa(tables + 1 + (tb+n)%tables)})
			}
			wantErr(t, db.CreateRound(ctx, tr.ID, r), nil)
		}
		// Totals written 1000 and 840 where the hands give 120 and -40:
		// the same MP (160) and VP, so nothing differs (no kind), yet the
		// computed totals are not the official ones.
		shifted := minimalSheet()
		shifted.Written = [2]domain.WrittenResult{{Total: domain.Int(1000)}, {Total: domain.Int(840)}}
		sheetFor := func(round, table int) domain.Sheet {
			switch (round*tables + table) % 3 {
			case 0:
				return fullSheet(t) // a sum error: the written result counts
			case 1:
				return shifted
			}
			return minimalSheet()
		}
		for i := range 3 * tables {
			k := (i * 7) % (3 * tables) // every sheet once, out of order
			round, table := 3-k/tables, 1+k%tables
			_, err := db.PutSheet(ctx, tr.ID, round, table, sheetFor(round, table), mustReport(t, minimalSheet()), 0)
			wantErr(t, err, nil)
		}
		for _, k := range [][2]int{{1, 5}, {2, 1}, {3, 12}} { // rewritten: version 2, a new row version
			s := sheetFor(k[0], k[1]+1)
			_, err := db.PutSheet(ctx, tr.ID, k[0], k[1], s, mustReport(t, s), 0)
			wantErr(t, err, nil)
		}
		_, err = db.CorrectSheet(ctx, tr.ID, 2, 3, 0, decideWith(domain.RulingApply, 1250))
		wantErr(t, err, nil)

		for after := range 4 {
			rs, err := db.MatchResults(ctx, tr.ID, after)
			wantErr(t, err, nil)
			want := tables * after
			if after == 0 {
				want = 3 * tables
			}
			if len(rs) != want {
				t.Fatalf("after round %d: %d results", after, len(rs))
			}
			seatedAgrees(t, db, tr.ID, after, rs)
		}
		all, err := db.MatchResults(ctx, tr.ID, 0)
		wantErr(t, err, nil)
		var sameMP, differing int
		for _, r := range all {
			if !r.Differs && r.Official != r.Computed {
				sameMP++
			}
			if r.Differs {
				differing++
			}
		}
		if sameMP == 0 || differing == 0 {
			t.Errorf("%d results with other computed totals and %d differing: the case is not covered", sameMP, differing)
		}

		rounds, err := db.ListRounds(ctx, tr.ID)
		wantErr(t, err, nil)
		// Round by round: the rounds asked for, and the stamp's parts.
		in, err := db.MatchResultsSeatedIn(ctx, tr.ID, []int{3, 1}, rounds)
		wantErr(t, err, nil)
		if want := slices.DeleteFunc(slices.Clone(all), func(r domain.TableResult) bool { return r.Round == 2 }); !slices.Equal(in, want) {
			t.Errorf("rounds 3 and 1: %+v\nwant %+v", in, want)
		}
		stamp, err := db.StandingsStamp(ctx, tr.ID)
		wantErr(t, err, nil)
		stamp2, byRound, err := db.StandingsStampByRound(ctx, tr.ID)
		wantErr(t, err, nil)
		// 12 sheets a round at version 1; rewritten: one of each round;
		// corrected: one of round 2.
		wantRounds := map[int]store.RoundStamp{1: {12, 13}, 2: {12, 14}, 3: {12, 13}}
		if stamp2 != stamp || !maps.Equal(byRound, wantRounds) {
			t.Errorf("StandingsStampByRound = %q %v, want %q %v", stamp2, byRound, stamp, wantRounds)
		}
		if _, _, err := db.StandingsStampByRound(ctx, "nope"); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("unknown tournament: %v", err)
		}
		empty, err := db.CreateTournament(ctx, tournament())
		wantErr(t, err, nil)
		stamp, err = db.StandingsStamp(ctx, empty.ID)
		wantErr(t, err, nil)
		if stamp2, byRound, err := db.StandingsStampByRound(ctx, empty.ID); err != nil || stamp2 != stamp || len(byRound) != 0 {
			t.Errorf("no results: %q %v %v, want %q", stamp2, byRound, err, stamp)
		}
		got, err := db.MatchResultsSeated(ctx, tr.ID, 0, slices.Delete(slices.Clone(rounds), 1, 2))
		wantErr(t, err, nil)
		want := slices.DeleteFunc(slices.Clone(all), func(r domain.TableResult) bool { return r.Round == 2 })
		if !slices.Equal(got, want) {
			t.Errorf("without round 2: %+v\nwant %+v", got, want)
		}
	})
}
