package httperr_test

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

// Every kind of the table is found for the errors it stands for, the most
// specific first (a closed round is also a conflict, a bad parameter also
// invalid), with the statuses of API §4 and of the pages. The doors'
// own tests (api TestProblemStatusOfEveryKind, web
// TestPageStatusOfEveryKind) check that each door answers them.
func TestEveryKindOfTheTable(t *testing.T) {
	refusal := func(kind error) error { return &app.Error{Kind: kind, Detail: "test"} }
	cases := []struct {
		err       error
		kind      *httperr.Kind
		api, page int
	}{
		{fmt.Errorf("read: %w", app.ErrUnavailable), httperr.Unavailable, 503, 503},
		{fmt.Errorf("write: %w", app.ErrStorageFull), httperr.StorageFull, 507, 507},
		{&http.MaxBytesError{Limit: 1}, httperr.TooLarge, 413, 413},
		{refusal(app.ErrWorkbookTooLarge), httperr.TooLarge, 413, 413},
		{&app.Throttled{RetryAfter: time.Second}, httperr.Throttled, 429, 429},
		{xlsx.ErrBusy, httperr.Busy, 503, 503},
		{refusal(app.ErrBadParameter), httperr.BadParameter, 400, 404},
		{refusal(app.ErrUnreadableWorkbook), httperr.UnreadableWorkbook, 422, 422},
		{refusal(app.ErrImportMismatch), httperr.ImportMismatch, 422, 422},
		{refusal(app.ErrRoundClosed), httperr.RoundClosed, 409, 409},
		{refusal(app.ErrPrecondition), httperr.Precondition, 412, 409},
		{&app.StaleSheetError{What: "sheet", Want: 1, Current: 2}, httperr.Precondition, 412, 409},
		{refusal(app.ErrForbidden), httperr.Forbidden, 403, 403},
		{refusal(domain.ErrNotFound), httperr.NotFound, 404, 404},
		{app.ErrBadCredentials, httperr.NotFound, 404, 404},
		{refusal(domain.ErrConflict), httperr.Conflict, 409, 409},
		{fmt.Errorf("x: %w", app.ErrWouldReplace), httperr.Conflict, 409, 409},
		{refusal(domain.ErrInvalid), httperr.Invalid, 422, 422},
		{app.ErrIdempotencyReused, httperr.Invalid, 422, 422},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), httperr.Cancelled, 503, 500},
		{fmt.Errorf("boom"), httperr.Internal, 500, 500},
		{nil, httperr.Internal, 500, 500},
	}
	seen := map[*httperr.Kind]bool{}
	for _, c := range cases {
		k := httperr.Of(c.err)
		if k != c.kind {
			t.Errorf("%v: kind %q, want %q", c.err, k.Name, c.kind.Name)
		}
		if k.API != c.api || k.Page != c.page {
			t.Errorf("%v: statuses API %d page %d, want %d and %d", c.err, k.API, k.Page, c.api, c.page)
		}
		seen[k] = true
	}
	for _, k := range httperr.Kinds() {
		if !seen[k] {
			t.Errorf("kind %q has no case here", k.Name)
		}
		if http.StatusText(k.API) == "" || http.StatusText(k.Page) == "" {
			t.Errorf("kind %q: a status that is none", k.Name)
		}
	}
}
