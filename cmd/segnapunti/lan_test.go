package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
)

func ipNet(s string) net.Addr {
	ip, n, err := net.ParseCIDR(s)
	if err != nil {
		panic(err)
	}
	n.IP = ip
	return n
}

// Without a configured public address, the phones open the
// machine's LAN address: the first non-loopback IPv4 address of an
// interface that is up (no traffic is sent: the interfaces are given).
func TestLanURL(t *testing.T) {
	lo := lanInterface{Up: true, Loopback: true, Addrs: []net.Addr{ipNet("127.0.0.1/8"), ipNet("::1/128")}}
	down := lanInterface{Up: false, Addrs: []net.Addr{ipNet("10.9.9.9/24")}}
	v6only := lanInterface{Up: true, Addrs: []net.Addr{ipNet("fe80::1/64"), ipNet("2001:db8::5/64")}}
	linkLocal := lanInterface{Up: true, Addrs: []net.Addr{ipNet("169.254.3.4/16")}}
	wifi := lanInterface{Up: true, Addrs: []net.Addr{ipNet("fe80::2/64"), ipNet("192.168.1.20/24")}}
	second := lanInterface{Up: true, Addrs: []net.Addr{ipNet("10.0.0.7/8")}}
	all := []lanInterface{lo, down, v6only, linkLocal, wifi, second}
	tcp := func(s string) net.Addr {
		a, err := net.ResolveTCPAddr("tcp", s)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	cases := []struct {
		name   string
		listen net.Addr
		ifaces []lanInterface
		want   string
	}{
		{"wildcard: first up IPv4 of a non-loopback interface", tcp("0.0.0.0:8080"), all, "http://192.168.1.20:8080"},
		{"IPv6 wildcard listens on IPv4 too", tcp("[::]:9000"), all, "http://192.168.1.20:9000"},
		{"bound to loopback: no phone reaches it", tcp("127.0.0.1:8080"), all, ""},
		{"bound to one LAN address: that one", tcp("10.0.0.7:8080"), all, "http://10.0.0.7:8080"},
		{"no LAN interface", tcp("0.0.0.0:8080"), []lanInterface{lo, down, v6only, linkLocal}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := lanURL(c.listen, c.ifaces); got != c.want {
				t.Errorf("lanURL(%v) = %q, want %q", c.listen, got, c.want)
			}
		})
	}
}

// A SEGNAPUNTI_PUBLIC_URL that no phone could open is refused at
// start (exit 2, naming the variable), before anything listens.
func TestServeRefusesBadPublicURL(t *testing.T) {
	serveRefuses(t, "SEGNAPUNTI_PUBLIC_URL", "192.168.1.20:8080", "ftp://club", "http://host/?x=1")
}

// A SEGNAPUNTI_LOG_LEVEL that is no level is refused at start (exit 2,
// naming the variable), before anything listens.
func TestServeRefusesBadLogLevel(t *testing.T) {
	serveRefuses(t, "SEGNAPUNTI_LOG_LEVEL", "verbose", "debgu", "1")
}

// A SEGNAPUNTI_PG_SHEET_WRITERS that is no count of writers is refused
// at start (exit 2, naming the variable).
func TestServeRefusesBadSheetWriters(t *testing.T) {
	serveRefuses(t, "SEGNAPUNTI_PG_SHEET_WRITERS", "0", "-3", "four", "4.5", "100000")
}

// serveRefuses starts serve with each bad value of the variable name and
// wants exit 2 and an error naming the variable.
func serveRefuses(t *testing.T, name string, bads ...string) {
	t.Helper()
	for _, bad := range bads {
		env := func(k string) string {
			switch k {
			case name:
				return bad
			case "SEGNAPUNTI_DB":
				return filepath.Join(t.TempDir(), "x.db")
			}
			return ""
		}
		var errb bytes.Buffer
		code := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0"}, env, nil, io.Discard, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), name) {
			t.Errorf("%s=%q: exit %d, %q; want 2 naming the variable", name, bad, code, errb.String())
		}
	}
}
