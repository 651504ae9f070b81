// Package store keeps tournaments, rounds and score sheets in PostgreSQL or,
// for a single machine, in an embedded SQLite file. It is the only package
// that imports gorm: row structs with gorm tags live here, apart from the
// domain types, with named converters (toRow/toDomain) between them, and
// every driver error leaves the package as domain.ErrNotFound, ErrConflict or
// ErrInvalid (or unchanged when it is none of those).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/libtnb/sqlite"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"golang.org/x/sync/semaphore"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"segnapunti/migrations"
)

// The two databases; Dialect returns one of them.
const (
	DialectPostgres = "postgres"
	DialectSQLite   = "sqlite"
)

// Pool sizes: enough for the 32 concurrent writers of BenchmarkPutSheet; the
// idle pool is as large as the open one so a burst does not reconnect.
const (
	maxOpenConns    = 32
	connMaxIdleTime = 5 * time.Minute
	// slowQuery is logged as a warning.
	slowQuery = 500 * time.Millisecond
	// sqliteBusyTimeout is how long an SQLite writer waits for the lock
	// before failing with "database is locked".
	sqliteBusyTimeout = 10 * time.Second
)

// DB is the application's database.
type DB struct {
	gorm    *gorm.DB
	sql     *sql.DB
	dialect string
	log     *slog.Logger
	// now is the clock for created_at/updated_at.
	now func() time.Time
	// facts caches tournaments, rounds and tables for sheet writes.
	facts *factsCache
	// reader is the pool for reads outside write transactions: gorm on
	// PostgreSQL, a separate pool of connections on SQLite.
	reader    *gorm.DB
	readerSQL *sql.DB // nil when reader is gorm
	// writer (SQLite) queues the sheet writes and runs them with group
	// commit (sqlite_writer.go).
	writer *sqliteWriter
	// full is set when a write failed for lack of space (storage_full.go).
	full fullness
	// kept (SQLite) are the writer's statements kept prepared, by text
	// (sqlite_stmts.go).
	kept map[string]*sql.Stmt
	// sheetWriters (PostgreSQL) admits the sheet writes in arrival order
	// (sheet_gate.go).
	sheetWriters *semaphore.Weighted
}

// Open connects and applies pending migrations (goose, embedded, under a
// lock). A dsn starting with postgres:// or postgresql:// is a PostgreSQL
// URL; anything else is the path of an SQLite file (created if missing).
func Open(ctx context.Context, dsn string, log *slog.Logger) (*DB, error) {
	return open(ctx, dsn, log, sqlite.DriverName)
}

// open is Open with the database/sql driver of the SQLite writer pool
// named (a test wraps the driver to count what it is asked).
func open(ctx context.Context, dsn string, log *slog.Logger, sqliteDriver string) (*DB, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if strings.TrimSpace(dsn) == "" {
		return nil, errors.New("open database: empty DSN (want a postgres:// URL or an SQLite file path)")
	}
	dialect, dialector, err := dialectorFor(dsn, sqliteDriver)
	if err != nil {
		return nil, err
	}
	g, err := gorm.Open(dialector, &gorm.Config{
		// Duplicates and FK violations come back as gorm.ErrDuplicatedKey /
		// gorm.ErrForeignKeyViolated (DEPENDENCIES.md); translate maps them.
		TranslateError: true,
		// Multi-row writes open their own transaction; single statements
		// need none.
		SkipDefaultTransaction: true,
		Logger:                 gormLogger{log: log},
		NowFunc:                func() time.Time { return time.Now().UTC() },
		// No PrepareStmt: the embedded writer's hot statements are kept
		// prepared by the store itself (sqlite_stmts.go); gorm's cache
		// would keep every text gorm ever builds, per connection.
	})
	if err != nil {
		return nil, fmt.Errorf("open %s database: %w", dialect, err)
	}
	if err := registerTextCheck(g); err != nil {
		return nil, fmt.Errorf("open %s database: %w", dialect, err)
	}
	sqlDB, err := g.DB()
	if err != nil {
		return nil, fmt.Errorf("open %s database: %w", dialect, err)
	}
	sqlDB.SetMaxOpenConns(maxOpenConns)
	sqlDB.SetMaxIdleConns(maxOpenConns)
	sqlDB.SetConnMaxIdleTime(connMaxIdleTime)
	db := &DB{gorm: g, sql: sqlDB, dialect: dialect, log: log, now: time.Now, facts: newFactsCache()}
	db.reader = g
	db.sheetWriters = semaphore.NewWeighted(defaultSheetWriters())
	if dialect == DialectSQLite {
		// SQLite has one writer at a time. Writes queue inside the process
		// on the one writer connection (FIFO, no busy-timeout sleeps: the
		// p99 of 32 writers stays bounded); reads that need no write
		// transaction use a separate pool, which WAL lets run alongside.
		sqlDB.SetMaxOpenConns(1)
		sqlDB.SetMaxIdleConns(1)
		if !isSQLiteMemory(dsn) { // every connection to ":memory:" is another database
			if err := db.openSQLiteReader(dsn); err != nil {
				sqlDB.Close()
				return nil, err
			}
		}
	}
	if dialect == DialectSQLite {
		if err := db.startSQLiteWriter(dsn); err != nil {
			sqlDB.Close()
			return nil, err
		}
	}
	if err := db.Ping(ctx); err != nil {
		db.stopSQLiteWriter()
		sqlDB.Close()
		return nil, fmt.Errorf("open %s database: %w", dialect, err)
	}
	if err := db.migrate(ctx); err != nil {
		db.stopSQLiteWriter()
		sqlDB.Close()
		return nil, err
	}
	if dialect == DialectSQLite {
		if err := db.prepareSQLiteStmts(ctx); err != nil {
			db.stopSQLiteWriter()
			sqlDB.Close()
			return nil, err
		}
	}
	// Results need the domain, so migration 00005 could not fill them.
	if n, err := db.backfillResults(ctx); err != nil {
		db.stopSQLiteWriter()
		db.closeSQLiteStmts()
		sqlDB.Close()
		return nil, err
	} else if n > 0 {
		log.InfoContext(ctx, "match results computed", slog.Int("sheets", n))
	}
	return db, nil
}

func dialectorFor(dsn, sqliteDriver string) (string, gorm.Dialector, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return DialectPostgres, postgres.Open(dsn), nil
	}
	path, query, _ := strings.Cut(dsn, "?")
	if path == "" {
		return "", nil, fmt.Errorf("open database: DSN %q has no SQLite file path", dsn)
	}
	// Foreign keys are off by default in SQLite; WAL lets readers run while
	// one writer writes; _txlock=immediate takes the write lock at BEGIN, so
	// two read-modify-write transactions queue (busy_timeout) instead of
	// deadlocking on the lock upgrade.
	params := []string{
		"_pragma=foreign_keys(1)",
		fmt.Sprintf("_pragma=busy_timeout(%d)", sqliteBusyTimeout.Milliseconds()),
		"_pragma=journal_mode(WAL)",
		// WAL with synchronous NORMAL: a commit does not wait for fsync
		// (the WAL is synced at checkpoints); the file cannot be corrupted,
		// but a power loss may forget the last commits (not a process
		// crash). The single writer's commit time is the queue's length.
		"_pragma=synchronous(NORMAL)",
		// Checkpoints run beside the writer (sqlite_writer.go), never in
		// a commit.
		"_pragma=wal_autocheckpoint(0)",
		// Each sheet of a group commit is a savepoint (sqlite_writer.go):
		// the pages it changes are copied to the statement journal, which
		// is a temporary file past 64 KiB — a group of sheets spilled to it
		// with a write() per page, an eighth of the writer's CPU. In
		// memory it is a few hundred KB at most, for one transaction.
		"_pragma=temp_store(MEMORY)",
		"_txlock=immediate",
	}
	if query != "" {
		params = append([]string{query}, params...)
	}
	return DialectSQLite, sqliteDialector{sqlite.Dialector{DriverName: sqliteDriver, DSN: path + "?" + strings.Join(params, "&")}}, nil
}

// sqliteDialector is libtnb/sqlite's gorm dialector (over
// modernc.org/sqlite, whose prepared statements keep SQLite's compiled
// program) with one change: a CHECK violation keeps the driver's error
// beside gorm's sentinel, so the store can name the failed constraint as
// it does on PostgreSQL (detail in errors.go).
//
// Importing libtnb/sqlite turns on three process-wide switches of
// modernc.org/sqlite, kept on here:
//   - StrictPragmas: a _pragma value of the DSN must be one statement
//     (ours are; a DSN from the environment cannot smuggle an ATTACH).
//   - OFDLocking: SQLite's locks on the database file are Linux OFD locks,
//     which survive another descriptor of the file being closed in the
//     process (a POSIX lock is dropped by any close of the file, e.g. a
//     copy of it); they still conflict with other processes' locks.
//   - Fdatasync: syncs use fdatasync(2) as SQLite's own Linux builds do:
//     the data and the size are on disk as with fsync, the timestamps may
//     not be. With WAL and synchronous(NORMAL) only checkpoints sync.
type sqliteDialector struct{ sqlite.Dialector }

func (d sqliteDialector) Translate(err error) error {
	t := d.Dialector.Translate(err)
	if t != err && errors.Is(t, gorm.ErrCheckConstraintViolated) {
		return fmt.Errorf("%w: %w", t, err)
	}
	return t
}

func isSQLiteMemory(dsn string) bool {
	path, _, _ := strings.Cut(dsn, "?")
	return path == ":memory:" || strings.Contains(dsn, "mode=memory")
}

// migrate applies the embedded migrations. On PostgreSQL a session advisory
// lock serialises concurrent starts (two replicas), probed every second.
func (db *DB) migrate(ctx context.Context) error {
	fsys, err := migrations.Dir(db.dialect)
	if err != nil {
		return err
	}
	gooseDialect := goose.DialectSQLite3
	opts := []goose.ProviderOption{goose.WithDisableGlobalRegistry(true)}
	if db.dialect == DialectPostgres {
		gooseDialect = goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	provider, err := goose.NewProvider(gooseDialect, db.sql, fsys, opts...)
	if err != nil {
		return fmt.Errorf("migrate %s: %w", db.dialect, err)
	}
	results, err := provider.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate %s: %w", db.dialect, err)
	}
	for _, r := range results {
		db.log.InfoContext(ctx, "migration applied",
			slog.String("dialect", db.dialect),
			slog.Int64("version", r.Source.Version),
			slog.Duration("duration", r.Duration))
	}
	return nil
}

// readDB is the handle for reads that need no write transaction.
func (db *DB) readDB(ctx context.Context) *gorm.DB { return db.reader.WithContext(ctx) }

// sqliteReaders is the size of the SQLite read pool.
const sqliteReaders = 8

// openSQLiteReader opens the SQLite read pool on the same file.
func (db *DB) openSQLiteReader(dsn string) error {
	path, query, _ := strings.Cut(dsn, "?")
	// Deferred transactions and query_only: a reader never takes the write
	// lock.
	params := []string{
		"_pragma=foreign_keys(1)",
		fmt.Sprintf("_pragma=busy_timeout(%d)", sqliteBusyTimeout.Milliseconds()),
		"_pragma=query_only(1)",
		"_txlock=deferred",
	}
	if query != "" {
		params = append([]string{query}, params...)
	}
	r, err := gorm.Open(sqliteDialector{sqlite.Dialector{DSN: path + "?" + strings.Join(params, "&")}}, &gorm.Config{TranslateError: true, SkipDefaultTransaction: true, Logger: gormLogger{log: db.log},
		NowFunc: func() time.Time { return time.Now().UTC() }})
	if err != nil {
		return fmt.Errorf("open sqlite read pool: %w", err)
	}
	rs, err := r.DB()
	if err != nil {
		return fmt.Errorf("open sqlite read pool: %w", err)
	}
	rs.SetMaxOpenConns(sqliteReaders)
	rs.SetMaxIdleConns(sqliteReaders)
	rs.SetConnMaxIdleTime(connMaxIdleTime)
	db.reader, db.readerSQL = r, rs
	return nil
}

// Close closes every connection.
func (db *DB) Close() error {
	db.stopSQLiteWriter()
	db.closeSQLiteStmts()
	if db.readerSQL != nil {
		db.readerSQL.Close()
	}
	return db.sql.Close()
}

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.sql.PingContext(ctx) }

// Dialect is "postgres" or "sqlite".
func (db *DB) Dialect() string { return db.dialect }

// stamp is the current time as stored: UTC, microseconds (PostgreSQL's
// precision), so what is returned equals what is read back.
func (db *DB) stamp() time.Time { return db.now().UTC().Truncate(time.Microsecond) }

// gormLogger sends gorm's messages to slog. Failed statements are logged
// at debug level only: the error is returned to the caller, who decides
// whether it matters (a duplicate entrant is a 409, not an incident).
// Statements are logged without their arguments (no token hashes, no sheets).
type gormLogger struct{ log *slog.Logger }

func (l gormLogger) LogMode(logger.LogLevel) logger.Interface { return l }

func (l gormLogger) Info(ctx context.Context, msg string, args ...any) {
	l.log.InfoContext(ctx, fmt.Sprintf(msg, args...))
}

func (l gormLogger) Warn(ctx context.Context, msg string, args ...any) {
	l.log.WarnContext(ctx, fmt.Sprintf(msg, args...))
}

func (l gormLogger) Error(ctx context.Context, msg string, args ...any) {
	l.log.ErrorContext(ctx, fmt.Sprintf(msg, args...))
}

func (l gormLogger) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), err error) {
	elapsed := time.Since(begin)
	switch {
	case err != nil && l.log.Enabled(ctx, slog.LevelDebug):
		sql, _ := fc()
		l.log.DebugContext(ctx, "sql failed", slog.String("sql", sql), slog.Duration("duration", elapsed), slog.String("error", err.Error()))
	case elapsed > slowQuery:
		sql, rows := fc()
		l.log.WarnContext(ctx, "slow sql", slog.String("sql", sql), slog.Int64("rows", rows), slog.Duration("duration", elapsed))
	}
}

// ParamsFilter drops the arguments from logged statements.
func (l gormLogger) ParamsFilter(_ context.Context, sql string, _ ...any) (string, []any) {
	return sql, nil
}
