package tournamentfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"segnapunti/domain"
)

// MaxFileBytes bounds a file Decode reads: a national event of 1,000
// pairs over 8 rounds with four hands a sheet is about 10 MB.
const MaxFileBytes = 64 << 20

// Error is a file that cannot be read or does not hold together. It wraps
// domain.ErrInvalid; Pointer is the RFC 6901 pointer of the offending
// value ("" for the document as a whole), Detail one English sentence.
type Error struct {
	Pointer string
	Detail  string
	// Syntax: the input is not JSON at all (400 rather than 422).
	Syntax bool
}

func (e *Error) Error() string {
	if e.Pointer == "" {
		return "tournament file: " + e.Detail
	}
	return "tournament file: " + e.Pointer + ": " + e.Detail
}

// Unwrap makes every Error a domain.ErrInvalid.
func (e *Error) Unwrap() error { return domain.ErrInvalid }

func errorAt(ptr, format string, args ...any) *Error {
	return &Error{Pointer: ptr, Detail: fmt.Sprintf(format, args...)}
}

// Marshal writes f as the format: two-space indented, fields in the order
// of the types, no HTML escaping, a final newline. Empty lists are written
// [] (never null), so that a file read back and written again is the same
// bytes.
func Marshal(f File) ([]byte, error) {
	normalize(&f)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("tournament file: %w", err)
	}
	return b.Bytes(), nil
}

// normalize turns the nil lists of f into empty ones.
func normalize(f *File) {
	f.Entrants = orEmpty(f.Entrants)
	f.Rounds = orEmpty(f.Rounds)
	f.Sheets = orEmpty(f.Sheets)
	f.Corrections = orEmpty(f.Corrections)
	f.Adjustments = orEmpty(f.Adjustments)
	f.Standings.Rows = orEmpty(f.Standings.Rows)
	if p := f.Tournament.Plan; p != nil {
		p.Phases = orEmpty(p.Phases)
		p.Sessions = orEmpty(p.Sessions)
	}
	for i := range f.Entrants {
		f.Entrants[i].Players = orEmpty(f.Entrants[i].Players)
	}
	for i := range f.Rounds {
		r := &f.Rounds[i]
		r.Tables, r.Byes = orEmpty(r.Tables), orEmpty(r.Byes)
		for j := range r.Tables {
			r.Tables[j].NS, r.Tables[j].EO = orEmpty(r.Tables[j].NS), orEmpty(r.Tables[j].EO)
		}
	}
	for i := range f.Sheets {
		f.Sheets[i].Signatures = orEmpty(f.Sheets[i].Signatures)
	}
	for i := range f.Corrections {
		c := &f.Corrections[i]
		c.Rules = orEmpty(c.Rules)
		if len(c.Before) == 0 {
			c.Before = json.RawMessage("{}")
		}
		if len(c.After) == 0 {
			c.After = json.RawMessage("{}")
		}
	}
	for i := range f.Adjustments {
		e := &f.Adjustments[i].Effect
		e.Flags, e.Rules = orEmpty(e.Flags), orEmpty(e.Rules)
	}
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// decodeOptions: unknown members are refused, names match exactly,
// duplicate names are refused (the library's default).
var decodeOptions = jsonv2.JoinOptions(
	jsonv2.RejectUnknownMembers(true),
	jsonv2.MatchCaseInsensitiveNames(false),
)

// Decode reads a file: at most MaxFileBytes, one JSON document of the
// format's shape (unknown fields, duplicate fields, wrong types refused),
// "format" and "version" as this package writes them. It checks the
// shape only; Check says whether the content holds together. Every
// error is an *Error naming the field.
func Decode(r io.Reader) (File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return File{}, &Error{Detail: "cannot read the file: " + err.Error(), Syntax: true}
	}
	return DecodeBytes(data)
}

// DecodeBytes is Decode of data in memory.
func DecodeBytes(data []byte) (File, error) {
	if len(data) > MaxFileBytes {
		return File{}, &Error{Detail: fmt.Sprintf("the file is larger than %d bytes", MaxFileBytes), Syntax: true}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return File{}, &Error{Detail: "the file is empty", Syntax: true}
	}
	// The format and version first: a file of another format or version
	// is named as such, not by its first unknown field.
	var head struct {
		Format  *string `json:"format"`
		Version *int    `json:"version"`
	}
	if err := jsonv2.Unmarshal(data, &head, jsonv2.RejectUnknownMembers(false)); err != nil {
		return File{}, libraryError(err)
	}
	switch {
	case head.Format == nil:
		return File{}, errorAt("/format", `missing: a tournament file says "format": %q`, Format)
	case *head.Format != Format:
		return File{}, errorAt("/format", "%q is not this format (want %q)", *head.Format, Format)
	case head.Version == nil:
		return File{}, errorAt("/version", "missing: this reader reads version %d", Version)
	case *head.Version != Version:
		return File{}, errorAt("/version", "version %d is not known (this reader reads version %d)", *head.Version, Version)
	}
	var f File
	if err := jsonv2.Unmarshal(data, &f, decodeOptions); err != nil {
		return File{}, libraryError(err)
	}
	return f, nil
}

// libraryError words an error of the JSON library.
func libraryError(err error) *Error {
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) {
		ptr := string(syn.JSONPointer)
		if errors.Is(syn.Err, jsontext.ErrDuplicateName) {
			return errorAt(ptr, "the key %q appears twice", syn.JSONPointer.LastToken())
		}
		if errors.Is(syn.Err, io.ErrUnexpectedEOF) {
			return &Error{Pointer: ptr, Detail: fmt.Sprintf("malformed JSON at byte %d: the document ends too early", syn.ByteOffset), Syntax: true}
		}
		return &Error{Pointer: ptr, Detail: fmt.Sprintf("malformed JSON at byte %d: %s", syn.ByteOffset, strings.TrimPrefix(syn.Err.Error(), "jsontext: ")), Syntax: true}
	}
	var sem *jsonv2.SemanticError
	if errors.As(err, &sem) {
		ptr := string(sem.JSONPointer)
		switch {
		case errors.Is(sem.Err, jsonv2.ErrUnknownName):
			return errorAt(ptr, "unknown field %q", sem.JSONPointer.LastToken())
		case sem.JSONKind != 0 && sem.GoType != nil:
			return errorAt(ptr, "wrong type: %s where %s is wanted", kindName(sem.JSONKind), goTypeName(sem.GoType.String()))
		case sem.Err != nil:
			return errorAt(ptr, "%s", strings.TrimPrefix(sem.Err.Error(), "json: "))
		}
		return errorAt(ptr, "cannot be read")
	}
	return &Error{Detail: err.Error()}
}

func kindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return "a value"
}

func goTypeName(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"), t == "json.RawMessage":
		return "an array or object"
	case strings.Contains(t, "int"):
		return "an integer"
	case t == "string", t == "*string":
		return "a string"
	case t == "bool", t == "*bool":
		return "a boolean"
	}
	return "an object"
}
