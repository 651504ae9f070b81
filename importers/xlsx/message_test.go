package xlsx

import (
	"fmt"
	"strings"
	"testing"

	"segnapunti/domain"
)

// A reader's error worded from the catalogue reads, in English, exactly
// as the error (the API's detail and the command line's line), and reads
// in Italian too.
func TestMessageIsTheErrorInEnglish(t *testing.T) {
	for _, err := range []error{
		wbErr(ErrNotWorkbook, "xlsx.ole"),
		wbErr(ErrTooLarge, "xlsx.bytes", 9000, 100),
		wbErr(ErrLayout, "xlsx.no_layout_tidy", "Foglio1"),
		fmt.Errorf("%w: %w", ErrTooLarge, cellErrf("Smazzate", 3, 4, "xlsx.cells", 100)),
		fmt.Errorf("%w: %w", ErrLayout, sheetErrf("Turno 1", "xlsx.no_header", 20, "Smazzata, NS Base", "NS Base")),
		cellErr("Smazzate", 7, 4, &NumberError{Text: "12O", Reason: reasonNotNumber}),
		cellErr("Torneo", 2, 3, refuse("xlsx.ruleset", "burraco")),
		cellErrf("Smazzate", 1, 5, "xlsx.hand_gap", 3, 1, 2),
	} {
		m, ok := Message(err)
		if !ok {
			t.Errorf("%v: no message", err)
			continue
		}
		if want := strings.TrimPrefix(err.Error(), domain.ErrInvalid.Error()+": "); m.English() != want {
			t.Errorf("English %q, error %q", m.English(), want)
		}
		if it := m.In(domain.Italian); it == m.English() {
			t.Errorf("%q is not worded in Italian", it)
		}
	}
	if _, ok := Message(fmt.Errorf("%w: %v", ErrNotWorkbook, fmt.Errorf("zip: not a valid zip file"))); ok {
		t.Error("a zip library's English has a message")
	}
}
