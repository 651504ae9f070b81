package store_test

import (
	"context"
	"errors"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

func acceptAny(store.StoredSheet) error { return nil }

// UI.md §6, FITAB art. 19: each stored signature says which it is — the
// scorer's line's end or the other line's confirmation — and whether the
// line signed itself. A confirmation alone ends and delivers the sheet:
// the scorer's line then has no signing time of its own (it was not given
// the confirmation's time as if it had signed then).
func TestSignatureKinds(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		for _, table := range []int{1, 2} {
			if _, err := db.PutSheet(ctx, tid, 1, table, minimalSheet(), mustReport(t, minimalSheet()), 0); err != nil {
				t.Fatal(err)
			}
		}
		// Table 1: no end and no scorer given: nothing says which line
		// scored, refused. NS ends; NS cannot confirm its own
		// sheet (FITAB art. 19); EO confirms.
		if _, err := db.ConfirmSheet(ctx, tid, 1, 1, store.Confirmation{Line: domain.EO, Entrant: "2", Via: "table"}, nil, acceptAny); !errors.Is(err, store.ErrNotEnded) || !errors.Is(err, domain.ErrConflict) {
			t.Errorf("confirm of a sheet nobody ended, scorer unknown: %v, want ErrNotEnded", err)
		}
		if _, err := db.EndSheet(ctx, tid, 1, 1, store.Confirmation{Line: domain.NS, Entrant: "1", Via: "table"}, acceptAny); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ConfirmSheet(ctx, tid, 1, 1, store.Confirmation{Line: domain.NS, Entrant: "1", Via: "table"}, nil, acceptAny); !errors.Is(err, store.ErrOwnLine) || !errors.Is(err, domain.ErrConflict) {
			t.Errorf("the line that ended confirms: %v, want ErrOwnLine", err)
		}
		list, err := db.ConfirmSheet(ctx, tid, 1, 1, store.Confirmation{Line: domain.EO, Entrant: "2", Via: "table"}, nil, acceptAny)
		if err != nil {
			t.Fatal(err)
		}
		want := []struct {
			line     domain.Line
			kind     store.SignatureKind
			signedBy domain.Line
		}{{domain.NS, store.SignEnd, domain.NS}, {domain.EO, store.SignConfirm, domain.EO}}
		check := func(name string, got []store.Confirmation) {
			t.Helper()
			if len(got) != len(want) {
				t.Fatalf("%s: %d signatures, want %d", name, len(got), len(want))
			}
			for i, w := range want {
				if g := got[i]; g.Line != w.line || g.Kind != w.kind || g.SignedBy != w.signedBy || g.Signed() != (w.line == w.signedBy) {
					t.Errorf("%s: signature %d = %+v (signed %v), want line %v kind %s signed by %v", name, i, g, g.Signed(), w.line, w.kind, w.signedBy)
				}
			}
		}
		check("end then confirm (answer)", list)
		stored, err := db.SheetConfirmations(ctx, tid, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		check("end then confirm (stored)", stored)
		if stored[1].At.Before(stored[0].At) {
			t.Errorf("the confirmation (%v) is older than the end (%v)", stored[1].At, stored[0].At)
		}

		// Table 2: EO confirms alone; NS's end is implied, signed by EO.
		list, err = db.ConfirmSheet(ctx, tid, 1, 2, store.Confirmation{Line: domain.EO, Entrant: "4", Via: "table"},
			&store.Confirmation{Line: domain.NS, Entrant: "3", Via: "table"}, acceptAny)
		if err != nil {
			t.Fatal(err)
		}
		want[0].signedBy = domain.EO
		check("confirm alone (answer)", list)
		byTable, err := db.RoundConfirmations(ctx, tid, 1)
		if err != nil {
			t.Fatal(err)
		}
		check("confirm alone (round)", byTable[2])
		all, err := db.TournamentConfirmations(ctx, tid)
		if err != nil {
			t.Fatal(err)
		}
		check("confirm alone (tournament)", all[[2]int{1, 2}])
	})
}

// Migration 00014 on signatures stored before it: a lone signature is an
// end; of two at different times the earlier is the end; two at the same
// time cannot tell which line confirmed and stay two signed confirmations.
func TestSignatureKindMigration(t *testing.T) {
	forEachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		dsn := emptyDSN(t, dialect)
		db := open(t, dsn)
		tid := setup(t, db)
		db.Close()
		p, sqlDB := gooseOn(t, dialect, dsn)
		if _, err := p.DownTo(ctx, 13); err != nil {
			t.Fatalf("down to 13: %v", err)
		}
		t1, t2 := "2026-11-21T21:00:00.000000Z", "2026-11-21T21:05:00.000000Z"
		for _, r := range []struct {
			table    int
			line, at string
		}{{1, "ns", t1}, {2, "eo", t1}, {2, "ns", t2}, {3, "ns", t1}, {3, "eo", t1}} {
			q := `INSERT INTO sheet_confirmations (tournament_id, round_no, table_no, line, entrant, via, confirmed_at) VALUES ($1, 1, $2, $3, 'x', 'table', $4)`
			if dialect == store.DialectSQLite {
				q = `INSERT INTO sheet_confirmations (tournament_id, round_no, table_no, line, entrant, via, confirmed_at) VALUES (?, 1, ?, ?, 'x', 'table', ?)`
			}
			if _, err := sqlDB.ExecContext(ctx, q, tid, r.table, r.line, r.at); err != nil {
				t.Fatal(err)
			}
		}
		db = open(t, dsn) // migrates up again
		got, err := db.RoundConfirmations(ctx, tid, 1)
		if err != nil {
			t.Fatal(err)
		}
		type sig struct {
			line     domain.Line
			kind     store.SignatureKind
			signedBy domain.Line
		}
		want := map[int][]sig{
			1: {{domain.NS, store.SignEnd, domain.NS}},
			2: {{domain.EO, store.SignEnd, domain.EO}, {domain.NS, store.SignConfirm, domain.NS}},
			3: {{domain.EO, store.SignConfirm, domain.EO}, {domain.NS, store.SignConfirm, domain.NS}},
		}
		for table, w := range want {
			if len(got[table]) != len(w) {
				t.Fatalf("table %d: %+v, want %v", table, got[table], w)
			}
			for i, s := range w {
				if g := got[table][i]; g.Line != s.line || g.Kind != s.kind || g.SignedBy != s.signedBy {
					t.Errorf("table %d signature %d: %+v, want %+v", table, i, g, s)
				}
			}
		}
	})
}
