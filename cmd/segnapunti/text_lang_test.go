package main

import (
	"strings"
	"testing"

	"segnapunti/domain"
)

// --lang it translates the severities and the field names of the
// text report, not only the messages; --lang en (the default) keeps them.
func TestValidateTextLanguage(t *testing.T) {
	_, it, _ := runCLI(t, "validate", "--lang", "it", "../../examples/sum_error.json")
	for _, want := range []string{"ERRORE  smazz. 2 NS totale 290 → 280", "info    smazz. 2 NS base 200", "1 errore/i"} {
		if !strings.Contains(it, want) {
			t.Errorf("Italian text report lacks %q:\n%s", want, it)
		}
	}
	for _, english := range []string{"ERROR ", " total ", "error(s)"} {
		if strings.Contains(it, english) {
			t.Errorf("Italian text report still says %q:\n%s", english, it)
		}
	}
	_, en, _ := runCLI(t, "validate", "../../examples/sum_error.json")
	if !strings.Contains(en, "ERROR   hand 2 NS total 290 → 280") {
		t.Errorf("English text report lacks the English line:\n%s", en)
	}
}

func TestFieldLabel(t *testing.T) {
	for _, c := range []struct{ field, lang, want string }{
		{"running_total", "it", "progressivo"},
		{"late_points", "it", "punti ritardo"},
		{"late_points", "en", "late_points"},
		{"something_new", "it", "something_new"},
	} {
		if got := fieldLabel(c.field, domain.Lang(c.lang)); got != c.want {
			t.Errorf("fieldLabel(%q, %s) = %q, want %q", c.field, c.lang, got, c.want)
		}
	}
}
