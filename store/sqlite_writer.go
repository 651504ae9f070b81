package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
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
// checkpoint on its own connection every checkpointEvery, so a commit
// never waits for the database file to be written and synced.

const (
	maxGroup        = 32
	checkpointEvery = 500 * time.Millisecond
)

type writeJob struct {
	ctx  context.Context
	fn   func(tx *gorm.DB) error
	done chan error
}

// sqliteWriter is the queue and the goroutine of the SQLite writes.
type sqliteWriter struct {
	jobs     chan *writeJob
	stop     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
}

// startSQLiteWriter starts the writer goroutine (and, for a file, the
// checkpointer).
func (db *DB) startSQLiteWriter(dsn string) error {
	w := &sqliteWriter{jobs: make(chan *writeJob, 1024), stop: make(chan struct{}), done: make(chan struct{})}
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
	go func() {
		defer close(w.done)
		var tick <-chan time.Time
		if cp != nil {
			t := time.NewTicker(checkpointEvery)
			defer t.Stop()
			defer cp.Close()
			tick = t.C
		}
		for {
			select {
			case <-w.stop:
				return
			case <-tick:
				// PASSIVE: copies what it can without waiting for the
				// writer or the readers; an error is retried next tick.
				_, _ = cp.Exec("PRAGMA wal_checkpoint(PASSIVE)")
			case j := <-w.jobs:
				db.runGroup(j)
			}
		}
	}()
	return nil
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
