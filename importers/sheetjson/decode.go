// Package sheetjson reads and writes score sheets in the JSON interchange of
// API §1: one sheet, or a batch {"sheets": [...]}.
//
// Decoding is strict. A document that does not follow API §1 exactly (an
// unknown or misspelt field, a field given twice, a wrong JSON type, a
// fraction where a whole number belongs, a number out of range, a missing
// required field, an unknown ruleset or hand end, data after the document)
// is an *Error naming the JSON pointer of the first problem; it wraps
// domain.ErrInvalid. Whatever the bytes, decoding never panics.
//
// The common case is fast: a parser made for exactly this schema (fast.go)
// reads a good sheet in one pass straight from the input buffer into the
// wire structs, and the typed values are range-checked. A sheet it is not
// sure of goes to the general path, which decides alone what is accepted
// and what an error says: encoding/json decodes the sheet into the wire
// structs, one linear pass checks key spelling, duplicates and nulls, and
// the same range checks run; only a sheet encoding/json refuses is read a
// third time, token by token, to find where the problem is.
//
// Choices where the JSON standard leaves room:
//   - duplicate keys are an error (a score sheet must have one reading);
//   - key names are case-sensitive ("Base" is an unknown field);
//   - null for an object's field means the field is absent; null as a hand,
//     a player or a burraco count is an error;
//   - an empty string for an optional enumeration (kind, vp_table, end,
//     pozzetto, first_dealer) means absent; "kind" absent is pairs;
//   - "-0" is 0; 1e2 and 100.0 are not whole numbers for the decoder;
//   - one UTF-8 byte order mark at the start of the input is skipped;
//   - strings are decoded as encoding/json does (invalid UTF-8 becomes U+FFFD).
package sheetjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"

	"segnapunti/domain"
)

// MaxSheetBytes bounds one sheet of the input (the whole document for a
// single sheet, one element of a batch). A real sheet is a few kilobytes;
// the bound is what the streaming decoder may hold in memory at once.
const MaxSheetBytes = 16 << 20

// Decode reads a whole document: a sheet, or a batch {"sheets": [...]}.
// batch reports which; a single sheet comes back as a slice of one. In a
// batch the first bad sheet stops decoding and its error's pointer starts
// with /sheets/<index>.
func Decode(data []byte) (sheets []domain.Sheet, batch bool, err error) {
	d := &Decoder{buf: data, eof: true, maxSheet: MaxSheetBytes, fast: fastParsers.Get().(*fastParser)}
	defer fastParsers.Put(d.fast)
	for {
		s, err := d.Next()
		if err == io.EOF {
			if sheets == nil {
				sheets = []domain.Sheet{}
			}
			return sheets, d.batch, nil
		}
		if err != nil {
			return nil, d.batch, err
		}
		sheets = append(sheets, s)
	}
}

// fastParsers keeps the fast path's state between calls of Decode, which
// the API makes once per request.
var fastParsers = sync.Pool{New: func() any { return new(fastParser) }}

// Decoder reads a sheet or a batch from a stream, one sheet at a time,
// holding at most one sheet (and one read buffer) in memory: a batch of
// 100,000 sheets is never loaded whole.
//
// After an *Error about one sheet of a batch whose JSON is well formed (a
// wrong type, an unknown field, a value out of range), Next may be called
// again and goes on with the next sheet. A syntax error, a read error or a
// sheet over MaxSheetBytes ends the stream: every later Next returns the
// same error.
type Decoder struct {
	r   io.Reader
	buf []byte // buf[pos:] is not yet consumed
	pos int
	// base is the input offset of buf[0]; lc is the line position at
	// input offset lcAt (lcAt >= base: bytes are dropped from buf only
	// after lc has moved over them).
	base int64
	lc   lineCol
	lcAt int64
	eof  bool  // nothing more to read
	rerr error // the read error that ended the input, if not io.EOF

	maxSheet int

	started bool
	batch   bool
	done    bool
	n       int   // sheets returned so far: the next one's index
	err     error // sticky

	fast   *fastParser // the fast path's reused state, made at first use
	noFast bool        // tests: the general path alone, as before fast.go
	// fallbacks counts the sheets the fast path left to decodeSheet; a
	// good sheet should never be one of them (the tests count them).
	fallbacks int
}

// NewDecoder returns a decoder reading r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{r: r, maxSheet: MaxSheetBytes}
}

// Batch reports whether the input is a batch {"sheets": [...]}. It reads
// as far as the first key when nothing has been read yet; if the input
// cannot be read that far it reports false and Next returns the error.
func (d *Decoder) Batch() bool {
	if !d.started && d.err == nil {
		d.err = d.begin()
	}
	return d.batch
}

// Next returns the next sheet, or io.EOF after the last one. An input
// that is not a sheet or a batch is an *Error.
func (d *Decoder) Next() (domain.Sheet, error) {
	if !d.started && d.err == nil {
		d.err = d.begin()
	}
	if d.err != nil {
		return domain.Sheet{}, d.err
	}
	if d.done {
		return domain.Sheet{}, io.EOF
	}
	if !d.batch {
		s, err := d.sheet(-1)
		if err == nil {
			err = d.end("sheet")
		}
		d.done = true
		if err != nil {
			d.err = err
			return domain.Sheet{}, err
		}
		return s, nil
	}
	c, ok := d.peek()
	if d.n > 0 {
		switch {
		case !ok:
			return d.fail(d.syntax("/sheets", "unexpected end of input in the sheets array"))
		case c == ']':
			return d.close()
		case c != ',':
			return d.fail(d.syntax("/sheets", fmt.Sprintf("invalid character %s after a sheet: want , or ]", quoteChar(c))))
		}
		d.pos++
		if c, ok = d.peek(); ok && c == ']' {
			return d.fail(d.syntax("/sheets", "a comma before ] is not allowed in JSON"))
		}
	} else if ok && c == ']' {
		return d.close()
	}
	if !ok {
		return d.fail(d.syntax("/sheets", "unexpected end of input in the sheets array"))
	}
	s, err := d.sheet(d.n)
	d.n++
	if err != nil {
		return domain.Sheet{}, err
	}
	return s, nil
}

func (d *Decoder) fail(err error) (domain.Sheet, error) {
	d.err = err
	return domain.Sheet{}, err
}

// close reads the end of a batch: "]", "}" and nothing but blanks after.
func (d *Decoder) close() (domain.Sheet, error) {
	d.pos++ // ']'
	c, ok := d.peek()
	switch {
	case !ok:
		return d.fail(d.syntax("", "unexpected end of input: the batch object is not closed"))
	case c == ',':
		return d.fail(d.syntax("", `a batch has only the field "sheets"`))
	case c != '}':
		return d.fail(d.syntax("", fmt.Sprintf("invalid character %s after the sheets array: want }", quoteChar(c))))
	}
	d.pos++
	if err := d.end("batch"); err != nil {
		return d.fail(err)
	}
	d.done = true
	return domain.Sheet{}, io.EOF
}

// end checks that nothing but blanks follows the document.
func (d *Decoder) end(what string) error {
	if c, ok := d.peek(); ok {
		return d.syntax("", fmt.Sprintf("unexpected %s after the end of the %s: a document holds one sheet or one batch", quoteChar(c), what))
	}
	if d.rerr != nil {
		return d.readError()
	}
	return nil
}

// begin reads the start of the document and decides between a sheet and a
// batch by the first key: a sheet never has a "sheets" field.
func (d *Decoder) begin() error {
	d.started = true
	d.lc.line = 1
	if d.avail(3) && bytes.HasPrefix(d.buf[d.pos:], []byte("\xef\xbb\xbf")) {
		d.pos += 3
		d.lc.lineStart = d.base + int64(d.pos)
	}
	c, ok := d.peek()
	if !ok {
		if d.rerr != nil {
			return d.readError()
		}
		return &Error{Detail: `the input is empty: want a sheet object or a batch {"sheets": [...]}`}
	}
	if c != '{' {
		if what := jsonKind(c); what != "" {
			return d.at("", d.pos, false, fmt.Sprintf(`the document must be a sheet object or a batch {"sheets": [...]}, not %s`, what))
		}
		return d.syntax("", fmt.Sprintf("invalid character %s at the start of the document", quoteChar(c)))
	}
	// Look at the first key without consuming it.
	var i, end int
	for {
		i = d.skipBlank(d.pos + 1)
		if i < len(d.buf) {
			if d.buf[i] != '"' {
				return nil // not a batch; the sheet decoder reports any problem
			}
			if end = stringEnd(d.buf, i); end >= 0 {
				break
			}
		}
		if i-d.pos > d.maxSheet || !d.more(d.pos) {
			return nil // a key this long is not "sheets"
		}
	}
	raw := d.buf[i+1 : end-1]
	if string(raw) != "sheets" && !(bytes.IndexByte(raw, '\\') >= 0 && unquote(raw) == "sheets") {
		return nil
	}
	d.batch = true
	d.pos = end
	if c, ok := d.peek(); !ok || c != ':' {
		return d.syntax("", `want : after "sheets"`)
	}
	d.pos++
	c, ok = d.peek()
	if !ok {
		return d.syntax("/sheets", "unexpected end of input after \"sheets\":")
	}
	if c != '[' {
		if what := jsonKind(c); what != "" {
			return d.at("/sheets", d.pos, false, "sheets must be an array of sheets, not "+what)
		}
		return d.syntax("/sheets", fmt.Sprintf("invalid character %s after \"sheets\":", quoteChar(c)))
	}
	d.pos++
	return nil
}

// sheet captures the next value, which starts at d.pos, and decodes it as
// one sheet: the index-th of a batch, or the document when index is -1.
func (d *Decoder) sheet(index int) (domain.Sheet, error) {
	prefix := sheetPointer(index)
	if jsonKind(d.buf[d.pos]) == "" {
		err := d.syntax(prefix(), fmt.Sprintf("invalid character %s where a sheet should start", quoteChar(d.buf[d.pos])))
		d.err = err
		return domain.Sheet{}, err
	}
	// The fast path reads a good sheet straight from the buffer; on any
	// doubt it leaves d as it was and the general path below decides
	// (fast.go). It also finds the sheet's end, so capture is skipped.
	retry := false
	if d.buf[d.pos] == '{' && !d.noFast {
		if d.fast == nil {
			d.fast = new(fastParser)
		}
		s, n, st := d.fast.parse(d.buf[d.pos:])
		if st == fastOK && n <= d.maxSheet {
			d.pos += n
			return s, nil
		}
		// The buffer ended inside the sheet: try again once capture has
		// read all of it.
		retry = st == fastShort
	}
	start, end, err := d.capture(index)
	if err == nil && end-start > d.maxSheet {
		err = d.tooLarge(prefix(), start)
	}
	if err != nil {
		d.err = err
		return domain.Sheet{}, err
	}
	d.pos = end
	data := d.buf[start:end]
	if data[0] != '{' {
		return domain.Sheet{}, d.at(prefix(), start, false, "a sheet must be a JSON object, not "+jsonKind(data[0]))
	}
	if retry {
		if s, n, st := d.fast.parse(data); st == fastOK && n == len(data) {
			return s, nil
		}
	}
	d.fallbacks++
	s, p := decodeSheet(data)
	if p == nil {
		return s, nil
	}
	e := &Error{Pointer: prefix() + p.ptr, Detail: p.detail}
	if p.off >= 0 {
		e = d.at(e.Pointer, start+p.off, p.syntax, p.detail)
	}
	if p.syntax {
		d.err = e
	}
	return domain.Sheet{}, e
}

// sheetPointer returns the pointer of the index-th sheet of a batch ("" for
// a single sheet), built only when an error needs it.
func sheetPointer(index int) func() string {
	return func() string {
		if index < 0 {
			return ""
		}
		return "/sheets/" + strconv.Itoa(index)
	}
}

// decodeSheet decodes one sheet object: encoding/json into the wire
// structs, then the checks encoding/json does not make, then the typed
// checks; only when encoding/json refuses does the slow locate run.
func decodeSheet(data []byte) (domain.Sheet, *problem) {
	var w wireSheet
	if err := json.Unmarshal(data, &w); err != nil {
		return domain.Sheet{}, locate(data, err)
	}
	if p := checkKeys(data); p != nil {
		return domain.Sheet{}, p
	}
	return convert(&w, true)
}

// capture finds the end of the JSON value starting at d.pos, reading more
// input as needed. It only balances brackets outside strings: the value's
// own syntax is for encoding/json to judge.
func (d *Decoder) capture(index int) (start, end int, err *Error) {
	start = d.pos
	i := start
	depth := 0
	inString, escaped := false, false
	container := d.buf[start] == '{' || d.buf[start] == '['
	for {
		if i >= len(d.buf) {
			if i-start > d.maxSheet {
				return 0, 0, d.tooLarge(sheetPointer(index)(), start)
			}
			kept := d.pos
			more := d.more(start)
			shift := kept - d.pos // more moved the kept bytes to the front
			start -= shift
			i -= shift
			if !more {
				if d.rerr != nil {
					return 0, 0, d.readError()
				}
				if !container && !inString {
					return start, i, nil // a number or literal ending the input
				}
				return 0, 0, d.at(sheetPointer(index)(), i, true, "unexpected end of input inside the sheet")
			}
			continue
		}
		if container && !inString {
			// Numbers, blanks, colons and commas cannot end the value.
			for i < len(d.buf) && !structural[d.buf[i]] {
				i++
			}
			if i >= len(d.buf) {
				continue
			}
		}
		c := d.buf[i]
		i++
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if depth == 0 {
					return start, i, nil
				}
			}
		case c == '"':
			// Most strings end in the buffer: find the quote at memchr
			// speed, and fall back to byte-by-byte only across a refill.
			if e := stringEnd(d.buf, i-1); e >= 0 {
				i = e
				if depth == 0 {
					return start, i, nil
				}
			} else {
				inString = true
			}
		case !container:
			switch c {
			case ',', ']', '}', ' ', '\t', '\n', '\r':
				return start, i - 1, nil // the end of a number or literal
			}
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return start, i, nil
			}
		}
	}
}

func (d *Decoder) tooLarge(prefix string, start int) *Error {
	return d.at(prefix, start, false, fmt.Sprintf("the sheet is larger than %d bytes", d.maxSheet))
}

// structural marks the bytes capture must look at inside a container.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// peek skips blanks and returns the next byte without consuming it.
func (d *Decoder) peek() (byte, bool) {
	for {
		d.pos = d.skipBlank(d.pos)
		if d.pos < len(d.buf) {
			return d.buf[d.pos], true
		}
		if !d.more(d.pos) {
			return 0, false
		}
	}
}

func (d *Decoder) skipBlank(i int) int {
	for i < len(d.buf) {
		switch d.buf[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// avail makes n bytes available at d.pos if the input has them.
func (d *Decoder) avail(n int) bool {
	for len(d.buf)-d.pos < n {
		if !d.more(d.pos) {
			return false
		}
	}
	return true
}

// more reads more input, keeping buf[keep:] valid (d.pos must be >= keep).
// Kept bytes may move to the front of buf: d.pos follows them, and callers
// holding other indices shift them by as much as d.pos moved. It reports
// false at the end of the input.
func (d *Decoder) more(keep int) bool {
	if d.eof || d.r == nil {
		return false
	}
	if keep > 0 {
		// Bytes before keep leave the buffer: move the line count over them.
		if from := d.lcAt - d.base; from < int64(keep) {
			d.lc.advance(d.buf[from:keep], d.lcAt)
			d.lcAt = d.base + int64(keep)
		}
		n := copy(d.buf, d.buf[keep:])
		d.buf = d.buf[:n]
		d.pos -= keep
		d.base += int64(keep)
	}
	if free := cap(d.buf) - len(d.buf); free < max(cap(d.buf)/4, 4096) {
		grown := make([]byte, len(d.buf), max(2*cap(d.buf), 64<<10))
		copy(grown, d.buf)
		d.buf = grown
	}
	for tries := 0; tries < 100; tries++ {
		n, err := d.r.Read(d.buf[len(d.buf):cap(d.buf)])
		d.buf = d.buf[:len(d.buf)+n]
		if err != nil {
			d.eof = true
			if err != io.EOF {
				d.rerr = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	d.eof, d.rerr = true, io.ErrNoProgress
	return false
}

// at makes an *Error at buffer index i.
func (d *Decoder) at(ptr string, i int, syntax bool, detail string) *Error {
	off := d.base + int64(i)
	lc := d.lc
	if from := d.lcAt - d.base; from < int64(i) {
		lc.advance(d.buf[from:i], d.lcAt)
	}
	e := &Error{Pointer: ptr, Detail: detail, Line: lc.line, Column: lc.column(off)}
	if syntax {
		e.Detail = fmt.Sprintf("malformed JSON at line %d, column %d: %s", e.Line, e.Column, detail)
	}
	return e
}

// syntax is a syntax error at the current position.
func (d *Decoder) syntax(ptr, detail string) *Error {
	if d.rerr != nil && d.pos >= len(d.buf) {
		return d.readError()
	}
	return d.at(ptr, d.pos, true, detail)
}

func (d *Decoder) readError() *Error {
	return &Error{Detail: "the input could not be read: " + d.rerr.Error()}
}

// jsonKind names the JSON value that starts with c, or "" when no value
// starts with it.
func jsonKind(c byte) string {
	switch {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 'n':
		return "null"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	}
	return ""
}

func quoteChar(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}
