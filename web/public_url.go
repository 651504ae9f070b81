package web

import (
	"context"
	"net/http"
	"sync"
	"time"

	"segnapunti/app"
)

// storedURLTTL is how long a replica uses the stored public address
// before reading it again (another replica's admin may change it).
const storedURLTTL = 15 * time.Second

// cachedSetting is a setting read at most once per storedURLTTL.
type cachedSetting struct {
	mu    sync.Mutex
	value string
	read  time.Time
}

// get returns the cached value, reading it with load when stale.
func (c *cachedSetting) get(ctx context.Context, load func(context.Context) (string, error)) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.read.IsZero() && time.Since(c.read) < storedURLTTL {
		return c.value, nil
	}
	v, err := load(ctx)
	if err != nil {
		return "", err
	}
	c.value, c.read = v, time.Now()
	return v, nil
}

// forget drops the cached value (this replica's admin changed it).
func (c *cachedSetting) forget() {
	c.mu.Lock()
	c.read = time.Time{}
	c.mu.Unlock()
}

// The address players use (UI.md §9): what the QR codes,
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
		v, err := s.storedURL.get(r.Context(), s.app.PublicURL)
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
