package app

import (
	"regexp"
	"testing"

	"segnapunti/messages/codedtest"
)

// Every refusal an operation makes names a code of the catalogue (package
// messages), so that the pages and the API word it in the reader's
// language; a plain English format would reach Italian readers in English.
// A refusal or field detail built as a literal with an English Detail and
// no code is refused too: only errors.go builds them (field, refusal, and
// uncoded for another package's English).
func TestAppRefusalsAreCoded(t *testing.T) {
	codedtest.Check(t,
		regexp.MustCompile(`\b(notFound\(|conflict\(|forbidden\(|refusal\([A-Za-z.]+,|paramError\("[a-z_]+",|field\([^,()]+(?:\([^()]*\))?[^,()]*,|cellField\([^,()]+(?:\([^()]*\))?[^,()]*,|misfit\([^,]+,|bad\([^,]+,)\s*"([^"\n]*)"`),
		regexp.MustCompile(`(?s)\b(FieldError|Error)\{[^{}]*\bDetail:[^{}]*\}`),
		"errors.go", "Msg:", "field, cellField or refusal (a code of package messages)")
}
