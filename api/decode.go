package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"segnapunti/messages"
)

// Request bodies are read by github.com/go-json-experiment/json (encoding/
// json v2) in two steps. parseJSON reads the text into a jsonValue tree with
// the library's token decoder, keeping what a struct forgets (key order,
// the exact text of numbers) and refusing duplicate keys, invalid UTF-8,
// deep nesting and trailing data: 400. decodeBody then has the library
// unmarshal the body into a request struct, refusing unknown fields and
// wrong types, each refusal with the JSON pointer of the offending value
// (RFC 6901): 422.

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

// msg names the kind inside a detail, in the reader's language.
func (k jsonKind) msg() messages.M {
	return messages.New("api.json_kind." + [...]string{"null", "boolean", "number", "string", "array", "object"}[k])
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
	out, err := jsontext.AppendQuote(b, s)
	if err != nil {
		// Only a string with invalid UTF-8 fails, and parseJSON refuses
		// those; a Go string built here is valid UTF-8.
		return append(b, `""`...)
	}
	return out
}

// parseJSON reads one JSON value (RFC 8259) that must fill the whole body.
// Every error is an *apiError with status 400 naming the byte offset and,
// when inside the document, the pointer of the value being read. Strings
// must be valid UTF-8 (issue 10: refused, not turned into U+FFFD).
func parseJSON(data []byte) (*jsonValue, error) {
	if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
		return nil, errMalformed(messages.New("api.body_empty"))
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	v, err := readValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		at := dec.InputOffset() + int64(len(dec.UnreadBuffer())-len(bytes.TrimLeft(dec.UnreadBuffer(), " \t\r\n")))
		return nil, errMalformed(messages.New("api.json_trailing", at))
	}
	return v, nil
}

// UnmarshalJSONFrom lets a request struct hold a *jsonValue field that
// takes any JSON (the library calls it).
func (v *jsonValue) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	got, err := readValue(dec)
	if err != nil {
		return err
	}
	*v = *got
	return nil
}

// readValue reads the next value of dec as a tree; nesting is bounded by
// maxJSONDepth below the depth where it starts.
func readValue(dec *jsontext.Decoder) (*jsonValue, error) {
	base := dec.StackDepth()
	var stack []*jsonValue
	var keys []bool // per open object: the next string token is a key
	var root *jsonValue
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, malformed(dec, err)
		}
		var v *jsonValue
		switch k := tok.Kind(); k {
		case '}', ']':
			stack = stack[:len(stack)-1]
			keys = keys[:len(keys)-1]
			if len(stack) == 0 {
				return root, nil
			}
			continue
		case '"':
			if n := len(stack); n > 0 && stack[n-1].kind == jsonObject && keys[n-1] {
				stack[n-1].keys = append(stack[n-1].keys, tok.String())
				keys[n-1] = false
				continue
			}
			v = &jsonValue{kind: jsonString, text: tok.String()}
		case '0':
			v = &jsonValue{kind: jsonNumber, text: tok.String()}
		case 't', 'f':
			v = &jsonValue{kind: jsonBool, flag: tok.Bool()}
		case 'n':
			v = &jsonValue{kind: jsonNull}
		case '{', '[':
			if dec.StackDepth()-base > maxJSONDepth {
				detail := messages.New("api.json_depth", maxJSONDepth)
				return nil, errMalformed(detail, fieldMsg(fieldError{Pointer: string(dec.StackPointer().Parent())}, detail))
			}
			v = &jsonValue{kind: jsonArray}
			if k == '{' {
				v.kind = jsonObject
			}
		}
		if n := len(stack); n > 0 {
			stack[n-1].items = append(stack[n-1].items, v)
			if stack[n-1].kind == jsonObject {
				keys[n-1] = true
			}
		} else {
			root = v
		}
		if v.kind == jsonObject || v.kind == jsonArray {
			stack = append(stack, v)
			keys = append(keys, v.kind == jsonObject)
		} else if len(stack) == 0 {
			return root, nil
		}
	}
}

// malformed words an error of the library's token decoder as a 400.
func malformed(dec *jsontext.Decoder, err error) error {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return errMalformed(messages.New("api.json_syntax", dec.InputOffset(), err.Error()))
	}
	var detail messages.M
	switch {
	case errors.Is(se.Err, jsontext.ErrDuplicateName):
		detail = messages.New("api.json_key_twice", se.JSONPointer.LastToken())
	case errors.Is(se.Err, io.ErrUnexpectedEOF):
		detail = messages.New("api.json_eof", se.ByteOffset)
	default:
		detail = messages.New("api.json_syntax", se.ByteOffset, strings.TrimPrefix(se.Err.Error(), "jsontext: "))
	}
	if se.JSONPointer != "" {
		return errMalformed(detail, fieldMsg(fieldError{Pointer: string(se.JSONPointer)}, detail))
	}
	return errMalformed(detail)
}

// requestOptions make the library as strict as API §4: unknown members are
// refused; names match exactly.
var requestOptions = json.JoinOptions(
	json.RejectUnknownMembers(true),
	json.MatchCaseInsensitiveNames(false),
)

// decodeBody parses data and decodes it into dst (a pointer to a request
// struct): 400 for text that is not JSON, 422 for JSON of the wrong shape.
func decodeBody(data []byte, dst any) error {
	root, err := parseJSON(data)
	if err != nil {
		return err
	}
	return bindJSON(root, dst)
}

// bindJSON has the library decode v into dst; every mismatch becomes a
// field error and the lot one 422. The library stops at the first problem:
// to list them all (up to maxFieldErrors) the offending member is taken
// out of the tree (an unknown field) or made null (a wrong type) and the
// rest decoded again, so a client fixes every field in one round.
func bindJSON(v *jsonValue, dst any) error {
	var errs []fieldError
	for len(errs) < maxFieldErrors {
		err := json.Unmarshal(v.appendJSON(nil), dst, requestOptions)
		if err == nil {
			break
		}
		var se *json.SemanticError
		if !errors.As(err, &se) {
			errs = append(errs, uncodedField("", err.Error()))
			break
		}
		ptr := se.JSONPointer
		at := v.at(ptr)
		errs = append(errs, fieldMsg(fieldError{Pointer: string(ptr)}, semanticDetail(se, at)))
		parent := v.at(ptr.Parent())
		if ptr == "" || at == nil || parent == nil {
			break
		}
		if errors.Is(se.Err, json.ErrUnknownName) && parent.kind == jsonObject {
			parent.remove(ptr.LastToken())
		} else {
			*at = jsonValue{kind: jsonNull}
		}
	}
	if len(errs) > 0 {
		return errInvalid(summary(errs), errs...)
	}
	return nil
}

// at returns the value at ptr, or nil.
func (v *jsonValue) at(ptr jsontext.Pointer) *jsonValue {
	for tok := range ptr.Tokens() {
		switch {
		case v == nil:
			return nil
		case v.kind == jsonObject:
			v = v.field(tok)
		case v.kind == jsonArray:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v.items) {
				return nil
			}
			v = v.items[i]
		default:
			return nil
		}
	}
	return v
}

// remove deletes an object's key.
func (v *jsonValue) remove(key string) {
	for i, k := range v.keys {
		if k == key {
			v.keys = append(v.keys[:i], v.keys[i+1:]...)
			v.items = append(v.items[:i], v.items[i+1:]...)
			return
		}
	}
}

// semanticDetail words a decoding error of the library; got is the
// offending value (nil when unknown).
func semanticDetail(se *json.SemanticError, got *jsonValue) messages.M {
	if errors.Is(se.Err, json.ErrUnknownName) {
		return messages.New("api.json_unknown", se.JSONPointer.LastToken())
	}
	gotKind := messages.New("api.json_kind.other")
	if got != nil {
		gotKind = got.kind.msg()
	}
	if se.GoType == nil {
		return messages.New("api.json_unreadable", gotKind)
	}
	t := se.GoType
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if got != nil && got.kind == jsonNumber {
			if !strings.ContainsAny(got.text, ".eE") {
				return messages.New("api.json_int_range", got.text)
			}
			return messages.New("api.json_want_int", got.text)
		}
		return messages.New("api.json_want_int", gotKind)
	case reflect.String:
		return messages.New("api.json_want_string", gotKind)
	case reflect.Bool:
		return messages.New("api.json_want_bool", gotKind)
	case reflect.Slice, reflect.Array:
		return messages.New("api.json_want_array", gotKind)
	case reflect.Struct, reflect.Map:
		return messages.New("api.json_want_object", gotKind)
	}
	return messages.New("api.json_unreadable", fmt.Sprintf("unsupported field type %s", se.GoType))
}

func summary(errs []fieldError) messages.M {
	if len(errs) == 1 {
		var d any = errs[0].Detail
		if errs[0].msg.Key != "" {
			d = errs[0].msg
		}
		if errs[0].Pointer == "" {
			return messages.New("api.body_field", d)
		}
		return messages.New("api.field", errs[0].Pointer, d)
	}
	return messages.New("api.problems", len(errs))
}
