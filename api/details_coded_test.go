package api

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"segnapunti/messages"
)

// Every detail the API writes itself names a code of the catalogue
// (package messages), so that a problem reads in the request's language:
// a field error built as a literal with an English Detail and no code is
// refused (only problem.go builds them, uncodedField for another
// package's English), and so is a key that is not a code.
func TestAPIDetailsAreCoded(t *testing.T) {
	literal := regexp.MustCompile(`(?s)\bfieldError\{[^{}]*\bDetail:[^{}]*\}`)
	call := regexp.MustCompile(`\b(fieldAt\([^,]+,|bad\([^,]+,|messages\.New\()\s*"([^"\n]*)"[,)]`)
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, _ := os.ReadFile(f)
		for _, m := range call.FindAllStringSubmatch(string(b), -1) {
			if !messages.Has(m[2]) {
				t.Errorf("%s: %s names %q, which is not a code of package messages", f, strings.TrimRight(m[1], "(,"), m[2])
			}
		}
		if f == "problem.go" {
			continue
		}
		for _, m := range literal.FindAllString(string(b), -1) {
			if !strings.Contains(m, "msg:") {
				t.Errorf("%s: %s has an English Detail and no code: build it with fieldAt or fieldMsg", f, m)
			}
		}
	}
}
