// Package download names the files the service hands out — workbooks, CSV,
// the tournament file, templates — the same way through the API and the
// pages: after the tournament's name with its accents (a club's "Coppa
// Città di Forlì" stays that), and the Content-Disposition header that
// carries the name (RFC 6266, the UTF-8 name in filename* by RFC 8187 and
// an ASCII fallback in filename for old clients).
package download

import (
	"mime"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxNameRunes bounds the name part of a file name (before the extension):
// a tournament's name may be long, a file system's names are not.
const MaxNameRunes = 80

// fallback is the name of a file whose name has nothing usable left.
const fallback = "torneo"

// Name is a file name made of parts (the tournament's name, its date, what
// the file holds) joined by spaces, and ext (".xlsx"): characters no file
// system takes (/ \ : * ? " < > |), controls and symbols become one "_",
// runs of blanks one space, leading and trailing dots and blanks go (no
// hidden file, no "..").
func Name(ext string, parts ...string) string {
	var b strings.Builder
	n := 0
	var last rune
	put := func(r rune) {
		b.WriteRune(r)
		last = r
		n++
	}
	for _, r := range strings.Join(parts, " ") {
		if n >= MaxNameRunes {
			break
		}
		switch {
		case unicode.IsSpace(r):
			if last != ' ' {
				put(' ')
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune(`-_.,'()&+!#@`, r):
			put(r)
		default: // / \ : * ? " < > |, controls, symbols, broken UTF-8
			if last != '_' {
				put('_')
			}
		}
	}
	base := strings.Trim(b.String(), ". _-")
	if base == "" {
		base = fallback
	}
	return base + ext
}

// Disposition is the Content-Disposition of an attachment called
// filename, written by mime.FormatMediaType: filename always, in ASCII
// (accents dropped, other characters "_"), and filename* in UTF-8 when the
// name is not plain ASCII.
func Disposition(filename string) string {
	ascii := ASCII(filename)
	v := mime.FormatMediaType("attachment", map[string]string{"filename": ascii})
	if ascii != filename {
		// FormatMediaType writes a non-ASCII value as filename*=utf-8''….
		if ext := mime.FormatMediaType("attachment", map[string]string{"filename": filename}); ext != "" {
			v += strings.TrimPrefix(ext, "attachment")
		}
	}
	return v
}

// ASCII is name without its accents (decomposed, the marks dropped), any
// other character beyond ASCII, a quote or a backslash "_".
func ASCII(name string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(name) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r >= 0x20 && r < utf8.RuneSelf && r != '"' && r != '\\' && r != 0x7f:
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}
