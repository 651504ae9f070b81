package sheetjson

import (
	"fmt"
	"maps"
	"strings"

	"segnapunti/domain"
)

// Error is a sheet that cannot be read: bad JSON, a wrong type, an unknown
// field or a value out of range. It wraps domain.ErrInvalid, so
// errors.Is(err, domain.ErrInvalid) holds; the API turns Pointer and Detail
// into a problem+json "errors" entry (API §4).
type Error struct {
	// Pointer is the RFC 6901 JSON pointer of the offending value, with
	// 0-based array indices ("/hands/1/ns/base"; "/sheets/3/hands/0" in a
	// batch). Empty when the problem is the document as a whole.
	Pointer string
	// Detail is one English sentence saying what is wrong.
	Detail string
	// Code and Args are Detail as a code of the message catalogue
	// (package messages, codes "sheet.") and its arguments, for a reader
	// in another language; Code is empty when Detail is another
	// library's English. The engine does not link the catalogue: the
	// formats here are its English (TestSheetFormatsAreTheCatalogues).
	Code string
	Args []any
	// Line and Column locate the problem in the input (1-based; the column
	// counts bytes, as most JSON tools do). Always set for syntax errors,
	// set for type, unknown-field and duplicate-field errors, 0 when unknown
	// (range and required-field checks run on decoded values).
	Line, Column int
	// Syntax is set when the input is not well-formed JSON at all (or is
	// empty): the API answers 400 for it, 422 for a well-formed document
	// of the wrong shape.
	Syntax bool
	// Reason is a syntax error's reason alone, without the position
	// (Detail says both): "unexpected end of input" or the decoder's
	// words. Empty for other errors.
	Reason string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("sheetjson: ")
	if e.Pointer != "" {
		b.WriteString(e.Pointer)
		b.WriteString(": ")
	}
	b.WriteString(e.Detail)
	if pos := fmt.Sprintf("line %d, column %d", e.Line, e.Column); e.Line > 0 && !strings.Contains(e.Detail, pos) {
		b.WriteString(" (" + pos + ")") // syntax errors say it in Detail already
	}
	return b.String()
}

// Unwrap makes every Error a domain.ErrInvalid.
func (e *Error) Unwrap() error { return domain.ErrInvalid }

// problem is an Error before it is placed in the input: ptr is relative to
// the sheet, off is the byte offset in the sheet's bytes (-1 unknown).
type problem struct {
	ptr    string
	detail string
	code   string
	args   []any
	off    int
	syntax bool
}

// newProblem is a problem worded by code (one of Formats) with args.
func newProblem(ptr string, off int, code string, args ...any) *problem {
	format, ok := formats[code]
	if !ok {
		panic("sheetjson: no format for " + code)
	}
	return &problem{ptr: ptr, detail: fmt.Sprintf(format, args...), code: code, args: args, off: off}
}

// rawProblem is a problem another library worded (English only).
func rawProblem(ptr string, off int, detail string) *problem {
	return &problem{ptr: ptr, detail: detail, off: off}
}

// formats are the English of the decoding errors by code; package
// messages has them in Italian and English.
var formats = map[string]string{
	"sheet.hands_planned":   "hands_planned must be 2, 3 or 4, not %d",
	"sheet.round":           "round must be between 1 and %d, not %d",
	"sheet.table":           "table must be between 1 and %d, not %d",
	"sheet.first_dealer":    "unknown first_dealer %q (want n, e, s or o)",
	"sheet.hands":           "a sheet has 1 to %d hands, not %d",
	"sheet.non_negative":    "%s must be 0 or more, not %d: the sheet subtracts it as a magnitude (FITAB art. 18)",
	"sheet.burraco_null":    "a burraco count must be a whole number, not null",
	"sheet.required":        "%s is required",
	"sheet.score_range":     "%s must be between %d and %d, not %d",
	"sheet.out_of_range":    "%s is out of range: %s",
	"sheet.whole":           "%s must be a whole number, not %s",
	"sheet.type":            "%s must be %s, not %s",
	"sheet.unknown_case":    "unknown field %q: field names are lower case, did you mean %q?",
	"sheet.unknown_field":   "unknown field %q: %s has only %s",
	"sheet.duplicate":       "field %q appears twice; give each field once so the sheet has one reading",
	"sheet.unknown_burraco": "unknown burraco type %q (want %s)",
	"sheet.burraco_range":   "a burraco count must be between 0 and %d, not %s",
	"sheet.null":            "%s must be %s, not null",
	"sheet.empty":           "the input is empty: want a sheet object or a batch {\"sheets\": [...]}",
	"sheet.malformed_at":    "malformed JSON at line %d, column %d: %s",
	"api.one_sheet":         "one sheet is stored per table: send the sheet, not a batch",
}

// Formats is the English format of every code of the decoding errors.
func Formats() map[string]string { return maps.Clone(formats) }

// pointer builds an RFC 6901 pointer from reference tokens, escaping "~"
// and "/" in keys (RFC 6901 §3: ~0 and ~1).
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		if strings.ContainsAny(t, "~/") {
			t = strings.ReplaceAll(t, "~", "~0")
			t = strings.ReplaceAll(t, "/", "~1")
		}
		b.WriteString(t)
	}
	return b.String()
}
