// Package clientip finds the address of the person behind a request: the
// TCP peer, or — when the peer is a proxy the operator trusts — the
// address that proxy says it forwarded for (X-Forwarded-For).
//
// Rate limits key on this address (the sign-in slow-down, the table-code
// throttle), so it must be the client's, not the proxy's: behind a TLS
// proxy every request comes from the proxy's address, and one address for
// everybody means six wrong passwords anywhere lock out the whole hall.
// It must also not be forgeable: X-Forwarded-For is read only from peers
// in the trusted list, right to left, stopping at the first address that
// is not a trusted proxy (the leftmost entries are whatever the client
// wrote).
package clientip

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Trusted is the list of proxies whose X-Forwarded-For is believed.
type Trusted []netip.Prefix

// ParseTrusted reads a comma-separated list of CIDRs or single addresses
// ("10.0.0.0/8, 127.0.0.1, ::1"); empty means no proxy is trusted.
func ParseTrusted(s string) (Trusted, error) {
	var out Trusted
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is neither an address nor a CIDR (like 10.0.0.0/8)", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// Contains reports whether a is a trusted proxy.
func (t Trusted) Contains(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range t {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// maxHops bounds how many X-Forwarded-For entries are read: a chain of
// proxies is short, a header of thousands of entries is an attack.
const maxHops = 16

// Resolve is the client's address for a request whose TCP peer is
// remoteAddr ("ip:port") and whose X-Forwarded-For header values are xff.
// It reports false when remoteAddr is not an address at all.
func (t Trusted) Resolve(remoteAddr string, xff []string) (netip.Addr, bool) {
	peer, ok := parseHost(remoteAddr)
	if !ok {
		return netip.Addr{}, false
	}
	if len(t) == 0 || !t.Contains(peer) {
		return peer, true
	}
	hops := forwardedFor(xff)
	for i := len(hops) - 1; i >= 0 && len(hops)-i <= maxHops; i-- {
		a, ok := parseHost(hops[i])
		if !ok {
			return peer, true // a trusted proxy wrote something unreadable: the proxy is the client we know
		}
		peer = a
		if !t.Contains(peer) {
			break
		}
	}
	return peer, true
}

// forwardedFor splits the header values into entries, in order.
func forwardedFor(values []string) []string {
	var out []string
	for _, v := range values {
		for _, e := range strings.Split(v, ",") {
			if e = strings.TrimSpace(e); e != "" {
				out = append(out, e)
			}
		}
	}
	return out
}

// parseHost reads "ip", "ip:port", "[ipv6]:port" or "[ipv6]"; a zone is
// dropped (it names an interface of the proxy, not the client).
func parseHost(s string) (netip.Addr, bool) {
	if len(s) > 64 {
		return netip.Addr{}, false
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().WithZone("").Unmap(), true
	}
	host := s
	if h, _, err := net.SplitHostPort(s); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.WithZone("").Unmap(), true
}

// Middleware sets each request's RemoteAddr to its client's address (port
// 0 when it came from X-Forwarded-For), so that every handler below —
// the API's and the pages' — reads the same client. It runs before
// anything else reads the address.
func Middleware(t Trusted, next http.Handler) http.Handler {
	if len(t) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a, ok := t.Resolve(r.RemoteAddr, r.Header.Values("X-Forwarded-For")); ok {
			if peer, _ := parseHost(r.RemoteAddr); peer != a {
				r.RemoteAddr = netip.AddrPortFrom(a, 0).String()
			}
		}
		next.ServeHTTP(w, r)
	})
}
