package domain

import (
	"strings"
	"testing"
)

// A category id: 1 to 40 of a-z, 0-9, '_' and '-', starting with a letter
// or a digit (it becomes data-prize on the page and a workbook code).
func TestValidPrizeID(t *testing.T) {
	for id, want := range map[string]bool{
		"overall": true, "a": true, "9": true, "seniors-70": true, "best_club": true, "a_": true,
		strings.Repeat("a", 40): true, strings.Repeat("a", 41): false,
		"": false, "_a": false, "-a": false, "Ladies": false, "dame 1": false, "é": false,
	} {
		if got := validPrizeID(id); got != want {
			t.Errorf("validPrizeID(%q) = %v, want %v", id, got, want)
		}
	}
}
