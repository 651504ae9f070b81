package sheetjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// locate names the first problem, in document order, of a sheet that
// encoding/json refused with uerr. It is the slow path: a json.Decoder
// reads the sheet token by token and follows sheetShape, so it knows the
// JSON pointer of every value and stops at the first one that does not fit.
// Its depth is the shape's (five levels), whatever the input's nesting.
func locate(data []byte, uerr error) *problem {
	t := tokenWalker{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	t.dec.UseNumber()
	p := t.value(sheetShape, false)
	if p == nil {
		// Not expected: every refusal of encoding/json is a syntax or a
		// type error, and the walk finds both. Say what encoding/json said.
		return newProblem("", -1, "the sheet cannot be read: %v", uerr)
	}
	if p.syntax {
		// The syntax error encoding/json found is the first one in the
		// document, and its offset is exact.
		var se *json.SyntaxError
		if errors.As(uerr, &se) {
			p.detail = se.Error()
			p.off = max(int(se.Offset)-1, 0)
		}
	}
	return p
}

type tokenWalker struct {
	data  []byte
	dec   *json.Decoder
	stack []pathElem
}

// next returns the offset where the next token starts.
func (t *tokenWalker) next() int {
	i := int(t.dec.InputOffset())
	for i < len(t.data) {
		switch t.data[i] {
		case ' ', '\t', '\n', '\r', ':', ',':
			i++
		default:
			return i
		}
	}
	return i
}

func (t *tokenWalker) ptr(last ...string) string { return pointerOf(t.stack, last...) }

func (t *tokenWalker) token() (json.Token, *problem) {
	at := t.next()
	tok, err := t.dec.Token()
	if err != nil {
		msg := err.Error()
		if err == io.EOF {
			msg = "unexpected end of JSON input"
		}
		return nil, &problem{ptr: t.ptr(), detail: msg, off: at, syntax: true}
	}
	return tok, nil
}

// value reads one value of shape s; nullOK says whether null (an absent
// optional) is acceptable here.
func (t *tokenWalker) value(s *shape, nullOK bool) *problem {
	at := t.next()
	tok, p := t.token()
	if p != nil {
		return p
	}
	if tok == nil {
		if nullOK {
			return nil
		}
		return nullElement(s, t.ptr(), at)
	}
	mismatch := func() *problem {
		return newProblem(t.ptr(), at, "%s must be %s, not %s", s.label, expected(s), describe(tok))
	}
	switch s.kind {
	case kindObject:
		if tok != json.Delim('{') {
			return mismatch()
		}
		return t.object(s)
	case kindArray:
		if tok != json.Delim('[') {
			return mismatch()
		}
		for i := 0; t.dec.More(); i++ {
			t.stack = append(t.stack, pathElem{idx: i})
			if p := t.value(s.elem, false); p != nil {
				return p
			}
			t.stack = t.stack[:len(t.stack)-1]
		}
		_, p := t.token()
		return p
	case kindBurrachi:
		if tok != json.Delim('{') {
			return mismatch()
		}
		return t.burrachi(s)
	case kindString:
		if _, ok := tok.(string); !ok {
			return mismatch()
		}
	case kindBool:
		if _, ok := tok.(bool); !ok {
			return mismatch()
		}
	case kindInt:
		n, ok := tok.(json.Number)
		if !ok {
			return mismatch()
		}
		if strings.ContainsAny(string(n), ".eE") {
			return newProblem(t.ptr(), at, "%s must be a whole number, not %s", s.label, n)
		}
		if _, err := strconv.ParseInt(string(n), 10, 64); err != nil {
			return newProblem(t.ptr(), at, "%s is out of range: %s", s.label, n)
		}
	}
	return nil
}

func (t *tokenWalker) object(s *shape) *problem {
	var seen uint32
	for t.dec.More() {
		at := t.next()
		tok, p := t.token()
		if p != nil {
			return p
		}
		key, _ := tok.(string) // json.Decoder yields only string keys
		i := s.lookup([]byte(key))
		if i < 0 {
			return unknownField(s, t.ptr(key), key, at)
		}
		if seen&(1<<i) != 0 {
			return duplicateField(t.ptr(key), key, at)
		}
		seen |= 1 << i
		t.stack = append(t.stack, pathElem{key: key})
		if p := t.value(s.fields[i].shape, true); p != nil {
			return p
		}
		t.stack = t.stack[:len(t.stack)-1]
	}
	_, p := t.token() // '}'
	return p
}

func (t *tokenWalker) burrachi(s *shape) *problem {
	var seen uint32
	for t.dec.More() {
		at := t.next()
		tok, p := t.token()
		if p != nil {
			return p
		}
		key, _ := tok.(string)
		i := burracoIndex(key)
		if i < 0 {
			return unknownBurraco(t.ptr(key), key, at)
		}
		if seen&(1<<i) != 0 {
			return duplicateField(t.ptr(key), key, at)
		}
		seen |= 1 << i
		t.stack = append(t.stack, pathElem{key: key})
		if p := t.value(s.elem, false); p != nil {
			return p
		}
		t.stack = t.stack[:len(t.stack)-1]
	}
	_, p := t.token()
	return p
}
