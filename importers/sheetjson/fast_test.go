package sheetjson

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
)

// event is one answer of Decoder.Next.
type event struct {
	Sheet domain.Sheet
	Err   *Error
	EOF   bool
}

// drain reads every answer of a decoder, going on after an error about
// one sheet, up to a sticky error or io.EOF.
func drain(t testing.TB, d *Decoder) []event {
	var out []event
	for range 10000 {
		s, err := d.Next()
		switch {
		case err == io.EOF:
			return append(out, event{EOF: true})
		case err != nil:
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not an *Error", err, err)
			}
			out = append(out, event{Err: e})
			if d.err != nil {
				return out
			}
		default:
			out = append(out, event{Sheet: s})
		}
	}
	t.Fatal("the decoder never ended")
	return nil
}

// checkFastAgrees is the differential check of the fast path:
//   - on the bytes of one sheet, the fast parser either declines or
//     returns exactly the sheet the library path returns, and the library
//     path then finds no problem;
//   - on a whole document, the decoder with the fast path and the decoder
//     without it give the same sheets and the same errors: pointer,
//     detail, line and column;
//   - the one-pass library decoder (the path before this one) gives the
//     same sheets up to the first error, which it meets at the same
//     sheet (its wording can differ: a malformed sheet with an unknown
//     field or a duplicate name has more than one first problem).
//
// It reports whether the fast parser accepted the bytes as one sheet.
func checkFastAgrees(t testing.TB, data []byte) bool {
	t.Helper()
	var p fastParser
	fs, ok := p.decode(data)
	if ok {
		ls, prob := decodeSheet(data)
		if prob != nil {
			t.Fatalf("the fast path accepted what the library refuses (%s: %s):\n%q", prob.ptr, prob.detail, data)
		}
		if diff := cmp.Diff(ls, fs, cmpSheet); diff != "" {
			t.Fatalf("the fast path and the library differ (-library +fast):\n%s\n%q", diff, data)
		}
	}
	for name, r := range map[string]func() io.Reader{
		"whole":    func() io.Reader { return bytes.NewReader(data) },
		"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data)) },
	} {
		lib := NewDecoder(r())
		lib.noFast = true
		fast := NewDecoder(r())
		want, got := drain(t, lib), drain(t, fast)
		if diff := cmp.Diff(want, got, cmpSheet); diff != "" {
			t.Fatalf("%s: the decoder with the fast path differs from the library alone (-library +fast):\n%s\n%q", name, diff, data)
		}
		one := NewDecoder(r())
		one.onePass = true
		old := drain(t, one)
		for i := range min(len(old), len(got)) {
			o, g := old[i], got[i]
			if (o.Err == nil) != (g.Err == nil) || o.EOF != g.EOF {
				t.Fatalf("%s: answer %d: one-pass %+v, framing %+v\n%q", name, i, o.Err, g.Err, data)
			}
			if o.Err != nil {
				break // the two may find different problems of one sheet first
			}
			if diff := cmp.Diff(o.Sheet, g.Sheet, cmpSheet); diff != "" {
				t.Fatalf("%s: answer %d differs (-one-pass +framing):\n%s\n%q", name, i, diff, data)
			}
		}
	}
	checkWholeAgrees(t, data)
	return ok
}

// checkWholeAgrees: Decode and DecodeSheet, which read a lone sheet with
// the fast path alone (wholeFast, no library framing), give the sheets,
// the batch flag and the error of the library alone on the whole input.
func checkWholeAgrees(t testing.TB, data []byte) {
	t.Helper()
	lib := newDecoder(nil, data)
	lib.noFast = true
	var want []domain.Sheet
	var wantErr error
	for {
		s, err := lib.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			want, wantErr = nil, err
			break
		}
		want = append(want, s)
	}
	if want == nil && wantErr == nil {
		want = []domain.Sheet{}
	}
	got, batch, err := Decode(data)
	if diff := cmp.Diff(event{Err: asError(wantErr)}, event{Err: asError(err)}, cmpSheet); diff != "" {
		t.Fatalf("Decode: the error differs from the library alone (-library +Decode):\n%s\n%q", diff, data)
	}
	if diff := cmp.Diff(want, got, cmpSheet); diff != "" || batch != lib.batch {
		t.Fatalf("Decode: batch %v (library %v), sheets differ (-library +Decode):\n%s\n%q", batch, lib.batch, diff, data)
	}

	def := Defaults{}
	one := newDecoder(nil, data)
	one.noFast = true
	one.fast.def = &def
	wantOne, wantOneErr := one.sheetOnly()
	gotOne, err := DecodeSheet(data, def)
	if diff := cmp.Diff(event{Sheet: wantOne, Err: asError(wantOneErr)}, event{Sheet: gotOne, Err: asError(err)}, cmpSheet); diff != "" {
		t.Fatalf("DecodeSheet differs from the library alone (-library +DecodeSheet):\n%s\n%q", diff, data)
	}
}

func asError(err error) *Error {
	var e *Error
	if err != nil && !errors.As(err, &e) {
		e = &Error{Detail: "not an *Error: " + err.Error()}
	}
	return e
}

// fastCases are documents the fast path must either decline or read as
// the library does: each thing it declines, and its near misses.
func fastCases() []string {
	hand := func(ns string) string {
		return `{"ns":{"base":300,"points":235` + ns + `},"eo":{"base":100,"points":-120}}`
	}
	return []string{
		apiExample,
		bad("", ""),
		bad(`,"tournament":"Citt\u00e0"`, ""), // escape: declined
		bad(`,"tournament":"Città di Forlì"`, ""),     // UTF-8: read
		bad(`,"tournament":"Citt`+"\xe0"+`"`, ""),     // invalid UTF-8: declined
		bad(`,"tournament":"a`+"\t"+`b"`, ""),         // control byte: declined
		bad(`,"tournament":"\ud800"`, ""),             // lone surrogate: declined
		bad(`,"Tournament":"x"`, ""),                  // case: declined
		bad(`,"tournament":"x","tournament":"y"`, ""), // duplicate: declined
		bad(`,"colour":1`, ""),                        // unknown: declined
		bad(`,"round":null`, ""),                      // null: declined
		bad(`,"round":-0`, ""),
		bad(`,"round":0`, ""),
		bad(`,"round":1.0`, ""),
		bad(`,"round":1e0`, ""),
		bad(`,"round":01`, ""),
		bad(`,"round":123456789012345678`, ""),
		bad(`,"round":1234567890123456789012`, ""),
		bad(`,"round":"1"`, ""),
		bad(`,"round":true`, ""),
		bad("", `,"total":-0`),
		bad("", `,"total":100001`),
		bad("", `,"burrachi":{"pulito":1,"sporco":0}`),
		bad("", `,"burrachi":{}`),
		bad("", `,"burrachi":{"pulito":21}`),
		bad("", `,"burrachi":{"pulito":-1}`),
		bad("", `,"burrachi":{"pulito":1,"pulito":1}`),
		bad("", `,"burrachi":{"platino":1}`),
		bad("", `,"burrachi":{"pulito":null}`),
		bad("", `,"closed":true,"pozzetto":"taken"`),
		bad("", `,"pozzetto":"preso"`),
		bad(`,"ns":{"id":"1","players":["a","b"]},"eo":{"id":"2","players":[]}`, ""),
		bad(`,"ns":{"id":"1","players":["a",null]}`, ""),
		bad(`,"ns":{"players":["1","2","3","4","5","6","7","8","9"]}`, ""),
		bad(`,"late_points":{"ns":100,"eo":0}`, ""),
		bad(`,"written":{"ns":{"total":1,"mp":2,"vp":13},"eo":{"vp":7}}`, ""),
		bad(`,"written":{"ns":null}`, ""),
		bad(`,"kind":"","vp_table":"","first_dealer":""`, ""),
		bad(`,"kind":"teams","vp_table":"fitab-4","first_dealer":"o"`, ""),
		bad(`,"first_dealer":"x"`, ""),
		`{"ruleset":"fitab-2025","hands_planned":3,"hands":[]}`,
		`{"ruleset":"fitab-2025","hands_planned":3,"hands":[null]}`,
		`{"ruleset":"fitab-2025","hands_planned":3,"hands":[` + strings.Repeat(hand("")+",", 4) + hand("") + `]}`,
		`{"ruleset":"fitab-2025","hands_planned":3,"hands":[` + hand(`,"end":"closed","lost_count":true`) + `]}`,
		`{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"end":"closed","lost_count":true,"ns":{"base":1,"points":2}}]}`,
		`{"ruleset":"fitab-2025","hands":[` + hand("") + `]}`,
		`{"ruleset":"fitab-2025","hands_planned":3,"hands":[` + hand("") + `]} x`,
		`{"ruleset":"fitab-2025","hands_planned":3,"hands":[` + hand("") + `],}`,
		"\xef\xbb\xbf" + bad("", ""),
		`{"sheets":[` + bad("", "") + `,` + bad(`,"colour":1`, "") + `,` + bad(`,"round":3`, "") + `,` + bad(`,"round":1.5`, "") + `,7,` + bad("", "") + `]}`,
		`{"sheets":[` + bad("", "") + `,` + bad(`,"tournament":"Citt`+"\xe0"+`"`, "") + `]}`,
		`{"sheets":[` + bad("", "") + `,{"ruleset":"fitab-2025",` + `]}`,
		`{"sheets":[` + bad("", "") + ` ` + bad("", "") + `]}`,
		`{"sheets":[` + bad("", "") + `],"x":1}`,
		`{"sheets":[]}`, `{"sheets":[null]}`, `{}`, `[]`, ``,
	}
}

func TestFastAgrees(t *testing.T) {
	for _, c := range fastCases() {
		checkFastAgrees(t, []byte(c))
	}
}

// TestFastDeclines: each thing the fast path must leave to the library
// (fast.go) is declined, so that its error, or its reading, is the
// library's.
func TestFastDeclines(t *testing.T) {
	for _, c := range []string{
		bad(`,"tournament":"Citt\u00e0"`, ""),
		bad(`,"tournament":"Citt`+"\xe0"+`"`, ""),
		bad(`,"tournament":"a`+"\t"+`b"`, ""),
		bad(`,"Tournament":"x"`, ""),
		bad(`,"tournament":"x","tournament":"y"`, ""),
		bad(`,"colour":1`, ""),
		bad(`,"round":null`, ""),
		bad(`,"round":-0`, ""),
		bad(`,"round":1.0`, ""),
		bad(`,"round":1e0`, ""),
		bad(`,"round":1234567890123456789012`, ""),
		bad("", `,"total":100001`),
		bad("", `,"burrachi":{"pulito":21}`),
		bad(`,"first_dealer":"x"`, ""),
		bad(`,"ns":{"players":["1","2","3","4","5","6","7","8","9"]}`, ""),
		`{"ruleset":"fitab-2025","hands_planned":3,"hands":[]}`,
		bad("", "") + " x",
	} {
		var p fastParser
		if _, ok := p.decode([]byte(c)); ok {
			t.Errorf("the fast path accepted %q", c)
		}
	}
}

// TestFastReadsWhatWeWrite: every sheet Encode writes (the CLI benchmark's
// batch, the fixtures) is read by the fast path, not declined: otherwise
// the fast path is dead weight.
func TestFastReadsWhatWeWrite(t *testing.T) {
	var p fastParser
	for i, s := range genSheets(200) {
		enc, err := Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := p.decode(enc)
		if !ok {
			t.Fatalf("sheet %d declined:\n%s", i, enc)
		}
		if diff := cmp.Diff(s, got, cmpSheet); diff != "" {
			t.Fatalf("sheet %d read back differs:\n%s", i, diff)
		}
		checkFastAgrees(t, enc)
	}
	for _, path := range []string{"../../examples/clean.json", "../../examples/sum_error.json", "../../examples/inverted_vp.json"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := p.decode(b); !ok {
			t.Errorf("%s declined", path)
		}
		checkFastAgrees(t, b)
	}
}

// FuzzFastAgrees: for any input the fast path declines or agrees with the
// library path, sheet for sheet and error for error (checkFastAgrees).
func FuzzFastAgrees(f *testing.F) {
	for _, c := range fastCases() {
		f.Add([]byte(c))
	}
	for _, s := range genSheets(5) {
		enc, _ := Encode(s)
		f.Add(enc)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastAgrees(t, data)
	})
}
