package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// decodeProbe exercises every field kind the binder supports.
type decodeProbe struct {
	Name   string            `json:"name"`
	Count  int               `json:"count"`
	Small  int8              `json:"small"`
	Flag   bool              `json:"flag"`
	Opt    *string           `json:"opt"`
	List   []decodeProbeItem `json:"list"`
	Tags   map[string]int    `json:"tags"`
	Nested *decodeProbeItem  `json:"nested"`
}

type decodeProbeItem struct {
	ID string `json:"id"`
	N  int    `json:"n"`
}

func TestDecodeBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		body    string
		status  int    // 0: decodes
		pointer string // of the first field error, when status != 0
		want    decodeProbe
	}{
		{name: "every kind", body: `{"name":"Rossi","count":-3,"small":7,"flag":true,"opt":"x","list":[{"id":"a","n":1}],"tags":{"k":2},"nested":{"id":"b"}}`,
			want: decodeProbe{Name: "Rossi", Count: -3, Small: 7, Flag: true, Opt: ptr("x"), List: []decodeProbeItem{{ID: "a", N: 1}}, Tags: map[string]int{"k": 2}, Nested: &decodeProbeItem{ID: "b"}}},
		{name: "null leaves zero", body: `{"name":null,"opt":null,"list":null}`, want: decodeProbe{}},
		{name: "unicode and SQL-looking text kept verbatim", body: `{"name":"Perù 🂡 '); DROP TABLE clubs;--"}`,
			want: decodeProbe{Name: "Perù 🂡 '); DROP TABLE clubs;--"}},
		{name: "empty body", body: "  ", status: http.StatusBadRequest},
		{name: "malformed", body: `{"name": }`, status: http.StatusBadRequest},
		{name: "truncated", body: `{"name": "x"`, status: http.StatusBadRequest},
		{name: "trailing data", body: `{"name":"x"} {"name":"y"}`, status: http.StatusBadRequest},
		{name: "trailing garbage", body: `{"name":"x"}]`, status: http.StatusBadRequest},
		{name: "duplicate key names the key", body: `{"name":"x","name":"y"}`, status: http.StatusBadRequest, pointer: "/name"},
		{name: "nesting over the limit", body: strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1), status: http.StatusBadRequest},
		{name: "very deep nesting", body: strings.Repeat(`{"a":`, 100000), status: http.StatusBadRequest},
		{name: "unknown field", body: `{"nmae":"x"}`, status: http.StatusUnprocessableEntity, pointer: "/nmae"},
		{name: "unknown nested field", body: `{"list":[{"id":"a"},{"id":"b","extra":1}]}`, status: http.StatusUnprocessableEntity, pointer: "/list/1/extra"},
		{name: "case matters", body: `{"Name":"x"}`, status: http.StatusUnprocessableEntity, pointer: "/Name"},
		{name: "string for int", body: `{"count":"4"}`, status: http.StatusUnprocessableEntity, pointer: "/count"},
		{name: "1e300 is not an integer", body: `{"count":1e300}`, status: http.StatusUnprocessableEntity, pointer: "/count"},
		{name: "fraction is not an integer", body: `{"count":3.5}`, status: http.StatusUnprocessableEntity, pointer: "/count"},
		{name: "int overflow", body: `{"count":99999999999999999999}`, status: http.StatusUnprocessableEntity, pointer: "/count"},
		{name: "int8 overflow", body: `{"small":300}`, status: http.StatusUnprocessableEntity, pointer: "/small"},
		{name: "number for bool", body: `{"flag":1}`, status: http.StatusUnprocessableEntity, pointer: "/flag"},
		{name: "object for list", body: `{"list":{}}`, status: http.StatusUnprocessableEntity, pointer: "/list"},
		{name: "array for body", body: `[]`, status: http.StatusUnprocessableEntity, pointer: ""},
		{name: "pointer escapes ~ and /", body: `{"a/b~c":1}`, status: http.StatusUnprocessableEntity, pointer: "/a~1b~0c"},
		{name: "invalid UTF-8 is refused, not made U+FFFD", body: "{\"name\":\"Citt\xe0\"}", status: http.StatusBadRequest, pointer: "/name"},
		{name: "a lone surrogate is refused", body: `{"name":"\ud800"}`, status: http.StatusBadRequest, pointer: "/name"},
		{name: "1e3 is not an integer", body: `{"count":1e3}`, status: http.StatusUnprocessableEntity, pointer: "/count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got decodeProbe
			err := decodeBody([]byte(tt.body), &got)
			if tt.status == 0 {
				if err != nil {
					t.Fatalf("decodeBody: %v", err)
				}
				if d := cmp.Diff(tt.want, got); d != "" {
					t.Errorf("decoded (-want +got):\n%s", d)
				}
				return
			}
			var ae *apiError
			if !errors.As(err, &ae) {
				t.Fatalf("error %v, want an apiError with status %d", err, tt.status)
			}
			if ae.status != tt.status {
				t.Errorf("status %d, want %d (%s)", ae.status, tt.status, ae.detail)
			}
			if tt.pointer != "" || tt.status == http.StatusUnprocessableEntity {
				if len(ae.errors) == 0 || ae.errors[0].Pointer != tt.pointer {
					t.Errorf("errors %+v, want first pointer %q", ae.errors, tt.pointer)
				}
			}
		})
	}
}

func TestBindCollectsSeveralErrors(t *testing.T) {
	t.Parallel()
	var got decodeProbe
	err := decodeBody([]byte(`{"count":"x","flag":"y","zzz":1}`), &got)
	var ae *apiError
	if !errors.As(err, &ae) || len(ae.errors) != 3 {
		t.Fatalf("got %v, want three field errors", err)
	}
	// In document order, each naming its field and what is wrong.
	want := []fieldError{
		{Pointer: "/count", Detail: "want an integer, got a string"},
		{Pointer: "/flag", Detail: "want true or false, got a string"},
		{Pointer: "/zzz", Detail: `unknown field "zzz"`},
	}
	if d := cmp.Diff(want, ae.errors, cmpopts.IgnoreUnexported(fieldError{})); d != "" {
		t.Errorf("field errors (-want +got):\n%s", d)
	}
}

func TestJSONValueRoundTrip(t *testing.T) {
	t.Parallel()
	// appendJSON writes what parseJSON read: numbers keep their text and
	// keys their order, so a sheet passed on to the sheet decoder is the
	// client's sheet.
	for _, in := range []string{
		`{"b":1,"a":[true,false,null],"c":{"d":"é\"\\\n<>&"},"n":-0.5e+3}`,
		`[]`, `{}`, `"x"`, `12345678901234567890`,
	} {
		v, err := parseJSON([]byte(in))
		if err != nil {
			t.Fatalf("parseJSON(%s): %v", in, err)
		}
		if got := string(v.appendJSON(nil)); got != in {
			t.Errorf("round trip of %s gave %s", in, got)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// FuzzDecodeBody: whatever the bytes, decoding answers a 400 or a 422 or a
// value, never a panic; and what parses writes back to text that parses to
// the same thing.
func FuzzDecodeBody(f *testing.F) {
	for _, s := range []string{
		`{"name":"x","count":1,"list":[{"id":"a"}]}`, `{"name":"x","name":"y"}`, `[[[[[[`,
		`{"count":1e300}`, `{"a/b~c":1}`, "\"\\ud800\"", `{"tags":{"":1}}`, ` `, `nul`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p decodeProbe
		err := decodeBody(data, &p)
		if err != nil {
			var ae *apiError
			if !errors.As(err, &ae) || (ae.status != http.StatusBadRequest && ae.status != http.StatusUnprocessableEntity) {
				t.Fatalf("error %v is not a 400/422 apiError", err)
			}
		}
		v, err := parseJSON(data)
		if err != nil {
			return
		}
		out := v.appendJSON(nil)
		again, err := parseJSON(out)
		if err != nil {
			t.Fatalf("re-encoded %q does not parse: %v", out, err)
		}
		if string(again.appendJSON(nil)) != string(out) {
			t.Fatalf("re-encoding is not stable: %q", out)
		}
	})
}

// toAny turns a parsed value into what encoding/json (UseNumber) makes of
// the same text.
func toAny(v *jsonValue) any {
	switch v.kind {
	case jsonNull:
		return nil
	case jsonBool:
		return v.flag
	case jsonNumber:
		return json.Number(v.text)
	case jsonString:
		return v.text
	case jsonArray:
		out := make([]any, len(v.items))
		for i, it := range v.items {
			out[i] = toAny(it)
		}
		return out
	default:
		out := make(map[string]any, len(v.keys))
		for i, k := range v.keys {
			out[k] = toAny(v.items[i])
		}
		return out
	}
}

// FuzzParseJSONAgreesWithEncodingJSON: parseJSON accepts exactly the
// documents the library (encoding/json v2) calls valid — which refuses
// duplicate keys, invalid UTF-8 and lone surrogates — except
// those nested beyond maxJSONDepth, and reads them to the values
// encoding/json (v1) reads.
func FuzzParseJSONAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,-0.5e+3,true,null,"x\u00e9\ud83c\udca1\n"]}`, `"\ud800"`, "\"\xff\"", `01`, `-`, `1.`, `1e`,
		`{"a":1,}`, `[1,]`, `{"a" 1}`, ` [ ] `, `"\x"`, "\"\t\"", `tru`, `nulll`, `{"a":{"a":{"a":[]}}}`,
		`{"a":1,"a":2}`, `[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := parseJSON(data)
		valid := jsontext.Value(data).IsValid()
		if err != nil {
			var ae *apiError
			if !errors.As(err, &ae) || ae.status != http.StatusBadRequest {
				t.Fatalf("error %v is not a 400", err)
			}
			deliberate := strings.Contains(ae.detail, "nests deeper")
			if valid && !deliberate {
				t.Fatalf("the library accepts %q, parseJSON says %s", data, ae.detail)
			}
			return
		}
		if !valid {
			t.Fatalf("parseJSON accepts %q, the library does not", data)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, toAny(v)); d != "" {
			t.Fatalf("%q read differently (-encoding/json +scanner):\n%s", data, d)
		}
	})
}
