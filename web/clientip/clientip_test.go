package clientip

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

func mustTrusted(t *testing.T, s string) Trusted {
	t.Helper()
	tr, err := ParseTrusted(s)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestParseTrusted(t *testing.T) {
	tr := mustTrusted(t, " 10.0.0.0/8, 127.0.0.1 ,::1,, 2001:db8::/32")
	for addr, want := range map[string]bool{
		"10.1.2.3": true, "11.0.0.1": false, "127.0.0.1": true, "127.0.0.2": false,
		"::1": true, "2001:db8::5": true, "2001:db9::5": false, "::ffff:10.9.9.9": true,
	} {
		if got := tr.Contains(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Contains(%s) = %v, want %v", addr, got, want)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "example.com", "10.0.0", "1.2.3.4/x"} {
		if _, err := ParseTrusted(bad); err == nil {
			t.Errorf("ParseTrusted(%q) accepted", bad)
		}
	}
	if tr, err := ParseTrusted(""); err != nil || len(tr) != 0 {
		t.Errorf("empty list = %v, %v", tr, err)
	}
}

// X-Forwarded-For is believed only from trusted peers, right to left.
func TestResolve(t *testing.T) {
	tr := mustTrusted(t, "10.0.0.0/8")
	for _, c := range []struct {
		name, remote string
		xff          []string
		want         string
	}{
		{"no proxy: the peer", "203.0.113.7:5000", nil, "203.0.113.7"},
		{"untrusted peer's header ignored", "203.0.113.7:5000", []string{"1.2.3.4"}, "203.0.113.7"},
		{"trusted proxy: the client it names", "10.0.0.2:443", []string{"198.51.100.9"}, "198.51.100.9"},
		{"forged left entries ignored", "10.0.0.2:443", []string{"1.1.1.1, 198.51.100.9"}, "198.51.100.9"},
		{"two trusted proxies", "10.0.0.2:443", []string{"198.51.100.9, 10.0.0.3"}, "198.51.100.9"},
		{"header values joined in order", "10.0.0.2:443", []string{"1.1.1.1", "198.51.100.9"}, "198.51.100.9"},
		{"trusted proxy without header: the proxy", "10.0.0.2:443", nil, "10.0.0.2"},
		{"all trusted: the leftmost", "10.0.0.2:443", []string{"10.0.0.9"}, "10.0.0.9"},
		{"garbage from the proxy: the proxy", "10.0.0.2:443", []string{"not-an-ip"}, "10.0.0.2"},
		{"entry with a port", "10.0.0.2:443", []string{"198.51.100.9:1234"}, "198.51.100.9"},
		{"IPv6 entry in brackets", "10.0.0.2:443", []string{"[2001:db8::1]:80"}, "2001:db8::1"},
		{"IPv6 entry bare", "10.0.0.2:443", []string{"2001:db8::1"}, "2001:db8::1"},
		{"mapped IPv4 peer", "[::ffff:10.0.0.2]:443", []string{"198.51.100.9"}, "198.51.100.9"},
	} {
		got, ok := tr.Resolve(c.remote, c.xff)
		if !ok || got.String() != c.want {
			t.Errorf("%s: Resolve(%q, %q) = %v, %v; want %s", c.name, c.remote, c.xff, got, ok, c.want)
		}
	}
	if _, ok := tr.Resolve("pipe", nil); ok {
		t.Error("a RemoteAddr that is no address resolved")
	}
}

func TestMiddlewareRewritesRemoteAddr(t *testing.T) {
	var seen string
	h := Middleware(mustTrusted(t, "127.0.0.1"), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = r.RemoteAddr }))
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "127.0.0.1:9999"
	r.Header.Set("X-Forwarded-For", "198.51.100.9")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if seen != "198.51.100.9:0" {
		t.Errorf("RemoteAddr = %q, want 198.51.100.9:0", seen)
	}
	r = httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "192.0.2.1:9999"
	r.Header.Set("X-Forwarded-For", "198.51.100.9")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if seen != "192.0.2.1:9999" {
		t.Errorf("untrusted peer rewritten to %q", seen)
	}
}

// The reader never panics, and what it returns is the peer or an entry of
// the header (never an address nobody sent).
func FuzzResolve(f *testing.F) {
	f.Add("10.0.0.2:443", "198.51.100.9, 10.0.0.3")
	f.Add("[::1]:80", "[2001:db8::1]:80,,")
	f.Add("10.0.0.2:443", "\x00,\t, 1.2.3.4")
	tr := Trusted{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	f.Fuzz(func(t *testing.T, remote, xff string) {
		got, ok := tr.Resolve(remote, []string{xff})
		if !ok {
			return
		}
		peer, _ := parseHost(remote)
		if got == peer {
			return
		}
		for _, e := range forwardedFor([]string{xff}) {
			if a, ok := parseHost(e); ok && a == got {
				return
			}
		}
		t.Fatalf("Resolve(%q, %q) = %v: neither the peer nor an entry", remote, xff, got)
	})
}
