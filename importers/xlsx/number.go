package xlsx

import (
	"math"
	"strconv"
	"strings"

	"segnapunti/domain"
	"segnapunti/messages"
)

// MaxNumber bounds every number read from a workbook. Scores are a few
// thousand at most; the bound keeps arithmetic on them far from overflow.
const MaxNumber = 1_000_000_000

// NumberError says why a text is not a number a score sheet can hold. The
// caller adds the cell: `Smazzate!G4: "12O" is not a number`.
type NumberError struct {
	Text   string // the text as found
	Reason string // "is not a number", "is not a whole number", ...
}

func (e *NumberError) Error() string {
	if e.Reason == reasonEmpty {
		return "empty: a number is needed"
	}
	return strconv.Quote(e.Text) + " " + e.Reason
}

// msg is the error as a catalogue message.
func (e *NumberError) msg() messages.M {
	switch e.Reason {
	case reasonEmpty:
		return messages.New("xlsx.empty")
	case reasonNotWhole:
		return messages.New("xlsx.not_whole", e.Text)
	case reasonRange:
		return messages.New("xlsx.out_of_range", e.Text)
	}
	return messages.New("xlsx.not_number", e.Text)
}

// Unwrap makes a bad number an invalid input.
func (e *NumberError) Unwrap() error { return domain.ErrInvalid }

const (
	reasonNotNumber = "is not a number"
	reasonNotWhole  = "is not a whole number"
	reasonRange     = "is out of range"
	reasonEmpty     = "is empty"
)

// ParseNumber reads a whole number written as text in Italian or English
// form (API §5): "1250", "-120", "+5", "(120)" (accounting negative),
// thousands grouped with "." or "," ("1.250", "1,250"), a decimal part of
// zeros with "," or "." ("1250,0", "1.250,0", "1,250.0"), surrounded by
// spaces. Anything else is an error: letters ("12O", "1e5", "NaN"), badly
// grouped digits ("1.2.3,4"), a fraction that is not zero ("12,5").
//
// One separator followed by exactly three digits is read as a thousands
// separator ("1.250" is 1250, "1,250" is 1250): score sheets hold whole
// multiples of 5, so "1.25"-style decimals never occur in them.
func ParseNumber(text string) (int, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return 0, &NumberError{text, reasonEmpty}
	}
	neg := false
	switch {
	case len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')':
		neg, s = true, strings.TrimSpace(s[1:len(s)-1])
	case s[0] == '-' || s[0] == '+':
		neg, s = s[0] == '-', s[1:]
	case strings.HasPrefix(s, "\u2212"): // the typographic minus sign
		neg, s = true, s[len("\u2212"):]
	}
	digits, reason := integerDigits(s)
	if reason != "" {
		return 0, &NumberError{text, reason}
	}
	// Leading zeros are harmless; more than 10 significant digits is
	// certainly out of range, whatever they are.
	digits = strings.TrimLeft(digits, "0")
	if len(digits) > 10 {
		return 0, &NumberError{text, reasonRange}
	}
	v := 0
	for i := 0; i < len(digits); i++ {
		v = v*10 + int(digits[i]-'0')
	}
	if v > MaxNumber {
		return 0, &NumberError{text, reasonRange}
	}
	if neg {
		v = -v
	}
	return v, nil
}

// integerDigits returns the digits of the integer part of an unsigned
// number written with optional thousands and decimal separators, or why it
// is not one.
func integerDigits(s string) (string, string) {
	if s == "" || !isDigit(s[0]) || !isDigit(s[len(s)-1]) {
		return "", reasonNotNumber
	}
	dots, commas := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			dots++
		case c == ',':
			commas++
		case !isDigit(c):
			return "", reasonNotNumber
		}
	}
	var thousands, decimal byte
	switch {
	case dots == 0 && commas == 0:
		return s, ""
	case dots > 0 && commas > 0:
		// Both: the last one is the decimal separator and appears once.
		decimal = s[strings.LastIndexAny(s, ".,")]
		thousands = '.' + ',' - decimal
		if strings.Count(s, string(decimal)) != 1 || strings.LastIndexByte(s, thousands) > strings.IndexByte(s, decimal) {
			return "", reasonNotNumber
		}
	case dots > 1:
		thousands = '.'
	case commas > 1:
		thousands = ','
	default:
		// One separator: thousands when it splits a group of three from a
		// leading group of one to three digits not starting with 0
		// ("1.250", "12,500"); otherwise decimal ("1250,0", "0.5").
		sep := strings.IndexAny(s, ".,")
		if len(s)-sep-1 == 3 && sep <= 3 && s[0] != '0' {
			thousands = s[sep]
		} else {
			decimal = s[sep]
		}
	}
	intPart, frac := s, ""
	if decimal != 0 {
		i := strings.IndexByte(s, decimal)
		intPart, frac = s[:i], s[i+1:]
	}
	if thousands != 0 {
		groups := strings.Split(intPart, string(thousands))
		if len(groups[0]) < 1 || len(groups[0]) > 3 {
			return "", reasonNotNumber
		}
		for _, g := range groups[1:] {
			if len(g) != 3 {
				return "", reasonNotNumber
			}
		}
		intPart = strings.Join(groups, "")
	}
	if intPart == "" {
		return "", reasonNotNumber
	}
	if strings.Trim(frac, "0") != "" {
		return "", reasonNotWhole
	}
	return intPart, ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// parseStoredNumber reads a cell the workbook stores as a number (its
// cached value, for a formula): the XML form "1250", "-120", "1250.0000000001",
// "1.25E3". A value off a whole number by float noise (a formula such as
// =0.1*5200) is that whole number; a real fraction is an error.
func parseStoredNumber(raw string) (int, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, &NumberError{raw, reasonNotNumber}
	}
	r := math.Round(f)
	if math.Abs(f-r) > 1e-6 {
		return 0, &NumberError{raw, reasonNotWhole}
	}
	if math.Abs(r) > MaxNumber {
		return 0, &NumberError{raw, reasonRange}
	}
	return int(r), nil
}

// storedNumberForm reports whether a raw cell value has the XML number form
// with a fraction or an exponent ("1.530", "1.25E3"): such a value means
// different things as a stored number (1.53) and as text typed the Italian
// way (1530), so the cell's type decides.
func storedNumberForm(raw string) bool {
	s := raw
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	special := false
	if i < len(s) && s[i] == '.' {
		special = true
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		special = true
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i {
			return false
		}
		i = j
	}
	return special && i == len(s)
}
