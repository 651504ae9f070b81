package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the command line in-process and returns status, stdout, stderr.
func runCLI(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, func(string) string { return "" }, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// API §3: exit 0 no errors, 1 some sheet has an error finding.
func TestValidateExamples(t *testing.T) {
	cases := []struct {
		file     string
		wantCode int
		wantIn   string // a finding code the JSON report must hold
	}{
		{"../../examples/clean.json", exitOK, ""},
		{"../../examples/sum_error.json", exitFindings, "HAND_TOTAL_MISMATCH"},
		{"../../examples/inverted_vp.json", exitFindings, "RESULT_INVERTED"},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			code, out, errs := runCLI(t, "validate", "--format", "json", c.file)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d; stderr %q", code, c.wantCode, errs)
			}
			var rep struct {
				OK       bool `json:"ok"`
				Findings []struct {
					Code     string `json:"code"`
					Severity string `json:"severity"`
				} `json:"findings"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("output is not one JSON report: %v\n%s", err, out)
			}
			if rep.OK != (c.wantCode == exitOK) {
				t.Errorf("ok = %v with exit %d", rep.OK, code)
			}
			errorsSeen := map[string]bool{}
			for _, f := range rep.Findings {
				if f.Severity == "error" {
					errorsSeen[f.Code] = true
				}
			}
			if c.wantIn != "" && (!errorsSeen[c.wantIn] || len(errorsSeen) != 1) {
				t.Errorf("error codes %v, want exactly %s", errorsSeen, c.wantIn)
			}
		})
	}
}

// API §3: a batch in gives {"reports": [...]} out, in order; several files
// too.
func TestValidateBatchOrder(t *testing.T) {
	code, out, _ := runCLI(t, "validate", "--format", "json", "../../examples/batch.json")
	if code != exitFindings {
		t.Fatalf("exit %d, want 1", code)
	}
	var b struct {
		Reports []struct {
			OK bool `json:"ok"`
		} `json:"reports"`
	}
	if err := json.Unmarshal([]byte(out), &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Reports) != 3 || !b.Reports[0].OK || b.Reports[1].OK || b.Reports[2].OK {
		t.Fatalf("reports %+v, want [ok, error, error]", b.Reports)
	}
	code, out, _ = runCLI(t, "validate", "--format", "json", "../../examples/clean.json", "../../examples/clean.json")
	if code != exitOK || !strings.HasPrefix(strings.TrimSpace(out), `{"reports":`) {
		t.Fatalf("two files: exit %d, output %.60s", code, out)
	}
}

func TestValidateTextIsForAReferee(t *testing.T) {
	code, out, _ := runCLI(t, "validate", "../../examples/sum_error.json")
	if code != exitFindings {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"HAND_TOTAL_MISMATCH", "290 → 280", "FITAB art. 20", "hand 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runCLI(t, "validate", "--lang", "it", "../../examples/sum_error.json")
	if !strings.Contains(out, "smazzata 2") {
		t.Errorf("Italian report lacks 'smazzata 2':\n%s", out)
	}
}

// Bad input to the CLI → exit 2 with a one-line reason, no stack trace.
func TestValidateBadInput(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil { // a sparse 2 GB file
		t.Fatal(err)
	}
	f.Close()
	garbage := make([]byte, 4096)
	for i := range garbage {
		garbage[i] = byte(i*7919 + 13)
	}
	cases := map[string][]string{
		"missing file":  {"validate", filepath.Join(dir, "nope.json")},
		"directory":     {"validate", dir},
		"invalid JSON":  {"validate", writeFile(t, "bad.json", []byte(`{"ruleset": "fitab-2025",`))},
		"empty file":    {"validate", writeFile(t, "empty.json", nil)},
		"binary":        {"validate", writeFile(t, "bin.json", garbage)},
		"2 GB file":     {"validate", huge},
		"unknown field": {"validate", writeFile(t, "uf.json", []byte(`{"ruleset":"fitab-2025","hands_planned":2,"hands":[{"ns":{"base":0,"points":0},"eo":{"base":0,"points":0,"colour":1}}]}`))},
		"no file":       {"validate"},
		"bad format":    {"validate", "--format", "xml", "../../examples/clean.json"},
		"bad lang":      {"validate", "--lang", "fr", "../../examples/clean.json"},
		"bad flag":      {"validate", "--nope", "../../examples/clean.json"},
		"vp no diff":    {"vp", "--table", "fitab-3"},
		"vp bad table":  {"vp", "--table", "fitab-9", "--diff", "10"},
		"unknown cmd":   {"frobnicate"},
		"wrong ruleset": {"validate", writeFile(t, "rs.json", []byte(`{"ruleset":"fitab-1999","hands_planned":2,"hands":[{"ns":{"base":0,"points":0},"eo":{"base":0,"points":0}}]}`))},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			code, out, errs := runCLI(t, args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want 2; stderr %q", code, errs)
			}
			if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
				t.Fatalf("stack trace on stderr: %s", errs)
			}
			if name != "no file" && name != "unknown cmd" && strings.Count(strings.TrimRight(errs, "\n"), "\n") > 0 && !strings.Contains(errs, "Usage") {
				t.Errorf("reason is not one line: %q", errs)
			}
			if out != "" {
				t.Errorf("stdout not empty on exit 2: %.80q", out)
			}
		})
	}
	// The unknown field is named by its JSON pointer.
	_, _, errs := runCLI(t, cases["unknown field"]...)
	if !strings.Contains(errs, "/hands/0/eo/colour") {
		t.Errorf("reason %q does not name /hands/0/eo/colour", errs)
	}
}

// API §3: vp --table and vp --ruleset --hands (RULES §6.2).
func TestVP(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"vp", "--table", "fitab-3", "--diff", "365"}, "14-6"},
		{[]string{"vp", "--table", "fitab-3", "--diff", "360"}, "13-7"},
		{[]string{"vp", "--ruleset", "fibur-int", "--hands", "2", "--diff", "365"}, "14-6"}, // one table up: fibur-3
		{[]string{"vp", "--ruleset", "fitab-2025", "--hands", "2", "--diff", "365"}, "14-6"},
		{[]string{"vp", "--ruleset", "fibur-ita", "--hands", "4", "--diff", "2001"}, "20-0"},
		{[]string{"vp", "--table", "fibur-teams", "--diff", "0"}, "10-10"},
	}
	for _, c := range cases {
		code, out, errs := runCLI(t, c.args...)
		if code != exitOK || strings.TrimSpace(out) != c.want {
			t.Errorf("%v: exit %d, %q (stderr %q), want %s", c.args, code, out, errs, c.want)
		}
	}
}

// API §5: a workbook gives one report per match in workbook
// order, with each finding naming its cell; the LibreOffice fixtures report
// exactly their listed errors.
func TestValidateWorkbookFixtures(t *testing.T) {
	const dir = "../../importers/xlsx/testdata/libreoffice/"
	var expected struct {
		Files []struct {
			File     string
			Matches  []json.RawMessage
			Findings []struct {
				Code  string
				Round int
				Table int
				Cells []string
			}
		}
	}
	b, err := os.ReadFile(dir + "expected.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &expected); err != nil {
		t.Fatal(err)
	}
	for _, ef := range expected.Files {
		if ef.Matches == nil {
			continue // the hostile file, below
		}
		t.Run(ef.File, func(t *testing.T) {
			code, out, errs := runCLI(t, "validate", "--format", "json", dir+ef.File)
			if code != exitFindings {
				t.Fatalf("exit %d, want 1 (stderr %q)", code, errs)
			}
			var got struct {
				Reports []struct {
					Findings []struct{ Code, Severity, Cell string }
				}
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Reports) != len(ef.Matches) {
				t.Fatalf("%d reports, want %d", len(got.Reports), len(ef.Matches))
			}
			var seen []string
			for _, r := range got.Reports {
				for _, f := range r.Findings {
					if f.Severity == "error" {
						seen = append(seen, f.Code+"@"+f.Cell)
					}
				}
			}
			if len(seen) != len(ef.Findings) {
				t.Fatalf("errors %v, want %d listed in expected.json", seen, len(ef.Findings))
			}
			for _, want := range ef.Findings {
				ok := false
				for _, s := range seen {
					for _, c := range want.Cells {
						ok = ok || s == want.Code+"@"+c
					}
				}
				if !ok {
					t.Errorf("no %s naming one of %v; errors: %v", want.Code, want.Cells, seen)
				}
			}
		})
	}
	code, out, errs := runCLI(t, "validate", dir+"hostile_text_in_number.xlsx")
	if code != exitUsage || out != "" || !strings.Contains(errs, "Smazzate!G4") {
		t.Errorf("hostile workbook: exit %d, stderr %q; want 2 naming Smazzate!G4", code, errs)
	}
	code, _, errs = runCLI(t, "validate", writeFile(t, "text.xlsx", []byte("just text, renamed")))
	if code != exitUsage || strings.Count(errs, "\n") != 1 {
		t.Errorf("renamed text file: exit %d, stderr %q", code, errs)
	}
}
