package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gorm.io/gorm"
)

// The embedded database under many writers. SQLite has one
// writer; the sheet writes queue for the one writer connection in a FIFO
// (database/sql hands a freed connection to a RANDOM waiter, which gave 32
// writers a p99 of seconds), and one goroutine runs them with group
// commit: it takes every write queued when it starts a transaction (up to
// maxGroup), runs each inside its own SAVEPOINT — a write that fails is
// rolled back to its savepoint alone and gets its own error, the others go
// on — and answers them all after the one COMMIT. Each write is still all
// or nothing and is answered only once it is committed.
//
// Checkpoints: the writer connection never checkpoints on commit
// (wal_autocheckpoint(0)); a goroutine of its own runs a PASSIVE
// checkpoint on its own connection every checkpointEvery, alongside the
// writes, so a commit never waits for the database file to be written and
// synced. (Run in the writer's turn, each checkpoint held every write for
// 45-55 ms, and the p99 of 32 writers was 75-85 ms against a median of
// 17: docs/performance.md, "The embedded checkpoints beside the writer".)
// A checkpoint beside a writer that never pauses copies what was
// committed when it began, so the WAL may never start over; once it has
// grown past walPauseFrames, the next checkpoint runs with the writer
// held between two groups, so it copies everything and the following
// write starts the WAL again from its beginning.

const (
	maxGroup        = 32
	checkpointEvery = 500 * time.Millisecond
	// walPauseFrames: 16,384 pages of 4 KiB, a 64 MiB WAL (a 100-table
	// evening writes a few MiB between two checkpoints).
	walPauseFrames = 16384
)

type writeJob struct {
	ctx  context.Context
	fn   func(tx *gorm.DB) error
	done chan error
}

// sqliteWriter is the queue and the goroutine of the SQLite writes.
type sqliteWriter struct {
	jobs chan *writeJob
	// hold asks the writer goroutine to wait between two groups.
	hold chan writerHold
	// ticks (nil: every checkpointEvery) and pauseFrames
	// (walPauseFrames) are other values in tests.
	ticks       <-chan time.Time
	pauseFrames int
	holds       atomic.Int64 // checkpoints run with the writer held
	stop        chan struct{}
	done        chan struct{}
	stopOnce    sync.Once
}

// writerHold is a request to hold the writer: it closes held when it
// waits, and goes on when release is closed.
type writerHold struct{ held, release chan struct{} }

// startSQLiteWriter starts the writer goroutine (and, for a file, the
// checkpointer).
func (db *DB) startSQLiteWriter(dsn string) error {
	return db.startSQLiteWriterWith(dsn, nil, walPauseFrames)
}

func (db *DB) startSQLiteWriterWith(dsn string, ticks <-chan time.Time, pauseFrames int) error {
	w := &sqliteWriter{jobs: make(chan *writeJob, 1024), hold: make(chan writerHold), ticks: ticks, pauseFrames: pauseFrames,
		stop: make(chan struct{}), done: make(chan struct{})}
	var cp *sql.DB
	if !isSQLiteMemory(dsn) {
		path, query, _ := strings.Cut(dsn, "?")
		params := fmt.Sprintf("_pragma=busy_timeout(%d)", sqliteBusyTimeout.Milliseconds())
		if query != "" {
			params = query + "&" + params
		}
		var err error
		if cp, err = sql.Open("sqlite", path+"?"+params); err != nil {
			return fmt.Errorf("open sqlite checkpointer: %w", err)
		}
		cp.SetMaxOpenConns(1)
	}
	db.writer = w
	checkpointerDone := make(chan struct{})
	if cp != nil {
		go w.checkpoints(cp, checkpointerDone)
	} else {
		close(checkpointerDone)
	}
	go func() {
		defer close(w.done)
		defer func() { <-checkpointerDone }()
		for {
			select {
			case <-w.stop:
				return
			case h := <-w.hold:
				close(h.held)
				select {
				case <-h.release:
				case <-w.stop:
					return
				}
			case j := <-w.jobs:
				db.runGroup(j)
			}
		}
	}()
	return nil
}

// checkpoints runs a PASSIVE checkpoint on cp at every tick until the
// writer stops, holding the writer meanwhile when the WAL has grown past
// w.pauseFrames (see the top of this file). PASSIVE copies what it
// can without waiting for the writer or the readers; an error is retried
// at the next tick.
func (w *sqliteWriter) checkpoints(cp *sql.DB, done chan struct{}) {
	defer close(done)
	defer cp.Close()
	ticks := w.ticks
	if ticks == nil {
		t := time.NewTicker(checkpointEvery)
		defer t.Stop()
		ticks = t.C
	}
	walFrames := 0
	for {
		select {
		case <-w.stop:
			return
		case <-ticks:
		}
		var h writerHold
		if walFrames > w.pauseFrames {
			h = writerHold{held: make(chan struct{}), release: make(chan struct{})}
			select {
			case w.hold <- h:
				<-h.held // the writer is between two groups
				w.holds.Add(1)
			case <-w.stop:
				return
			}
		}
		var busy, copied int
		if err := cp.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &walFrames, &copied); err != nil {
			walFrames = 0
		}
		if h.release != nil {
			close(h.release)
		}
	}
}

// runGroup runs first and every write queued behind it in one
// transaction, each in its own savepoint.
func (db *DB) runGroup(first *writeJob) {
	batch := []*writeJob{first}
more:
	for len(batch) < maxGroup {
		select {
		case j := <-db.writer.jobs:
			batch = append(batch, j)
		default:
			break more
		}
	}
	errs := make([]error, len(batch))
	err := db.gorm.Transaction(func(tx *gorm.DB) error {
		for i, j := range batch {
			if err := j.ctx.Err(); err != nil {
				errs[i] = err
				continue
			}
			// Not the caller's cancellation inside a statement: SQLite
			// rolls the whole transaction back on an interrupted write,
			// the others' writes with it.
			errs[i] = runSavepoint(tx.WithContext(context.WithoutCancel(j.ctx)), j.fn)
		}
		return nil
	})
	for i, j := range batch {
		if err != nil {
			errs[i] = err
		}
		j.done <- errs[i]
	}
}

// runSavepoint runs fn in a savepoint of tx (gorm's nested transaction);
// a panic is rolled back and becomes the write's error, so the writer
// goroutine serves on.
func runSavepoint(tx *gorm.DB, fn func(*gorm.DB) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("sqlite write panicked: %v", r)
		}
	}()
	return tx.Transaction(fn)
}

// sqliteWrite queues fn for the writer goroutine and waits for its
// outcome: fn ran in its own savepoint and, when it returned nil, is
// committed.
func (db *DB) sqliteWrite(ctx context.Context, fn func(tx *gorm.DB) error) error {
	if db.writer == nil { // not started (cannot happen after Open)
		return db.gorm.WithContext(ctx).Transaction(fn)
	}
	j := &writeJob{ctx: ctx, fn: fn, done: make(chan error, 1)}
	select {
	case db.writer.jobs <- j:
	case <-ctx.Done():
		return ctx.Err()
	case <-db.writer.done:
		return errWriterClosed
	}
	// Once queued, the write runs or is refused: wait for it (or for the
	// database being closed before its turn).
	select {
	case err := <-j.done:
		return err
	case <-db.writer.done:
		select {
		case err := <-j.done:
			return err
		default:
			return errWriterClosed
		}
	}
}

var errWriterClosed = errors.New("sqlite write: the database is closed")

// stopSQLiteWriter ends the writer goroutine after the write in hand.
func (db *DB) stopSQLiteWriter() {
	if db.writer != nil {
		db.writer.stopOnce.Do(func() { close(db.writer.stop) })
		<-db.writer.done
	}
}
