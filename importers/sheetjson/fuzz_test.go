package sheetjson

import (
	"bytes"
	"errors"
	"os"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
)

// FuzzDecode: whatever the bytes, Decode does not panic; an error is an
// *Error wrapping domain.ErrInvalid; the streaming decoder agrees with
// Decode; and a sheet that decodes encodes to JSON that decodes to the same
// sheet.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(apiExample))
	if b, err := os.ReadFile("testdata/fixtures_batch.json"); err == nil {
		f.Add(b)
	}
	for _, s := range []string{
		``, `{}`, `[]`, `null`, `{"sheets":[]}`, `{"sheets":[null]}`, `{"sheets":[{}],"x":1}`,
		bad("", ""), bad(`,"colour":1`, ""), bad("", `,"base":1`), bad("", `,"total":1e300`), bad("", `,"total":-0`),
		bad("", `,"burrachi":{"pulito":1,"sporco":0}`), bad("", `,"burrachi":{}`), bad(`,"ns":{"id":"1","players":["a\u00e0"]}`, ""),
		bad(`,"late_points":{"ns":100}`, ""), bad(`,"written":{"ns":{"vp":13}}`, ""), "\xef\xbb\xbf" + bad("", ""),
		`{"sheets":[` + bad("", "") + `,` + bad(`,"round":3`, "") + `]}`, `{"sheet\u0073":[]}`, `{"ruleset":"fitab-2025",`,
		`{"sheets":[{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"base":0,"points":0},"eo":{"base":0,"points":0}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sheets, batch, err := Decode(data)
		streamed, serr := readAll(NewDecoder(iotest.OneByteReader(bytes.NewReader(data))))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("error %T %v is not a *Error wrapping ErrInvalid", err, err)
			}
			var se *Error
			if !errors.As(serr, &se) || se.Pointer != e.Pointer || se.Line != e.Line || se.Column != e.Column {
				t.Fatalf("Decode: %v; Decoder: %v", err, serr)
			}
			return
		}
		if serr != nil {
			t.Fatalf("Decode accepted, Decoder refused: %v", serr)
		}
		if diff := cmp.Diff(sheets, streamed, cmpSheet, cmp.Comparer(func(a, b []domain.Sheet) bool {
			return len(a) == len(b) && (len(a) == 0 || cmp.Equal(a, b, cmpSheet))
		})); diff != "" {
			t.Fatalf("Decode and Decoder differ:\n%s", diff)
		}
		if !batch && len(sheets) != 1 {
			t.Fatalf("a single sheet came back as %d", len(sheets))
		}
		for _, s := range sheets {
			enc, err := Encode(s)
			if err != nil {
				t.Fatalf("Encode of a decoded sheet: %v", err)
			}
			again, _, err := Decode(enc)
			if err != nil {
				t.Fatalf("Decode(Encode(s)): %v\n%s", err, enc)
			}
			if diff := cmp.Diff(s, again[0], cmpSheet); diff != "" {
				t.Fatalf("Decode(Encode(s)) differs:\n%s", diff)
			}
			enc2, _ := Encode(again[0])
			if !bytes.Equal(enc, enc2) {
				t.Fatalf("Encode is not stable:\n%s\n%s", enc, enc2)
			}
		}
	})
}
