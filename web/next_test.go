package web

import (
	"net/url"
	"strings"
	"testing"
)

// A post-sign-in redirect stays on this site, however the attacker spells
// the other host (the forms a browser repairs into "//host").
func TestSafeNext(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "/"},
		{"/admin", "/admin"},
		{"/tournaments/t_1/rounds/2?lang=en", "/tournaments/t_1/rounds/2?lang=en"},
		{"/p/t_1#standings", "/p/t_1#standings"},
		{"/search?q=a%2Fb", "/search?q=a%2Fb"}, // an encoded slash in the query is harmless
		{"admin", "/"},
		{"//evil.example", "/"},
		{"///evil.example", "/"},
		{"/\\evil.example", "/"},
		{"/\t/evil.example", "/"}, // browsers drop the tab: //evil.example
		{"/\n/evil.example", "/"}, // and the newline
		{"/\r\n/evil.example", "/"},
		{"/ /evil.example", "/ /evil.example"}, // a space is kept by browsers (%20): a path here
		{"\t//evil.example", "/"},
		{"/%2f/evil.example", "/"},
		{"/%2F%2Fevil.example", "/"},
		{"/%5cevil.example", "/"},
		{"/%5C/evil.example", "/"},
		{"/%09/evil.example", "/"},
		{"/%0a/evil.example", "/"},
		{"https://evil.example", "/"},
		{"https:evil.example", "/"},
		{"javascript:alert(1)", "/"},
		{"/javascript:alert(1)", "/javascript:alert(1)"}, // a path of this site
		{"data:text/html,x", "/"},
		{"/\x00", "/"},
		{"/\x7f/evil.example", "/"},
		{"/" + strings.Repeat("a", 3000), "/"},
	} {
		if got := safeNext(c.in); got != c.want {
			t.Errorf("safeNext(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Whatever safeNext lets through, a browser-like reading resolves on this
// site: resolving it against our origin keeps our host.
func FuzzSafeNext(f *testing.F) {
	for _, s := range []string{"/admin", "//x", "/\t/x", "/%2f/x", "/\\x", "https://x", "/a?b=//c#//d"} {
		f.Add(s)
	}
	base, _ := url.Parse("https://segnapunti.example/login")
	f.Fuzz(func(t *testing.T, in string) {
		out := safeNext(in)
		if out != "/" && out != in {
			t.Fatalf("safeNext(%q) = %q: neither the input nor home", in, out)
		}
		// What a browser does first: drop tabs and newlines, read \ as /.
		browser := strings.NewReplacer("\t", "", "\n", "", "\r", "", "\\", "/").Replace(out)
		u, err := url.Parse(browser)
		if err != nil {
			t.Fatalf("safeNext(%q) = %q, which does not parse: %v", in, out, err)
		}
		if got := base.ResolveReference(u); got.Host != base.Host || got.Scheme != base.Scheme {
			t.Fatalf("safeNext(%q) = %q leads to %s", in, out, got)
		}
	})
}
