package main

import (
	"net"
)

// The address phones on the club's Wi-Fi open: without
// SEGNAPUNTI_PUBLIC_URL (or the address stored on /admin), serve offers
// the machine's LAN address, the first non-loopback IPv4 address of an
// interface that is up.

// lanInterface is what lanIPv4 needs of a network interface.
type lanInterface struct {
	Up, Loopback bool
	Addrs        []net.Addr
}

// systemInterfaces lists the machine's interfaces (no traffic is sent).
func systemInterfaces() ([]lanInterface, error) {
	list, err := net.Interfaces()
	if err != nil {
		return nil, err
	}
	out := make([]lanInterface, 0, len(list))
	for _, ifc := range list {
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		out = append(out, lanInterface{Up: ifc.Flags&net.FlagUp != 0, Loopback: ifc.Flags&net.FlagLoopback != 0, Addrs: addrs})
	}
	return out, nil
}

// lanIPv4 is the first non-loopback, non-link-local IPv4 address of an
// interface that is up, or nil.
func lanIPv4(ifaces []lanInterface) net.IP {
	for _, ifc := range ifaces {
		if !ifc.Up || ifc.Loopback {
			continue
		}
		for _, a := range ifc.Addrs {
			var ip net.IP
			switch v := a.(type) {
			case *net.IPNet:
				ip = v.IP
			case *net.IPAddr:
				ip = v.IP
			}
			if ip4 := ip.To4(); ip4 != nil && !ip4.IsLoopback() && !ip4.IsLinkLocalUnicast() && !ip4.IsUnspecified() {
				return ip4
			}
		}
	}
	return nil
}

// lanURL is the address phones on the LAN open for a service listening
// on listen ("host:port"): "" when the listener is bound to one address
// that is loopback (no phone reaches it) or no LAN address is found. A
// listener bound to one non-loopback address is that address.
func lanURL(listen net.Addr, ifaces []lanInterface) string {
	host, port, err := net.SplitHostPort(listen.String())
	if err != nil {
		return ""
	}
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		return ""
	case ip.IsLoopback():
		return ""
	case !ip.IsUnspecified():
		return "http://" + net.JoinHostPort(ip.String(), port)
	}
	lan := lanIPv4(ifaces)
	if lan == nil {
		return ""
	}
	return "http://" + net.JoinHostPort(lan.String(), port)
}
