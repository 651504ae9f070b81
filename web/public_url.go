package web

import (
	"net/http"

	"segnapunti/app"
)

// The address players use (issue 22, UI.md §9): what the QR codes,
// printed sheets and table links carry.

// publicAddress is the base address phones open and where it comes from.
type publicAddress struct {
	URL string
	// Source: "env" (SEGNAPUNTI_PUBLIC_URL), "setting" (stored on
	// /admin), "lan" (the machine's LAN address found by serve) or
	// "request" (the address this page was opened at).
	Source string
	// Loopback: only the serving machine opens URL (localhost, 127.*).
	Loopback bool
}

// publicBase is the address the QR codes and links carry: the
// environment's, else the stored one, else the LAN address serve found,
// else the address the request came to.
func (s *Server) publicBase(r *http.Request) (publicAddress, error) {
	a := publicAddress{URL: s.publicURL, Source: "env"}
	if a.URL == "" {
		v, err := s.app.PublicURL(r.Context())
		if err != nil {
			return a, err
		}
		a.URL, a.Source = v, "setting"
	}
	if a.URL == "" && s.lanURL != "" {
		a.URL, a.Source = s.lanURL, "lan"
	}
	if a.URL == "" {
		a.URL, a.Source = s.siteBase(r), "request"
	}
	a.Loopback = app.IsLoopbackURL(a.URL)
	return a, nil
}
