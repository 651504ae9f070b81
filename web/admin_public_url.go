package web

import (
	"errors"
	"net/http"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/web/form"
)

// adminPublicURL: POST /admin/public-url — the address players' phones
// open, stored; empty clears it.
func (s *Server) adminPublicURL(w http.ResponseWriter, r *http.Request) {
	f, err := form.ParsePublicURL(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	who, _ := s.principal(r)
	_, err = s.app.SetPublicURL(r.Context(), who, f.URL)
	s.storedURL.forget()
	data := adminPage{PersonForm: form.Person{Role: domain.RoleClub}, PublicURLForm: f.URL}
	var ae *app.Error
	switch {
	case errors.As(err, &ae) && errors.Is(ae.Kind, domain.ErrInvalid):
		data.Error = "form.errors"
		data.PublicURLErrs = form.Errors{"public_url": "admin.public_url_invalid"}
		s.renderAdmin(w, r, http.StatusUnprocessableEntity, data)
		return
	case errors.As(err, &ae) && errors.Is(ae.Kind, app.ErrForbidden):
		s.renderError(w, r, http.StatusForbidden, "error.forbidden")
		return
	case err != nil:
		s.serverError(w, r, err)
		return
	}
	out := adminPage{PersonForm: form.Person{Role: domain.RoleClub}}
	out.Message = "admin.public_url_saved"
	s.renderAdmin(w, r, http.StatusOK, out)
}
