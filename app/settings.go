package app

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strconv"
	"strings"

	"segnapunti/domain"
	"segnapunti/messages"
	"segnapunti/store"
)

// The address players use: QR codes, printed sheets and links
// carry it, so that the phones on the club's Wi-Fi open the laptop that
// serves the evening, not "localhost".

// maxPublicURL bounds a stored address.
const maxPublicURL = 2048

// urlError is NormalizePublicURL's refusal: a catalogue message, English
// as an error.
type urlError struct{ m messages.M }

func (e urlError) Error() string { return e.m.English() }

func urlErr(key string, args ...any) error { return urlError{messages.New(key, args...)} }

// NormalizePublicURL checks an address that phones open: http or https,
// a host, nothing after the path (no query, fragment or user). It returns
// it without a trailing slash, so that "/table/…" can be appended.
func NormalizePublicURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return "", urlErr("field.url_empty")
	case len(raw) > maxPublicURL:
		return "", urlErr("field.url_long", maxPublicURL)
	case err != nil:
		return "", urlErr("field.url_not", raw)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", urlErr("field.url_scheme", raw)
	case u.Host == "" || u.Hostname() == "":
		return "", urlErr("field.url_host", raw)
	case u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "":
		return "", urlErr("field.url_parts", raw)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", urlErr("field.url_port", raw)
		}
	}
	return strings.TrimRight(u.Scheme+"://"+u.Host+u.EscapedPath(), "/"), nil
}

// IsLoopbackURL reports whether an address opens only on the machine that
// serves it (localhost, 127.*, ::1): no phone reaches it.
func IsLoopbackURL(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// PublicURL is the stored public address; "" when none is stored.
func (a *App) PublicURL(ctx context.Context) (string, error) {
	v, err := a.db.Setting(ctx, store.SettingPublicURL)
	if errors.Is(err, domain.ErrNotFound) {
		return "", nil
	}
	return v, err
}

// SetPublicURL stores the public address (admins only); an empty raw
// clears it. A malformed address is invalid at /public_url.
func (a *App) SetPublicURL(ctx context.Context, p Principal, raw string) (string, error) {
	if err := RequireRole(p, domain.RoleAdmin); err != nil {
		return "", err
	}
	v := ""
	if strings.TrimSpace(raw) != "" {
		var err error
		if v, err = NormalizePublicURL(raw); err != nil {
			var ue urlError
			errors.As(err, &ue)
			return "", invalid([]FieldError{field("/public_url", ue.m.Key, ue.m.Args...)})
		}
	}
	if err := a.db.PutSetting(ctx, store.SettingPublicURL, v, string(p.Role)+":"+p.Name); err != nil {
		return "", err
	}
	return v, nil
}
