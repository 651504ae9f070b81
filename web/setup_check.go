package web

import (
	"errors"
	"net/http"

	"segnapunti/domain"
	"segnapunti/web/form"
)

// setupCheck creates the first admin with the one-time code, signs them in
// and opens /admin. The code works once.
func (s *Server) setupCheck(w http.ResponseWriter, r *http.Request) {
	f, errs, err := form.ParseSetup(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	data := setupPage{Page: s.page(r, "setup.title"), Form: form.Setup{Code: f.Code, Username: f.Username}, Errors: errs}
	if errs.Any() {
		data.Error = "form.errors"
		s.render(w, r, http.StatusUnprocessableEntity, "setup", &data)
		return
	}
	person, err := s.app.CreateFirstAdmin(r.Context(), f.Code, f.Username, f.Password)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		s.renderError(w, r, http.StatusNotFound, "setup.closed")
		return
	case errors.Is(err, domain.ErrInvalid):
		data.Error = "form.errors"
		data.Errors = form.Errors{"username": "form.name_invalid"}
		s.render(w, r, http.StatusUnprocessableEntity, "setup", &data)
		return
	case err != nil:
		s.serverError(w, r, err)
		return
	}
	s.log.Info("first admin created", "name", person.Name)
	if err := s.signIn(w, r, person); err != nil {
		s.serverError(w, r, err)
		return
	}
	seeOther(w, r, "/admin")
}
