// Package dbtest gives tests a fresh, migrated database of each kind the
// store supports (STYLE §8): PostgreSQL — a database with a random name on a
// server chosen once per test package, dropped when the test ends — and
// SQLite — a file in the test's temporary folder.
//
// Every test package that uses PostgreSQL calls Main from TestMain:
//
//	func TestMain(m *testing.M) { dbtest.Main(m) }
//
// The server is, in order: DATABASE_URL if set (a postgres:// URL whose
// role may CREATE DATABASE); else a throwaway server started from the
// machine's PostgreSQL binaries (/usr/lib/postgresql/15/bin or `pg_config
// --bindir`), listening only on a Unix socket in a temporary folder, with
// fsync off, stopped and deleted when the package's tests end; else
// 127.0.0.1:5432 (user postgres, database test, trust auth) if it answers.
// With none of these the tests fail, saying so; they are never skipped.
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"segnapunti/store"
)

var (
	mainCalled atomic.Bool

	sqliteOnce     sync.Once
	sqliteDir      string // holds the migrated template file
	sqliteTemplate string
	sqliteErr      error
)

// Main runs the package's tests, then stops the PostgreSQL server it
// started (if any), drops its template database and removes its files, and
// exits with the tests' status. Each of after runs first, once the tests
// are done (a shared browser to close).
func Main(m *testing.M, after ...func()) {
	mainCalled.Store(true)
	code := m.Run()
	for _, f := range after {
		f()
	}
	if err := shutdownPostgres(); err != nil {
		fmt.Fprintln(os.Stderr, "dbtest:", err)
		if code == 0 {
			code = 1
		}
	}
	if sqliteDir != "" {
		os.RemoveAll(sqliteDir)
	}
	os.Exit(code)
}

// Run runs f twice as subtests, "postgres" and "sqlite", each with a fresh
// migrated database: one test table, both databases.
func Run(t *testing.T, f func(t *testing.T, db *store.DB)) {
	t.Helper()
	t.Run(store.DialectPostgres, func(t *testing.T) { f(t, Postgres(t)) })
	t.Run(store.DialectSQLite, func(t *testing.T) { f(t, SQLite(t)) })
}

// Postgres returns a fresh PostgreSQL database with the migrations applied,
// closed and dropped when the test ends.
func Postgres(t testing.TB) *store.DB {
	t.Helper()
	srv := server(t)
	name, err := srv.createDatabase(true)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.dropDatabase(name); err != nil {
			t.Errorf("dbtest: %v", err)
		}
	})
	return open(t, srv.databaseURL(name))
}

// PostgresURL returns the URL of a fresh, empty PostgreSQL database (no
// migrations), dropped when the test ends: for tests of the migrations
// themselves or of concurrent Opens.
func PostgresURL(t testing.TB) string {
	t.Helper()
	srv := server(t)
	name, err := srv.createDatabase(false)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.dropDatabase(name); err != nil {
			t.Errorf("dbtest: %v", err)
		}
	})
	return srv.databaseURL(name)
}

// SQLite returns a fresh SQLite database with the migrations applied, in a
// file under t.TempDir(), closed when the test ends.
func SQLite(t testing.TB) *store.DB {
	t.Helper()
	return SQLiteAt(t, SQLitePath(t))
}

// SQLiteAt is SQLite in the file path (which must not exist yet), for
// tests that look at the files themselves.
func SQLiteAt(t testing.TB, path string) *store.DB {
	t.Helper()
	if mainCalled.Load() {
		// Copying a migrated file is faster than migrating each time; the
		// template lives until Main removes it.
		sqliteOnce.Do(makeSQLiteTemplate)
		if sqliteErr != nil {
			t.Fatalf("dbtest: SQLite template: %v", sqliteErr)
		}
		if err := copyFile(sqliteTemplate, path); err != nil {
			t.Fatalf("dbtest: %v", err)
		}
	}
	return open(t, path)
}

// SQLitePath returns the path of a database file that does not exist yet,
// under t.TempDir().
func SQLitePath(t testing.TB) string {
	return filepath.Join(t.TempDir(), "segnapunti.db")
}

func open(t testing.TB, dsn string) *store.DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := store.Open(ctx, dsn, nil)
	if err != nil {
		t.Fatalf("dbtest: open %s: %v", redact(dsn), err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("dbtest: close: %v", err)
		}
	})
	return db
}

func makeSQLiteTemplate() {
	sqliteDir, sqliteErr = os.MkdirTemp("", "segnapunti-sqlite-")
	if sqliteErr != nil {
		return
	}
	sqliteTemplate = filepath.Join(sqliteDir, "template.db")
	db, err := store.Open(context.Background(), sqliteTemplate, nil)
	if err != nil {
		sqliteErr = err
		return
	}
	// Closing the last connection checkpoints the WAL into the main file.
	sqliteErr = db.Close()
}

func copyFile(from, to string) error {
	for _, suffix := range []string{"", "-wal"} {
		src, err := os.Open(from + suffix)
		if os.IsNotExist(err) && suffix != "" {
			continue
		}
		if err != nil {
			return err
		}
		dst, err := os.Create(to + suffix)
		if err != nil {
			src.Close()
			return err
		}
		_, err = io.Copy(dst, src)
		src.Close()
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func randomName(prefix string) string {
	b := make([]byte, 8)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}
