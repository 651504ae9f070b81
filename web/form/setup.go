package form

import "net/http"

// Setup is the first-run form: the first admin's name and password.
type Setup struct {
	Code     string
	Username string
	Password string
}

// ParseSetup reads and checks the first-run form.
func ParseSetup(w http.ResponseWriter, r *http.Request) (Setup, Errors, error) {
	if err := parse(w, r); err != nil {
		return Setup{}, nil, err
	}
	f := Setup{Code: r.PostFormValue("code"), Username: value(r, "username"), Password: r.PostFormValue("password")}
	errs := Errors{}
	if f.Username == "" {
		errs["username"] = "form.required"
	}
	checkNewPassword(errs, "password", f.Password, false)
	return f, errs, nil
}

// Password lengths: as the store's (bcrypt reads at most 72 bytes).
const (
	minPassword = 8
	maxPassword = 72
)

func checkNewPassword(errs Errors, field, pw string, optional bool) {
	switch {
	case pw == "" && optional:
	case pw == "":
		errs[field] = "form.required"
	case len(pw) < minPassword:
		errs[field] = "form.password_short"
	case len(pw) > maxPassword:
		errs[field] = "form.password_long"
	}
}
