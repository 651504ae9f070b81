package api

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/httperr"
	"segnapunti/importers/xlsx"
)

// statusCase is one kind of error as an operation returns it, and the
// status each door answers for it (API §4 for the API; the pages as they
// answered before the one table of package httperr; web's
// TestPageStatusOfEveryKind lists the same kinds).
type statusCase struct {
	name string
	err  error
	api  int
}

func refusalOf(kind error) error { return &app.Error{Kind: kind, Detail: "test refusal"} }

// The statuses here are written from API.md §4 and the answers of the
// service before the table moved: they must not change.
var statusCases = []statusCase{
	{"not found, bare", domain.ErrNotFound, http.StatusNotFound},
	{"not found, refusal", refusalOf(domain.ErrNotFound), http.StatusNotFound},
	{"conflict, bare", fmt.Errorf("x: %w", domain.ErrConflict), http.StatusConflict},
	{"conflict, refusal", refusalOf(domain.ErrConflict), http.StatusConflict},
	{"invalid, bare", fmt.Errorf("x: %w", domain.ErrInvalid), http.StatusUnprocessableEntity},
	{"invalid, refusal", refusalOf(domain.ErrInvalid), http.StatusUnprocessableEntity},
	{"bad parameter", refusalOf(app.ErrBadParameter), http.StatusBadRequest},
	{"precondition", refusalOf(app.ErrPrecondition), http.StatusPreconditionFailed},
	{"round closed", refusalOf(app.ErrRoundClosed), http.StatusConflict},
	{"forbidden", refusalOf(app.ErrForbidden), http.StatusForbidden},
	{"workbook unreadable", refusalOf(app.ErrUnreadableWorkbook), http.StatusUnprocessableEntity},
	{"workbook mismatch", refusalOf(app.ErrImportMismatch), http.StatusUnprocessableEntity},
	{"workbook too large", refusalOf(app.ErrWorkbookTooLarge), http.StatusRequestEntityTooLarge},
	{"would replace", fmt.Errorf("x: %w", app.ErrWouldReplace), http.StatusConflict},
	{"idempotency key reused", app.ErrIdempotencyReused, http.StatusUnprocessableEntity},
	{"disable self", app.ErrDisableSelf, http.StatusUnprocessableEntity},
	// The next three were answered by their own handlers with these
	// statuses (failStale, authenticateTableCode, the import's gate):
	// they now read them from the table too.
	{"stale version", &app.StaleSheetError{What: "sheet", Want: 1, Current: 2}, http.StatusPreconditionFailed},
	{"throttled", &app.Throttled{RetryAfter: time.Second}, http.StatusTooManyRequests},
	{"workbooks busy", xlsx.ErrBusy, http.StatusServiceUnavailable},
	{"unavailable", fmt.Errorf("read: %w", app.ErrUnavailable), http.StatusServiceUnavailable},
	{"storage full", fmt.Errorf("write: %w", app.ErrStorageFull), http.StatusInsufficientStorage},
	{"body too large", &http.MaxBytesError{Limit: 10}, http.StatusRequestEntityTooLarge},
	{"cancelled", fmt.Errorf("x: %w", context.Canceled), http.StatusServiceUnavailable},
	{"deadline", fmt.Errorf("x: %w", context.DeadlineExceeded), http.StatusServiceUnavailable},
	{"anything else", fmt.Errorf("boom"), http.StatusInternalServerError},
}

// TestProblemStatusOfEveryKind: the status of the problem the API answers
// for each kind of error an operation returns (API §4), and that the one
// table (package httperr) says the same.
func TestProblemStatusOfEveryKind(t *testing.T) {
	for _, c := range statusCases {
		if got := problemFor(c.err).Status; got != c.api {
			t.Errorf("%s: problem status %d, want %d", c.name, got, c.api)
		}
		if got := httperr.Of(c.err).API; got != c.api {
			t.Errorf("%s: the table's API status %d, want %d", c.name, got, c.api)
		}
	}
}
