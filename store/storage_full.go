package store

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// A full disk: the database cannot grow, so writes fail and reads still
// work. The doors answer 507 (nothing was written, try again once space is
// freed) and /readyz says "not ready" until a write works again, so that a
// balancer sends the traffic elsewhere meanwhile.

// ErrStorageFull: the database's disk (or its size limit) is full; nothing
// was written.
var ErrStorageFull = errors.New("the database's disk is full")

// StorageFull reports whether err says the database could not write for
// lack of space: SQLITE_FULL, PostgreSQL's disk_full (53100), or the
// operating system's ENOSPC in either's words.
func StorageFull(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrStorageFull) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "53100"
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) && sqliteErr.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "database or disk is full") || strings.Contains(msg, "No space left on device")
}

// fullness remembers that a write failed for lack of space.
type fullness struct{ since atomic.Int64 } // unix nanoseconds; 0: no failure seen

// NoteWriteFailure records err when it says the disk is full: /readyz
// answers "not ready" from then on until a write works again. The doors
// call it with every failure they answer.
func (db *DB) NoteWriteFailure(err error) {
	if StorageFull(err) {
		db.full.since.CompareAndSwap(0, time.Now().UnixNano())
	}
}

// Ready reports whether the service can serve: the database answers and,
// after a write failed for lack of space, a write works again (one tiny
// write per call while that lasts, so readiness comes back by itself when
// space is freed).
func (db *DB) Ready(ctx context.Context) error {
	if err := db.Ping(ctx); err != nil {
		return Unavailable(err)
	}
	if db.full.since.Load() == 0 {
		return nil
	}
	err := db.gorm.WithContext(ctx).Exec(`UPDATE health_probe SET checked_at = ? WHERE id = 1`, db.stamp()).Error
	if err != nil {
		if StorageFull(err) {
			return ErrStorageFull
		}
		return Unavailable(err)
	}
	db.full.since.Store(0)
	return nil
}
