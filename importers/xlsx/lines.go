package xlsx

import (
	"strings"
	"unicode"

	"segnapunti/domain"
)

// A line of an individual tournament is two players (RULES §11, API §4.2).
// In a workbook its two player ids are written in the one cell that holds a
// pair's id: the tidy layout's ns/eo column, the paper layout's "Coppia NS"
// / "NS" value, or — with no such label — the "Giocatori NS" value when it
// is two numbers. The reader knows the kind from the workbook's Tournament
// sheet or from Options.Kind (the service passes the tournament's).
//
// Separators: "/", ",", ";", "+", "&" or spaces, alone or together
// ("3/11", "3 / 11", "3, 11", "3 11"), or one hyphen ("3-11", "3 - 11").
// An id that itself holds a hyphen ("A-1") is written with another
// separator ("A-1 / B-2").

// SplitPlayerIDs reads the two player ids of an individual line from one
// cell's text; ok is false unless it names exactly two.
func SplitPlayerIDs(text string) (ids []string, ok bool) {
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("/,;+&", r)
	})
	var out []string
	for _, f := range fields {
		if f != "-" && f != "–" {
			out = append(out, f)
		}
	}
	if len(out) == 1 {
		if a, b, cut := strings.Cut(out[0], "-"); cut && a != "" && b != "" && !strings.Contains(b, "-") {
			out = []string{a, b}
		}
	}
	if len(out) != domain.PlayersPerIndividualLine {
		return nil, false
	}
	return out, true
}

// allDigits: a player id written as a number (the "Giocatori" fallback
// reads ids only when they are numbers, never names).
func allDigits(ids []string) bool {
	for _, id := range ids {
		for _, r := range id {
			if r < '0' || r > '9' {
				return false
			}
		}
	}
	return true
}
