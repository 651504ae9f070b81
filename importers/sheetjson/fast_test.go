package sheetjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
)

// The fast path (fast.go) must not change what the decoder accepts, what it
// builds, or what an error says: these tests run every input both ways, the
// general path alone (noFast) and the fast path in front of it, and
// compare. They also count the sheets the fast path left to the general
// path although the general path accepted them: there must be none.

// decodeWith runs a whole document through a decoder reading r (the
// document itself, as Decode does, when r is nil), the fast path on or off.
func decodeWith(data []byte, r func() io.Reader, fast bool) (sheets []domain.Sheet, fallbacks int, err error) {
	d := &Decoder{buf: data, eof: true, maxSheet: MaxSheetBytes}
	if r != nil {
		d = NewDecoder(r())
	}
	d.noFast = !fast
	sheets, err = readAll(d)
	return sheets, d.fallbacks, err
}

// checkFastAgrees decodes doc with and without the fast path, from memory
// and from streams cut in small reads, and fails t when the two differ in
// any way; it returns how many sheets the general path accepted from
// memory and how many of those the fast path did not.
func checkFastAgrees(t testing.TB, doc []byte) (accepted, silent int) {
	t.Helper()
	readers := []struct {
		name string
		r    func() io.Reader
	}{
		{"whole", nil},
		{"one byte", func() io.Reader { return iotest.OneByteReader(bytes.NewReader(doc)) }},
		{"half", func() io.Reader { return iotest.HalfReader(bytes.NewReader(doc)) }},
	}
	for _, rd := range readers {
		want, _, werr := decodeWith(doc, rd.r, false)
		got, fallbacks, gerr := decodeWith(doc, rd.r, true)
		if !reflect.DeepEqual(werr, gerr) {
			t.Fatalf("%s: general path error %#v\nfast path error %#v\ninput: %q", rd.name, werr, gerr, doc)
		}
		if diff := cmp.Diff(want, got, cmpSheet); diff != "" {
			t.Fatalf("%s: sheets differ (-general +fast):\n%s\ninput: %q", rd.name, diff, doc)
		}
		// Every sheet the general path accepted must have come from the
		// fast path; only the one bad sheet that ends decoding may not.
		bad := 0
		if werr != nil {
			bad = 1
		}
		if fallbacks > bad {
			t.Errorf("%s: %d of %d good sheets fell back to the general path\ninput: %q", rd.name, fallbacks-bad, len(want), doc)
		}
		if rd.r == nil {
			accepted, silent = len(want), max(fallbacks-bad, 0)
		}
	}
	// The parser alone on a document that starts as a sheet: when it says
	// yes, the general path says yes to the same bytes, with the same sheet.
	if len(doc) > 0 && doc[0] == '{' {
		var fp fastParser
		s, n, st := fp.parse(doc)
		if st == fastOK {
			old, p := decodeSheet(doc[:n])
			if p != nil {
				t.Fatalf("fast path accepted %q, general path: %s: %s", doc[:n], p.ptr, p.detail)
			}
			if diff := cmp.Diff(old, s, cmpSheet); diff != "" {
				t.Fatalf("sheets differ (-general +fast):\n%s\ninput: %q", diff, doc[:n])
			}
		}
	}
	return accepted, silent
}

// fastCases are inputs aimed at the corners of fast.go: every JSON
// construct the schema admits, written the unusual way, and near misses
// the general path refuses.
func fastCases() []string {
	hand := `{"ns":{"base":300,"points":235},"eo":{"base":100,"points":-120}}`
	sheet := func(top string) string {
		return `{"ruleset":"fitab-2025","hands_planned":3` + top + `,"hands":[` + hand + `]}`
	}
	cases := []string{
		apiExample, "\xef\xbb\xbf" + apiExample, " \t\r\n" + apiExample + " \t\r\n",
		strings.ReplaceAll(apiExample, "\n", "\r\n"),
		// Whole numbers: -0 is 0; fractions, exponents, leading zeros,
		// signs and huge numbers are the general path's.
		bad("", `,"total":-0`), bad("", `,"total":0`), bad("", `,"total":-00`), bad("", `,"total":01`),
		bad("", `,"total":1.0`), bad("", `,"total":1e2`), bad("", `,"total":1E2`), bad("", `,"total":-`),
		bad("", `,"total":+1`), bad("", `,"total":100000`), bad("", `,"total":100001`), bad("", `,"total":-100000`),
		bad("", `,"total":123456789012345678`), bad("", `,"total":1234567890123456789`),
		bad("", `,"total":99999999999999999999999`), bad("", `,"total":"1"`), bad("", `,"total":true`),
		bad("", `,"total":null`), bad("", `,"total":nul`), bad("", `,"total":nullx`), bad("", `,"total":1x`),
		bad("", `,"closed":true`), bad("", `,"closed":false`), bad("", `,"closed":tru`), bad("", `,"closed":1`),
		// Burraco counts: 0..20, no sign, each type once, known types.
		bad("", `,"burrachi":{"pulito":20}`), bad("", `,"burrachi":{"pulito":21}`), bad("", `,"burrachi":{"pulito":-0}`),
		bad("", `,"burrachi":{"pulito":0,"sporco":0,"reale":1,"super":2,"semipulito":3,"reale_sporco":4,"super_sporco":5}`),
		bad("", `,"burrachi":{"pulito":1,"pulito":1}`), bad("", `,"burrachi":{"Pulito":1}`), bad("", `,"burrachi":{"pulito":null}`),
		bad("", `,"burrachi":{}`), bad("", `,"burrachi":null`), bad("", `,"burrachi":[]`), bad("", `,"burrachi":{"pulito":1.0}`),
		bad("", `,"burrachi":{"p\u0075lito":2}`), bad("", `,"burrachi":{"pulito":100}`), bad("", `,"burrachi":{"pulito":1,}`),
		// Keys: exact spelling, escapes decoded, no duplicates.
		bad("", `,"\u0074otal":5`), bad("", `,"Total":5`), bad("", `,"total":5,"total":5`), bad(`,"\u0072ound":2`, ""),
		bad(`,"round":2,"round":2`, ""), bad(`,"colour":1`, ""), bad(`,"sheets":[]`, ""), bad("", `,"tot\al":5`),
		bad("", `,"total\u0000":5`), bad("", `,"total":5,`), bad(`,"round" : 2 `, ""), bad(`,"round":2,,"table":3`, ""),
		// Strings: escapes, surrogates, UTF-8 as encoding/json reads them.
		sheet(`,"tournament":"Citt\u00e0 \"di\" Lugano\\\/\b\f\n\r\t"`),
		sheet(`,"tournament":"\ud83c\udccf joker \uD83C\uDCCF"`),
		sheet(`,"tournament":"lone \ud83c high, lone \udccf low, \ud83c\u0041 broken pair, \ud83c\ud83c twice"`),
		sheet(`,"tournament":"\ud83c"`), sheet(`,"tournament":"\ud83c\"`), sheet(`,"tournament":"\ud83c\u"`),
		sheet(`,"tournament":"\u00"`), sheet(`,"tournament":"\uZZZZ"`), sheet(`,"tournament":"\'"`), sheet(`,"tournament":"\x"`),
		sheet(`,"tournament":"Città ☃ 🃏"`), sheet(",\"tournament\":\"bad \xff\xfe utf-8 \xe2\x82\""), sheet(",\"tournament\":\"\xed\xa0\x80\""),
		sheet(",\"tournament\":\"tab\tinside\""), sheet(",\"tournament\":\"nul\x00\""), sheet(`,"tournament":""`),
		sheet(`,"tournament":"\u0000"`), sheet(`,"tournament":null`), sheet(`,"tournament":5`),
		// Enumerations: known, empty, unknown, escaped.
		sheet(`,"kind":"teams"`), sheet(`,"kind":""`), sheet(`,"kind":"Teams"`), sheet(`,"kind":"t\u0065ams"`),
		sheet(`,"vp_table":"fitab-2"`), sheet(`,"vp_table":""`), sheet(`,"vp_table":"fitab-9"`),
		sheet(`,"first_dealer":"o"`), sheet(`,"first_dealer":""`), sheet(`,"first_dealer":"w"`),
		`{"ruleset":"fibur-int","hands_planned":2,"hands":[` + hand + `]}`, `{"ruleset":"fitab-int","hands_planned":4,"hands":[` + hand + `]}`,
		`{"ruleset":"nope","hands_planned":2,"hands":[` + hand + `]}`, `{"ruleset":"fitab-2025","hands_planned":5,"hands":[` + hand + `]}`,
		`{"hands_planned":2,"hands":[` + hand + `]}`, `{"ruleset":"fitab-2025","hands":[` + hand + `]}`, `{"ruleset":"fitab-2025","hands_planned":3}`,
		// Sides, players, late points, written results.
		sheet(`,"ns":{"id":"12","players":["a","b","c","d","e","f"]},"eo":{}`), sheet(`,"ns":{"players":[]}`),
		sheet(`,"ns":{"players":null,"id":null}`), sheet(`,"ns":{"players":[null]}`), sheet(`,"ns":{"players":[1]}`),
		sheet(`,"ns":{"players":["a",]}`), sheet(`,"ns":{"id":12}`), sheet(`,"ns":null,"eo":null`), sheet(`,"ns":[]`),
		sheet(`,"late_points":{"ns":100,"eo":-100000}`), sheet(`,"late_points":{"ns":null}`), sheet(`,"late_points":{}`),
		sheet(`,"late_points":{"ns":100001}`), sheet(`,"late_points":null`),
		sheet(`,"written":{"ns":{"total":1,"mp":-2,"vp":3},"eo":null}`), sheet(`,"written":{}`), sheet(`,"written":{"ns":{}}`),
		sheet(`,"written":{"ns":{"vp":null}}`), sheet(`,"written":{"ns":{"vp":1.5}}`), sheet(`,"written":{"ns":{"mp":-100001}}`),
		sheet(`,"round":1,"table":10000`), sheet(`,"round":0`), sheet(`,"table":10001`),
		// Hands: 1..4, no null hand, lines required.
		`{"ruleset":"fitab-2025","hands_planned":4,"hands":[` + strings.Repeat(hand+",", 3) + hand + `]}`,
		`{"ruleset":"fitab-2025","hands_planned":4,"hands":[` + strings.Repeat(hand+",", 4) + hand + `]}`,
		`{"ruleset":"fitab-2025","hands_planned":4,"hands":[]}`, `{"ruleset":"fitab-2025","hands_planned":4,"hands":null}`,
		`{"ruleset":"fitab-2025","hands_planned":4,"hands":[null]}`, `{"ruleset":"fitab-2025","hands_planned":4,"hands":[{}]}`,
		`{"ruleset":"fitab-2025","hands_planned":4,"hands":[{"end":"stall","lost_count":true,"ns":{"base":0,"points":0},"eo":{"base":0,"points":0}}]}`,
		`{"ruleset":"fitab-2025","hands_planned":4,"hands":[{"end":"","lost_count":null,"end2":1}]}`,
		`{"ruleset":"fitab-2025","hands_planned":4,"hands":[{"end":"bad","ns":{"base":0,"points":0},"eo":{"base":0,"points":0}}]}`,
		`{"ruleset":"fitab-2025","hands_planned":4,"hands":[{"ns":{"base":0,"points":0,"pozzetto":"taken_not_played","table_points":0,"hand_points":0,"pozzetto_unplayed_points":0,"penalty_points":0},"eo":{"base":0,"points":0,"penalty_points":-1}}]}`,
		`{"ruleset":"fitab-2025","hands_planned":4,"hands":[{"ns":{"base":0,"points":0,"pozzetto":"kept"},"eo":{"base":0,"points":0}}]}`,
		// Structure.
		`{}`, `{ }`, `{"ruleset":"fitab-2025"`, `{"ruleset":"fitab-2025",}`, `{"ruleset" "fitab-2025"}`, `{ruleset:1}`,
		sheet("") + " x", sheet("") + sheet(""), `{"sheets":[` + sheet("") + `,` + sheet(`,"round":2`) + `]}`,
		`{"sheets":[` + sheet("") + `,` + sheet(`,"round":0`) + `,` + sheet("") + `]}`,
		`{"sheets":[` + sheet("") + ` , ` + sheet(`,"round":2`) + `]}`,
	}
	return cases
}

// TestFastAgrees runs the fast path and the general path over the corner
// cases above, the API §1 example, the fixtures and the fuzz corpus.
func TestFastAgrees(t *testing.T) {
	var inputs []string
	inputs = append(inputs, fastCases()...)
	if b, err := os.ReadFile("testdata/fixtures_batch.json"); err == nil {
		inputs = append(inputs, string(b))
	} else {
		t.Fatal(err)
	}
	inputs = append(inputs, fuzzCorpus(t)...)
	for i, in := range inputs {
		t.Run(strconv.Itoa(i), func(t *testing.T) { checkFastAgrees(t, []byte(in)) })
	}
}

// TestFastFixturesNeverFallBack: every sheet of the fixtures and of a
// generated batch comes from the fast path.
func TestFastFixturesNeverFallBack(t *testing.T) {
	fixtures, err := os.ReadFile("testdata/fixtures_batch.json")
	if err != nil {
		t.Fatal(err)
	}
	generated, err := EncodeBatch(genSheets(200))
	if err != nil {
		t.Fatal(err)
	}
	for name, doc := range map[string][]byte{"fixtures": fixtures, "generated": generated} {
		t.Run(name, func(t *testing.T) {
			accepted, silent := checkFastAgrees(t, doc)
			if accepted == 0 || silent != 0 {
				t.Errorf("%d sheets accepted, %d of them by the general path", accepted, silent)
			}
		})
	}
}

// fuzzCorpus reads the inputs go test keeps for FuzzDecode and
// FuzzFastAgrees (testdata/fuzz), so every input that once found a bug is
// also run both ways.
func fuzzCorpus(t *testing.T) []string {
	var out []string
	for _, dir := range []string{"testdata/fuzz/FuzzDecode", "testdata/fuzz/FuzzFastAgrees"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if len(lines) != 2 || !strings.HasPrefix(lines[1], "[]byte(") {
				t.Fatalf("%s: not a corpus file of one []byte", f)
			}
			s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out = append(out, s)
		}
	}
	return out
}

// FuzzFastAgrees: whatever the bytes, the fast path and the general path
// agree: the same sheets, the same error, and no good sheet left to the
// general path.
func FuzzFastAgrees(f *testing.F) {
	for _, s := range fastCases() {
		f.Add([]byte(s))
	}
	if b, err := os.ReadFile("testdata/fixtures_batch.json"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastAgrees(t, data)
	})
}

// cliBatchSheets is the batch size of TestFastCLIBatchNeverFallsBack; the
// CLI benchmark's batch is 100,000 sheets of the same shape.
const cliBatchSheets = 2000

// TestFastCLIBatchNeverFallsBack streams a batch built as the CLI
// benchmark builds its own (cmd/segnapunti/bench_test.go: the clean
// example with varying round and table) and checks that no sheet of it
// left the fast path.
func TestFastCLIBatchNeverFallsBack(t *testing.T) {
	example, err := os.ReadFile("../../examples/clean.json")
	if err != nil {
		t.Skip("no examples/clean.json:", err)
	}
	var sheet map[string]any
	if err := json.Unmarshal(example, &sheet); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(`{"sheets": [`)
	for i := range cliBatchSheets {
		if i > 0 {
			b.WriteString(",\n")
		}
		sheet["table"] = i%500 + 1
		sheet["round"] = i/500%5 + 1
		one, err := json.Marshal(sheet)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(one)
	}
	b.WriteString("]}\n")
	d := NewDecoder(bytes.NewReader(b.Bytes()))
	sheets, err := readAll(d)
	if err != nil {
		t.Fatal(err)
	}
	if len(sheets) != cliBatchSheets || d.fallbacks != 0 {
		t.Errorf("%d sheets, %d of them read by the general path; want %d, none", len(sheets), d.fallbacks, cliBatchSheets)
	}
	t.Logf("%d sheets, %d fallbacks", len(sheets), d.fallbacks)
}

// TestFastReadsEveryWriting: the same good sheets written every way JSON
// allows (keys in any order, blanks anywhere, any character escaped, a
// non-BMP rune as a surrogate pair, 0 as -0) are all read by the fast path,
// to the same sheet as the general path reads.
func TestFastReadsEveryWriting(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	sheets := genSheets(50)
	for i := range sheets {
		sheets[i].Tournament = "Coppa 🃏 Città \"Lugano\"\\"
	}
	for i, s := range sheets {
		data, err := Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		rewrite(&b, r, v, false)
		accepted, silent := checkFastAgrees(t, b.Bytes())
		if accepted != 1 || silent != 0 {
			t.Errorf("sheet %d: accepted %d, by the general path %d:\n%s", i, accepted, silent, b.Bytes())
		}
	}
}

// rewrite writes v as JSON, choosing at random among equivalent writings.
// A burraco count stays unsigned: the decoder refuses -0 there (walk.go
// smallCount).
func rewrite(b *bytes.Buffer, r *rand.Rand, v any, counts bool) {
	blank := func() {
		for range r.IntN(3) {
			b.WriteByte(" \t\r\n"[r.IntN(4)])
		}
	}
	blank()
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			blank()
			rewriteString(b, r, k)
			blank()
			b.WriteByte(':')
			rewrite(b, r, v[k], counts || k == "burrachi")
		}
		blank()
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			rewrite(b, r, e, false)
		}
		blank()
		b.WriteByte(']')
	case string:
		rewriteString(b, r, v)
	case json.Number:
		if v == "0" && !counts && r.IntN(2) == 0 {
			v = "-0"
		}
		b.WriteString(string(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	}
	blank()
}

func rewriteString(b *bytes.Buffer, r *rand.Rand, s string) {
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case r.IntN(3) > 0:
			b.WriteRune(c)
		case c > 0xffff:
			r1, r2 := utf16.EncodeRune(c)
			fmt.Fprintf(b, `\u%04x\u%04X`, r1, r2)
		case c == '/' || r.IntN(2) == 0:
			fmt.Fprintf(b, `\u%04x`, c)
		default:
			fmt.Fprintf(b, `\u%04X`, c)
		}
	}
	b.WriteByte('"')
}
