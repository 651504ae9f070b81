package reportjson

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"segnapunti/domain"
	"segnapunti/importers/sheetjson"
)

// libraryMarshal encodes r through the library: the Report this package
// reads back (decode.go), filled from the domain report with Message as a
// string, marshalled by reflection with encoding/json's omitempty rules.
// What Marshal must write, byte for byte.
func libraryMarshal(t testing.TB, r domain.Report, lang domain.Lang) []byte {
	t.Helper()
	lr := Report{Ruleset: string(r.Ruleset), Findings: []Finding{}}
	if !r.VPTable.IsZero() {
		lr.VPTable = r.VPTable.ID()
	}
	lr.Computed.Hands = make([]ComputedHand, len(r.Computed.Hands))
	for i, h := range r.Computed.Hands {
		lr.Computed.Hands[i].NS = HandTotals{h.Total[domain.NS], h.RunningTotal[domain.NS]}
		lr.Computed.Hands[i].EO = HandTotals{h.Total[domain.EO], h.RunningTotal[domain.EO]}
	}
	lr.Computed.NS = LineResult(r.Computed.Lines[domain.NS])
	lr.Computed.EO = LineResult(r.Computed.Lines[domain.EO])
	for _, f := range r.Findings {
		lf := Finding{Code: string(f.Code), Severity: string(f.Severity), Hand: f.Hand, Field: f.Field,
			Written: f.Written, Expected: f.Expected, Rule: f.Rule, Message: f.Message(lang), Pointer: f.Pointer, Cell: f.Cell}
		if f.Line != nil {
			lf.Line = f.Line.String()
		}
		switch f.Severity {
		case domain.SeverityError:
			lr.Counts.Error++
		case domain.SeverityWarning:
			lr.Counts.Warning++
		case domain.SeverityInfo:
			lr.Counts.Info++
		}
		lr.Findings = append(lr.Findings, lf)
	}
	lr.OK = lr.Counts.Error == 0
	// Invalid UTF-8 (a fuzzed string) is written as U+FFFD, as the
	// appender does.
	b, err := jsonv2.Marshal(lr, jsontext.AllowInvalidUTF8(true), jsonv1.OmitEmptyWithLegacySemantics(true))
	if err != nil {
		t.Fatal(err)
	}
	if r.VPTable.IsZero() { // Report says "" for null; the key is written once, its quotes unescaped
		b = bytes.Replace(b, []byte(`"vp_table":""`), []byte(`"vp_table":null`), 1)
	}
	return b
}

// agreeWithLibrary checks Marshal, Encode and a one-report batch against
// the library's bytes, in both languages.
func agreeWithLibrary(t testing.TB, r domain.Report) {
	t.Helper()
	for _, lang := range []domain.Lang{domain.English, domain.Italian} {
		want := libraryMarshal(t, r, lang)
		got, err := Marshal(r, lang)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: Marshal\n%s\nlibrary\n%s", lang, got, want)
		}
		batch, err := MarshalBatch([]domain.Report{r, r}, lang)
		if err != nil {
			t.Fatal(err)
		}
		if wantBatch := batchOpen + string(want) + batchSep + string(want) + "\n]}"; string(batch) != wantBatch {
			t.Fatalf("%s: MarshalBatch\n%s\nwant\n%s", lang, batch, wantBatch)
		}
	}
}

// corpusSheets are the sheets of the examples and of the decoder's
// fixtures.
func corpusSheets(t testing.TB) []domain.Sheet {
	t.Helper()
	var files []string
	for _, glob := range []string{"../../examples/*.json", "../../importers/sheetjson/testdata/*.json"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	var sheets []domain.Sheet
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, _, err := sheetjson.Decode(data)
		if err != nil {
			continue // a fixture of a refused sheet
		}
		sheets = append(sheets, s...)
	}
	if len(sheets) < 5 {
		t.Fatalf("only %d corpus sheets", len(sheets))
	}
	return sheets
}

// TestAppendAgreesWithLibrary: the reports of the corpus sheets and of
// this package's tests are the library's bytes.
func TestAppendAgreesWithLibrary(t *testing.T) {
	for _, s := range corpusSheets(t) {
		agreeWithLibrary(t, domain.Validate(s))
	}
	agreeWithLibrary(t, apiReport(t))
	agreeWithLibrary(t, domain.Report{Ruleset: domain.FITABInt})
}

// FuzzAppendAgreesWithLibrary decodes a sheet from the input and checks
// its report, and a finding made of the input's strings, against the
// library.
func FuzzAppendAgreesWithLibrary(f *testing.F) {
	for _, glob := range []string{"../../examples/*.json", "../../importers/sheetjson/testdata/*.json"} {
		m, _ := filepath.Glob(glob)
		for _, p := range m {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data, "X", "field", "FITAB art. 1", "a \"message\" \\ <&> \u2028", "/hands/0/ns/base", "Smazzate!K12", 1)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, code, field, rule, msg, ptr, cell string, n int) {
		if sheets, _, err := sheetjson.Decode(data); err == nil {
			for _, s := range sheets {
				agreeWithLibrary(t, domain.Validate(s))
			}
		}
		l := domain.Line(n & 1)
		fd := domain.Finding{Code: domain.Code(code), Severity: domain.SeverityWarning, Hand: n % 5, Line: &l, Field: field,
			Written: &n, Rule: rule, MessageEN: msg, MessageIT: msg + "!", Pointer: ptr, Cell: cell}
		agreeWithLibrary(t, domain.Report{Ruleset: domain.FITAB2025, Findings: []domain.Finding{fd}})
	})
}
