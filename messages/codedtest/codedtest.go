// Package codedtest checks, for a package's tests, that the package words
// what people read from the catalogue (package messages): every key its
// constructors name is a code, and no detail is built as an English
// literal outside the one file that may.
package codedtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"segnapunti/messages"
)

// Check reads the non-test Go files of the current directory. A match of
// call names a key in its last submatch, which must be a code; a match of
// literal outside the file except must contain marker (the field that
// carries the code), else it is an English detail without one: hint says
// what to build it with.
func Check(t *testing.T, call, literal *regexp.Regexp, except, marker, hint string) {
	t.Helper()
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, _ := os.ReadFile(f)
		for _, m := range call.FindAllStringSubmatch(string(b), -1) {
			if key := m[len(m)-1]; !messages.Has(key) {
				t.Errorf("%s: %s names %q, which is not a code of package messages", f, strings.TrimRight(m[1], "(,"), key)
			}
		}
		if f == except {
			continue
		}
		for _, m := range literal.FindAllString(string(b), -1) {
			if !strings.Contains(m, marker) {
				t.Errorf("%s: %s has an English Detail and no code: build it with %s", f, m, hint)
			}
		}
	}
}
