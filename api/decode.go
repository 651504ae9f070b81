package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Request bodies are decoded in two steps. parseJSON reads the text into a
// jsonValue tree, keeping what encoding/json forgets (key order, duplicate
// keys, the exact text of numbers) and refusing deep nesting and trailing
// data. bindJSON then copies the tree into a request struct, refusing
// unknown fields and wrong types, each refusal with the JSON pointer of the
// offending value (RFC 6901), so that a client learns exactly what to fix.

// maxJSONDepth bounds nesting. No request of API §4 nests deeper than a
// sheet's /hands/0/ns/burrachi/pulito (5); 32 leaves room and keeps a
// hostile "[[[[..." from costing more than a few microseconds.
const maxJSONDepth = 32

// maxFieldErrors caps how many problems one answer lists.
const maxFieldErrors = 20

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

func (k jsonKind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// jsonValue is one parsed JSON value.
type jsonValue struct {
	kind  jsonKind
	text  string       // a string's contents or a number's text
	flag  bool         // a boolean's value
	keys  []string     // an object's keys, in order
	items []*jsonValue // an object's values (parallel to keys) or an array's elements
}

// field returns the value of an object's key, or nil.
func (v *jsonValue) field(key string) *jsonValue {
	if v == nil || v.kind != jsonObject {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.items[i]
		}
	}
	return nil
}

// setDefault gives an object's key a value when it is absent or null.
func (v *jsonValue) setDefault(key string, val *jsonValue) {
	for i, k := range v.keys {
		if k == key {
			if v.items[i].kind == jsonNull {
				v.items[i] = val
			}
			return
		}
	}
	v.set(key, val)
}

// set adds a key to an object; callers only add keys that are absent.
func (v *jsonValue) set(key string, val *jsonValue) {
	v.keys = append(v.keys, key)
	v.items = append(v.items, val)
}

func jsonStringValue(s string) *jsonValue { return &jsonValue{kind: jsonString, text: s} }
func jsonIntValue(n int) *jsonValue       { return &jsonValue{kind: jsonNumber, text: strconv.Itoa(n)} }
func jsonObjectValue() *jsonValue         { return &jsonValue{kind: jsonObject} }

// appendJSON writes the value back as compact JSON.
func (v *jsonValue) appendJSON(b []byte) []byte {
	switch v.kind {
	case jsonNull:
		return append(b, "null"...)
	case jsonBool:
		return strconv.AppendBool(b, v.flag)
	case jsonNumber:
		return append(b, v.text...)
	case jsonString:
		return appendJSONString(b, v.text)
	case jsonArray:
		b = append(b, '[')
		for i, it := range v.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.appendJSON(b)
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i, k := range v.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = v.items[i].appendJSON(b)
		}
		return append(b, '}')
	}
}

func appendJSONString(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a Go string always encodes
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// pointerOf renders a path as an RFC 6901 JSON pointer.
func pointerOf(path []string) string {
	if len(path) == 0 {
		return ""
	}
	var sb strings.Builder
	for _, p := range path {
		sb.WriteByte('/')
		sb.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return sb.String()
}

// parseJSON reads one JSON value (RFC 8259) that must fill the whole body.
// Every error is an *apiError with status 400 naming the byte offset and,
// when inside the document, the pointer of the value being read. Strings
// are decoded as encoding/json decodes them (invalid UTF-8 and lone
// surrogates become U+FFFD); a fuzz test holds the two to the same reading.
func parseJSON(data []byte) (*jsonValue, error) {
	p := scanner{data: data}
	p.skipSpace()
	if p.pos == len(data) {
		return nil, errMalformed("the request body is empty; a JSON document is expected")
	}
	v, err := p.value(1)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(data) {
		return nil, errMalformed(fmt.Sprintf("unexpected data after the JSON document, at byte %d", p.pos))
	}
	return v, nil
}

// scanner is a recursive-descent JSON reader; recursion is bounded by
// maxJSONDepth.
type scanner struct {
	data []byte
	pos  int
	path []string
}

func (p *scanner) fail(format string, args ...any) error {
	detail := fmt.Sprintf("malformed JSON at byte %d: ", p.pos) + fmt.Sprintf(format, args...)
	if len(p.path) > 0 {
		return errMalformed(detail, fieldError{Pointer: pointerOf(p.path), Detail: detail})
	}
	return errMalformed(detail)
}

func (p *scanner) unexpected(what string) error {
	if p.pos >= len(p.data) {
		return p.fail("the document ends where %s belongs", what)
	}
	return p.fail("found %q where %s belongs", p.data[p.pos], what)
}

func (p *scanner) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *scanner) value(depth int) (*jsonValue, error) {
	if p.pos >= len(p.data) {
		return nil, p.unexpected("a value")
	}
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		if depth > maxJSONDepth {
			detail := fmt.Sprintf("the JSON document nests deeper than %d levels", maxJSONDepth)
			return nil, errMalformed(detail, fieldError{Pointer: pointerOf(p.path), Detail: detail})
		}
		if c == '[' {
			return p.array(depth)
		}
		return p.object(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &jsonValue{kind: jsonString, text: s}, nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true", &jsonValue{kind: jsonBool, flag: true})
	case c == 'f':
		return p.literal("false", &jsonValue{kind: jsonBool})
	case c == 'n':
		return p.literal("null", &jsonValue{kind: jsonNull})
	}
	return nil, p.unexpected("a value")
}

func (p *scanner) literal(word string, v *jsonValue) (*jsonValue, error) {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return nil, p.unexpected(word)
	}
	p.pos += len(word)
	return v, nil
}

// number reads the RFC 8259 number grammar and keeps its text:
// -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?
func (p *scanner) number() (*jsonValue, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return nil, p.unexpected("a digit")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.unexpected("a digit")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.unexpected("a digit")
		}
	}
	return &jsonValue{kind: jsonNumber, text: string(p.data[start:p.pos])}, nil
}

// str reads a string. Plain strings (no escape, valid UTF-8) are copied as
// they are; the others are checked here and decoded by encoding/json, so
// that escapes, surrogates and bad bytes read exactly as it reads them.
func (p *scanner) str() (string, error) {
	start := p.pos
	p.pos++ // the opening quote
	plain := true
	for {
		if p.pos >= len(p.data) {
			return "", p.fail("a string is not closed")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			raw := p.data[start:p.pos]
			if plain && utf8.Valid(raw) {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", p.fail("bad string: %v", err)
			}
			return s, nil
		case c < 0x20:
			return "", p.fail("control character %#x in a string (escape it)", c)
		case c == '\\':
			plain = false
			p.pos++
			if p.pos >= len(p.data) {
				return "", p.fail("a string is not closed")
			}
			switch p.data[p.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos++
			case 'u':
				p.pos++
				for range 4 {
					if p.pos >= len(p.data) || !isHex(p.data[p.pos]) {
						return "", p.unexpected("a hexadecimal digit of a \\u escape")
					}
					p.pos++
				}
			default:
				return "", p.fail("unknown escape \\%c", p.data[p.pos])
			}
		default:
			p.pos++
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (p *scanner) array(depth int) (*jsonValue, error) {
	p.pos++ // [
	v := &jsonValue{kind: jsonArray}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for i := 0; ; i++ {
		p.path = append(p.path, strconv.Itoa(i))
		p.skipSpace()
		it, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		p.path = p.path[:len(p.path)-1]
		v.items = append(v.items, it)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.unexpected("',' or ']'")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return v, nil
		default:
			return nil, p.unexpected("',' or ']'")
		}
	}
}

func (p *scanner) object(depth int) (*jsonValue, error) {
	p.pos++ // {
	v := &jsonValue{kind: jsonObject}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	// Duplicates are found by a scan while objects are small and by a set
	// beyond, so that 100,000 keys cost linear time, not quadratic.
	var seen map[string]struct{}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.unexpected("a key in quotes")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.path = append(p.path, key)
		dup := false
		switch {
		case seen != nil:
			_, dup = seen[key]
		case len(v.keys) >= 16:
			seen = make(map[string]struct{}, 2*len(v.keys))
			for _, k := range v.keys {
				seen[k] = struct{}{}
			}
			_, dup = seen[key]
		default:
			dup = v.field(key) != nil
		}
		if seen != nil {
			seen[key] = struct{}{}
		}
		if dup {
			detail := fmt.Sprintf("the key %q appears twice", key)
			return nil, errMalformed(detail, fieldError{Pointer: pointerOf(p.path), Detail: detail})
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.unexpected("':'")
		}
		p.pos++
		p.skipSpace()
		it, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		p.path = p.path[:len(p.path)-1]
		v.set(key, it)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.unexpected("',' or '}'")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return v, nil
		default:
			return nil, p.unexpected("',' or '}'")
		}
	}
}

// decodeBody parses data and binds it into dst (a pointer to a request
// struct): 400 for text that is not JSON, 422 for JSON of the wrong shape.
func decodeBody(data []byte, dst any) error {
	root, err := parseJSON(data)
	if err != nil {
		return err
	}
	return bindJSON(root, dst)
}

// bindJSON copies v into dst; every mismatch becomes a field error and the
// lot one 422.
func bindJSON(v *jsonValue, dst any) error {
	b := binder{}
	b.bind(v, reflect.ValueOf(dst).Elem(), nil)
	if len(b.errs) > 0 {
		return errInvalid(b.summary(), b.errs...)
	}
	return nil
}

type binder struct {
	errs []fieldError
}

func (b *binder) fail(path []string, format string, args ...any) {
	if len(b.errs) < maxFieldErrors {
		b.errs = append(b.errs, fieldError{Pointer: pointerOf(path), Detail: fmt.Sprintf(format, args...)})
	}
}

func (b *binder) summary() string {
	if len(b.errs) == 1 {
		p := b.errs[0].Pointer
		if p == "" {
			p = "the body"
		}
		return p + ": " + b.errs[0].Detail
	}
	return fmt.Sprintf("%d problems in the request body; see errors", len(b.errs))
}

var (
	jsonValueType = reflect.TypeFor[*jsonValue]()
	rawType       = reflect.TypeFor[json.RawMessage]()
)

// bind fills dst from v. JSON null leaves dst at its zero value, as
// encoding/json does; which fields are required is the converters' business.
func (b *binder) bind(v *jsonValue, dst reflect.Value, path []string) {
	if len(b.errs) >= maxFieldErrors {
		return
	}
	switch dst.Type() {
	case jsonValueType:
		dst.Set(reflect.ValueOf(v))
		return
	case rawType:
		dst.SetBytes(v.appendJSON(nil))
		return
	}
	if v.kind == jsonNull {
		dst.SetZero()
		return
	}
	switch dst.Kind() {
	case reflect.Pointer:
		nv := reflect.New(dst.Type().Elem())
		b.bind(v, nv.Elem(), path)
		dst.Set(nv)
	case reflect.Struct:
		b.bindStruct(v, dst, path)
	case reflect.Slice:
		if v.kind != jsonArray {
			b.fail(path, "want an array, got %s", v.kind)
			return
		}
		s := reflect.MakeSlice(dst.Type(), len(v.items), len(v.items))
		for i, it := range v.items {
			b.bind(it, s.Index(i), append(path, strconv.Itoa(i)))
		}
		dst.Set(s)
	case reflect.Map:
		if v.kind != jsonObject || dst.Type().Key().Kind() != reflect.String {
			b.fail(path, "want an object, got %s", v.kind)
			return
		}
		m := reflect.MakeMapWithSize(dst.Type(), len(v.keys))
		for i, k := range v.keys {
			ev := reflect.New(dst.Type().Elem()).Elem()
			b.bind(v.items[i], ev, append(path, k))
			m.SetMapIndex(reflect.ValueOf(k).Convert(dst.Type().Key()), ev)
		}
		dst.Set(m)
	case reflect.String:
		if v.kind != jsonString {
			b.fail(path, "want a string, got %s", v.kind)
			return
		}
		dst.SetString(v.text)
	case reflect.Bool:
		if v.kind != jsonBool {
			b.fail(path, "want true or false, got %s", v.kind)
			return
		}
		dst.SetBool(v.flag)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.kind != jsonNumber {
			b.fail(path, "want an integer, got %s", v.kind)
			return
		}
		n, err := strconv.ParseInt(v.text, 10, dst.Type().Bits())
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				b.fail(path, "the integer %s is out of range", v.text)
			} else {
				b.fail(path, "want an integer, got %s", v.text)
			}
			return
		}
		dst.SetInt(n)
	default:
		// Only reached by a request type with a field kind the binder does
		// not know: a programming error, caught by the tests of every type.
		b.fail(path, "cannot be read (unsupported field type %s)", dst.Type())
	}
}

func (b *binder) bindStruct(v *jsonValue, dst reflect.Value, path []string) {
	if v.kind != jsonObject {
		b.fail(path, "want an object, got %s", v.kind)
		return
	}
	fields := jsonFields(dst.Type())
	for i, k := range v.keys {
		idx, ok := fields[k]
		if !ok {
			b.fail(append(path, k), "unknown field %q", k)
			continue
		}
		b.bind(v.items[i], dst.Field(idx), append(path, k))
	}
}

// jsonFields maps a struct's JSON names (exact, case-sensitive) to field
// indexes.
func jsonFields(t reflect.Type) map[string]int {
	m := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = i
	}
	return m
}
