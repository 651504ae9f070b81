package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"segnapunti/domain"
)

// translate turns a driver error into a domain error, once, at the edge of
// the package (STYLE §4). what says what was being done ("create
// tournament"). Errors that are none of not-found, conflict or invalid
// (a lost connection, a cancelled context) are returned wrapped but
// unclassified, so the API answers 500 for them, not 4xx.
func translate(err error, what string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: %w", what, err)
	}
	if errors.Is(err, domain.ErrNotFound) || errors.Is(err, domain.ErrConflict) || errors.Is(err, domain.ErrInvalid) {
		return err // already said in domain terms
	}
	kind := classify(err)
	if kind == nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return fmt.Errorf("%s: %w: %s", what, kind, detail(err))
}

// classify returns the domain sentinel for err, or nil.
func classify(err error) error {
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return domain.ErrNotFound
	case errors.Is(err, gorm.ErrDuplicatedKey):
		return domain.ErrConflict
	case errors.Is(err, gorm.ErrForeignKeyViolated), errors.Is(err, gorm.ErrCheckConstraintViolated):
		return domain.ErrInvalid
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == "40001" || pgErr.Code == "40P01":
			// serialization failure, deadlock: another writer won.
			return domain.ErrConflict
		case strings.HasPrefix(pgErr.Code, "23"), strings.HasPrefix(pgErr.Code, "22"):
			// integrity constraint (NOT NULL, RESTRICT, a trigger's
			// refusal) or data exception (number out of range, bad JSON).
			return domain.ErrInvalid
		}
		return nil
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) {
		// The dialector translates unique, foreign-key and CHECK errors
		// (a CHECK keeps this error beside gorm's sentinel, store.go);
		// NOT NULL and a trigger's RAISE(ABORT) come back raw.
		switch sqliteErr.Code() & 0xff {
		case sqlite3.SQLITE_CONSTRAINT, sqlite3.SQLITE_MISMATCH, sqlite3.SQLITE_TOOBIG:
			return domain.ErrInvalid
		}
	}
	return nil
}

// detail is the part of a driver message worth showing: the constraint and
// the database's own words, without the SQLSTATE decoration.
func detail(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		if pgErr.ConstraintName != "" {
			// The same words as SQLite's, so both databases say the same.
			return fmt.Errorf("constraint %s failed", pgErr.ConstraintName)
		}
		return errors.New(pgErr.Message)
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) {
		msg := sqliteErr.Error()
		// "constraint failed: CHECK constraint failed: tournaments_level_check (275)"
		if i := strings.LastIndex(msg, "constraint failed: "); i >= 0 {
			name := strings.TrimSpace(msg[i+len("constraint failed: "):])
			if j := strings.LastIndex(name, " ("); j > 0 {
				name = name[:j]
			}
			return fmt.Errorf("constraint %s failed", name)
		}
		return errors.New(msg)
	}
	return err
}

// errorf builds a domain error with a message.
func errorf(kind error, format string, args ...any) error {
	return fmt.Errorf("%w: %s", kind, fmt.Sprintf(format, args...))
}
