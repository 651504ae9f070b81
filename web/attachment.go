package web

import (
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Download names: from the tournament's name, accents kept.
// RFC 6266: filename* carries the UTF-8 name (RFC 5987 encoding), filename
// an ASCII fallback for old clients (accents dropped, the rest "_").

// downloadName makes a download's name from free text: characters no file
// system takes (/ \ : * ? " < > | and controls) become "_", spaces are
// kept, runs of blanks collapse.
func downloadName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || strings.ContainsRune(`/\:*?"<>|`, r) {
			return '_'
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// asciiFileName is name without accents, other non-ASCII runes "_".
func asciiFileName(name string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(name) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r < 0x80 && r >= 0x20 && r != '"' && r != '\\':
			b.WriteRune(r)
		default:
			b.WriteRune('_')
		}
	}
	return b.String()
}

// attachment is a Content-Disposition value for a download called name.
func attachment(name string) string {
	return `attachment; filename="` + asciiFileName(name) + `"; filename*=UTF-8''` + strings.ReplaceAll(url.PathEscape(name), "+", "%2B")
}
