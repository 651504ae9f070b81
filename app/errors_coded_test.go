package app

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"segnapunti/messages"
)

// Every refusal an operation makes names a code of the catalogue (package
// messages), so that the pages and the API word it in the reader's
// language; a plain English format would reach Italian readers in English.
// A refusal or field detail built as a literal with an English Detail and
// no code is refused too: only errors.go builds them (field, refusal, and
// uncoded for another package's English).
func TestAppRefusalsAreCoded(t *testing.T) {
	call := regexp.MustCompile(`\b(notFound\(|conflict\(|forbidden\(|refusal\([A-Za-z.]+,|paramError\("[a-z_]+",|field\([^,()]+(?:\([^()]*\))?[^,()]*,|cellField\([^,()]+(?:\([^()]*\))?[^,()]*,|misfit\([^,]+,|bad\([^,]+,)\s*"([^"\n]*)"`)
	literal := regexp.MustCompile(`(?s)\b(FieldError|Error)\{[^{}]*\bDetail:[^{}]*\}`)
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, _ := os.ReadFile(f)
		for _, m := range call.FindAllStringSubmatch(string(b), -1) {
			if !messages.Has(m[2]) {
				t.Errorf("%s: %s refuses with %q, which is not a code of package messages", f, strings.TrimRight(m[1], "(,"), m[2])
			}
		}
		if f == "errors.go" {
			continue
		}
		for _, m := range literal.FindAllString(string(b), -1) {
			if !strings.Contains(m, "Msg:") {
				t.Errorf("%s: %s has an English Detail and no code: build it with field, cellField or refusal (a code of package messages)", f, m)
			}
		}
	}
}
