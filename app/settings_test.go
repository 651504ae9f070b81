package app_test

import (
	"context"
	"errors"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// The address players use must be one a phone can open: http or
// https, a host, an optional port and path; stored without a trailing
// slash so that "/table/<code>" appends to it.
func TestNormalizePublicURL(t *testing.T) {
	good := map[string]string{
		"http://192.168.1.20:8080":      "http://192.168.1.20:8080",
		"http://192.168.1.20:8080/":     "http://192.168.1.20:8080",
		" https://torneo.example.it/ ":  "https://torneo.example.it",
		"https://club.example.it/gara/": "https://club.example.it/gara",
		"http://[fe80::1]:8080":         "http://[fe80::1]:8080",
	}
	for in, want := range good {
		if got, err := app.NormalizePublicURL(in); err != nil || got != want {
			t.Errorf("NormalizePublicURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "192.168.1.20:8080", "ftp://host", "http://", "http://:8080", "http://host/?x=1", "http://host/#a",
		"http://u:p@host", "http://host:0", "http://host:70000", "http://host:8o", "javascript:alert(1)"} {
		if got, err := app.NormalizePublicURL(in); err == nil {
			t.Errorf("NormalizePublicURL(%q) = %q, want an error", in, got)
		}
	}
}

// The print page warns when the QR codes would carry an address
// only the serving machine opens.
func TestIsLoopbackURL(t *testing.T) {
	for in, want := range map[string]bool{
		"http://localhost:8080": true, "http://127.0.0.1:8080": true, "http://127.1.2.3": true, "http://[::1]:8080": true,
		"http://0.0.0.0:8080": true, "http://app.localhost": true,
		"http://192.168.1.20:8080": false, "https://torneo.example.it": false, "http://10.0.0.5": false,
	} {
		if got := app.IsLoopbackURL(in); got != want {
			t.Errorf("IsLoopbackURL(%q) = %v, want %v", in, got, want)
		}
	}
}

// Only an admin stores the public address; a bad one is refused
// at /public_url; an empty one clears it.
func TestSetPublicURL(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		a := app.New(db, nil, nil)
		ctx := context.Background()
		admin := app.Principal{Role: domain.RoleAdmin, Name: "root"}
		if _, err := a.SetPublicURL(ctx, app.Principal{Role: domain.RoleClub, Name: "c", ClubID: "c"}, "http://10.0.0.5:8080"); !errors.Is(err, app.ErrForbidden) {
			t.Errorf("club sets the address: %v, want forbidden", err)
		}
		var ae *app.Error
		if _, err := a.SetPublicURL(ctx, admin, "localhost:8080"); !errors.As(err, &ae) || !errors.Is(err, domain.ErrInvalid) || ae.Fields[0].Pointer != "/public_url" {
			t.Errorf("bad address: %v, want invalid /public_url", err)
		}
		if got, err := a.SetPublicURL(ctx, admin, "http://10.0.0.5:8080/"); err != nil || got != "http://10.0.0.5:8080" {
			t.Fatalf("SetPublicURL = %q, %v", got, err)
		}
		if got, err := a.PublicURL(ctx); err != nil || got != "http://10.0.0.5:8080" {
			t.Errorf("PublicURL = %q, %v", got, err)
		}
		if _, err := a.SetPublicURL(ctx, admin, ""); err != nil {
			t.Fatal(err)
		}
		if got, err := a.PublicURL(ctx); err != nil || got != "" {
			t.Errorf("PublicURL after clearing = %q, %v; want empty", got, err)
		}
	})
}
