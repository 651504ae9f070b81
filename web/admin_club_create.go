package web

import (
	"errors"
	"net/http"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/web/form"
)

// adminClubCreate creates a club.
func (s *Server) adminClubCreate(w http.ResponseWriter, r *http.Request) {
	f, errs, err := form.ParseClub(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	data := adminPage{PersonForm: form.Person{Role: domain.RoleClub}, ClubForm: f, ClubErrs: errs}
	if errs.Any() {
		data.Error = "form.errors"
		s.renderAdmin(w, r, http.StatusUnprocessableEntity, data)
		return
	}
	caller, _ := s.principal(r)
	_, err = s.app.CreateClub(r.Context(), caller, domain.Club{ID: f.ID, Name: f.Name})
	switch {
	case errors.Is(err, app.ErrForbidden):
		s.renderError(w, r, http.StatusForbidden, "error.forbidden")
		return
	case errors.Is(err, domain.ErrConflict):
		data.Error = "form.errors"
		data.ClubErrs = form.Errors{"id": "admin.club_taken"}
		s.renderAdmin(w, r, http.StatusConflict, data)
		return
	case err != nil:
		s.serverError(w, r, err)
		return
	}
	out := adminPage{PersonForm: form.Person{Role: domain.RoleClub}}
	out.Message = "admin.club_created"
	s.renderAdmin(w, r, http.StatusCreated, out)
}
