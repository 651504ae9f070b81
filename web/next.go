package web

import (
	"net/url"
	"strings"
)

// safeNext is where sign-in sends a person afterwards: the path it was
// given when a browser and url.Parse both read it as a path of this site,
// "/" otherwise.
//
// Browsers are more forgiving than url.Parse: they drop tabs and
// newlines anywhere in a URL and read "\" as "/", so "/\t/evil.example"
// and "/\\evil.example" are both "//evil.example" to them — another
// host. So anything a browser would repair is refused outright (control
// characters, backslashes, raw or percent-encoded), and what is left must
// parse as a bare path that does not start with "//" once decoded.
func safeNext(next string) string {
	const home = "/"
	if next == "" || len(next) > 2048 || next[0] != '/' {
		return home
	}
	for i := 0; i < len(next); i++ {
		if c := next[i]; c < 0x20 || c == 0x7f || c == '\\' {
			return home
		}
	}
	lower := strings.ToLower(next)
	for _, enc := range []string{"%5c", "%09", "%0a", "%0d", "%00"} {
		if strings.Contains(lower, enc) {
			return home
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return home
	}
	if !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") || strings.HasPrefix(u.EscapedPath(), "//") {
		return home
	}
	return next
}
