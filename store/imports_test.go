package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// importedSheet is a sheet of round 1 of setup's tournament at table, with
// the given number of hands.
func importedSheet(t testing.TB, table, hands int) store.ImportedSheet {
	t.Helper()
	s := domain.Sheet{Ruleset: domain.FITAB2025, HandsPlanned: 3, Kind: domain.KindPairs, Round: 1, Table: table,
		Sides: [2]domain.Side{{ID: fmt.Sprint(2*table - 1)}, {ID: fmt.Sprint(2 * table)}},
		Cells: map[string]string{"/round": "Smazzate!A2"}}
	for h := range hands {
		s.Hands = append(s.Hands, domain.Hand{Lines: [2]domain.LineScore{{Base: 100 * h, Points: 15}, {Base: 0, Points: -40}}})
	}
	return store.ImportedSheet{Round: 1, Table: table, Sheet: s, ReportJSON: mustReport(t, s)}
}

// reportOf is an import report naming what SaveImport passed in.
func reportOf(calls *int) store.ImportReport {
	return func(imp store.Import, outcomes []store.SheetOutcome) ([]byte, error) {
		*calls++
		versions := make([]int, len(outcomes))
		for i, o := range outcomes {
			versions[i] = o.Version
		}
		return json.Marshal(map[string]any{"id": imp.ID, "sha256": imp.SHA256, "versions": versions})
	}
}

// rowCounts counts what an import writes.
func rowCounts(t *testing.T, db *store.DB) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"sheets", "sheet_hands", "imports"} {
		var n []int
		if err := store.Scan(context.Background(), db, &n, "SELECT count(*) FROM "+table); err != nil {
			t.Fatal(err)
		}
		out[table] = n[0]
	}
	return out
}

// API §4: an upload creates or replaces each sheet (the version goes up as
// with PUT) and is recorded once, with the report built from the versions.
func TestSaveImportCreatesAndReplaces(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		calls := 0
		imp := store.Import{TournamentID: tid, SHA256: hashOf("first"), Filename: "turno1.xlsx", CreatedBy: "Segreteria"}
		// Given out of table order: versions come back in the caller's order.
		first := []store.ImportedSheet{importedSheet(t, 2, 3), importedSheet(t, 1, 2)}
		got, replayed, err := db.SaveImport(ctx, imp, first, true, reportOf(&calls))
		wantErr(t, err, nil)
		if replayed || calls != 1 || got.ID <= 0 || got.CreatedAt.IsZero() {
			t.Fatalf("replayed %v, %d report calls, import %+v", replayed, calls, got)
		}
		wantReport := fmt.Sprintf(`{"id":%d,"sha256":"%s","versions":[1,1]}`, got.ID, imp.SHA256)
		if string(got.ReportJSON) != wantReport {
			t.Errorf("report %s, want %s", got.ReportJSON, wantReport)
		}
		back, err := db.GetImport(ctx, got.ID)
		wantErr(t, err, nil)
		if diff := cmp.Diff(got, back); diff != "" {
			t.Errorf("GetImport (-saved +read):\n%s", diff)
		}
		st, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if st.Version != 1 || len(st.Sheet.Hands) != 2 || st.Sheet.Cells["/round"] != "Smazzate!A2" {
			t.Errorf("table 1: version %d, %d hands, cells %v", st.Version, len(st.Sheet.Hands), st.Sheet.Cells)
		}

		// A second workbook replaces table 1 (3 hands instead of 2: the
		// hands are replaced, not added to) and creates table 3.
		imp2 := imp
		imp2.SHA256 = hashOf("second")
		got2, replayed, err := db.SaveImport(ctx, imp2, []store.ImportedSheet{importedSheet(t, 1, 3), importedSheet(t, 3, 1)}, true, reportOf(&calls))
		wantErr(t, err, nil)
		if replayed || got2.ID == got.ID || !json.Valid(got2.ReportJSON) {
			t.Fatalf("second import: replayed %v, %+v", replayed, got2)
		}
		if want := fmt.Sprintf(`{"id":%d,"sha256":"%s","versions":[2,1]}`, got2.ID, imp2.SHA256); string(got2.ReportJSON) != want {
			t.Errorf("report %s, want %s", got2.ReportJSON, want)
		}
		st, err = db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if st.Version != 2 || len(st.Sheet.Hands) != 3 {
			t.Errorf("table 1 after replace: version %d, %d hands", st.Version, len(st.Sheet.Hands))
		}
		if c := rowCounts(t, db); c["sheets"] != 3 || c["sheet_hands"] != 3+3+1 || c["imports"] != 2 {
			t.Errorf("rows %v", c)
		}
	})
}

// API §4: "the same file twice is recognised and not stored twice" — the
// second save writes nothing and answers the first import.
func TestSaveImportSameContentIsReplayed(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		calls := 0
		imp := store.Import{TournamentID: tid, SHA256: hashOf("same"), Filename: "a.xlsx", CreatedBy: "Segreteria"}
		first, _, err := db.SaveImport(ctx, imp, []store.ImportedSheet{importedSheet(t, 1, 3)}, true, reportOf(&calls))
		wantErr(t, err, nil)
		before := rowCounts(t, db)
		imp.Filename = "copy of a.xlsx"
		again, replayed, err := db.SaveImport(ctx, imp, []store.ImportedSheet{importedSheet(t, 1, 1), importedSheet(t, 2, 2)}, true, reportOf(&calls))
		wantErr(t, err, nil)
		if !replayed || calls != 1 {
			t.Errorf("replayed %v, report built %d times", replayed, calls)
		}
		if diff := cmp.Diff(first, again); diff != "" {
			t.Errorf("replay (-first +again):\n%s", diff)
		}
		if diff := cmp.Diff(before, rowCounts(t, db)); diff != "" {
			t.Errorf("the replay wrote rows (-before +after):\n%s", diff)
		}
		// Another tournament may hold the same file.
		other, err := db.CreateTournament(ctx, tournament())
		wantErr(t, err, nil)
		_, replayed, err = db.SaveImport(ctx, store.Import{TournamentID: other.ID, SHA256: imp.SHA256, CreatedBy: "x"}, nil, true, reportOf(&calls))
		wantErr(t, err, nil)
		if replayed {
			t.Error("the hash is unique per tournament, not across tournaments")
		}
	})
}

// Two uploads of the same file at once: one is stored, the other answers
// it (the loser of the unique key race reads the winner's import).
func TestSaveImportConcurrentSameContent(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		const n = 4
		var wg sync.WaitGroup
		ids := make([]int64, n)
		replays := make([]bool, n)
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				calls := 0
				imp := store.Import{TournamentID: tid, SHA256: hashOf("race"), Filename: "r.xlsx", CreatedBy: "c"}
				got, replayed, err := db.SaveImport(ctx, imp, []store.ImportedSheet{importedSheet(t, 1, 3), importedSheet(t, 2, 3)}, true, reportOf(&calls))
				ids[i], replays[i], errs[i] = got.ID, replayed, err
			})
		}
		wg.Wait()
		stored := 0
		for i := range n {
			wantErr(t, errs[i], nil)
			if ids[i] != ids[0] {
				t.Errorf("upload %d answered import %d, upload 0 import %d", i, ids[i], ids[0])
			}
			if !replays[i] {
				stored++
			}
		}
		if stored != 1 {
			t.Errorf("%d uploads stored, want 1", stored)
		}
		if c := rowCounts(t, db); c["imports"] != 1 || c["sheets"] != 2 || c["sheet_hands"] != 6 {
			t.Errorf("rows %v", c)
		}
		st, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if st.Version != 1 {
			t.Errorf("table 1 written %d times", st.Version)
		}
	})
}

// The whole workbook or nothing: a failure at any step — a table the round
// lacks, a value the schema refuses, the report, a round delivered — rolls
// back every sheet, every hand and the import row.
func TestSaveImportAllOrNothing(t *testing.T) {
	t.Parallel()
	errReport := errors.New("report failed")
	badRuleset := importedSheet(t, 3, 2)
	badRuleset.Sheet.Ruleset = "bogus"
	cases := []struct {
		name    string
		sheets  []store.ImportedSheet
		report  store.ImportReport
		deliver bool
		want    error
	}{
		{"a table the round does not have", []store.ImportedSheet{importedSheet(t, 1, 3), importedSheet(t, 9, 3)}, nil, false, domain.ErrNotFound},
		{"a value the schema refuses, after good sheets", []store.ImportedSheet{importedSheet(t, 1, 3), importedSheet(t, 2, 3), badRuleset}, nil, false, domain.ErrInvalid},
		{"the report fails after every row is written", []store.ImportedSheet{importedSheet(t, 1, 3), importedSheet(t, 2, 3)},
			func(store.Import, []store.SheetOutcome) ([]byte, error) { return nil, errReport }, false, errReport},
		{"the report is not JSON", []store.ImportedSheet{importedSheet(t, 1, 3)},
			func(store.Import, []store.SheetOutcome) ([]byte, error) { return []byte("{"), nil }, false, domain.ErrInvalid},
		{"RULES §10 FITAB art. 20: a delivered round takes no sheet", []store.ImportedSheet{importedSheet(t, 1, 3)}, nil, true, store.ErrRoundClosed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dbtest.Run(t, func(t *testing.T, db *store.DB) {
				ctx := context.Background()
				tid := setup(t, db)
				// Table 4 holds a sheet already: a failed import must not
				// touch it either.
				_, err := db.PutSheet(ctx, tid, 1, 4, importedSheet(t, 4, 2).Sheet, []byte(`{}`), 0)
				wantErr(t, err, nil)
				if tc.deliver {
					wantErr(t, db.SetRoundState(ctx, tid, 1, domain.RoundPlaying, domain.RoundSheetsDelivered), nil)
				}
				before := rowCounts(t, db)
				report := tc.report
				calls := 0
				if report == nil {
					report = reportOf(&calls)
				}
				sheets := append(tc.sheets, importedSheet(t, 4, 3))
				_, _, err = db.SaveImport(ctx, store.Import{TournamentID: tid, SHA256: hashOf(tc.name), CreatedBy: "c"}, sheets, true, report)
				wantErr(t, err, tc.want)
				if diff := cmp.Diff(before, rowCounts(t, db)); diff != "" {
					t.Errorf("rows changed (-before +after):\n%s", diff)
				}
				st, err := db.GetSheet(ctx, tid, 1, 4)
				wantErr(t, err, nil)
				if st.Version != 1 || len(st.Sheet.Hands) != 2 {
					t.Errorf("table 4 changed: version %d, %d hands", st.Version, len(st.Sheet.Hands))
				}
			})
		})
	}
}

func TestSaveImportRefusesBadInput(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		calls := 0
		for _, sum := range []string{"", "abc", hashOf("x")[:63] + "G", "AB" + hashOf("x")[2:]} {
			_, _, err := db.SaveImport(ctx, store.Import{TournamentID: tid, SHA256: sum, CreatedBy: "c"}, nil, true, reportOf(&calls))
			wantErr(t, err, domain.ErrInvalid)
		}
		twice := []store.ImportedSheet{importedSheet(t, 1, 3), importedSheet(t, 1, 2)}
		_, _, err := db.SaveImport(ctx, store.Import{TournamentID: tid, SHA256: hashOf("twice"), CreatedBy: "c"}, twice, true, reportOf(&calls))
		wantErr(t, err, domain.ErrInvalid)
		_, _, err = db.SaveImport(ctx, store.Import{TournamentID: "t_none", SHA256: hashOf("none"), CreatedBy: "c"}, nil, true, reportOf(&calls))
		wantErr(t, err, domain.ErrNotFound)
		_, err = db.GetImport(ctx, 12345)
		wantErr(t, err, domain.ErrNotFound)
		_, err = db.FindImport(ctx, tid, hashOf("never"))
		wantErr(t, err, domain.ErrNotFound)
		if c := rowCounts(t, db); c["imports"] != 0 || c["sheets"] != 0 {
			t.Errorf("rows %v", c)
		}
	})
}

// API §1: an imported sheet reads back exactly as given, like one PUT:
// every optional field, with columns NULL in some hands and not others
// (the import leaves out of its INSERT the columns NULL in every hand).
func TestSaveImportRoundTrip(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		mixed := importedSheet(t, 2, 3).Sheet
		mixed.Hands[1].Lines[domain.EO].RunningTotal = domain.Int(-40)
		mixed.Hands[2].Lines[domain.NS].Burrachi = map[domain.BurracoType]int{}
		mixed.Hands[0].Lines[domain.NS].Closed = domain.Bool(false)
		want := []domain.Sheet{fullSheet(t), mixed, minimalSheet()}
		// One import each, so that what is left out differs: nothing
		// (the full sheet), most columns (mixed), all of them (minimal).
		var sheets []store.ImportedSheet
		calls := 0
		for i, s := range want {
			is := store.ImportedSheet{Round: 1, Table: i + 1, Sheet: s, ReportJSON: mustReport(t, s)}
			sheets = append(sheets, is)
			_, _, err := db.SaveImport(ctx, store.Import{TournamentID: tid, SHA256: hashOf(fmt.Sprint("round trip ", i)), CreatedBy: "c"}, []store.ImportedSheet{is}, true, reportOf(&calls))
			wantErr(t, err, nil)
		}
		for i, s := range want {
			got, err := db.GetSheet(ctx, tid, 1, i+1)
			wantErr(t, err, nil)
			if diff := cmp.Diff(s, got.Sheet, cmpOpts...); diff != "" {
				t.Errorf("table %d (-imported +read):\n%s", i+1, diff)
			}
			if string(got.ReportJSON) != string(sheets[i].ReportJSON) {
				t.Errorf("table %d: report %s", i+1, got.ReportJSON)
			}
		}
	})
}
