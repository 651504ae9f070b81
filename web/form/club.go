package form

import (
	"net/http"
	"regexp"
)

// Club is the admin's new-club form: an id (short, for URLs and tokens)
// and a name.
type Club struct {
	ID   string
	Name string
}

var clubID = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// ParseClub reads and checks the new-club form.
func ParseClub(w http.ResponseWriter, r *http.Request) (Club, Errors, error) {
	if err := parse(w, r); err != nil {
		return Club{}, nil, err
	}
	f := Club{ID: value(r, "id"), Name: value(r, "name")}
	errs := Errors{}
	if f.ID == "" {
		errs["id"] = "form.required"
	} else if !clubID.MatchString(f.ID) {
		errs["id"] = "form.club_id_invalid"
	}
	if f.Name == "" {
		errs["name"] = "form.required"
	}
	return f, errs, nil
}
