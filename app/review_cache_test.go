package app_test

import (
	"context"
	"maps"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// reviewHand is a closed hand whose NS total is written as total: 535 is
// right (300 + 235), anything else a sum error (FITAB art. 20).
func reviewHand(total int) domain.Hand {
	return domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 235, Total: domain.Int(total)}, {Base: 100, Points: -120}}}
}

// The review queue (UI.md §4) and the round page (UI.md §3) list every stored sheet with an error: a
// hand whose written total is not base plus points is a sum error (FITAB
// art. 20). The queue is kept per tournament state, so every write shows
// at the next read: the error enters, leaves when the sheet is replaced
// by a right one, and enters again when a wrong hand is appended.
func TestReviewAndRoundPagesFollowEveryWrite(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		own, ref := f.who["own club"], f.who["its referee"]
		hand := reviewHand
		sheet := func(total int) func(app.SheetTarget) (domain.Sheet, error) {
			return func(g app.SheetTarget) (domain.Sheet, error) {
				sh := g.EmptySheet()
				sh.Hands = []domain.Hand{hand(total)}
				return sh, nil
			}
		}
		queue := func(when string) []app.ReviewItem {
			t.Helper()
			q, err := f.app.Review(ctx, ref, f.regional)
			if err != nil {
				t.Fatalf("%s: review: %v", when, err)
			}
			return q.Items
		}
		// The round page's table 1: its version and its error count.
		table1 := func(when string) (version, errs int) {
			t.Helper()
			rt, err := f.app.TableStatuses(ctx, own, f.regional, 1)
			if err != nil {
				t.Fatalf("%s: round page: %v", when, err)
			}
			for _, tb := range rt.Tables {
				if tb.Table.Table == 1 {
					return tb.Version, tb.Errors
				}
			}
			t.Fatalf("%s: no table 1", when)
			return 0, 0
		}
		if _, err := putSheet(f.app, ctx, own, f.regional, 1, 1, sheet(600), 0); err != nil {
			t.Fatal(err)
		}
		if items := queue("a wrong total"); len(items) != 1 || items[0].Table != 1 || items[0].Errors == 0 || items[0].Version != 1 {
			t.Errorf("after a wrong total: %+v, want table 1 with an error at version 1", items)
		}
		if v, e := table1("a wrong total"); v != 1 || e == 0 {
			t.Errorf("round page after a wrong total: version %d, %d errors; want 1 and some", v, e)
		}
		if _, err := putSheet(f.app, ctx, own, f.regional, 1, 1, sheet(535), 1); err != nil {
			t.Fatal(err)
		}
		if items := queue("the sheet replaced"); len(items) != 0 {
			t.Errorf("after the right sheet: %+v, want an empty queue", items)
		}
		if v, e := table1("the sheet replaced"); v != 2 || e != 0 {
			t.Errorf("round page after the right sheet: version %d, %d errors; want 2 and none", v, e)
		}
		if _, err := appendHand(f.app, ctx, own, f.regional, 1, 1, func(app.SheetTarget) (domain.Hand, error) { return hand(700), nil }, ""); err != nil {
			t.Fatal(err)
		}
		if items := queue("a wrong hand appended"); len(items) != 1 || items[0].Errors == 0 || items[0].Version != 3 {
			t.Errorf("after a wrong hand: %+v, want table 1 with an error at version 3", items)
		}
		if v, e := table1("a wrong hand appended"); v != 3 || e == 0 {
			t.Errorf("round page after a wrong hand: version %d, %d errors; want 3 and some", v, e)
		}
	})
}

// The review queue's findings of a sheet are those of the report stored
// with it (the report_json column, written with every sheet write): a
// finding the queue shows and the stored report lacks, or the other way
// round, fails. Checked after each kind of write: a sheet put, replaced,
// a hand appended, a referee's correction. (The queue validates the
// sheets again on a cache miss rather than reading the stored reports:
// those carry English messages only and no mark of the engine that made
// them; docs/performance.md.)
func TestReviewFindingsAreTheStoredReports(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		own, ref := f.who["own club"], f.who["its referee"]
		hand := reviewHand
		sheet := func(nsTotal *int, totals ...int) func(app.SheetTarget) (domain.Sheet, error) {
			return func(g app.SheetTarget) (domain.Sheet, error) {
				sh := g.EmptySheet()
				for _, tot := range totals {
					sh.Hands = append(sh.Hands, hand(tot))
				}
				sh.Written[domain.NS].Total = nsTotal
				return sh, nil
			}
		}
		type key struct {
			code, severity, field, pointer, rule, line string
			hand                                       int
		}
		agree := func(when string, table int) {
			t.Helper()
			q, err := f.app.Review(ctx, ref, f.regional)
			if err != nil {
				t.Fatalf("%s: review: %v", when, err)
			}
			shown := map[key]int{}
			for _, it := range q.Items {
				if it.Round != 1 || it.Table != table {
					continue
				}
				for _, fd := range it.Findings {
					k := key{code: string(fd.Code), severity: string(fd.Severity), field: fd.Field, pointer: fd.Pointer, rule: fd.Rule, hand: fd.Hand}
					if fd.Line != nil {
						k.line = fd.Line.String()
					}
					shown[k]++
				}
			}
			st, err := db.GetSheet(ctx, f.regional, 1, table)
			if err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			rep, err := reportjson.Decode(st.ReportJSON)
			if err != nil {
				t.Fatalf("%s: stored report: %v", when, err)
			}
			stored := map[key]int{}
			for _, fd := range rep.Findings {
				if fd.Severity == string(domain.SeverityInfo) {
					continue // the queue lists errors and warnings
				}
				stored[key{code: fd.Code, severity: fd.Severity, field: fd.Field, pointer: fd.Pointer, rule: fd.Rule, hand: fd.Hand, line: fd.Line}]++
			}
			if len(stored) == 0 {
				t.Fatalf("%s: the stored report has no error or warning; the case tests nothing", when)
			}
			if !maps.Equal(shown, stored) {
				t.Errorf("%s: the queue shows %v, the stored report has %v", when, shown, stored)
			}
		}
		if _, err := putSheet(f.app, ctx, own, f.regional, 1, 1, sheet(nil, 600), 0); err != nil {
			t.Fatal(err)
		}
		agree("a wrong hand total", 1)
		if _, err := putSheet(f.app, ctx, own, f.regional, 1, 1, sheet(domain.Int(999), 535), 1); err != nil {
			t.Fatal(err)
		}
		agree("replaced by a wrong written total", 1)
		if _, err := appendHand(f.app, ctx, own, f.regional, 1, 1, func(app.SheetTarget) (domain.Hand, error) { return hand(700), nil }, ""); err != nil {
			t.Fatal(err)
		}
		agree("a wrong hand appended", 1)
		scope, err := f.app.TournamentScope(ctx, ref, f.regional, app.TournamentCorrect)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.CreateCorrection(ctx, scope, app.CorrectionInput{Round: 1, Table: 1, Kind: domain.CorrectionSum, Reason: "NS total re-added",
			Change: app.CorrectedValues{"hands.0.ns.total": nil}}); err != nil {
			t.Fatalf("correction: %v", err)
		}
		agree("a correction of the first hand", 1)
	})
}
