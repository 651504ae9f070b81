package store_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"slices"
	"sync"
	"testing"

	"modernc.org/sqlite"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// countingDriver wraps modernc.org/sqlite's driver and records, on every
// connection it opened, each text it was asked to prepare and each text
// run without being prepared (both mean SQLite compiles the text).
type countingDriver struct {
	mu       sync.Mutex
	prepared []string
	direct   []string
}

func (d *countingDriver) Open(name string) (driver.Conn, error) {
	c, err := (&sqlite.Driver{}).Open(name)
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, d: d}, nil
}

func (d *countingDriver) note(list *[]string, q string) {
	d.mu.Lock()
	*list = append(*list, q)
	d.mu.Unlock()
}

func (d *countingDriver) counts() (prepared, direct []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.prepared), slices.Clone(d.direct)
}

type countingConn struct {
	driver.Conn
	d *countingDriver
}

func (c *countingConn) Prepare(q string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), q)
}

func (c *countingConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	c.d.note(&c.d.prepared, q)
	return c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, q)
}

func (c *countingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.Conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

func (c *countingConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	c.d.note(&c.d.direct, q)
	return c.Conn.(driver.ExecerContext).ExecContext(ctx, q, args)
}

func (c *countingConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	c.d.note(&c.d.direct, q)
	return c.Conn.(driver.QueryerContext).QueryContext(ctx, q, args)
}

func (c *countingConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

var registerCounting = sync.OnceValue(func() *countingDriver {
	d := &countingDriver{}
	sql.Register("sqlite-counting", d)
	return d
})

// The embedded writer's statements are compiled once: over many sheet
// writes (new sheets, replaced ones with their history, a compare-and-set)
// no statement of the sheet write is prepared again or run as text; on a
// new connection each is prepared once more, then kept.
func TestSQLiteWriterKeepsItsStatements(t *testing.T) {
	d := registerCounting()
	ctx := context.Background()
	db, err := store.OpenSQLiteWithDriver(ctx, dbtest.SQLitePath(t), "sqlite-counting")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tr, _ := seatTables(t, db, 4, 1)
	s := fullSheet(t)
	rep := mustReport(t, s)
	write := func(table, ifVersion int) int {
		t.Helper()
		v, err := db.PutOpenSheet(ctx, tr.ID, 1, table, s, rep, ifVersion)
		if err != nil {
			t.Fatalf("table %d: %v", table, err)
		}
		return v
	}
	// One write of every kind first (the texts are prepared at Open).
	write(1, 0)
	write(1, 0)
	before, _ := d.counts()
	const n = 40
	for i := range n {
		table := i%4 + 1
		v := write(table, 0)
		write(table, v) // compare-and-set
	}
	s.Hands = s.Hands[:1] // another number of hands, another kept text
	write(2, 0)
	after, direct := d.counts()
	if len(after) != len(before) {
		t.Errorf("%d statements prepared during %d sheet writes, want none: %q", len(after)-len(before), 2*n+1, after[len(before):])
	}
	kept := store.KeptSQL()
	for _, q := range direct {
		if slices.Contains(kept, q) {
			t.Errorf("a kept statement was run as text: %.80q", q)
		}
	}
	for _, q := range kept {
		if !slices.Contains(after, q) {
			t.Errorf("kept statement never prepared: %.80q", q)
		}
	}
	// A new connection (the idle one closed) prepares each statement it
	// runs once more, then keeps it too.
	store.CloseIdle(db)
	write(3, 0)
	again, _ := d.counts()
	if n := len(again) - len(after); n == 0 || n > len(kept) {
		t.Errorf("%d statements prepared on the new connection, want 1 to %d", n, len(kept))
	}
	for range 10 {
		write(3, 0)
	}
	if last, _ := d.counts(); len(last) != len(again) {
		t.Errorf("%d statements prepared again on the new connection: %q", len(last)-len(again), last[len(again):])
	}
	// What was written reads back.
	got, err := db.GetSheet(ctx, tr.ID, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Sheet.Hands) != 1 {
		t.Errorf("table 2 has %d hands, want 1", len(got.Sheet.Hands))
	}
	if _, err := db.PutOpenSheet(ctx, tr.ID, 1, 3, s, rep, 1); !errors.Is(err, domain.ErrConflict) {
		t.Errorf("stale version: %v, want a conflict", err)
	}
}
