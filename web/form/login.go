package form

import "net/http"

// Login is the sign-in form (UI.md §2: fields username, password).
type Login struct {
	Username string
	Password string
	Next     string
}

// ParseLogin reads and checks the sign-in form.
func ParseLogin(w http.ResponseWriter, r *http.Request) (Login, Errors, error) {
	if err := parse(w, r); err != nil {
		return Login{}, nil, err
	}
	f := Login{Username: value(r, "username"), Password: r.PostFormValue("password"), Next: r.PostFormValue("next")}
	errs := Errors{}
	if f.Username == "" {
		errs["username"] = "form.required"
	}
	if f.Password == "" {
		errs["password"] = "form.required"
	}
	return f, errs, nil
}
