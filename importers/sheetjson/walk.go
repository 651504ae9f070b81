package sheetjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"segnapunti/domain"
)

// The checks encoding/json does not make. It matches keys case-insensitively
// ("BASE" fills base), keeps the last of two equal keys, and reads null as
// "leave the zero value" everywhere, a null hand included. A score sheet is
// what both lines countersigned and the referee keeps (RULES §1; FITAB
// art. 20: once delivered it is final), so the decoder refuses what two
// readers could read differently:
//   - a key not spelled exactly as in API §1 is an unknown field;
//   - a key given twice in one object is an error, never "last one wins";
//   - null is accepted only as the value of an object's field, where it
//     means the field is absent; a null hand, player or burraco count is
//     an error.
// keyWalker makes these checks in one pass over bytes encoding/json has
// already accepted: the JSON is valid and every known field has the right
// type, so the walker only looks at keys, nulls and burraco counts.

// pathElem is one reference token: a key, or an index when key is "".
type pathElem struct {
	key string
	idx int
}

func pointerOf(stack []pathElem, last ...string) string {
	t := make([]string, 0, len(stack)+len(last))
	for _, e := range stack {
		if e.key == "" {
			t = append(t, strconv.Itoa(e.idx))
		} else {
			t = append(t, e.key)
		}
	}
	return pointer(append(t, last...))
}

type keyWalker struct {
	data []byte
	pos  int
	// stack[:depth] is the path to the current value; sheetShape is five
	// levels deep, so it never fills.
	stack [8]pathElem
	depth int
}

func (w *keyWalker) push(e pathElem) { w.stack[w.depth] = e; w.depth++ }
func (w *keyWalker) pop()            { w.depth-- }
func (w *keyWalker) path() []pathElem {
	return append([]pathElem(nil), w.stack[:w.depth]...) // only on errors
}

// checkKeys walks a sheet object encoding/json decoded without error.
func checkKeys(data []byte) *problem {
	w := keyWalker{data: data}
	w.ws()
	return w.object(sheetShape)
}

func (w *keyWalker) ws() {
	for w.pos < len(w.data) {
		switch w.data[w.pos] {
		case ' ', '\t', '\n', '\r':
			w.pos++
		default:
			return
		}
	}
}

// key reads the string at pos and returns its raw bytes (between the
// quotes) and whether it holds an escape.
func (w *keyWalker) key() (raw []byte, escaped bool) {
	start := w.pos + 1
	// Keys are short and plain: find the quote by hand, and leave the rare
	// key with a backslash to stringEnd.
	for i := start; i < len(w.data); i++ {
		switch w.data[i] {
		case '"':
			w.pos = i + 1
			return w.data[start:i], false
		case '\\':
			end := stringEnd(w.data, w.pos)
			w.pos = end
			return w.data[start : end-1], true
		}
	}
	w.pos = len(w.data) // not reached: the JSON is valid
	return w.data[start:], false
}

// unquote decodes a JSON string's raw contents; only reached for keys with
// escapes, which no producer of ours writes.
func unquote(raw []byte) string {
	var s string
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	if json.Unmarshal(q, &s) != nil {
		return string(raw)
	}
	return s
}

// colon moves past the ':' after a key and the blanks around it.
func (w *keyWalker) colon() {
	w.ws()
	w.pos++
	w.ws()
}

func (w *keyWalker) isNull() bool { return w.data[w.pos] == 'n' }

func (w *keyWalker) object(s *shape) *problem {
	w.pos++ // '{'
	var seen uint32
	for {
		w.ws()
		switch w.data[w.pos] {
		case '}':
			w.pos++
			return nil
		case ',':
			w.pos++
			w.ws()
		}
		at := w.pos
		raw, escaped := w.key()
		i := s.lookup(raw)
		if escaped {
			i = s.lookup([]byte(unquote(raw)))
		}
		if i < 0 {
			return unknownField(s, pointerOf(w.path(), unquote(raw)), unquote(raw), at)
		}
		f := s.fields[i]
		if seen&(1<<i) != 0 {
			return duplicateField(pointerOf(w.path(), f.key), f.key, at)
		}
		seen |= 1 << i
		w.colon()
		if w.isNull() { // an absent optional; a required one is caught later
			w.pos += len("null")
			continue
		}
		w.push(pathElem{key: f.key})
		var p *problem
		switch f.shape.kind {
		case kindObject:
			p = w.object(f.shape)
		case kindArray:
			p = w.array(f.shape)
		case kindBurrachi:
			p = w.burrachi(f.shape)
		default:
			w.skipScalar()
		}
		if p != nil {
			return p
		}
		w.pop()
	}
}

func (w *keyWalker) array(s *shape) *problem {
	w.pos++ // '['
	for i := 0; ; i++ {
		w.ws()
		switch w.data[w.pos] {
		case ']':
			w.pos++
			return nil
		case ',':
			w.pos++
			w.ws()
		}
		if w.isNull() {
			return nullElement(s.elem, pointerOf(w.path(), strconv.Itoa(i)), w.pos)
		}
		if s.elem.kind == kindObject {
			w.push(pathElem{idx: i})
			if p := w.object(s.elem); p != nil {
				return p
			}
			w.pop()
		} else {
			w.skipScalar()
		}
	}
}

func (w *keyWalker) burrachi(s *shape) *problem {
	w.pos++ // '{'
	var seen uint32
	for {
		w.ws()
		switch w.data[w.pos] {
		case '}':
			w.pos++
			return nil
		case ',':
			w.pos++
			w.ws()
		}
		at := w.pos
		raw, escaped := w.key()
		i := burracoIndexBytes(raw)
		if escaped {
			i = burracoIndex(unquote(raw))
		}
		// The key as a string only for a message: converting it on every
		// key would allocate.
		key := func() string { return unquote(raw) }
		if i < 0 {
			return unknownBurraco(pointerOf(w.path(), key()), key(), at)
		}
		if seen&(1<<i) != 0 {
			return duplicateField(pointerOf(w.path(), key()), key(), at)
		}
		seen |= 1 << i
		w.colon()
		if w.isNull() {
			return nullElement(s.elem, pointerOf(w.path(), key()), w.pos)
		}
		start := w.pos
		w.skipScalar()
		if n, ok := smallCount(w.data[start:w.pos]); !ok || n > MaxBurrachiPerType {
			return burracoCountRange(pointerOf(w.path(), key()), string(w.data[start:w.pos]), start)
		}
	}
}

// smallCount reads a JSON integer of at most three digits; anything else
// (a minus sign, a longer number) is not a burraco count.
func smallCount(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 3 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = 10*n + int(c-'0')
	}
	return n, true
}

// skipScalar moves past a string, number, true, false or null.
func (w *keyWalker) skipScalar() {
	if w.data[w.pos] == '"' {
		w.pos = stringEnd(w.data, w.pos)
		return
	}
	for w.pos < len(w.data) {
		switch w.data[w.pos] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return
		}
		w.pos++
	}
}

// stringEnd returns the offset just past the closing quote of the string
// opening at b[start], or -1 when b ends first. A quote is escaped when an
// odd number of backslashes precede it; each run of backslashes is looked
// at once, so this is linear.
func stringEnd(b []byte, start int) int {
	i := start + 1
	// Keys and ids are short: a plain loop beats memchr's set-up cost.
	for n := min(len(b), i+16); i < n; i++ {
		if b[i] == '"' {
			return i + 1
		}
		if b[i] == '\\' {
			break
		}
	}
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		q := i + j
		n := 0
		for k := q - 1; k > start && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
}

func burracoIndexBytes(key []byte) int {
	for i, t := range domain.BurracoTypes {
		if string(t) == string(key) {
			return i
		}
	}
	return -1
}

func burracoIndex(key string) int {
	for i, t := range domain.BurracoTypes {
		if string(t) == key {
			return i
		}
	}
	return -1
}

// Messages shared by both passes.

func unknownField(s *shape, ptr, key string, off int) *problem {
	for _, f := range s.fields {
		if strings.EqualFold(f.key, key) {
			return newProblem(ptr, off, "unknown field %q: field names are lower case, did you mean %q?", key, f.key)
		}
	}
	return newProblem(ptr, off, "unknown field %q: %s has only %s", key, s.label, s.names())
}

func duplicateField(ptr, key string, off int) *problem {
	return newProblem(ptr, off, "field %q appears twice; give each field once so the sheet has one reading", key)
}

func unknownBurraco(ptr, key string, off int) *problem {
	return newProblem(ptr, off, "unknown burraco type %q (want %s)", key, burracoNames())
}

func burracoCountRange(ptr, got string, off int) *problem {
	return newProblem(ptr, off, "a burraco count must be between 0 and %d, not %s", MaxBurrachiPerType, got)
}

func nullElement(s *shape, ptr string, off int) *problem {
	return newProblem(ptr, off, "%s must be %s, not null", s.label, expected(s))
}

func burracoNames() string {
	n := make([]string, len(domain.BurracoTypes))
	for i, t := range domain.BurracoTypes {
		n[i] = string(t)
	}
	return strings.Join(n[:len(n)-1], ", ") + " or " + n[len(n)-1]
}

// expected says what a value of the shape is, for "must be ..., not ...".
func expected(s *shape) string {
	switch s.kind {
	case kindObject:
		return "an object"
	case kindArray:
		return "an array"
	case kindBurrachi:
		return "an object of burraco counts"
	case kindString:
		return "a string"
	case kindInt:
		return "a whole number"
	default:
		return "true or false"
	}
}

// describe names a JSON value the way the messages do; tok is a token of
// a json.Decoder with UseNumber.
func describe(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("%t", v)
	case json.Number:
		return string(v)
	case string:
		if len(v) <= 20 {
			return fmt.Sprintf("the string %q", v)
		}
		return "a string"
	case json.Delim:
		if v == '[' {
			return "an array"
		}
		return "an object"
	}
	return "something else"
}
