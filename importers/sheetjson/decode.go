// Package sheetjson reads and writes score sheets in the JSON interchange of
// API §1: one sheet, or a batch {"sheets": [...]}.
//
// Decoding is strict. A document that does not follow API §1 exactly (an
// unknown or misspelt field, a field given twice, a wrong JSON type, a
// fraction where a whole number belongs, a number out of range, a missing
// required field, an unknown ruleset or hand end, invalid UTF-8, data after
// the document) is an *Error naming the JSON pointer of the first problem;
// it wraps domain.ErrInvalid. Whatever the bytes, decoding never panics.
//
// All JSON is read by github.com/go-json-experiment/json (encoding/json
// v2): jsontext.Decoder frames the document and a batch one sheet at a
// time, json.Unmarshal fills the wire structs refusing unknown and
// duplicate members, and convert checks ranges and enumerations. The
// library's errors carry the JSON pointer and byte offset; this package
// only words them and turns offsets into lines and columns. A first pass
// (fast.go) reads well-formed sheets it is sure of into the same wire
// structs and declines anything else to the library: it is kept for speed
// (fast.go has the numbers) and never changes a sheet or an error.
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
//   - invalid UTF-8 in a string is an error, not U+FFFD.
package sheetjson

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"segnapunti/domain"
)

// MaxSheetBytes bounds one sheet of the input (the whole document for a
// single sheet, one element of a batch). A real sheet is a few kilobytes;
// the bound is what the streaming decoder may hold in memory at once.
const MaxSheetBytes = 16 << 20

// unmarshalOptions make the library as strict as API §1: unknown members
// are refused; duplicates, invalid UTF-8 and case-folded names are refused
// by the library's defaults, stated here so that no default can change
// under us.
var unmarshalOptions = json.JoinOptions(
	json.RejectUnknownMembers(true),
	json.MatchCaseInsensitiveNames(false),
	jsontext.AllowDuplicateNames(false),
	jsontext.AllowInvalidUTF8(false),
)

// Decode reads a whole document: a sheet, or a batch {"sheets": [...]}.
// batch reports which; a single sheet comes back as a slice of one. In a
// batch the first bad sheet stops decoding and its error's pointer starts
// with /sheets/<index>.
func Decode(data []byte) (sheets []domain.Sheet, batch bool, err error) {
	if s, ok := decodeWhole(data, nil); ok {
		return []domain.Sheet{s}, false, nil
	}
	d := newDecoder(nil, data)
	d.triedWhole = true
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

// Decoder reads a sheet or a batch from a stream, one sheet at a time,
// holding at most one sheet (and the library's read buffer) in memory: a
// batch of 100,000 sheets is never loaded whole.
//
// After an *Error about one sheet of a batch whose JSON is well formed (a
// wrong type, an unknown field, a value out of range), Next may be called
// again and goes on with the next sheet. A syntax error, a read error or a
// sheet over MaxSheetBytes ends the stream: every later Next returns the
// same error.
type Decoder struct {
	in  *lineReader
	dec *jsontext.Decoder
	// offBase is the input offset of the decoder's offset 0: not 0 after
	// resync has restarted the decoder behind a made-up prefix.
	offBase int64
	// idxBase is what the library's sheet index is short of the real one
	// after a restart behind a made-up prefix.
	idxBase int

	// pos is how far the batch has been read: just after "[" or after the
	// last sheet. The fast path reads on from pos in the kept input; lib
	// says whether the library's decoder stands at pos too.
	pos int64
	lib bool

	maxSheet int

	fast fastParser
	// noFast turns the fast path off: the library decodes each framed
	// sheet (the reference of the differential tests). onePass is the
	// path before the fast path, the library decoding each sheet straight
	// from the stream (for the benchmarks that compare the two).
	noFast, onePass bool
	// triedWhole: decodeWhole has read the whole input and declined.
	triedWhole bool

	started bool
	batch   bool
	done    bool
	n       int   // sheets returned so far: the next one's index
	err     error // sticky
}

// NewDecoder returns a decoder reading r, in reads of 64 KiB: the
// library's decoder asks for what its buffer has free, often a few bytes,
// and a syscall each cost the CLI three times its decode time.
func NewDecoder(r io.Reader) *Decoder { return newDecoder(bufio.NewReaderSize(r, 64<<10), nil) }

func newDecoder(r io.Reader, data []byte) *Decoder {
	d := &Decoder{maxSheet: MaxSheetBytes}
	d.in = &lineReader{r: r, pending: data, whole: r == nil, line: 1, limit: d.sheetLimit}
	return d
}

// sheetLimit is how far past the start of the current sheet the input may
// be read: the sheet bound and one read-ahead buffer.
func (d *Decoder) sheetLimit() int { return d.maxSheet + 64<<10 }

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
		d.done = true
		s, err := d.single()
		if err != nil {
			d.err = err
			return domain.Sheet{}, err
		}
		return s, nil
	}
	if !d.noFast && !d.onePass {
		if s, ok := d.nextFast(); ok {
			return s, nil
		}
		if err := d.restart(); err != nil {
			return d.fail(err)
		}
	}
	prefix := "/sheets/" + strconv.Itoa(d.n)
	switch d.dec.PeekKind() {
	case ']':
		return d.close()
	case 0:
		_, err := d.dec.ReadToken() // the library's syntax error
		return d.fail(d.syntax(err, "/sheets"))
	case '{':
	default:
		v, err := d.dec.ReadValue()
		if err != nil {
			return d.fail(d.syntax(err, prefix))
		}
		d.n++
		at := d.off() - int64(len(v))
		return domain.Sheet{}, d.at(prefix, at, false, "a sheet must be a JSON object, not "+jsonKind(v[0]))
	}
	if d.onePass {
		return d.nextLibrary(prefix)
	}
	// The library frames the sheet (syntax, UTF-8, duplicate names, the
	// size bound); the fast path reads the framed bytes, or declines and
	// the library decodes them (fast.go says why, with the numbers).
	unread := d.dec.UnreadBuffer()
	at := d.off() + int64(len(unread)-len(bytes.TrimLeft(unread, " \t\r\n,")))
	v, err := d.dec.ReadValue()
	if err != nil {
		return d.fail(d.sheetSyntax(err, prefix, at))
	}
	d.n++
	end := d.off()
	start := end - int64(len(v))
	if len(v) > d.maxSheet {
		return d.fail(d.at(prefix, start, false, fmt.Sprintf("the sheet is larger than %d bytes", d.maxSheet)))
	}
	d.in.mark(start) // the bound of lineReader counts from here
	d.pos = end
	return d.decodeAt(v, start, prefix)
}

// sheetSyntax words a syntax error in the sheet at input offset start.
// The error is found again by a fresh decoder over the sheet's bytes: the
// pointer the library gives depends on what its decoder read before (after
// a restart, "/sheets/1/ruleset" where the first decoder says "/sheets/1",
// or "/sheets/1/" where it says "/sheets/1/hands"; FuzzFastAgrees found
// both), so the sheet alone decides it, whichever decoder met the error.
func (d *Decoder) sheetSyntax(err error, prefix string, start int64) *Error {
	var se *jsontext.SyntacticError
	if d.in.rerr != nil || errors.Is(err, errTooLarge) || !errors.As(err, &se) {
		return d.syntax(err, prefix)
	}
	scan := jsontext.NewDecoder(bytes.NewReader(d.in.from(start)), unmarshalOptions)
	if _, serr := scan.ReadValue(); serr != nil {
		return d.libraryError(serr, prefix, start, true)
	}
	return d.syntax(err, prefix)
}

// nextFast reads the next sheet of a batch with the fast path straight
// from the kept input, when it is a well-formed sheet the fast path is
// sure of; ok false leaves everything as it was, for the library.
func (d *Decoder) nextFast() (domain.Sheet, bool) {
	for {
		data := d.in.from(d.pos)
		i := 0
		for i < len(data) && isBlank(data[i]) {
			i++
		}
		if d.n > 0 {
			if i < len(data) && data[i] == ',' {
				i++
			} else if i < len(data) {
				return domain.Sheet{}, false
			}
			for i < len(data) && isBlank(data[i]) {
				i++
			}
		}
		if i < len(data) && data[i] != '{' {
			return domain.Sheet{}, false
		}
		var s domain.Sheet
		var n int
		var ok bool
		if i < len(data) {
			s, n, ok = d.fast.decodeValue(data[i:])
			if ok && n <= d.maxSheet {
				start := d.pos + int64(i)
				d.pos = start + int64(n)
				d.lib = false
				d.n++
				d.in.mark(start)
				return s, true
			}
			if !d.fast.short {
				return domain.Sheet{}, false
			}
		}
		// The sheet may go on past what has been read: read more, up to
		// the bound of one sheet.
		if len(data) > d.maxSheet || !d.in.fill() {
			return domain.Sheet{}, false
		}
	}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// restart puts the library's decoder at pos after the fast path has read
// on without it: a new decoder reads the kept input from pos behind a
// made-up prefix that puts it inside the sheets array.
func (d *Decoder) restart() error {
	if d.lib {
		return nil
	}
	prefix := resyncPrefix // after an element
	if d.n == 0 {
		prefix = `{"sheets":[`
	}
	d.in.served = d.pos
	d.dec = jsontext.NewDecoder(io.MultiReader(strings.NewReader(prefix), d.in), unmarshalOptions)
	d.offBase = d.pos - int64(len(prefix))
	d.idxBase = d.n
	for range 3 { // {  "sheets"  [
		if _, err := d.dec.ReadToken(); err != nil {
			return d.syntax(err, "/sheets")
		}
	}
	if d.n > 0 {
		d.idxBase = d.n - 1
		if err := d.dec.SkipValue(); err != nil { // the made-up element of the prefix
			return d.syntax(err, "/sheets")
		}
	}
	d.lib = true
	return nil
}

// nextLibrary decodes the next sheet of a batch with the library alone,
// in one pass straight from the stream: the path before the fast path,
// kept for BenchmarkDecoderPaths. Its syntax errors inside a sheet can
// differ in wording from the framing decoder's (a stray ',' reported
// before the ']' after it).
func (d *Decoder) nextLibrary(prefix string) (domain.Sheet, error) {
	d.in.mark(d.off()) // the bound of lineReader counts from here
	var w wireSheet
	err := json.UnmarshalDecode(d.dec, &w) // the options are the decoder's (begin, resync)
	d.n++
	start := d.in.at + int64(len(d.in.pending)-len(bytes.TrimLeft(d.in.pending, " \t\r\n,")))
	end := d.off()
	if err == nil && end-start > int64(d.maxSheet) {
		return d.fail(d.at(prefix, start, false, fmt.Sprintf("the sheet is larger than %d bytes", d.maxSheet)))
	}
	if err != nil {
		var se *json.SemanticError
		if !errors.As(err, &se) || d.in.rerr != nil {
			return d.fail(d.syntax(err, prefix))
		}
		// A well-formed sheet of the wrong shape: name the problem, then
		// skip the rest of the sheet so that Next goes on with the next.
		d.in.mark(start)
		p := libraryProblem(d.in.pending, shift(se, start-d.offBase))
		if err := d.resync(start, prefix); err != nil {
			var e *Error
			if !errors.As(err, &e) {
				e = &Error{Pointer: prefix, Detail: "malformed JSON: " + err.Error(), Syntax: true}
			}
			return d.fail(e)
		}
		return d.problemError(p, start, prefix)
	}
	d.in.mark(start)
	d.fast.def.apply(&w)
	s, p := convert(&w)
	if p != nil {
		return d.problemError(p, start, prefix)
	}
	return s, nil
}

// off is the input offset the decoder has read to.
func (d *Decoder) off() int64 { return d.offBase + d.dec.InputOffset() }

// resyncPrefix puts a restarted decoder inside the sheets array, after an
// element, where the stream goes on after a skipped sheet. The made-up
// element is an object: a number would run on into what follows ("0."
// for a stray "." after a sheet; FuzzFastAgrees found it).
const resyncPrefix = `{"sheets":[{}`

// resync skips the sheet at input offset start after a semantic error. The
// library's decoder cannot go on after one (its state is spent), so the
// sheet's end is found by a second decoder reading the kept input from
// start, and a new decoder reads on from there behind resyncPrefix.
func (d *Decoder) resync(start int64, prefix string) error {
	d.in.served = start
	scan := jsontext.NewDecoder(d.in, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if err := scan.SkipValue(); err != nil {
		return d.libraryError(err, prefix, start, true)
	}
	end := start + scan.InputOffset()
	d.in.served = end
	d.dec = jsontext.NewDecoder(io.MultiReader(strings.NewReader(resyncPrefix), d.in), unmarshalOptions)
	d.offBase = end - int64(len(resyncPrefix))
	d.idxBase = d.n - 1
	for range 3 { // {  "sheets"  [
		if _, err := d.dec.ReadToken(); err != nil {
			return d.syntax(err, prefix)
		}
	}
	return d.dec.SkipValue() // the made-up element of the prefix
}

// shift makes a semantic error's offset relative to the sheet at start.
func shift(se *json.SemanticError, start int64) error { // and its pointer relative to the sheet
	c := *se
	c.ByteOffset -= start
	if p := string(c.JSONPointer); strings.HasPrefix(p, "/sheets/") {
		i := strings.IndexByte(p[len("/sheets/"):], '/')
		if i < 0 {
			c.JSONPointer = ""
		} else {
			c.JSONPointer = jsontext.Pointer(p[len("/sheets/")+i:])
		}
	}
	return &c
}

// problemError places a problem of the sheet at input offset start.
func (d *Decoder) problemError(p *problem, start int64, prefix string) (domain.Sheet, error) {
	e := &Error{Pointer: prefix + p.ptr, Detail: p.detail}
	if p.off >= 0 {
		e = d.at(e.Pointer, start+int64(p.off), p.syntax, p.detail)
	}
	if !p.syntax {
		e.Code, e.Args = p.code, p.args
	}
	if p.syntax {
		d.err = e
	}
	return domain.Sheet{}, e
}

// decodeAt decodes one sheet v found at input offset start.
func (d *Decoder) decodeAt(v []byte, start int64, prefix string) (domain.Sheet, error) {
	if !d.noFast {
		if s, ok := d.fast.decode(v); ok {
			return s, nil
		}
	}
	s, p := decodeSheetWith(v, d.fast.def)
	if p == nil {
		return s, nil
	}
	return d.problemError(p, start, prefix)
}

func (d *Decoder) fail(err error) (domain.Sheet, error) {
	d.err = err
	return domain.Sheet{}, err
}

// begin reads the start of the document and decides between a sheet and a
// batch by the first key: a sheet never has a "sheets" field.
func (d *Decoder) begin() error {
	d.started = true
	if !d.in.skipBOM() && d.in.rerr != nil {
		return d.readError()
	}
	if d.in.whole {
		// The library reads a *bytes.Buffer in place, without copying.
		d.dec = jsontext.NewDecoder(bytes.NewBuffer(d.in.pending), unmarshalOptions)
	} else {
		d.dec = jsontext.NewDecoder(d.in, unmarshalOptions)
	}
	switch k := d.dec.PeekKind(); k {
	case '{':
	case 0:
		_, err := d.dec.ReadToken()
		if err == io.EOF {
			if d.in.rerr != nil {
				return d.readError()
			}
			p := newProblem("", -1, "sheet.empty")
			return &Error{Detail: p.detail, Code: p.code, Syntax: true}
		}
		return d.syntax(err, "")
	case '}', ']':
		_, err := d.dec.ReadToken()
		return d.syntax(err, "")
	default:
		at := d.off() + int64(len(d.dec.UnreadBuffer())-len(bytes.TrimLeft(d.dec.UnreadBuffer(), " \t\r\n")))
		// A value that is not even well-formed is a syntax error first.
		if err := d.dec.SkipValue(); err != nil {
			return d.syntax(err, "")
		}
		return d.at("", at, false, fmt.Sprintf(`the document must be a sheet object or a batch {"sheets": [...]}, not %s`, kindName(k)))
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return d.syntax(err, "")
	}
	if d.dec.PeekKind() != '"' {
		return nil // not a batch; the sheet decoder reports any problem
	}
	key, err := d.dec.ReadToken()
	if err != nil {
		if d.in.rerr != nil {
			return d.readError()
		}
		return nil // a single sheet whose first key is bad: single reports it
	}
	if key.String() != "sheets" {
		return nil
	}
	d.batch = true
	if k := d.dec.PeekKind(); k != '[' {
		if k == 0 {
			_, err := d.dec.ReadToken()
			return d.syntax(err, "/sheets")
		}
		at := d.off() + int64(len(d.dec.UnreadBuffer())-len(bytes.TrimLeft(d.dec.UnreadBuffer(), " \t\r\n:")))
		return d.at("/sheets", at, false, "sheets must be an array of sheets, not "+kindName(k))
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return d.syntax(err, "/sheets")
	}
	d.pos, d.lib = d.off(), true
	return nil
}

// wholeFast reads a whole document (Decode, DecodeSheet) that is one
// sheet in ONE pass: the fast path straight from the input, with no
// library decoder framing it first (issue 26: validate scanned each body
// twice). The fast path accepts only a well-formed sheet it is sure of,
// followed by nothing but blanks — never a batch, whose "sheets" is no
// sheet key — and returns exactly the library path's sheet (FuzzFastAgrees,
// TestFastAgrees); ok false leaves the decoder untouched, and the usual
// path then reads the document and words any error as before.
func (d *Decoder) wholeFast() (domain.Sheet, bool) {
	if d.noFast || d.onePass || d.started || !d.in.whole || d.triedWhole {
		return domain.Sheet{}, false
	}
	return decodeWhole(d.in.pending, d.fast.def)
}

// decodeWhole is wholeFast before any Decoder is made, with a parser from
// fastParsers: a request's body that is one good sheet (most of them)
// then costs neither a Decoder nor fresh parser buffers (burraco maps,
// number chunks; issue 26: allocations per validate).
func decodeWhole(data []byte, def *Defaults) (domain.Sheet, bool) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) > MaxSheetBytes {
		return domain.Sheet{}, false
	}
	p := fastParsers.Get().(*fastParser)
	p.def = def
	s, ok := p.decode(data)
	p.def = nil
	fastParsers.Put(p)
	return s, ok
}

// fastParsers keeps parsers between whole documents. Reusing one is what
// a batch already does from sheet to sheet: convert copies out all it
// keeps but the optional numbers and flags, which point into chunks whose
// elements are handed out once, so no sheet shares memory with a later
// one.
var fastParsers = sync.Pool{New: func() any { return new(fastParser) }}

// single decodes a document that is one sheet. The framing decoder has
// read past its first key, so the sheet is read again from its start:
// the input holds one sheet of at most MaxSheetBytes, kept by lineReader.
func (d *Decoder) single() (domain.Sheet, error) {
	data, err := d.in.all()
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return domain.Sheet{}, d.at("", d.in.at, false, fmt.Sprintf("the sheet is larger than %d bytes", d.maxSheet))
		}
		return domain.Sheet{}, d.readError()
	}
	base := d.in.at
	dec := jsontext.NewDecoder(bytes.NewReader(data), unmarshalOptions)
	v, err := dec.ReadValue()
	if err != nil {
		return domain.Sheet{}, d.syntaxAt(err, "", base)
	}
	start := base + dec.InputOffset() - int64(len(v))
	// v is valid only until the next read of dec: decode it first.
	s, err := d.decodeAt(v, start, "")
	if err != nil {
		return s, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		end := int(start-base) + len(v)
		rest := data[end:]
		at := base + int64(end+len(rest)-len(bytes.TrimLeft(rest, " \t\r\n")))
		c := data[at-base]
		return domain.Sheet{}, d.at("", at, true, fmt.Sprintf("unexpected %s after the end of the sheet: a document holds one sheet or one batch", quoteChar(c)))
	}
	return s, nil
}

// close reads the end of a batch: "]", "}" and nothing but blanks after.
func (d *Decoder) close() (domain.Sheet, error) {
	if _, err := d.dec.ReadToken(); err != nil {
		return d.fail(d.syntax(err, "/sheets"))
	}
	switch d.dec.PeekKind() {
	case '}':
	case '"':
		return d.fail(d.syntax(nil, `a batch has only the field "sheets"`))
	default:
		_, err := d.dec.ReadToken()
		return d.fail(d.syntax(err, ""))
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return d.fail(d.syntax(err, ""))
	}
	if _, err := d.dec.ReadToken(); err != io.EOF {
		if d.in.rerr != nil {
			return d.fail(d.readError())
		}
		at := d.off() + int64(len(d.dec.UnreadBuffer())-len(bytes.TrimLeft(d.dec.UnreadBuffer(), " \t\r\n")))
		c := byte('?')
		if b := bytes.TrimLeft(d.dec.UnreadBuffer(), " \t\r\n"); len(b) > 0 {
			c = b[0]
		}
		return d.fail(d.at("", at, true, fmt.Sprintf("unexpected %s after the end of the batch: a document holds one sheet or one batch", quoteChar(c))))
	}
	d.done = true
	return domain.Sheet{}, io.EOF
}

// decodeSheet decodes one sheet object: the library into the wire structs,
// then the checks of convert.
func decodeSheet(data []byte) (domain.Sheet, *problem) { return decodeSheetWith(data, nil) }

// decodeSheetWith is decodeSheet filling in def (nil: none) first.
func decodeSheetWith(data []byte, def *Defaults) (domain.Sheet, *problem) {
	var w wireSheet
	if err := json.Unmarshal(data, &w, unmarshalOptions); err != nil {
		return domain.Sheet{}, libraryProblem(data, err)
	}
	def.apply(&w)
	return convert(&w)
}

// syntax turns an error of the framing decoder into an *Error. A nil err
// with a detail in ptr's place is not used: detail-only errors pass
// through syntaxDetail.
func (d *Decoder) syntax(err error, ptr string) *Error {
	if err == nil {
		// close's "a batch has only the field sheets": ptr is the detail.
		at := d.off() + int64(len(d.dec.UnreadBuffer())-len(bytes.TrimLeft(d.dec.UnreadBuffer(), " \t\r\n")))
		return d.at("", at, true, ptr)
	}
	return d.syntaxAt(err, ptr, 0)
}

// syntaxAt words a library error; its offset counts from base.
func (d *Decoder) syntaxAt(err error, ptr string, base int64) *Error {
	return d.libraryError(err, ptr, base, false)
}

// libraryError words an error of a library decoder whose offsets count
// from base. ptr is the pointer the caller knows ("/sheets/3"); rel says
// the decoder read only that value, so its pointers are relative to ptr.
func (d *Decoder) libraryError(err error, ptr string, base int64, rel bool) *Error {
	if d.in.rerr != nil {
		return d.readError()
	}
	if errors.Is(err, errTooLarge) {
		return d.at(ptr, d.in.at, false, fmt.Sprintf("the sheet is larger than %d bytes", d.maxSheet))
	}
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return &Error{Pointer: ptr, Detail: "malformed JSON: " + err.Error(), Syntax: true}
	}
	lib := string(se.JSONPointer)
	switch {
	case rel:
		ptr += schemaPrefix(jsontext.Pointer(lib))
	case d.batch && strings.HasPrefix(lib, "/sheets/"):
		// The sheet is named by the caller: after a resync the library's
		// decoder counts sheets from the restart.
		rest := lib[len("/sheets/"):]
		tail := ""
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			rest, tail = rest[:i], rest[i:]
		}
		if !strings.HasPrefix(ptr, "/sheets/") {
			if i, err := strconv.Atoi(rest); err == nil {
				rest = strconv.Itoa(i + d.idxBase)
			}
			ptr = "/sheets/" + rest
		}
		ptr += schemaPrefix(jsontext.Pointer(tail))
	case lib != "" && lib != "/sheets":
		// Cut the pointer to what API §1 knows: a bracket nested 10,000
		// deep is named by the field that holds it.
		ptr = schemaPrefix(jsontext.Pointer(lib))
	case lib != "":
		ptr = lib
	}
	off := d.offBase + base + se.ByteOffset
	if rel {
		off = base + se.ByteOffset
	}
	if errors.Is(se.Err, jsontext.ErrDuplicateName) {
		dup := duplicateField(ptr, jsontext.Pointer(ptr).LastToken(), -1)
		e := d.at(ptr, off, false, dup.detail)
		e.Code, e.Args = dup.code, dup.args
		return e
	}
	return d.at(ptr, off, true, syntaxDetail(se))
}

// at makes an *Error at input offset off.
func (d *Decoder) at(ptr string, off int64, syntax bool, detail string) *Error {
	line, col := d.in.position(off)
	e := &Error{Pointer: ptr, Detail: detail, Line: line, Column: col, Syntax: syntax}
	if syntax {
		p := newProblem(ptr, -1, "sheet.malformed_at", e.Line, e.Column, detail)
		e.Reason, e.Detail, e.Code, e.Args = detail, p.detail, p.code, p.args
	}
	return e
}

func (d *Decoder) readError() *Error {
	return &Error{Detail: "the input could not be read: " + d.in.rerr.Error()}
}

// kindName names a JSON value by the library's kind.
func kindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '0':
		return "a number"
	}
	return "nothing"
}

// jsonKind names the JSON value that starts with c.
func jsonKind(c byte) string {
	switch {
	case c == '-' || (c >= '0' && c <= '9'):
		return kindName('0')
	}
	return kindName(jsontext.Kind(c))
}

func quoteChar(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}
