// Package httperr is the one table from the kind of an error to the HTTP
// status both doors answer it with: the API's problem details
// (api/problem.go) and the pages (web's operationFailed, refereeFail and
// the handlers that pick a status themselves), after wtf's http.Error
// (github.com/benbjohnson/wtf). An operation of package app returns its
// refusal as an *app.Error of a kind (domain.ErrNotFound, app.ErrForbidden,
// app.ErrRoundClosed, …) or an error of the database (unavailable, disk
// full); Of finds the kind and the table says the status, so a kind is
// answered the same by every handler of a door and a new kind is added in
// one place.
//
// The two doors agree on every kind but three, and the table says why
// beside each: a path value that cannot name anything is a malformed API
// request (400) but simply no page (404); a stale version is the API's
// failed If-Match (412) and a page's conflict (409: the form is shown again
// with the sheet as it is now); a request given up (its client gone, its
// time out) is the API's 503 and the pages' generic error page (500).
package httperr

import (
	"context"
	"errors"
	"net/http"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/importers/xlsx"
)

// Kind is one kind of error the doors tell apart; the kinds are the
// variables below, compared by address.
type Kind struct {
	// Name is the API's problem type without its prefix: the type is
	// "/problems/" + Name (openapi.yaml lists them).
	Name string
	// API and Page are the statuses of the API and of the pages.
	API, Page int
	is        func(error) bool
}

// Type is the kind's problem type (RFC 9457 §3.1.1), a relative URI.
func (k *Kind) Type() string { return "/problems/" + k.Name }

func is(target error) func(error) bool {
	return func(err error) bool { return errors.Is(err, target) }
}

func as[E error](err error) bool {
	var e E
	return errors.As(err, &e)
}

// The kinds, each with its statuses.
var (
	// Unavailable: the database cannot be reached; nothing was read or
	// written (a 503 with Retry-After).
	Unavailable = &Kind{"unavailable", http.StatusServiceUnavailable, http.StatusServiceUnavailable,
		func(err error) bool { return errors.Is(app.Unavailable(err), app.ErrUnavailable) }}
	// StorageFull: the database's disk is full; nothing was written.
	StorageFull = &Kind{"storage-full", http.StatusInsufficientStorage, http.StatusInsufficientStorage, app.StorageFull}
	// TooLarge: a body or an uploaded workbook over its limit.
	TooLarge = &Kind{"payload-too-large", http.StatusRequestEntityTooLarge, http.StatusRequestEntityTooLarge,
		func(err error) bool { return as[*http.MaxBytesError](err) || errors.Is(err, app.ErrWorkbookTooLarge) }}
	// Throttled: too many wrong table codes from one address (429 with
	// Retry-After).
	Throttled = &Kind{"too-many-requests", http.StatusTooManyRequests, http.StatusTooManyRequests, is(app.ErrThrottled)}
	// Busy: too many workbooks are being read at once (503 with
	// Retry-After).
	Busy = &Kind{"unavailable", http.StatusServiceUnavailable, http.StatusServiceUnavailable, is(xlsx.ErrBusy)}
	// BadParameter: a path or query value the operation cannot take at
	// all. The API answers a malformed request; a page whose address
	// cannot name anything is no page.
	BadParameter = &Kind{"malformed-request", http.StatusBadRequest, http.StatusNotFound, is(app.ErrBadParameter)}
	// UnreadableWorkbook: an upload that is not a workbook of the import
	// layout.
	UnreadableWorkbook = &Kind{"unreadable-workbook", http.StatusUnprocessableEntity, http.StatusUnprocessableEntity, is(app.ErrUnreadableWorkbook)}
	// ImportMismatch: a workbook that does not fit the tournament.
	ImportMismatch = &Kind{"import-mismatch", http.StatusUnprocessableEntity, http.StatusUnprocessableEntity, is(app.ErrImportMismatch)}
	// RoundClosed: the round's sheets are final (FITAB art. 20, FIBur-INT
	// art. 19); a kind of conflict, told apart.
	RoundClosed = &Kind{"round-closed", http.StatusConflict, http.StatusConflict, is(app.ErrRoundClosed)}
	// Precondition: the caller's version of a sheet is not the stored
	// one: the API's If-Match failed; a page's form is a conflict.
	Precondition = &Kind{"precondition-failed", http.StatusPreconditionFailed, http.StatusConflict,
		func(err error) bool { return errors.Is(err, app.ErrPrecondition) || as[*app.StaleSheetError](err) }}
	// Forbidden: the caller may see the thing but not do this to it.
	Forbidden = &Kind{"forbidden", http.StatusForbidden, http.StatusForbidden, is(app.ErrForbidden)}
	// NotFound: no such thing, or one the caller may not see.
	NotFound = &Kind{"not-found", http.StatusNotFound, http.StatusNotFound, is(domain.ErrNotFound)}
	// Conflict: the thing's state does not allow it.
	Conflict = &Kind{"conflict", http.StatusConflict, http.StatusConflict, is(domain.ErrConflict)}
	// Invalid: the request names fields that are wrong.
	Invalid = &Kind{"invalid-request", http.StatusUnprocessableEntity, http.StatusUnprocessableEntity, is(domain.ErrInvalid)}
	// Cancelled: the request was given up (its client gone, its time
	// out). The API says try again; a page shows its generic error.
	Cancelled = &Kind{"request-cancelled", http.StatusServiceUnavailable, http.StatusInternalServerError,
		func(err error) bool {
			return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
		}}
	// Internal: anything else, logged; its answer says nothing of it.
	Internal = &Kind{"internal", http.StatusInternalServerError, http.StatusInternalServerError, func(error) bool { return true }}
)

// kinds is the table in the order Of tries it: the database's failures
// first (they may wrap anything), then the most specific kinds (a closed
// round is also a conflict, a bad parameter also invalid), Internal last.
var kinds = []*Kind{
	Unavailable, StorageFull, TooLarge, Throttled, Busy,
	BadParameter, UnreadableWorkbook, ImportMismatch, RoundClosed, Precondition,
	Forbidden, NotFound, Conflict, Invalid, Cancelled, Internal,
}

// Of is the kind of err (Internal for an error of no kind; nil too).
func Of(err error) *Kind {
	if err == nil {
		return Internal
	}
	for _, k := range kinds {
		if k.is(err) {
			return k
		}
	}
	return Internal
}

// Kinds is the whole table, in the order Of tries it.
func Kinds() []*Kind { return append([]*Kind(nil), kinds...) }
