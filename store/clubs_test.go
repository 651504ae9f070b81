package store_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

func TestClubs(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		gen, err := db.CreateClub(ctx, domain.Club{Name: "Circolo Zeta"})
		wantErr(t, err, nil)
		if !regexp.MustCompile(`^c_[0-9a-f]{20}$`).MatchString(gen.ID) {
			t.Errorf("generated id %q, want c_ + 20 hex digits", gen.ID)
		}
		named, err := db.CreateClub(ctx, domain.Club{ID: "bologna", Name: "Burraco Bologna"})
		wantErr(t, err, nil)

		got, err := db.GetClub(ctx, "bologna")
		wantErr(t, err, nil)
		if got != named {
			t.Errorf("GetClub = %+v, want %+v", got, named)
		}
		list, err := db.ListClubs(ctx)
		wantErr(t, err, nil)
		if want := []domain.Club{named, gen}; !slices.Equal(list, want) {
			t.Errorf("ListClubs = %+v, want by name %+v", list, want)
		}

		for _, tc := range []struct {
			name string
			club domain.Club
			want error
		}{
			{"id taken", domain.Club{ID: "bologna", Name: "Other"}, domain.ErrConflict},
			{"empty name (CHECK clubs_name_check)", domain.Club{ID: "x"}, domain.ErrInvalid},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := db.CreateClub(ctx, tc.club)
				wantErr(t, err, tc.want)
			})
		}
		_, err = db.GetClub(ctx, "nope")
		wantErr(t, err, domain.ErrNotFound)
	})
}

// A table's entry codes (43 or 8 characters) never have a token's shape,
// so the API does not look them up as tokens first.
func TestMayBeToken(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"sp_" + strings.Repeat("A", 43), true},
		{strings.Repeat("A", 43), false},         // a long entry code
		{"sp_" + strings.Repeat("A", 40), false}, // a long entry code starting sp_
		{"ABCD2345", false},                      // a short typed code
		{"sp_" + strings.Repeat("A", 44), false},
		{"xx_" + strings.Repeat("A", 43), false},
	} {
		if got := store.MayBeToken(c.s); got != c.want {
			t.Errorf("MayBeToken(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// API §4: tokens are shown once; the store keeps only their SHA-256.
func TestTokens(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		club, err := db.CreateClub(ctx, domain.Club{ID: "c1", Name: "Circolo"})
		wantErr(t, err, nil)

		plain, p, err := db.CreateToken(ctx, domain.RoleClub, "segreteria", club.ID)
		wantErr(t, err, nil)
		if !regexp.MustCompile(`^sp_[A-Za-z0-9_-]{43}$`).MatchString(plain) {
			t.Errorf("token %q: want sp_ + 32 bytes base64url", plain)
		}
		if !store.MayBeToken(plain) {
			t.Errorf("token %q: MayBeToken says no", plain)
		}
		if p.Role != domain.RoleClub || p.Name != "segreteria" || p.ClubID != "c1" || p.TokenID == "" {
			t.Errorf("principal %+v", p)
		}
		got, err := db.Authenticate(ctx, plain)
		wantErr(t, err, nil)
		if got != p {
			t.Errorf("Authenticate = %+v, want %+v", got, p)
		}

		var stored []string
		if err := store.Scan(ctx, db, &stored, "SELECT hash FROM tokens"); err != nil {
			t.Fatal(err)
		}
		for _, h := range stored {
			if strings.Contains(h, strings.TrimPrefix(plain, "sp_")) || len(h) != 64 {
				t.Errorf("stored %q: want only a SHA-256 hex digest", h)
			}
		}

		admin, ap, err := db.CreateToken(ctx, domain.RoleAdmin, "root", "")
		wantErr(t, err, nil)
		if admin == plain || ap.TokenID == p.TokenID {
			t.Error("two tokens alike")
		}
		if got, _ := db.Authenticate(ctx, admin); got.ClubID != "" || got.Role != domain.RoleAdmin {
			t.Errorf("admin principal %+v", got)
		}

		for _, tc := range []struct {
			name      string
			role      domain.Role
			tokenName string
			club      string
			want      error
		}{
			{"club role without a club (CHECK tokens_club_check)", domain.RoleClub, "x", "", domain.ErrInvalid},
			{"unknown club (foreign key)", domain.RoleReferee, "x", "nope", domain.ErrInvalid},
			{"unknown role (CHECK tokens_role_check)", domain.Role("owner"), "x", "", domain.ErrInvalid},
			{"empty name", domain.RoleAdmin, "", "", domain.ErrInvalid},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, _, err := db.CreateToken(ctx, tc.role, tc.tokenName, tc.club)
				wantErr(t, err, tc.want)
			})
		}

		for _, bad := range []string{"", "sp_", plain + "x", strings.ToUpper(plain)} {
			_, err := db.Authenticate(ctx, bad)
			wantErr(t, err, domain.ErrNotFound)
			if err != nil && strings.Contains(err.Error(), plain) {
				t.Error("error echoes the token")
			}
		}
	})
}

func TestReferees(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tr, err := db.CreateTournament(ctx, tournament())
		wantErr(t, err, nil)
		other, err := db.CreateTournament(ctx, tournament())
		wantErr(t, err, nil)

		is, err := db.IsReferee(ctx, tr.ID, "Mario Rossi")
		if err != nil || is {
			t.Fatalf("before assignment: %v, %v", is, err)
		}
		for range 2 { // idempotent
			wantErr(t, db.AssignReferee(ctx, tr.ID, "Mario Rossi"), nil)
		}
		if is, err := db.IsReferee(ctx, tr.ID, "Mario Rossi"); err != nil || !is {
			t.Fatalf("after assignment: %v, %v", is, err)
		}
		if is, _ := db.IsReferee(ctx, other.ID, "Mario Rossi"); is {
			t.Error("referee of the wrong tournament")
		}
		if is, _ := db.IsReferee(ctx, "t_nope", "Mario Rossi"); is {
			t.Error("referee of an unknown tournament")
		}
		wantErr(t, db.AssignReferee(ctx, "t_nope", "Mario Rossi"), domain.ErrNotFound)
		wantErr(t, db.AssignReferee(ctx, tr.ID, ""), domain.ErrInvalid)

		list, err := db.ListTournaments(ctx, store.TournamentFilter{RefereeName: "Mario Rossi"})
		wantErr(t, err, nil)
		if len(list) != 1 || list[0].ID != tr.ID {
			t.Errorf("tournaments of the referee: %+v", list)
		}
	})
}
