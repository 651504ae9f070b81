package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/httperr"
	"segnapunti/importers/sheetjson"
	"segnapunti/messages"
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
	// msg, when set, is Detail as a catalogue code and its arguments:
	// localize words it in the request's language.
	msg messages.M
}

// fieldError names one offending part of a request: a JSON pointer into the
// body, a query parameter, a header, or a spreadsheet cell (API §4).
type fieldError struct {
	Pointer   string     `json:"pointer,omitempty"`
	Parameter string     `json:"parameter,omitempty"`
	Header    string     `json:"header,omitempty"`
	Cell      string     `json:"cell,omitempty"`
	Detail    string     `json:"detail"`
	msg       messages.M // as problem.msg
}

// detailText is a detail as constructors take it: a catalogue message
// (messages.New), or English text not yet in the catalogue (worded the
// same in every language).
type detailText interface{ string | messages.M }

func splitDetail[D detailText](d D) (string, messages.M) {
	switch v := any(d).(type) {
	case messages.M:
		return v.English(), v
	case string:
		return v, messages.M{}
	}
	return "", messages.M{}
}

// fieldAt is the field error at ptr worded from the catalogue: key and
// args.
func fieldAt(ptr, key string, args ...any) fieldError {
	return fieldMsg(fieldError{Pointer: ptr}, messages.New(key, args...))
}

// domainField is the field error at ptr of a domain parse error
// (app.DomainError).
func domainField(ptr string, err error) fieldError {
	return fromAppFields([]app.FieldError{app.DomainError(ptr, err)})[0]
}

// uncodedField is a field error another package wrote in English
// without a code (a rule of package domain that returns a plain error, a
// tournament file's reader): shown as written. Every detail api writes
// itself has a code (TestAPIDetailsAreCoded).
func uncodedField(ptr, detail string) fieldError {
	return fieldError{Pointer: ptr, Detail: detail}
}

// fieldMsg is a field error worded from the catalogue.
func fieldMsg(f fieldError, m messages.M) fieldError {
	f.Detail, f.msg = m.English(), m
	return f
}

// Problem types. They are relative URI references (RFC 9457 §3.1.1): stable
// identifiers clients switch on, documented in openapi.yaml.
const (
	typeMalformed      = "/problems/malformed-request"
	typeInvalid        = "/problems/invalid-request"
	typeUnauthorized   = "/problems/unauthorized"
	typeForbidden      = "/problems/forbidden"
	typeNotFound       = "/problems/not-found"
	typeMethod         = "/problems/method-not-allowed"
	typeConflict       = "/problems/conflict"
	typeRoundClosed    = "/problems/round-closed"
	typePrecondition   = "/problems/precondition-failed"
	typeTooLarge       = "/problems/payload-too-large"
	typeMediaType      = "/problems/unsupported-media-type"
	typeInternal       = "/problems/internal"
	typeUnavailable    = "/problems/unavailable"
	typeStorageFull    = "/problems/storage-full"
	typeNotAcceptable  = "/problems/not-acceptable"
	typeRequestTimeout = "/problems/request-cancelled"
)

// apiError is an error that already knows its HTTP answer. Handlers build
// one wherever they know better than the generic mapping what went wrong.
type apiError struct {
	status int
	typ    string
	detail string
	msg    messages.M // detail from the catalogue; detail is then empty
	errors []fieldError
	cause  error // logged, never sent
}

func (e *apiError) Error() string {
	d := e.detail
	if d == "" {
		d = e.msg.English()
	}
	if e.cause != nil {
		return fmt.Sprintf("%d %s: %v", e.status, d, e.cause)
	}
	return fmt.Sprintf("%d %s", e.status, d)
}

func newAPIError[D detailText](status int, typ string, detail D, errs []fieldError) *apiError {
	d, m := splitDetail(detail)
	return &apiError{status: status, typ: typ, detail: d, msg: m, errors: errs}
}

func (e *apiError) Unwrap() error { return e.cause }

// The constructors take a detail from the catalogue (messages.New) or, for
// a detail not yet in it, English text.

func errMalformed[D detailText](detail D, errs ...fieldError) *apiError {
	return newAPIError(http.StatusBadRequest, typeMalformed, detail, errs)
}

func errInvalid[D detailText](detail D, errs ...fieldError) *apiError {
	return newAPIError(http.StatusUnprocessableEntity, typeInvalid, detail, errs)
}

func errForbidden[D detailText](detail D) *apiError {
	return newAPIError(http.StatusForbidden, typeForbidden, detail, nil)
}

func errNotFound[D detailText](detail D) *apiError {
	return newAPIError(http.StatusNotFound, typeNotFound, detail, nil)
}

func errConflict[D detailText](detail D) *apiError {
	return newAPIError(http.StatusConflict, typeConflict, detail, nil)
}

// errParam is a 400 about one query or path parameter.
func errParam[D detailText](name string, detail D) *apiError {
	d, m := splitDetail(detail)
	return &apiError{status: http.StatusBadRequest, typ: typeMalformed, detail: d, msg: m,
		errors: []fieldError{{Parameter: name, Detail: d, msg: m}}}
}

// titleFor is the problem title of a status in English: short, fixed
// (RFC 9457 §3.1.4: the title does not change between occurrences of a
// problem; localize gives it in the request's language).
func titleFor(status int) string { return titleIn(domain.English, status) }

func titleIn(lang domain.Lang, status int) string {
	key := "problem.title." + strconv.Itoa(status)
	if messages.Has(key) {
		return messages.Text(lang, key)
	}
	return http.StatusText(status)
}

// problemFor is the one place that turns an error into its HTTP answer
// (STYLE habit 4): handler-made apiErrors as they are, sheet decoding
// errors by kind, an operation's refusal and every other error by the one
// table of package httperr (the pages answer from the same table); an
// error of no kind is a 500 whose detail says nothing about the internals.
func problemFor(err error) problem {
	var ae *apiError
	var tooBig *http.MaxBytesError
	var sheetErr *sheetjson.Error
	var appErr *app.Error
	switch {
	case errors.As(err, &ae):
		return problem{Type: ae.typ, Title: titleFor(ae.status), Status: ae.status, Detail: ae.detail, msg: ae.msg, Errors: ae.errors}
	case app.StorageFull(err), errors.As(err, &tooBig):
		// before the errors that may carry them
	case errors.As(err, &sheetErr):
		return sheetProblem(sheetErr)
	case errors.As(err, &appErr):
		return appProblem(appErr)
	}
	k := httperr.Of(err)
	return keyedProblem(k.Type(), k.API, kindDetail(k, err))
}

// kindDetail is the detail of a problem of kind k that no refusal words.
func kindDetail(k *httperr.Kind, err error) messages.M {
	var tooBig *http.MaxBytesError
	switch k {
	case httperr.StorageFull:
		return messages.New("api.storage_full")
	case httperr.TooLarge:
		if errors.As(err, &tooBig) {
			return messages.New("api.body_too_large", tooBig.Limit)
		}
	case httperr.Unavailable:
		return messages.New("api.unavailable")
	case httperr.NotFound:
		return messages.New("api.not_found")
	case httperr.Conflict, httperr.RoundClosed, httperr.Precondition:
		return messages.New("api.conflict")
	case httperr.Invalid, httperr.BadParameter, httperr.UnreadableWorkbook, httperr.ImportMismatch:
		return messages.New("api.invalid")
	case httperr.Cancelled:
		return messages.New("api.cancelled")
	}
	return messages.New("api.internal")
}

// keyedProblem is a problem whose detail comes from the catalogue.
func keyedProblem(typ string, status int, m messages.M) problem {
	return problem{Type: typ, Title: titleFor(status), Status: status, Detail: m.English(), msg: m}
}

// appProblem maps an operation's refusal: its kind gives the status (the
// table of package httperr), its fields the errors.
func appProblem(e *app.Error) problem {
	k := httperr.Of(e.Kind)
	p := problem{Type: k.Type(), Status: k.API, Detail: e.Detail, msg: e.Msg}
	p.Title = titleFor(p.Status)
	p.Code = e.Code
	p.Errors = fromAppFields(e.Fields)
	if e.Incomplete != nil {
		p.Round, p.Tables = e.Incomplete.Round, e.Incomplete.Tables
	}
	if k == httperr.Precondition {
		p.Errors = []fieldError{{Header: "If-Match", Detail: e.Detail, msg: e.Msg}}
	}
	return p
}

func fromAppFields(fs []app.FieldError) []fieldError {
	if len(fs) == 0 {
		return nil
	}
	out := make([]fieldError, len(fs))
	for i, f := range fs {
		out[i] = fieldError{Pointer: f.Pointer, Parameter: f.Parameter, Cell: f.Cell, Detail: f.Detail, msg: f.Msg}
	}
	return out
}

// sheetProblem maps a sheet decoding error to a 422 naming the field.
// Callers check that the body is JSON at all first (a 400), so what is
// left is a document of the wrong shape.
func sheetProblem(e *sheetjson.Error) problem {
	f := sheetField(e.Pointer, e)
	p := problem{Type: typeInvalid, Title: titleFor(http.StatusUnprocessableEntity), Status: http.StatusUnprocessableEntity, Detail: f.Detail, msg: f.msg}
	if e.Pointer != "" {
		m := messages.New("api.field", e.Pointer, f.detailArg())
		p.Detail, p.msg = m.English(), m
		p.Errors = []fieldError{f}
	}
	return p
}

// sheetField is a sheet decoding error as the field error at ptr: worded
// from the catalogue when the decoder coded it.
func sheetField(ptr string, e *sheetjson.Error) fieldError {
	if e.Code != "" {
		return fieldMsg(fieldError{Pointer: ptr}, messages.New(e.Code, e.Args...))
	}
	return fieldError{Pointer: ptr, Detail: e.Detail}
}

// sheetInvalid is the 422 of a sheet decoding error at ptr.
func sheetInvalid(ptr string, e *sheetjson.Error) error {
	f := sheetField(ptr, e)
	if ptr == "" {
		return errInvalid(f.detailArg(), f)
	}
	return errInvalid(messages.New("api.field", ptr, f.detailArg()), f)
}

// detailArg is the field's detail as a message argument: its code when
// it has one, else its English.
func (f fieldError) detailArg() messages.M {
	if f.msg.Key != "" {
		return f.msg
	}
	return messages.New("api.text", f.Detail)
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
		return &fieldError{Pointer: e.Pointer, Detail: e.Detail, msg: e.Msg}
	}
	return nil
}

// invalidFields is the 422 for field-level problems found after decoding.
func invalidFields(errs []fieldError) error {
	if len(errs) > maxFieldErrors {
		errs = errs[:maxFieldErrors]
	}
	if len(errs) == 1 {
		var d any = errs[0].Detail
		if errs[0].msg.Key != "" {
			d = errs[0].msg
		}
		return errInvalid(messages.New("api.field", errs[0].Pointer, d), errs...)
	}
	return errInvalid(messages.New("api.problems", len(errs)), errs...)
}
