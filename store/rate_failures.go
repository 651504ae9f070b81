package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Failures that rate limits count (app/limits.go), shared by the replicas
// of the service through PostgreSQL. On the embedded database the one
// process keeps them in memory, and these are not called.

// RateFailure is one failure counting against Key until Expires.
type RateFailure struct {
	Key     string
	At      time.Time
	Expires time.Time
}

// The rows carry the process that wrote them (origin): each process counts
// its own failures in memory and reads only the others' back, so nothing
// is counted twice or lost between a write and a read.

// RateCount is what the live failures of one key add up to.
type RateCount struct {
	Key         string
	Count       int
	Last        time.Time // the newest failure
	FirstExpiry time.Time // when the oldest live failure stops counting
	LastExpiry  time.Time // when the newest does
}

// SharedRateFailures reports whether rate-limit failures are kept here
// (PostgreSQL) rather than in each process's memory.
func (db *DB) SharedRateFailures() bool { return db.dialect == DialectPostgres }

// RecordRateFailures stores failures.
func (db *DB) RecordRateFailures(ctx context.Context, origin string, fs []RateFailure) error {
	if len(fs) == 0 {
		return nil
	}
	type row struct {
		Key     string    `json:"key"`
		At      time.Time `json:"at"`
		Expires time.Time `json:"expires"`
	}
	rows := make([]row, len(fs))
	for i, f := range fs {
		rows[i] = row{f.Key, f.At.UTC(), f.Expires.UTC()}
	}
	list, err := json.Marshal(rows)
	if err != nil {
		return fmt.Errorf("record rate failures: %w", err)
	}
	err = db.gorm.WithContext(ctx).Exec(`INSERT INTO rate_failures (key, origin, at, expires)
		SELECT key, ?, at, expires FROM json_to_recordset(?::json) AS f(key text, at timestamptz, expires timestamptz)`, origin, string(list)).Error
	return translate(Unavailable(err), "record rate failures")
}

// ClearRateFailures forgets a key's failures (a name that signed in from
// an address).
func (db *DB) ClearRateFailures(ctx context.Context, key string) error {
	err := db.gorm.WithContext(ctx).Exec(`DELETE FROM rate_failures WHERE key = ?`, key).Error
	return translate(Unavailable(err), "clear rate failures")
}

// RateCounts adds up every key's failures still live at now written by
// processes other than origin; with purge it first deletes the expired
// ones.
func (db *DB) RateCounts(ctx context.Context, origin string, now time.Time, purge bool) ([]RateCount, error) {
	now = now.UTC()
	if purge {
		if err := db.gorm.WithContext(ctx).Exec(`DELETE FROM rate_failures WHERE expires <= ?`, now).Error; err != nil {
			return nil, translate(Unavailable(err), "purge rate failures")
		}
	}
	var out []RateCount
	err := db.gorm.WithContext(ctx).Raw(`SELECT key, count(*) AS count, max(at) AS last,
			min(expires) AS first_expiry, max(expires) AS last_expiry
		FROM rate_failures WHERE expires > ? AND origin <> ? GROUP BY key`, now, origin).Scan(&out).Error
	return out, translate(Unavailable(err), "read rate failures")
}
