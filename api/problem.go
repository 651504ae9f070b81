package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/importers/sheetjson"
)

// problemContentType is the media type of every error body (RFC 9457).
const problemContentType = "application/problem+json"

// problem is an RFC 9457 problem details object (API §4).
type problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
	// Code names a refusal clients tell apart (CONFIRM_OWN_LINE).
	Code   string       `json:"code,omitempty"`
	Errors []fieldError `json:"errors,omitempty"`
	// Round and Tables: the round and its tables a 409 of RULES §12.2
	// is about (no delivered sheet).
	Round  int   `json:"round,omitempty"`
	Tables []int `json:"tables,omitempty"`
}

// fieldError names one offending part of a request: a JSON pointer into the
// body, a query parameter, a header, or a spreadsheet cell (API §4).
type fieldError struct {
	Pointer   string `json:"pointer,omitempty"`
	Parameter string `json:"parameter,omitempty"`
	Header    string `json:"header,omitempty"`
	Cell      string `json:"cell,omitempty"`
	Detail    string `json:"detail"`
}

// Problem types. They are relative URI references (RFC 9457 §3.1.1): stable
// identifiers clients switch on, documented in openapi.yaml.
const (
	typeMalformed       = "/problems/malformed-request"
	typeInvalid         = "/problems/invalid-request"
	typeUnauthorized    = "/problems/unauthorized"
	typeForbidden       = "/problems/forbidden"
	typeNotFound        = "/problems/not-found"
	typeMethod          = "/problems/method-not-allowed"
	typeConflict        = "/problems/conflict"
	typeRoundClosed     = "/problems/round-closed"
	typePrecondition    = "/problems/precondition-failed"
	typeTooLarge        = "/problems/payload-too-large"
	typeMediaType       = "/problems/unsupported-media-type"
	typeInternal        = "/problems/internal"
	typeUnavailable     = "/problems/unavailable"
	typeStorageFull     = "/problems/storage-full"
	typeNotAcceptable   = "/problems/not-acceptable"
	typeRequestTimeout  = "/problems/request-cancelled"
	typeTooManyRequests = "/problems/too-many-requests"
)

// apiError is an error that already knows its HTTP answer. Handlers build
// one wherever they know better than the generic mapping what went wrong.
type apiError struct {
	status int
	typ    string
	detail string
	errors []fieldError
	cause  error // logged, never sent
}

func (e *apiError) Error() string {
	if e.cause != nil {
		return fmt.Sprintf("%d %s: %v", e.status, e.detail, e.cause)
	}
	return fmt.Sprintf("%d %s", e.status, e.detail)
}

func (e *apiError) Unwrap() error { return e.cause }

func errMalformed(detail string, errs ...fieldError) *apiError {
	return &apiError{status: http.StatusBadRequest, typ: typeMalformed, detail: detail, errors: errs}
}

func errInvalid(detail string, errs ...fieldError) *apiError {
	return &apiError{status: http.StatusUnprocessableEntity, typ: typeInvalid, detail: detail, errors: errs}
}

func errForbidden(detail string) *apiError {
	return &apiError{status: http.StatusForbidden, typ: typeForbidden, detail: detail}
}

func errNotFound(detail string) *apiError {
	return &apiError{status: http.StatusNotFound, typ: typeNotFound, detail: detail}
}

func errConflict(detail string) *apiError {
	return &apiError{status: http.StatusConflict, typ: typeConflict, detail: detail}
}

// errParam is a 400 about one query or path parameter.
func errParam(name, detail string) *apiError {
	return errMalformed(detail, fieldError{Parameter: name, Detail: detail})
}

// titles are the problem titles by status: short, fixed, not localised
// (RFC 9457 §3.1.4: the title does not change between occurrences).
var titles = map[int]string{
	http.StatusBadRequest:            "Malformed request",
	http.StatusUnauthorized:          "Authentication required",
	http.StatusForbidden:             "Forbidden",
	http.StatusNotFound:              "Not found",
	http.StatusMethodNotAllowed:      "Method not allowed",
	http.StatusNotAcceptable:         "Not acceptable",
	http.StatusConflict:              "Conflict",
	http.StatusPreconditionFailed:    "Precondition failed",
	http.StatusRequestEntityTooLarge: "Request body too large",
	http.StatusUnsupportedMediaType:  "Unsupported media type",
	http.StatusUnprocessableEntity:   "Invalid request",
	http.StatusInternalServerError:   "Internal error",
	http.StatusServiceUnavailable:    "Service unavailable",
	http.StatusInsufficientStorage:   "Insufficient storage",
}

func titleFor(status int) string {
	if t, ok := titles[status]; ok {
		return t
	}
	return http.StatusText(status)
}

// problemFor is the one place that turns an error into its HTTP answer
// (STYLE habit 4): handler-made apiErrors as they are, body-size and sheet
// decoding errors by kind, the domain sentinels by a fixed table, anything
// else a 500 whose detail says nothing about the internals.
func problemFor(err error) problem {
	var ae *apiError
	var tooBig *http.MaxBytesError
	var sheetErr *sheetjson.Error
	var appErr *app.Error
	switch {
	case errors.As(err, &ae):
		return problem{Type: ae.typ, Title: titleFor(ae.status), Status: ae.status, Detail: ae.detail, Errors: ae.errors}
	case app.StorageFull(err):
		return problem{Type: typeStorageFull, Title: titleFor(http.StatusInsufficientStorage), Status: http.StatusInsufficientStorage,
			Detail: "the database's disk is full, nothing was written; retry once space is freed"}
	case errors.As(err, &tooBig):
		return problem{Type: typeTooLarge, Title: titleFor(http.StatusRequestEntityTooLarge), Status: http.StatusRequestEntityTooLarge,
			Detail: fmt.Sprintf("the request body is larger than the limit of %d bytes", tooBig.Limit)}
	case errors.As(err, &sheetErr):
		return sheetProblem(sheetErr)
	case errors.As(err, &appErr):
		return appProblem(appErr)
	case errors.Is(app.Unavailable(err), app.ErrUnavailable):
		return problem{Type: typeUnavailable, Title: titleFor(http.StatusServiceUnavailable), Status: http.StatusServiceUnavailable,
			Detail: "the database is unavailable, nothing was written; retry later"}
	case errors.Is(err, domain.ErrNotFound):
		return problem{Type: typeNotFound, Title: titleFor(http.StatusNotFound), Status: http.StatusNotFound,
			Detail: "the resource does not exist"}
	case errors.Is(err, domain.ErrConflict):
		return problem{Type: typeConflict, Title: titleFor(http.StatusConflict), Status: http.StatusConflict,
			Detail: "the request conflicts with the stored state; read it again and retry"}
	case errors.Is(err, domain.ErrInvalid):
		return problem{Type: typeInvalid, Title: titleFor(http.StatusUnprocessableEntity), Status: http.StatusUnprocessableEntity,
			Detail: "the request breaks a rule of the stored data"}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return problem{Type: typeRequestTimeout, Title: titleFor(http.StatusServiceUnavailable), Status: http.StatusServiceUnavailable,
			Detail: "the request was cancelled or ran out of time before it finished"}
	default:
		return problem{Type: typeInternal, Title: titleFor(http.StatusInternalServerError), Status: http.StatusInternalServerError,
			Detail: "the server failed to answer; the failure is logged"}
	}
}

// appStatus is the answer to each kind of refusal of an operation, most
// specific first (a round closed is also a conflict).
var appStatus = []struct {
	kind   error
	status int
	typ    string
}{
	{app.ErrBadParameter, http.StatusBadRequest, typeMalformed},
	{app.ErrWorkbookTooLarge, http.StatusRequestEntityTooLarge, typeTooLarge},
	{app.ErrUnreadableWorkbook, http.StatusUnprocessableEntity, typeUnreadableWorkbook},
	{app.ErrImportMismatch, http.StatusUnprocessableEntity, typeImportMismatch},
	{app.ErrRoundClosed, http.StatusConflict, typeRoundClosed},
	{app.ErrPrecondition, http.StatusPreconditionFailed, typePrecondition},
	{app.ErrForbidden, http.StatusForbidden, typeForbidden},
	{domain.ErrNotFound, http.StatusNotFound, typeNotFound},
	{domain.ErrConflict, http.StatusConflict, typeConflict},
	{domain.ErrInvalid, http.StatusUnprocessableEntity, typeInvalid},
}

// appProblem maps an operation's refusal: its kind gives the status, its
// fields the errors.
func appProblem(e *app.Error) problem {
	p := problem{Type: typeInternal, Status: http.StatusInternalServerError, Detail: e.Detail}
	for _, k := range appStatus {
		if errors.Is(e.Kind, k.kind) {
			p.Type, p.Status = k.typ, k.status
			break
		}
	}
	p.Title = titleFor(p.Status)
	p.Code = e.Code
	p.Errors = fromAppFields(e.Fields)
	if e.Incomplete != nil {
		p.Round, p.Tables = e.Incomplete.Round, e.Incomplete.Tables
	}
	if errors.Is(e.Kind, app.ErrPrecondition) {
		p.Errors = []fieldError{{Header: "If-Match", Detail: e.Detail}}
	}
	return p
}

func fromAppFields(fs []app.FieldError) []fieldError {
	if len(fs) == 0 {
		return nil
	}
	out := make([]fieldError, len(fs))
	for i, f := range fs {
		out[i] = fieldError{Pointer: f.Pointer, Parameter: f.Parameter, Cell: f.Cell, Detail: f.Detail}
	}
	return out
}

// sheetProblem maps a sheet decoding error to a 422 naming the field.
// Callers check that the body is JSON at all first (a 400), so what is
// left is a document of the wrong shape.
func sheetProblem(e *sheetjson.Error) problem {
	p := problem{Type: typeInvalid, Title: titleFor(http.StatusUnprocessableEntity), Status: http.StatusUnprocessableEntity, Detail: e.Detail}
	if e.Pointer != "" {
		p.Detail = e.Pointer + ": " + e.Detail
		p.Errors = []fieldError{{Pointer: e.Pointer, Detail: e.Detail}}
	}
	return p
}

// marshalJSON is json.Marshal without the HTML escaping of <, > and &:
// answers are JSON documents, not HTML, and names like "Rossi & Bianchi"
// read as written.
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// encodeProblem renders a problem; it cannot fail for the types above, and
// if it somehow did the status line alone still tells the client.
func encodeProblem(p problem) []byte {
	b, err := marshalJSON(p)
	if err != nil {
		return []byte(`{"type":"` + typeInternal + `","title":"Internal error","status":500}`)
	}
	return b
}

func appendErr(errs []fieldError, e *fieldError) []fieldError {
	if e != nil {
		errs = append(errs, *e)
	}
	return errs
}

// checkText: app.CheckText, as a field error of a problem.
func checkText(ptr, s string, maxLen int, required bool) *fieldError {
	if e := app.CheckText(ptr, s, maxLen, required); e != nil {
		return &fieldError{Pointer: e.Pointer, Detail: e.Detail}
	}
	return nil
}

// invalidFields is the 422 for field-level problems found after decoding.
func invalidFields(errs []fieldError) error {
	if len(errs) > maxFieldErrors {
		errs = errs[:maxFieldErrors]
	}
	if len(errs) == 1 {
		return errInvalid(errs[0].Pointer+": "+errs[0].Detail, errs...)
	}
	return errInvalid(fmt.Sprintf("%d problems in the request body; see errors", len(errs)), errs...)
}
