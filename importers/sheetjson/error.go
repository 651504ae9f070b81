package sheetjson

import (
	"fmt"
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
	off    int
	syntax bool
}

func newProblem(ptr string, off int, format string, args ...any) *problem {
	return &problem{ptr: ptr, detail: fmt.Sprintf(format, args...), off: off}
}

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
