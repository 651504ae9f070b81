package app

import (
	"errors"
	"fmt"

	"segnapunti/domain"
)

// ErrForbidden: the caller may see the thing but not do this to it.
var ErrForbidden = errors.New("forbidden")

// ErrRoundClosed: the round's sheets are final (FITAB art. 20, FIBur-INT
// art. 19); it is a kind of conflict.
var ErrRoundClosed = fmt.Errorf("%w: round closed", domain.ErrConflict)

// ErrPrecondition: the caller's version of a sheet (If-Match, a form's
// hidden version) is not the stored one.
var ErrPrecondition = errors.New("precondition failed")

// FieldError names one offending part of an operation's input: a JSON
// pointer (which is also the name of a page's form field, UI.md) or a
// parameter (a path or query value).
type FieldError struct {
	Pointer   string `json:"pointer,omitempty"`
	Parameter string `json:"parameter,omitempty"`
	// Cell is the spreadsheet cell of an uploaded workbook ("Smazzate!A5").
	Cell   string `json:"cell,omitempty"`
	Detail string `json:"detail"`
}

// Error is an operation's refusal: a kind (domain.ErrNotFound,
// domain.ErrConflict, domain.ErrInvalid, ErrForbidden, ErrRoundClosed,
// ErrPrecondition), a message for people and the fields it is about. The
// doors map the kind to their answer once.
type Error struct {
	Kind   error
	Detail string
	Fields []FieldError
	// Code names a refusal that pages and clients tell apart (UI.md §9:
	// CONFIRM_OWN_LINE); empty for most.
	Code string
	// Incomplete names the round and tables a 409 of RULES §12.2 is about.
	Incomplete *IncompleteError
}

func (e *Error) Error() string { return e.Kind.Error() + ": " + e.Detail }
func (e *Error) Unwrap() error { return e.Kind }

func notFound(format string, a ...any) error {
	return &Error{Kind: domain.ErrNotFound, Detail: fmt.Sprintf(format, a...)}
}

func forbidden(detail string) error { return &Error{Kind: ErrForbidden, Detail: detail} }

func conflict(format string, a ...any) error {
	return &Error{Kind: domain.ErrConflict, Detail: fmt.Sprintf(format, a...)}
}

// maxFieldErrors bounds the fields of one answer.
const maxFieldErrors = 100

// invalid is the refusal for field-level problems.
func invalid(errs []FieldError) error {
	if len(errs) > maxFieldErrors {
		errs = errs[:maxFieldErrors]
	}
	detail := fmt.Sprintf("%d problems in the request body; see errors", len(errs))
	if len(errs) == 1 {
		detail = errs[0].Pointer + ": " + errs[0].Detail
	}
	return &Error{Kind: domain.ErrInvalid, Detail: detail, Fields: errs}
}

// ErrBadParameter: a path or query value is not one the operation can
// take at all (a door answers it as a malformed request).
var ErrBadParameter = fmt.Errorf("%w: bad parameter", domain.ErrInvalid)

// paramError is a refusal about one path or query value.
func paramError(name, detail string) error {
	return &Error{Kind: ErrBadParameter, Detail: detail, Fields: []FieldError{{Parameter: name, Detail: detail}}}
}
