package app

import (
	"errors"
	"fmt"
	"strings"

	"segnapunti/domain"
	"segnapunti/messages"
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
	Cell string `json:"cell,omitempty"`
	// Detail is in English (logs, stored reports); Msg, when set, is the
	// same detail as a catalogue code and its arguments, worded in the
	// reader's language by DetailIn.
	Detail string     `json:"detail"`
	Msg    messages.M `json:"-"`
}

// field is a field refusal worded from the catalogue: key and args.
func field(pointer, key string, args ...any) FieldError {
	m := messages.New(key, args...)
	return FieldError{Pointer: pointer, Detail: m.English(), Msg: m}
}

// cellField is a refusal of a workbook cell worded from the catalogue.
func cellField(cell, key string, args ...any) FieldError {
	f := field("", key, args...)
	f.Cell = cell
	return f
}

// uncoded is a field refusal whose detail another package wrote in
// English without a code (a rule of package domain that returns a plain
// error): the API shows it as written, a page in Italian says the value
// is not valid. Every detail app writes itself has a code
// (TestAppRefusalsAreCoded).
func uncoded(pointer, detail string) FieldError {
	return FieldError{Pointer: pointer, Detail: detail}
}

// uncodedRefusal is a refusal whose message another package wrote in
// English without a code (a tournament file's syntax error), as uncoded.
func uncodedRefusal(kind error, detail string, fields ...FieldError) *Error {
	return &Error{Kind: kind, Detail: detail, Fields: fields}
}

// DetailIn is the field's detail in lang (English when it has no code).
func (f FieldError) DetailIn(lang domain.Lang) string {
	if f.Msg.Key != "" {
		return f.Msg.In(lang)
	}
	return f.Detail
}

// Error is an operation's refusal: a kind (domain.ErrNotFound,
// domain.ErrConflict, domain.ErrInvalid, ErrForbidden, ErrRoundClosed,
// ErrPrecondition), a message for people and the fields it is about. The
// doors map the kind to their answer once.
type Error struct {
	Kind error
	// Detail is the message in English (Error, logs); Msg, when set, is
	// the same message as a catalogue code and its arguments, worded in
	// the reader's language by DetailIn.
	Detail string
	Msg    messages.M
	Fields []FieldError
	// Code names a refusal that pages and clients tell apart (UI.md §9:
	// CONFIRM_OWN_LINE); empty for most.
	Code string
	// Incomplete names the round and tables a 409 of RULES §12.2 is about.
	Incomplete *IncompleteError
}

func (e *Error) Error() string { return e.Kind.Error() + ": " + e.Detail }
func (e *Error) Unwrap() error { return e.Kind }

// DetailIn is the message in lang (English when it has no code).
func (e *Error) DetailIn(lang domain.Lang) string {
	if e.Msg.Key != "" {
		return e.Msg.In(lang)
	}
	return e.Detail
}

// refusal is an Error of kind worded from the catalogue: key is a code of
// package messages and args its arguments. A key that is not a code is
// taken as an English format (a message not yet in the catalogue): the
// refusal still reads, in English only, and TestAppRefusalsAreCoded names
// it.
func refusal(kind error, key string, args ...any) *Error {
	if !messages.Has(key) {
		if len(args) > 0 {
			key = fmt.Sprintf(key, args...)
		}
		return &Error{Kind: kind, Detail: key}
	}
	m := messages.New(key, args...)
	return &Error{Kind: kind, Detail: m.English(), Msg: m}
}

func notFound(key string, a ...any) error { return refusal(domain.ErrNotFound, key, a...) }

func forbidden(key string, a ...any) error { return refusal(ErrForbidden, key, a...) }

func conflict(key string, a ...any) error { return refusal(domain.ErrConflict, key, a...) }

// maxFieldErrors bounds the fields of one answer.
const maxFieldErrors = 100

// invalid is the refusal for field-level problems.
func invalid(errs []FieldError) error {
	if len(errs) > maxFieldErrors {
		errs = errs[:maxFieldErrors]
	}
	m := messages.New("api.problems", len(errs))
	if len(errs) == 1 {
		var d any = errs[0].Detail
		if errs[0].Msg.Key != "" {
			d = errs[0].Msg
		}
		m = messages.New("api.field", errs[0].Pointer, d)
	}
	return &Error{Kind: domain.ErrInvalid, Detail: m.English(), Msg: m, Fields: errs}
}

// ErrBadParameter: a path or query value is not one the operation can
// take at all (a door answers it as a malformed request).
var ErrBadParameter = fmt.Errorf("%w: bad parameter", domain.ErrInvalid)

// paramError is a refusal about one path or query value (key and args as
// refusal's).
func paramError(name, key string, args ...any) error {
	e := refusal(ErrBadParameter, key, args...)
	e.Fields = []FieldError{{Parameter: name, Detail: e.Detail, Msg: e.Msg}}
	return e
}

// action is the action a "only … <action>" refusal names (managed,
// refereed): the catalogue's "action." code of why ("enters entrants" →
// action.enters_entrants), or why itself, in English, when the catalogue
// does not have it yet.
func action(why string) any {
	code := "action." + strings.Map(func(r rune) rune {
		switch {
		case r == ' ' || r == '-':
			return '_'
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			return r
		}
		return -1
	}, why)
	if messages.Has(code) {
		return messages.New(code)
	}
	return why
}

// refereeOnly is the code of the Judge predicate's refusal for t: what
// may do it depends on the tournament's level.
func refereeOnly(t domain.Tournament) string {
	if t.Level == domain.LevelClub {
		return "api.judge_only_club"
	}
	return "api.judge_only"
}

// roundState names a round's state inside a refusal ("api.round_state."
// + state), or the state as given when the catalogue has no name for it.
func roundState(state string) any {
	code := "api.round_state." + strings.ReplaceAll(state, " ", "_")
	if messages.Has(code) {
		return messages.New(code)
	}
	return state
}
