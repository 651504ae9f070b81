package store_test

import (
	"context"
	"maps"
	"reflect"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// Issue 26: at most four row writes per stored sheet, counted by the
// database. The result is columns of the sheet row (migration 00022), a
// hand equal to the stored one is not written again, and the history gets
// a row only when a version is replaced — never on the first write (on
// PostgreSQL the history CTE reads the statement's snapshot, taken before
// the sheet row exists). PostgreSQL counts per table
// (pg_stat_xact_user_tables), SQLite in total (total_changes()).
func TestRowWrites(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		sheets, reps := benchSheets(t) // the two differ in hand 3 only
		twoHands := sheets[1]
		twoHands.Hands = twoHands.Hands[:2:2]
		steps := []struct {
			name  string
			sheet domain.Sheet
			rep   []byte
			want  map[string]int64
		}{
			{"first write: the sheet and its three hands, no history", sheets[0], reps[0],
				map[string]int64{"sheets": 1, "sheet_hands": 3}},
			{"one hand changed: the sheet, its history, that hand", sheets[1], reps[1],
				map[string]int64{"sheets": 1, "sheet_versions": 1, "sheet_hands": 1}},
			{"the same sheet again: the sheet and its history", sheets[1], reps[1],
				map[string]int64{"sheets": 1, "sheet_versions": 1}},
			{"a hand fewer: the sheet, its history, the hand deleted", twoHands, mustReport(t, twoHands),
				map[string]int64{"sheets": 1, "sheet_versions": 1, "sheet_hands": 1}},
			{"the third hand back: the sheet, its history, that hand", sheets[0], reps[0],
				map[string]int64{"sheets": 1, "sheet_versions": 1, "sheet_hands": 1}},
		}
		for i, st := range steps {
			got, err := store.PutSheetRowWrites(ctx, db, tid, 1, 1, st.sheet, st.rep)
			if err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
			var total, want int64
			for _, n := range st.want {
				want += n
			}
			for _, n := range got {
				total += n
			}
			if want > 4 {
				t.Fatalf("%s: the test wants %d row writes", st.name, want)
			}
			if db.Dialect() == store.DialectPostgres && !maps.Equal(got, st.want) {
				t.Errorf("%s: row writes %v, want %v", st.name, got, st.want)
			}
			if total != want {
				t.Errorf("%s: %d row writes, want %d (%v)", st.name, total, want, got)
			}
			// What was written reads back: the sheet, its version, its
			// result (computed from this sheet, in the sheet's row).
			stored, err := db.GetSheet(ctx, tid, 1, 1)
			wantErr(t, err, nil)
			if stored.Version != i+1 || !reflect.DeepEqual(stored.Sheet.Hands, st.sheet.Hands) {
				t.Errorf("%s: stored version %d, hands %+v", st.name, stored.Version, stored.Sheet.Hands)
			}
			r := oneResult(t, db, tid, 0)
			m := domain.OfficialResult(st.sheet, domain.Validate(st.sheet))
			if r.Computed[0] != m.Lines[domain.NS].Computed || r.Computed[1] != m.Lines[domain.EO].Computed || r.Official[0] != m.Lines[domain.NS].Official {
				t.Errorf("%s: result %+v, want %+v", st.name, r, m.Lines)
			}
		}
		versions, err := db.SheetHistory(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if len(versions) != len(steps)-1 {
			t.Errorf("%d versions in the history, want %d", len(versions), len(steps)-1)
		}
	})
}
