package form

import (
	"net/http"

	"segnapunti/domain"
)

// Person is the admin's new-person form: name, role, club, and an
// optional password (empty: one is generated and shown once).
type Person struct {
	Name     string
	Role     domain.Role
	ClubID   string
	Password string
}

// ParsePerson reads and checks the new-person form.
func ParsePerson(w http.ResponseWriter, r *http.Request) (Person, Errors, error) {
	if err := parse(w, r); err != nil {
		return Person{}, nil, err
	}
	f := Person{Name: value(r, "name"), ClubID: value(r, "club"), Password: r.PostFormValue("password")}
	errs := Errors{}
	if f.Name == "" {
		errs["name"] = "form.required"
	}
	role, err := domain.ParseRole(value(r, "role"))
	if err != nil {
		errs["role"] = "form.role_invalid"
	}
	f.Role = role
	if role == domain.RoleClub && f.ClubID == "" {
		errs["club"] = "form.club_required"
	}
	if role != domain.RoleClub {
		f.ClubID = ""
	}
	checkNewPassword(errs, "password", f.Password, true)
	return f, errs, nil
}

// Password is the admin's reset-password form; empty generates one.
type Password struct{ Password string }

// ParsePassword reads and checks the reset-password form.
func ParsePassword(w http.ResponseWriter, r *http.Request) (Password, Errors, error) {
	if err := parse(w, r); err != nil {
		return Password{}, nil, err
	}
	f := Password{Password: r.PostFormValue("password")}
	errs := Errors{}
	checkNewPassword(errs, "password", f.Password, true)
	return f, errs, nil
}

// Disabled is the disable/enable form.
type Disabled struct{ Disabled bool }

// ParseDisabled reads the disable/enable form (field disabled: true/false).
func ParseDisabled(w http.ResponseWriter, r *http.Request) (Disabled, error) {
	if err := parse(w, r); err != nil {
		return Disabled{}, err
	}
	return Disabled{Disabled: r.PostFormValue("disabled") == "true"}, nil
}
