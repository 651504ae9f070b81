package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// ErrUnavailable: the database cannot be reached, so nothing was read or
// written; the caller may retry later.
var ErrUnavailable = errors.New("the database is unavailable")

// Unavailable wraps err with ErrUnavailable when it says the database
// cannot be reached — a refused or broken connection, a server shutting
// down, a pool that ran out of time waiting for a connection — and returns
// err unchanged otherwise (nil stays nil).
func Unavailable(err error) error {
	if err == nil || errors.Is(err, ErrUnavailable) || !connectionLost(err) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, err)
}

func connectionLost(err error) bool {
	var opErr *net.OpError
	var connErr *pgconn.ConnectError
	var pgErr *pgconn.PgError
	switch {
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone):
		return true
	case errors.As(err, &connErr), errors.As(err, &opErr):
		return true
	case errors.As(err, &pgErr):
		// Class 08: connection exception; 57P01..57P03: admin shutdown,
		// crash shutdown, cannot connect now; 3D000: the database itself
		// is gone.
		return strings.HasPrefix(pgErr.Code, "08") || pgErr.Code == "57P01" || pgErr.Code == "57P02" ||
			pgErr.Code == "57P03" || pgErr.Code == "3D000"
	case errors.Is(err, context.DeadlineExceeded) && pgconn.Timeout(err):
		// The pool's own deadline while connecting, not a request's.
		return pgconn.SafeToRetry(err)
	}
	// pgx says "conn closed" for a connection the server dropped.
	return strings.Contains(err.Error(), "conn closed") || strings.Contains(err.Error(), "connection refused")
}
