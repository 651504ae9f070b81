package store

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"segnapunti/domain"
)

// Driver errors leave the store as domain errors (STYLE §4); what is none
// of them stays unclassified (a 500, not a 4xx). SQLite's raw CHECK errors
// cannot be built outside its driver: the repository tests cover them on a
// real database.
func TestTranslate(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want error // nil: none of the domain errors
	}{
		{"record not found", gorm.ErrRecordNotFound, domain.ErrNotFound},
		{"duplicate key", gorm.ErrDuplicatedKey, domain.ErrConflict},
		{"foreign key", gorm.ErrForeignKeyViolated, domain.ErrInvalid},
		{"check (PostgreSQL, translated by gorm)", fmt.Errorf("%w: %w", gorm.ErrCheckConstraintViolated, &pgconn.PgError{Code: "23514", ConstraintName: "tournaments_level_check"}), domain.ErrInvalid},
		{"not null", &pgconn.PgError{Code: "23502", ColumnName: "name", Message: `null value in column "name"`}, domain.ErrInvalid},
		{"restrict, or a trigger's refusal", &pgconn.PgError{Code: "23001", Message: "corrections are append-only"}, domain.ErrInvalid},
		{"number out of range", &pgconn.PgError{Code: "22003"}, domain.ErrInvalid},
		{"bad JSON", &pgconn.PgError{Code: "22P02"}, domain.ErrInvalid},
		{"serialization failure", &pgconn.PgError{Code: "40001"}, domain.ErrConflict},
		{"deadlock", &pgconn.PgError{Code: "40P01"}, domain.ErrConflict},
		{"connection lost", &pgconn.PgError{Code: "08006"}, nil},
		{"syntax error (a bug, not bad input)", &pgconn.PgError{Code: "42601"}, nil},
		{"cancelled", context.Canceled, nil},
		{"other", errors.New("disk on fire"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := translate(tc.err, "doing it")
			for _, sentinel := range []error{domain.ErrNotFound, domain.ErrConflict, domain.ErrInvalid} {
				if errors.Is(got, sentinel) != (sentinel == tc.want) {
					t.Errorf("translate(%v) = %v; wraps %v: %v, want %v", tc.err, got, sentinel, errors.Is(got, sentinel), sentinel == tc.want)
				}
			}
			if tc.want == nil && !errors.Is(got, tc.err) {
				t.Errorf("unclassified error %v lost its cause", got)
			}
		})
	}
	if translate(nil, "x") != nil {
		t.Error("translate(nil) != nil")
	}
	already := fmt.Errorf("%w: round 2", domain.ErrNotFound)
	if got := translate(already, "x"); got != already {
		t.Errorf("a domain error was rewrapped: %v", got)
	}
}

// Both databases name the failed constraint the same way.
func TestDetailNamesTheConstraint(t *testing.T) {
	err := &pgconn.PgError{Code: "23514", ConstraintName: "tournaments_level_check", Message: `new row for relation "tournaments" violates check constraint "tournaments_level_check"`}
	if got := translate(err, "create tournament").Error(); got != "create tournament: invalid: constraint tournaments_level_check failed" {
		t.Errorf("message %q", got)
	}
}
