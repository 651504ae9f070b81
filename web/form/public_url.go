package form

import "net/http"

// PublicURL is the admin's form for the address players' phones open
// (UI.md §9): empty clears it; the operation checks its shape.
type PublicURL struct {
	URL string
}

// ParsePublicURL reads the public-address form.
func ParsePublicURL(w http.ResponseWriter, r *http.Request) (PublicURL, error) {
	if err := parse(w, r); err != nil {
		return PublicURL{}, err
	}
	return PublicURL{URL: value(r, "public_url")}, nil
}
