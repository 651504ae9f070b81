package api

import (
	"regexp"
	"testing"

	"segnapunti/messages/codedtest"
)

// Every detail the API writes itself names a code of the catalogue
// (package messages), so that a problem reads in the request's language:
// a field error built as a literal with an English Detail and no code is
// refused (only problem.go builds them, uncodedField for another
// package's English), and so is a key that is not a code.
func TestAPIDetailsAreCoded(t *testing.T) {
	codedtest.Check(t,
		regexp.MustCompile(`\b(fieldAt\([^,]+,|bad\([^,]+,|messages\.New\()\s*"([^"\n]*)"[,)]`),
		regexp.MustCompile(`(?s)\bfieldError\{[^{}]*\bDetail:[^{}]*\}`),
		"problem.go", "msg:", "fieldAt or fieldMsg")
}
