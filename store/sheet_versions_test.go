package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// statuses lists the outcomes' statuses.
func statuses(os []store.SheetOutcome) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = o.Status
	}
	return out
}

// An import into a table that holds a different sheet is refused
// (would_replace) and writes nothing unless replace is asked; an equal
// sheet is unchanged; replace keeps the old sheet in the history.
func TestSaveImportWouldReplace(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		entered := importedSheet(t, 1, 2)
		_, err := db.PutSheet(ctx, tid, 1, 1, entered.Sheet, entered.ReportJSON, 0)
		wantErr(t, err, nil)
		same := importedSheet(t, 2, 1)
		same.Sheet.Cells = nil // entered by hand, uploaded from a workbook: same sheet
		_, err = db.PutSheet(ctx, tid, 1, 2, same.Sheet, same.ReportJSON, 0)
		wantErr(t, err, nil)
		before := rowCounts(t, db)
		sheetBefore, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)

		upload := []store.ImportedSheet{importedSheet(t, 1, 3), importedSheet(t, 2, 1), importedSheet(t, 3, 1)}
		calls := 0
		_, _, err = db.SaveImport(ctx, store.Import{TournamentID: tid, SHA256: hashOf("template"), CreatedBy: "Segreteria"}, upload, false, reportOf(&calls))
		var wr *store.WouldReplaceError
		if !errors.As(err, &wr) || !errors.Is(err, domain.ErrConflict) {
			t.Fatalf("error %v, want a WouldReplaceError", err)
		}
		if diff := cmp.Diff([]string{"would_replace", "unchanged", "created"}, statuses(wr.Outcomes)); diff != "" {
			t.Errorf("statuses (-want +got):\n%s", diff)
		}
		if o := wr.Outcomes[0]; o.Stored == nil || len(o.Stored.Sheet.Hands) != 2 || o.Version != 1 {
			t.Errorf("would_replace outcome %+v", o)
		}
		if calls != 0 {
			t.Errorf("report built %d times for a refused import", calls)
		}
		if diff := cmp.Diff(before, rowCounts(t, db)); diff != "" {
			t.Errorf("a refused import wrote rows (-before +after):\n%s", diff)
		}
		sheetAfter, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if diff := cmp.Diff(sheetBefore, sheetAfter, cmpOpts...); diff != "" {
			t.Errorf("the entered sheet changed (-before +after):\n%s", diff)
		}
		if _, err := db.FindImport(ctx, tid, hashOf("template")); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("a refused import is recorded: %v", err)
		}

		// Asked to replace: table 1 replaced, table 2 untouched, table 3 created.
		var got []store.SheetOutcome
		imp, replayed, err := db.SaveImport(ctx, store.Import{TournamentID: tid, SHA256: hashOf("template"), CreatedBy: "Segreteria"}, upload, true,
			func(imp store.Import, os []store.SheetOutcome) ([]byte, error) { got = os; return []byte(`{}`), nil })
		wantErr(t, err, nil)
		if replayed {
			t.Fatal("replayed")
		}
		if diff := cmp.Diff([]string{"replaced", "unchanged", "created"}, statuses(got)); diff != "" {
			t.Errorf("statuses (-want +got):\n%s", diff)
		}
		if got[0].Version != 2 || got[1].Version != 1 || got[2].Version != 1 {
			t.Errorf("versions %d %d %d", got[0].Version, got[1].Version, got[2].Version)
		}
		if diff := cmp.Diff([]store.ImportSheetRecord{{Round: 1, Table: 1, Status: "replaced", Version: 2}, {Round: 1, Table: 3, Status: "created", Version: 1}}, imp.Sheets); diff != "" {
			t.Errorf("recorded sheets (-want +got):\n%s", diff)
		}
		hist, err := db.SheetHistory(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if len(hist) != 1 || hist[0].Source != store.SourceImport || hist[0].ImportID != imp.ID || hist[0].By != "Segreteria" || hist[0].Version != 1 {
			t.Fatalf("history %+v", hist)
		}
		if diff := cmp.Diff(sheetBefore, hist[0].Stored, cmpOpts...); diff != "" {
			t.Errorf("kept version differs from the replaced sheet (-replaced +kept):\n%s", diff)
		}
		if h, _ := db.SheetHistory(ctx, tid, 1, 2); len(h) != 0 {
			t.Errorf("unchanged table 2 has history %+v", h)
		}
		if st, _ := db.GetSheet(ctx, tid, 1, 2); st.Version != 1 {
			t.Errorf("unchanged table 2 rewritten: version %d", st.Version)
		}
	})
}

// A PUT over a stored sheet and an applied correction keep the
// replaced sheet, exactly, newest first; appending hands does not.
func TestSheetHistoryKeepsReplacedVersions(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		full := fullSheet(t)
		_, err := db.PutOpenSheetBy(ctx, tid, 1, 1, full, mustReport(t, full), 0, "Segreteria")
		wantErr(t, err, nil)
		v1, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		second := importedSheet(t, 1, 1).Sheet
		_, err = db.PutOpenSheetBy(ctx, tid, 1, 1, second, mustReport(t, second), 1, "Mario")
		wantErr(t, err, nil)
		v2, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		// A stale If-Match writes nothing, history included.
		_, err = db.PutOpenSheetBy(ctx, tid, 1, 1, second, mustReport(t, second), 1, "Late")
		if !errors.Is(err, domain.ErrConflict) {
			t.Fatalf("stale put: %v", err)
		}
		// Unconditional PUT replaces too.
		_, err = db.PutOpenSheetBy(ctx, tid, 1, 1, full, mustReport(t, full), 0, "Anna")
		wantErr(t, err, nil)
		hist, err := db.SheetHistory(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if len(hist) != 2 {
			t.Fatalf("history has %d versions, want 2: %+v", len(hist), hist)
		}
		if hist[0].Version != 2 || hist[0].By != "Mario" && hist[0].By != "Anna" || hist[0].Source != store.SourcePut {
			t.Errorf("newest %+v", hist[0])
		}
		if hist[0].By != "Anna" || hist[1].By != "Mario" {
			t.Errorf("actors %q %q, want Anna (replaced v2) then Mario (replaced v1)", hist[0].By, hist[1].By)
		}
		if diff := cmp.Diff(v2, hist[0].Stored, cmpOpts...); diff != "" {
			t.Errorf("version 2 kept (-stored +kept):\n%s", diff)
		}
		if diff := cmp.Diff(v1, hist[1].Stored, cmpOpts...); diff != "" {
			t.Errorf("version 1 kept (-stored +kept):\n%s", diff)
		}
		// A first sheet has no history; hands appended add none.
		empty := importedSheet(t, 2, 0).Sheet
		_, _, err = db.AppendHand(ctx, tid, 1, 2, empty, domain.Hand{Lines: [2]domain.LineScore{{Base: 100, Points: 5}, {Points: -5}}}, "",
			func(s domain.Sheet) ([]byte, error) { return mustReport(t, s), nil })
		wantErr(t, err, nil)
		_, _, err = db.AppendHand(ctx, tid, 1, 2, empty, domain.Hand{Lines: [2]domain.LineScore{{Base: 100, Points: 5}, {Points: -5}}}, "",
			func(s domain.Sheet) ([]byte, error) { return mustReport(t, s), nil })
		wantErr(t, err, nil)
		if h, _ := db.SheetHistory(ctx, tid, 1, 2); len(h) != 0 {
			t.Errorf("appends made history %+v", h)
		}

		// An applied correction (the round delivered).
		wantErr(t, db.SetRoundState(ctx, tid, 1, domain.RoundPlaying, domain.RoundSheetsDelivered), nil)
		v3, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		_, err = db.CorrectSheet(ctx, tid, 1, 1, 0, decideWith(domain.RulingApply, 1450))
		wantErr(t, err, nil)
		hist, err = db.SheetHistory(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if len(hist) != 3 || hist[0].Source != store.SourceCorrection || hist[0].By != "Arbitro Uno" {
			t.Fatalf("after correction: %+v", hist)
		}
		if diff := cmp.Diff(v3, hist[0].Stored, cmpOpts...); diff != "" {
			t.Errorf("corrected version kept (-stored +kept):\n%s", diff)
		}
	})
}

// Undoing an import restores what it replaced, removes what it
// created, keeps the record (undone) and lets the same file in again; a
// sheet changed since, an undone import and a delivered round refuse.
func TestUndoImport(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		entered := importedSheet(t, 1, 2)
		_, err := db.PutSheet(ctx, tid, 1, 1, entered.Sheet, entered.ReportJSON, 0)
		wantErr(t, err, nil)
		before, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		calls := 0
		upload := []store.ImportedSheet{importedSheet(t, 1, 3), importedSheet(t, 3, 1)}
		imp, _, err := db.SaveImport(ctx, store.Import{TournamentID: tid, SHA256: hashOf("undo me"), CreatedBy: "Segreteria"}, upload, true, reportOf(&calls))
		wantErr(t, err, nil)

		if _, err := db.UndoImport(ctx, "t_other", imp.ID, "x"); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("undo through another tournament: %v", err)
		}
		undone, err := db.UndoImport(ctx, tid, imp.ID, "Anna")
		wantErr(t, err, nil)
		if undone.UndoneAt.IsZero() || undone.UndoneBy != "Anna" {
			t.Errorf("undone %+v", undone)
		}
		after, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if after.Version != 3 {
			t.Errorf("restored sheet at version %d, want 3 (versions only go up)", after.Version)
		}
		if diff := cmp.Diff(before.Sheet, after.Sheet, cmpOpts...); diff != "" {
			t.Errorf("restored sheet (-before import +after undo):\n%s", diff)
		}
		if string(after.ReportJSON) != string(before.ReportJSON) {
			t.Errorf("restored report %s, want %s", after.ReportJSON, before.ReportJSON)
		}
		if _, err := db.GetSheet(ctx, tid, 1, 3); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("created sheet still there: %v", err)
		}
		res, err := db.MatchResults(ctx, tid, 1)
		wantErr(t, err, nil)
		if len(res) != 1 || res[0].Table != 1 {
			t.Errorf("results after undo %+v", res)
		}
		hist, _ := db.SheetHistory(ctx, tid, 1, 1)
		if len(hist) != 2 || hist[0].Source != store.SourceUndo || hist[0].ImportID != imp.ID || len(hist[0].Stored.Sheet.Hands) != 3 {
			t.Errorf("history after undo %+v", hist)
		}
		rec, err := db.GetImport(ctx, imp.ID)
		wantErr(t, err, nil)
		if rec.UndoneAt.IsZero() {
			t.Error("the record does not say undone")
		}
		if _, err := db.UndoImport(ctx, tid, imp.ID, "Anna"); !errors.Is(err, store.ErrImportUndone) {
			t.Errorf("second undo: %v", err)
		}
		list, err := db.ListImports(ctx, tid)
		wantErr(t, err, nil)
		if len(list) != 1 || list[0].UndoneAt.IsZero() {
			t.Errorf("list %+v", list)
		}

		// The same file again is a new import; changed afterwards, it
		// cannot be undone; delivered, neither.
		again, replayed, err := db.SaveImport(ctx, store.Import{TournamentID: tid, SHA256: hashOf("undo me"), CreatedBy: "Segreteria"}, upload, true, reportOf(&calls))
		wantErr(t, err, nil)
		if replayed || again.ID == imp.ID {
			t.Fatalf("same file after undo: replayed %v, id %d", replayed, again.ID)
		}
		changed := importedSheet(t, 3, 2).Sheet
		_, err = db.PutSheet(ctx, tid, 1, 3, changed, mustReport(t, changed), 0)
		wantErr(t, err, nil)
		var sc *store.SheetChangedError
		if _, err := db.UndoImport(ctx, tid, again.ID, "Anna"); !errors.As(err, &sc) || sc.Table != 3 {
			t.Errorf("undo after a change: %v", err)
		}
		wantErr(t, db.SetRoundState(ctx, tid, 1, domain.RoundPlaying, domain.RoundSheetsDelivered), nil)
		var rc *store.RoundClosedError
		if _, err := db.UndoImport(ctx, tid, again.ID, "Anna"); !errors.As(err, &rc) || rc.Round != 1 {
			t.Errorf("undo in a delivered round: %v", err)
		}
	})
}

// The embedded writer builds the history copy in SQL (one INSERT …
// SELECT): it holds what the copy built from the loaded rows holds, for a
// sheet with every optional field, one without players or cells and one
// without hands.
func TestSQLiteVersionCopyIsTheLoadedRows(t *testing.T) {
	t.Parallel()
	db := dbtest.SQLite(t)
	ctx := context.Background()
	tid := setup(t, db)
	noPlayers := importedSheet(t, 2, 2).Sheet
	noPlayers.Cells = nil
	for table, s := range map[int]domain.Sheet{1: fullSheet(t), 2: noPlayers, 3: importedSheet(t, 3, 0).Sheet} {
		if _, err := db.PutOpenSheet(ctx, tid, 1, table, s, mustReport(t, s), 0); err != nil {
			t.Fatal(err)
		}
		fromSQL, fromGo, err := store.VersionCopies(ctx, db, tid, 1, table)
		wantErr(t, err, nil)
		if diff := cmp.Diff(fromGo, fromSQL); diff != "" {
			t.Errorf("table %d: copy (-loaded rows +sql):\n%s", table, diff)
		}
	}
}
