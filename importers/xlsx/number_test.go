package xlsx

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"segnapunti/domain"
)

// API §5: "Numbers may be numbers or text in Italian or English form
// (1.250, 1,250, -120, (120), 1250,0); a cell that is not a number where
// one is needed is an error naming that cell."
func TestParseNumber(t *testing.T) {
	valid := []struct {
		name, text string
		want       int
	}{
		{"plain", "1250", 1250},
		{"zero", "0", 0},
		{"leading zeros", "0065", 65},
		{"negative", "-120", -120},
		{"leading plus", "+120", 120},
		{"typographic minus", "\u2212120", -120},
		{"accounting negative", "(120)", -120},
		{"accounting negative with inner spaces", "( 120 )", -120},
		{"accounting zero", "(0)", 0},
		{"Italian thousands", "1.250", 1250},
		{"English thousands", "1,250", 1250},
		{"Italian millions", "1.250.000", 1250000},
		{"English millions", "1,250,000", 1250000},
		{"negative Italian thousands", "-1.530", -1530},
		{"accounting Italian thousands", "(1.480)", -1480},
		{"Italian decimal zero", "1250,0", 1250},
		{"Italian decimal zeros", "1250,00", 1250},
		{"English decimal zero", "1250.0", 1250},
		{"three decimal zeros after four digits", "1250.000", 1250},
		{"Italian grouped with decimal", "1.250,0", 1250},
		{"English grouped with decimal", "1,250.0", 1250},
		{"Italian zero decimal", "0,0", 0},
		{"negative Italian decimal", "-15,0", -15},
		{"spaces around", "  1250  ", 1250},
		{"tab and newline around", "\t-65\n", -65},
		{"no-break spaces around", "\u00a0650\u00a0", 650},
		{"largest", "1.000.000.000", MaxNumber},
		{"smallest", "-1000000000", -MaxNumber},
	}
	for _, c := range valid {
		t.Run("API §5 reads "+c.name, func(t *testing.T) {
			got, err := ParseNumber(c.text)
			if err != nil || got != c.want {
				t.Fatalf("ParseNumber(%q) = %d, %v; want %d", c.text, got, err, c.want)
			}
		})
	}
	invalid := []struct {
		name, text, reason string
	}{
		{"letter O for zero", "12O", reasonNotNumber},
		{"exponent", "1e5", reasonNotNumber},
		{"NaN", "NaN", reasonNotNumber},
		{"infinity", "Inf", reasonNotNumber},
		{"mixed groups", "1.2.3,4", reasonNotNumber},
		{"fraction Italian", "12,5", reasonNotWhole},
		{"fraction English", "12.5", reasonNotWhole},
		{"fraction of grouped", "1.250,5", reasonNotWhole},
		{"fraction with leading zero", "0.500", reasonNotWhole},
		{"group of two", "1.25.000", reasonNotNumber},
		{"first group of four", "1250.000.000", reasonNotNumber},
		{"two decimal separators", "1,250.0.0", reasonNotNumber},
		{"thousands after decimal", "1.250,000.000", reasonNotNumber},
		{"leading separator", ".5", reasonNotNumber},
		{"trailing separator", "1250,", reasonNotNumber},
		{"double sign", "--5", reasonNotNumber},
		{"sign inside parentheses", "(-120)", reasonNotNumber},
		{"sign before parentheses", "-(120)", reasonNotNumber},
		{"unbalanced parenthesis", "(120", reasonNotNumber},
		{"inner space", "1 250", reasonNotNumber},
		{"space after sign", "- 120", reasonNotNumber},
		{"currency", "€ 120", reasonNotNumber},
		{"percent", "12%", reasonNotNumber},
		{"hex", "0x10", reasonNotNumber},
		{"just a sign", "-", reasonNotNumber},
		{"empty parentheses", "()", reasonNotNumber},
		{"empty", "", reasonEmpty},
		{"only spaces", "   ", reasonEmpty},
		{"Arabic-Indic digits", "١٢٠", reasonNotNumber},
		{"too large", "1000000001", reasonRange},
		{"far too large", "99999999999999999999999", reasonRange},
	}
	for _, c := range invalid {
		t.Run("API §5 rejects "+c.name, func(t *testing.T) {
			got, err := ParseNumber(c.text)
			var ne *NumberError
			if !errors.As(err, &ne) {
				t.Fatalf("ParseNumber(%q) = %d, %v; want a *NumberError", c.text, got, err)
			}
			if ne.Reason != c.reason || ne.Text != c.text {
				t.Errorf("ParseNumber(%q): error %+v, want reason %q", c.text, ne, c.reason)
			}
			if !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("error %v does not wrap domain.ErrInvalid", err)
			}
		})
	}
}

func TestNumberErrorMessage(t *testing.T) {
	_, err := ParseNumber("12O")
	if got, want := err.Error(), `"12O" is not a number`; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

// Numbers stored as numbers: their XML form, with float noise from formulas
// absorbed and real fractions rejected.
func TestParseStoredNumber(t *testing.T) {
	cases := []struct {
		raw  string
		want int
		ok   bool
	}{
		{"1250", 1250, true},
		{"-120", -120, true},
		{"1.25E3", 1250, true},
		{"1E+3", 1000, true},
		{"520.00000000000006", 520, true},
		{"519.99999999999994", 520, true},
		{"1.53", 0, false},
		{"1.125", 0, false},
		{"12.5", 0, false},
		{"NaN", 0, false},
		{"1E300", 0, false},
		{"", 0, false},
	}
	for _, c := range cases {
		t.Run(c.raw, func(t *testing.T) {
			got, err := parseStoredNumber(c.raw)
			if (err == nil) != c.ok || got != c.want {
				t.Errorf("parseStoredNumber(%q) = %d, %v; want %d ok=%v", c.raw, got, err, c.want, c.ok)
			}
		})
	}
}

func TestStoredNumberForm(t *testing.T) {
	for raw, want := range map[string]bool{
		"1.530": true, "1.53": true, "-1.5": true, "1E3": true, "1.25e-3": true, "1.25E+3": true,
		"1530": false, "-15": false, "1,530": false, "1.": false, ".5": false, "1.2.3": false,
		"1e": false, "(120)": false, "": false, "abc": false, "1.530,0": false,
	} {
		if got := storedNumberForm(raw); got != want {
			t.Errorf("storedNumberForm(%q) = %v, want %v", raw, got, want)
		}
	}
}

// groupThousands writes n with sep between groups of three digits.
func groupThousands(n int, sep string) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var groups []string
	for len(s) > 3 {
		groups = append([]string{s[len(s)-3:]}, groups...)
		s = s[:len(s)-3]
	}
	out := strings.Join(append([]string{s}, groups...), sep)
	if neg {
		out = "-" + out
	}
	return out
}

func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"1250", "1.250", "1,250", "-120", "(120)", "1250,0", "1.250,0", "1,250.0",
		" +5 ", "12O", "1.2.3,4", "1e5", "NaN", "12,5", "", "()", "\u2212120", "999999999999"} {
		f.Add(s)
	}
	f.Add("(1.000.000.000)")
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseNumber(s)
		if err != nil {
			var ne *NumberError
			if !errors.As(err, &ne) || ne.Text != s {
				t.Fatalf("ParseNumber(%q): error %v is not a *NumberError about the input", s, err)
			}
			return
		}
		if v > MaxNumber || v < -MaxNumber {
			t.Fatalf("ParseNumber(%q) = %d, beyond MaxNumber", s, v)
		}
		// Every form of the value reads back as the value.
		for _, form := range []string{strconv.Itoa(v), groupThousands(v, "."), groupThousands(v, ","),
			groupThousands(v, ".") + ",0", groupThousands(v, ",") + ".0"} {
			if got, err := ParseNumber(form); err != nil || got != v {
				t.Fatalf("ParseNumber(%q) = %d; its form %q reads %d, %v", s, v, form, got, err)
			}
		}
		if v < 0 {
			if got, err := ParseNumber("(" + strconv.Itoa(-v) + ")"); err != nil || got != v {
				t.Fatalf("accounting form of %d reads %d, %v", v, got, err)
			}
		}
		// A plain integer reads as strconv reads it.
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n != v {
			t.Fatalf("ParseNumber(%q) = %d, strconv says %d", s, v, n)
		}
	})
}
