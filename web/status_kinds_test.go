package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/httperr"
	"segnapunti/importers/xlsx"
	"segnapunti/store/dbtest"
)

func refusalOf(kind error) error { return &app.Error{Kind: kind, Detail: "test refusal"} }

// TestPageStatusOfEveryKind: the status of the page shown for each kind
// of error an operation returns, by the secretary's pages
// (operationFailed) and the referee's (refereeFail). The same kinds as
// the API's TestProblemStatusOfEveryKind; the statuses are the pages'
// answers before the one table of package httperr, and must not change.
func TestPageStatusOfEveryKind(t *testing.T) {
	s, err := newServer(Deps{Store: dbtest.SQLite(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name               string
		err                error
		secretary, referee int
	}{
		{"not found, bare", domain.ErrNotFound, 404, 404},
		{"not found, refusal", refusalOf(domain.ErrNotFound), 404, 404},
		{"conflict, bare", fmt.Errorf("x: %w", domain.ErrConflict), 409, 409},
		{"conflict, refusal", refusalOf(domain.ErrConflict), 409, 409},
		// A referee's page answered an invalid value that was no refusal
		// of app (a store's check, an Idempotency-Key reused) as a server
		// error, 500: bad input is a 4xx, so it is the referee's 400 now.
		{"invalid, bare", fmt.Errorf("x: %w", domain.ErrInvalid), 422, 400},
		{"invalid, refusal", refusalOf(domain.ErrInvalid), 422, 400},
		{"bad parameter", refusalOf(app.ErrBadParameter), 404, 400},
		// Only sheet entry refuses a stale version this way, never a
		// referee's page; were one to, it is the conflict a stale
		// correction already was (409), no longer 400.
		{"precondition", refusalOf(app.ErrPrecondition), 409, 409},
		{"round closed", refusalOf(app.ErrRoundClosed), 409, 409},
		{"forbidden", refusalOf(app.ErrForbidden), 403, 403},
		{"workbook unreadable", refusalOf(app.ErrUnreadableWorkbook), 422, 400},
		{"workbook mismatch", refusalOf(app.ErrImportMismatch), 422, 400},
		{"would replace", fmt.Errorf("x: %w", app.ErrWouldReplace), 409, 409},
		{"idempotency key reused", app.ErrIdempotencyReused, 422, 400},
		{"disable self", app.ErrDisableSelf, 422, 400},
		{"stale version", &app.StaleSheetError{What: "sheet", Want: 1, Current: 2}, 409, 409},
		{"unavailable", fmt.Errorf("read: %w", app.ErrUnavailable), 503, 503},
		{"storage full", fmt.Errorf("write: %w", app.ErrStorageFull), 507, 507},
		{"cancelled", fmt.Errorf("x: %w", context.Canceled), 500, 500},
		// The next four were answered by their own handlers (the
		// uploads, the table code's throttle) with these statuses, and
		// by operationFailed and refereeFail as 400, 422 or 500: now the
		// table's everywhere, but for a referee's 400 of a refused value.
		{"workbook too large", refusalOf(app.ErrWorkbookTooLarge), 413, 400},
		{"body too large", &http.MaxBytesError{Limit: 10}, 413, 400},
		{"throttled", &app.Throttled{RetryAfter: time.Second}, 429, 429},
		{"workbooks busy", xlsx.ErrBusy, 503, 503},
		{"anything else", fmt.Errorf("boom"), 500, 500},
	} {
		for _, door := range []struct {
			name string
			fail func(http.ResponseWriter, *http.Request, error)
			want int
		}{{"secretary", s.operationFailed, c.secretary}, {"referee", s.refereeFail, c.referee}} {
			w := httptest.NewRecorder()
			door.fail(w, httptest.NewRequest(http.MethodGet, "/tournaments/t1", nil), c.err)
			if w.Code != door.want {
				t.Errorf("%s, %s page: status %d, want %d", c.name, door.name, w.Code, door.want)
			}
		}
		if got := httperr.Of(c.err).Page; got != c.secretary {
			t.Errorf("%s: the table's page status %d, want %d", c.name, got, c.secretary)
		}
	}
}
