package form

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"segnapunti/domain"
)

func post(vals url.Values) (*httptest.ResponseRecorder, *http.Request) {
	r := httptest.NewRequest("POST", "/", strings.NewReader(vals.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return httptest.NewRecorder(), r
}

// UI.md §2 (API §4 roles): a club person needs a club; passwords are 8..72
// bytes or empty (generated); the field at fault is named.
func TestParsePerson(t *testing.T) {
	cases := []struct {
		name    string
		vals    url.Values
		wantErr map[string]string
	}{
		{"club with club", url.Values{"name": {"segr"}, "role": {"club"}, "club": {"bc-roma"}}, nil},
		{"club without club", url.Values{"name": {"segr"}, "role": {"club"}}, map[string]string{"club": "form.club_required"}},
		{"referee, club ignored", url.Values{"name": {"anna"}, "role": {"referee"}, "club": {"bc-roma"}}, nil},
		{"no name", url.Values{"role": {"admin"}}, map[string]string{"name": "form.required"}},
		{"bad role", url.Values{"name": {"x"}, "role": {"king"}}, map[string]string{"role": "form.role_invalid"}},
		{"short password", url.Values{"name": {"x"}, "role": {"admin"}, "password": {"1234567"}}, map[string]string{"password": "form.password_short"}},
		{"8-byte password", url.Values{"name": {"x"}, "role": {"admin"}, "password": {"12345678"}}, nil},
		{"73-byte password", url.Values{"name": {"x"}, "role": {"admin"}, "password": {strings.Repeat("a", 73)}}, map[string]string{"password": "form.password_long"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, r := post(c.vals)
			f, errs, err := ParsePerson(w, r)
			if err != nil {
				t.Fatal(err)
			}
			if len(errs) != len(c.wantErr) {
				t.Fatalf("errors %v, want %v", errs, c.wantErr)
			}
			for k, v := range c.wantErr {
				if errs[k] != v {
					t.Errorf("errors[%s] = %q, want %q", k, errs[k], v)
				}
			}
			if f.Role == domain.RoleReferee && f.ClubID != "" {
				t.Errorf("a referee kept club %q", f.ClubID)
			}
		})
	}
}

func TestParseClub(t *testing.T) {
	for id, ok := range map[string]bool{"bc-roma": true, "c1": true, "BC": false, "-x": false, "a b": false, strings.Repeat("a", 41): false, "": false} {
		w, r := post(url.Values{"id": {id}, "name": {"Circolo"}})
		_, errs, err := ParseClub(w, r)
		if err != nil {
			t.Fatal(err)
		}
		if errs.Has("id") == ok {
			t.Errorf("club id %q: errors %v, want ok=%v", id, errs, ok)
		}
	}
}

// UI.md §2: the sign-in form's fields are username and password.
func TestParseLogin(t *testing.T) {
	w, r := post(url.Values{"username": {" anna "}, "password": {" pw "}})
	f, errs, err := ParseLogin(w, r)
	if err != nil || errs.Any() || f.Username != "anna" || f.Password != " pw " {
		t.Errorf("login = %+v %v %v (name trimmed, password kept as typed)", f, errs, err)
	}
	w, r = post(url.Values{})
	_, errs, _ = ParseLogin(w, r)
	if !errs.Has("username") || !errs.Has("password") {
		t.Errorf("empty login: %v", errs)
	}
	// A body beyond the bound is an error, not a panic.
	w, r = post(url.Values{"username": {strings.Repeat("a", maxFormBytes+1)}})
	if _, _, err := ParseLogin(w, r); err == nil {
		t.Error("an oversized form was accepted")
	}
}
