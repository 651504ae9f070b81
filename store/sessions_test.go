package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// UI.md §2: sessions live in the database so they can be listed and
// revoked; only a hash of the token is stored; revocation is immediate.
func TestSessions(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		p, err := db.CreatePerson(ctx, "fed", domain.RoleFederation, "", "segreta-123")
		if err != nil {
			t.Fatal(err)
		}
		tok1, s1, err := db.CreateSession(ctx, p.ID, time.Hour, "Firefox", "10.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		tok2, _, _ := db.CreateSession(ctx, p.ID, time.Hour, "Chromium", "10.0.0.2")
		var stored []string
		if err := store.Scan(ctx, db, &stored, "SELECT hash FROM sessions"); err != nil {
			t.Fatal(err)
		}
		for _, h := range stored {
			if h == tok1 || h == tok2 {
				t.Error("a session token is stored in clear")
			}
		}
		s, got, err := db.SessionPerson(ctx, tok1)
		if err != nil || got.Name != "fed" || s.ID != s1.ID || s.UserAgent != "Firefox" {
			t.Fatalf("SessionPerson = %+v, %+v, %v", s, got, err)
		}
		list, err := db.ListSessions(ctx, p.ID)
		if err != nil || len(list) != 2 {
			t.Fatalf("ListSessions = %+v, %v", list, err)
		}
		if err := db.RevokeSession(ctx, p.ID, s1.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := db.SessionPerson(ctx, tok1); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("revoked session still works: %v", err)
		}
		if err := db.RevokeSession(ctx, p.ID, s1.ID); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("revoking twice: %v", err)
		}
		if _, _, err := db.SessionPerson(ctx, tok2); err != nil {
			t.Errorf("the other session was revoked too: %v", err)
		}
		if err := db.EndSession(ctx, tok2); err != nil {
			t.Fatal(err)
		}
		if _, _, err := db.SessionPerson(ctx, tok2); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("ended session still works: %v", err)
		}
		// An expired session does not resolve and is cleaned up.
		tok3, _, _ := db.CreateSession(ctx, p.ID, -time.Second, "", "")
		if _, _, err := db.SessionPerson(ctx, tok3); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("expired session works: %v", err)
		}
		if n, err := db.DeleteExpiredSessions(ctx); err != nil || n != 1 {
			t.Errorf("DeleteExpiredSessions = %d, %v", n, err)
		}
		if _, _, err := db.SessionPerson(ctx, ""); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("empty token: %v", err)
		}
		if _, _, err := db.CreateSession(ctx, "u_none", time.Hour, "", ""); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("session of nobody: %v", err)
		}
	})
}
