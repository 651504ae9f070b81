package web

import (
	"errors"
	"net/http"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/web/form"
)

// adminPersonCreate creates a person; without a typed password one is
// generated and shown once on the page that answers.
func (s *Server) adminPersonCreate(w http.ResponseWriter, r *http.Request) {
	f, errs, err := form.ParsePerson(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	data := adminPage{PersonForm: form.Person{Name: f.Name, Role: f.Role, ClubID: f.ClubID}, PersonErrs: errs}
	if errs.Any() {
		data.Error = "form.errors"
		s.renderAdmin(w, r, http.StatusUnprocessableEntity, data)
		return
	}
	password, generated := f.Password, f.Password == ""
	if generated {
		password = app.GeneratePassword()
	}
	caller, _ := s.principal(r)
	p, err := s.app.CreatePerson(r.Context(), caller, app.NewPerson{Name: f.Name, Role: f.Role, ClubID: f.ClubID, Password: password})
	switch {
	case errors.Is(err, app.ErrForbidden):
		s.renderError(w, r, http.StatusForbidden, "error.forbidden")
		return
	case errors.Is(err, domain.ErrConflict):
		data.Error = "form.errors"
		data.PersonErrs = form.Errors{"name": "admin.name_taken"}
		s.renderAdmin(w, r, http.StatusConflict, data)
		return
	case errors.Is(err, domain.ErrInvalid):
		data.Error = "form.errors"
		data.PersonErrs = form.Errors{"club": "admin.club_unknown"}
		s.renderAdmin(w, r, http.StatusUnprocessableEntity, data)
		return
	case err != nil:
		s.serverError(w, r, err)
		return
	}
	s.log.Info("person created", "name", p.Name, "role", string(p.Role))
	out := adminPage{PersonForm: form.Person{Role: domain.RoleClub}}
	out.Message = "admin.person_created"
	if generated {
		out.Generated = &generatedPassword{Name: p.Name, Password: password}
	}
	s.renderAdmin(w, r, http.StatusCreated, out)
}
