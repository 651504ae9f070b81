package store_test

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"segnapunti/domain"
	"segnapunti/store"
)

// TestUnavailable: connection failures are ErrUnavailable (wrapping the
// cause); the errors of rules and requests are left as they are.
func TestUnavailable(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"bad connection", fmt.Errorf("list: %w", driver.ErrBadConn), true},
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, true},
		{"admin shutdown 57P01", &pgconn.PgError{Code: "57P01"}, true},
		{"connection exception 08006", &pgconn.PgError{Code: "08006"}, true},
		{"database dropped 3D000", &pgconn.PgError{Code: "3D000"}, true},
		{"unique violation 23505", &pgconn.PgError{Code: "23505"}, false},
		{"not found", domain.ErrNotFound, false},
		{"a request's own deadline", context.DeadlineExceeded, false},
		{"cancelled", context.Canceled, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := store.Unavailable(tc.err)
			if errors.Is(got, store.ErrUnavailable) != tc.want {
				t.Errorf("Unavailable(%v) = %v", tc.err, got)
			}
			if !errors.Is(got, tc.err) {
				t.Errorf("the cause is lost: %v", got)
			}
		})
	}
	if store.Unavailable(nil) != nil {
		t.Error("nil must stay nil")
	}
}
