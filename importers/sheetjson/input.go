package sheetjson

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// errTooLarge is what lineReader answers when the input runs past the
// bound of one sheet: the library's decoder would otherwise buffer a
// hostile value of any size.
var errTooLarge = errors.New("the sheet is too large")

// lineReader feeds the library's decoder and keeps the input from the start
// of the current sheet on, so that an offset in the library's errors can be
// turned into a line and a column, and a single sheet read again whole.
// Everything before the mark has been counted and dropped: memory is one
// sheet and one read-ahead.
type lineReader struct {
	r       io.Reader
	whole   bool   // pending is the whole input (Decode); r is nil
	pending []byte // the input from offset at on
	at      int64
	served  int64 // bytes handed to the decoder
	// line is the 1-based line of offset at; lineStart the offset of its
	// first byte.
	line      int
	lineStart int64
	rerr      error
	eof       bool   // r has said io.EOF (to fill; Read asks r again)
	buf       []byte // what fill reads into; pending is a part of it
	limit     func() int
}

func (l *lineReader) Read(p []byte) (int, error) {
	if un := l.at + int64(len(l.pending)) - l.served; un > 0 {
		n := copy(p, l.pending[l.served-l.at:])
		l.served += int64(n)
		return n, nil
	}
	if l.whole {
		return 0, io.EOF
	}
	if l.rerr != nil {
		return 0, l.rerr
	}
	if l.served-l.at > int64(l.limit()) {
		return 0, errTooLarge
	}
	n, err := l.r.Read(p)
	l.pending = append(l.pending, p[:n]...)
	l.served += int64(n)
	if err != nil && err != io.EOF {
		l.rerr = err
	}
	return n, err
}

// from returns the kept input from offset off on (off at or after the
// mark).
func (l *lineReader) from(off int64) []byte {
	k := off - l.at
	if k < 0 || k > int64(len(l.pending)) {
		return nil
	}
	return l.pending[k:]
}

// fill reads one more chunk of the input into the kept input, for the fast
// path; false at the end of the input or on an error (which the library's
// decoder then meets and reports).
func (l *lineReader) fill() bool {
	if l.whole || l.rerr != nil || l.eof {
		return false
	}
	if cap(l.pending)-len(l.pending) < 32<<10 {
		// Move the kept input to the front of the buffer when it fits in
		// half of it (mark drops from the front), else grow the buffer.
		if 2*len(l.pending) <= cap(l.buf) {
			l.pending = l.buf[:copy(l.buf, l.pending)]
		} else {
			l.buf = make([]byte, 2*len(l.pending)+128<<10)
			l.pending = l.buf[:copy(l.buf, l.pending)]
		}
	}
	n, err := l.r.Read(l.pending[len(l.pending):cap(l.pending)])
	l.pending = l.pending[:len(l.pending)+n]
	if err == io.EOF {
		l.eof = true
	} else if err != nil {
		l.rerr = err
	}
	return n > 0 || err == nil
}

// skipBOM drops one UTF-8 byte order mark at the start of the input; the
// offsets of the library then count from after it, as columns do.
func (l *lineReader) skipBOM() bool {
	for tries := 0; len(l.pending) < 3 && !l.whole && tries < 100; tries++ {
		var b [3]byte
		n, err := l.r.Read(b[:3-len(l.pending)])
		l.pending = append(l.pending, b[:n]...)
		if err != nil {
			if err != io.EOF {
				l.rerr = err
			}
			break
		}
	}
	if bytes.HasPrefix(l.pending, []byte("\xef\xbb\xbf")) {
		l.pending = l.pending[3:]
	}
	return l.rerr == nil
}

// mark counts the lines of the input before offset off and drops it.
func (l *lineReader) mark(off int64) {
	k := off - l.at
	if k <= 0 || k > int64(len(l.pending)) {
		return
	}
	l.line, l.lineStart = l.count(k)
	l.pending = l.pending[k:]
	l.at = off
}

func (l *lineReader) count(k int64) (line int, lineStart int64) {
	b := l.pending[:k]
	line, lineStart = l.line, l.lineStart
	if n := bytes.Count(b, []byte{'\n'}); n > 0 {
		line += n
		lineStart = l.at + int64(bytes.LastIndexByte(b, '\n')) + 1
	}
	return line, lineStart
}

// position is the line and byte column of input offset off (0, 0 when off
// was dropped already).
func (l *lineReader) position(off int64) (line, col int) {
	k := off - l.at
	if k < 0 {
		return 0, 0
	}
	k = min(k, int64(len(l.pending)))
	line, start := l.count(k)
	return line, int(off-start) + 1
}

// all reads the rest of the input and returns it from the mark on.
func (l *lineReader) all() ([]byte, error) {
	if l.whole {
		return l.pending, nil
	}
	buf := make([]byte, 32<<10)
	for {
		l.served = l.at + int64(len(l.pending)) // all of pending is read here
		_, err := l.Read(buf)
		if err == io.EOF {
			return l.pending, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// libraryProblem words an error of json.Unmarshal on one sheet's bytes.
func libraryProblem(data []byte, err error) *problem {
	var se *json.SemanticError
	if errors.As(err, &se) {
		ptr := se.JSONPointer
		off := skipBlank(data, int(se.ByteOffset))
		if errors.Is(se.Err, json.ErrUnknownName) {
			if s := shapeAt(ptr.Parent()); s != nil && s.kind == kindObject {
				return unknownField(s, string(ptr), ptr.LastToken(), off)
			}
		}
		s := shapeAt(ptr)
		if s == nil {
			return rawProblem(string(ptr), off, se.Err.Error())
		}
		what, number := valueAt(data, off)
		if s.kind == kindInt && number {
			if !strings.ContainsAny(what, ".eE") {
				return newProblem(string(ptr), off, "sheet.out_of_range", s.label, what)
			}
			return newProblem(string(ptr), off, "sheet.whole", s.label, what)
		}
		return newProblem(string(ptr), off, "sheet.type", s.label, expected(s), what)
	}
	var sy *jsontext.SyntacticError
	if errors.As(err, &sy) {
		off := skipBlank(data, int(sy.ByteOffset))
		if errors.Is(sy.Err, jsontext.ErrDuplicateName) {
			return duplicateField(string(sy.JSONPointer), sy.JSONPointer.LastToken(), off)
		}
		return &problem{ptr: schemaPrefix(sy.JSONPointer), detail: syntaxDetail(sy), off: off, syntax: true}
	}
	return rawProblem("", -1, err.Error())
}

// schemaPrefix cuts a syntax error's pointer to the part API §1 knows: a
// bracket nested 10,000 deep is named by the field that holds it.
func schemaPrefix(p jsontext.Pointer) string {
	out := jsontext.Pointer("")
	for tok := range p.Tokens() {
		next := out.AppendToken(tok)
		if shapeAt(next) == nil {
			break
		}
		out = next
	}
	return string(out)
}

// syntaxDetail words a syntax error of the library.
func syntaxDetail(sy *jsontext.SyntacticError) string {
	if errors.Is(sy.Err, io.ErrUnexpectedEOF) {
		return "unexpected end of input"
	}
	return strings.TrimPrefix(sy.Err.Error(), "jsontext: ")
}

// skipBlank returns the offset of the value at or after i, or -1 when i
// is not in data.
func skipBlank(data []byte, i int) int {
	if i < 0 || i > len(data) {
		return -1
	}
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r' || data[i] == ':' || data[i] == ',') {
		i++
	}
	return i
}

// valueAt describes the JSON value at data[off:] the way the messages do.
func valueAt(data []byte, off int) (what string, number bool) {
	if off < 0 || off >= len(data) {
		return "nothing", false
	}
	tok, err := jsontext.NewDecoder(bytes.NewReader(data[off:]), jsontext.AllowInvalidUTF8(true)).ReadToken()
	if err != nil {
		return jsonKind(data[off]), false
	}
	switch k := tok.Kind(); k {
	case '0':
		return tok.String(), true
	case '"':
		if s := tok.String(); len(s) <= 20 {
			return fmt.Sprintf("the string %q", s), false
		}
		return "a string", false
	case 't', 'f':
		return fmt.Sprint(tok.Bool()), false
	default:
		return kindName(k), false
	}
}
