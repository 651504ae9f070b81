package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// UI.md §2: passwords are stored only as slow salted hashes; a person
// signs in with name and password; a club person needs a club.
func TestPeople(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.CreateClub(ctx, domain.Club{ID: "bc-roma", Name: "BC Roma"}); err != nil {
			t.Fatal(err)
		}
		p, err := db.CreatePerson(ctx, "anna.rossi", domain.RoleReferee, "", "segreta-123")
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Principal(); got != (store.Principal{PersonID: p.ID, Role: domain.RoleReferee, Name: "anna.rossi"}) {
			t.Errorf("principal = %+v", got)
		}
		var hash string
		if err := store.Scan(ctx, db, &hash, "SELECT password_hash FROM people WHERE name = 'anna.rossi'"); err != nil {
			t.Fatal(err)
		}
		if hash == "segreta-123" || len(hash) < 59 || hash[:4] != "$2a$" {
			t.Errorf("stored password is not a bcrypt hash: %q", hash)
		}
		if _, err := db.CheckPassword(ctx, "anna.rossi", "segreta-123"); err != nil {
			t.Errorf("right password: %v", err)
		}
		for _, c := range []struct{ name, pw string }{{"anna.rossi", "segreta-124"}, {"nobody", "segreta-123"}, {"ANNA.ROSSI", "segreta-123"}} {
			if _, err := db.CheckPassword(ctx, c.name, c.pw); !errors.Is(err, store.ErrBadCredentials) {
				t.Errorf("CheckPassword(%q, %q) = %v, want ErrBadCredentials", c.name, c.pw, err)
			}
		}
		bad := []struct {
			what     string
			name     string
			role     domain.Role
			club, pw string
			want     error
		}{
			{"duplicate name", "anna.rossi", domain.RoleReferee, "", "segreta-123", domain.ErrConflict},
			{"club person without club", "mario", domain.RoleClub, "", "segreta-123", domain.ErrInvalid},
			{"unknown club", "mario", domain.RoleClub, "bc-none", "segreta-123", domain.ErrInvalid},
			{"short password", "mario", domain.RoleClub, "bc-roma", "short", domain.ErrInvalid},
			{"bad role", "mario", domain.Role("king"), "", "segreta-123", domain.ErrInvalid},
			{"empty name", " ", domain.RoleAdmin, "", "segreta-123", domain.ErrInvalid},
		}
		for _, b := range bad {
			if _, err := db.CreatePerson(ctx, b.name, b.role, b.club, b.pw); !errors.Is(err, b.want) {
				t.Errorf("%s: err = %v, want %v", b.what, err, b.want)
			}
		}
		c, err := db.CreatePerson(ctx, "mario", domain.RoleClub, "bc-roma", "segreta-123")
		if err != nil {
			t.Fatal(err)
		}
		if c.ClubID != "bc-roma" || c.Principal().ClubID != "bc-roma" {
			t.Errorf("club person = %+v", c)
		}
		refs, err := db.ListPeople(ctx, domain.RoleReferee)
		if err != nil || len(refs) != 1 || refs[0].Name != "anna.rossi" {
			t.Errorf("referees = %+v, %v", refs, err)
		}
		all, _ := db.ListPeople(ctx, "")
		if len(all) != 2 {
			t.Errorf("people = %d, want 2", len(all))
		}

		// A disabled person cannot sign in and loses their sessions at once.
		tok, _, err := db.CreateSession(ctx, p.ID, time.Hour, "test", "127.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetDisabled(ctx, p.ID, true); err != nil {
			t.Fatal(err)
		}
		if _, _, err := db.SessionPerson(ctx, tok); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("session of a disabled person: %v", err)
		}
		if _, err := db.CheckPassword(ctx, "anna.rossi", "segreta-123"); !errors.Is(err, store.ErrBadCredentials) {
			t.Errorf("disabled person signed in: %v", err)
		}
		if err := db.SetDisabled(ctx, p.ID, false); err != nil {
			t.Fatal(err)
		}
		// A new password replaces the old and ends sessions.
		tok, _, _ = db.CreateSession(ctx, p.ID, time.Hour, "test", "127.0.0.1")
		if err := db.SetPassword(ctx, p.ID, "nuova-password"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.CheckPassword(ctx, "anna.rossi", "segreta-123"); err == nil {
			t.Error("old password still works")
		}
		if _, err := db.CheckPassword(ctx, "anna.rossi", "nuova-password"); err != nil {
			t.Errorf("new password: %v", err)
		}
		if _, _, err := db.SessionPerson(ctx, tok); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("session survived a password reset: %v", err)
		}
		if err := db.SetPassword(ctx, "u_none", "nuova-password"); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("unknown person: %v", err)
		}
	})
}

// UI.md §2: the one-time /setup code creates the first admin and then
// stops working; there is no code once people exist.
func TestFirstRunSetup(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		old, err := db.NewSetupCode(ctx)
		if err != nil {
			t.Fatal(err)
		}
		code, err := db.NewSetupCode(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := db.SetupOpen(ctx, old); ok {
			t.Error("an earlier code still works")
		}
		if ok, _ := db.SetupOpen(ctx, code); !ok {
			t.Error("the code does not work")
		}
		if _, err := db.CreateFirstAdmin(ctx, "wrong", "admin", "segreta-123"); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("wrong code: %v", err)
		}
		// Two at once: exactly one admin.
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range errs {
			wg.Go(func() {
				_, errs[i] = db.CreateFirstAdmin(ctx, code, []string{"admin1", "admin2"}[i], "segreta-123")
			})
		}
		wg.Wait()
		if (errs[0] == nil) == (errs[1] == nil) {
			t.Errorf("concurrent setup: errors %v, %v; want exactly one success", errs[0], errs[1])
		}
		if n, _ := db.CountPeople(ctx); n != 1 {
			t.Errorf("people = %d, want 1", n)
		}
		admins, _ := db.ListPeople(ctx, domain.RoleAdmin)
		if len(admins) != 1 {
			t.Errorf("admins = %+v", admins)
		}
		if ok, _ := db.SetupOpen(ctx, code); ok {
			t.Error("code still open after setup")
		}
		if _, err := db.NewSetupCode(ctx); !errors.Is(err, domain.ErrConflict) {
			t.Errorf("new code with people: %v", err)
		}
	})
}
