package web

import (
	"errors"
	"net/http"

	"segnapunti/app"
	"segnapunti/web/form"
)

// personPage is /admin/people/{id}: the person, their sessions, reset
// password and disable.
type personPage struct {
	Page
	Person    app.Person
	Sessions  []app.Session
	Errors    form.Errors
	Generated string // a generated password, shown once
}

func (s *Server) adminPersonShow(w http.ResponseWriter, r *http.Request) {
	s.renderPerson(w, r, http.StatusOK, personPage{})
}

func (s *Server) renderPerson(w http.ResponseWriter, r *http.Request, status int, data personPage) {
	msg, errMsg := data.Message, data.Error
	data.Page = s.page(r, "admin.person_title")
	data.Message, data.Error = msg, errMsg
	caller, _ := s.principal(r)
	var err error
	data.Person, data.Sessions, err = s.app.Person(r.Context(), caller, r.PathValue("id"))
	if err != nil {
		s.adminFailed(w, r, err)
		return
	}
	if data.Errors == nil {
		data.Errors = form.Errors{}
	}
	s.render(w, r, status, "person", &data)
}

// adminPersonPassword sets a new password (typed, or generated and shown
// once); the person's sessions end.
func (s *Server) adminPersonPassword(w http.ResponseWriter, r *http.Request) {
	f, errs, err := form.ParsePassword(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	if errs.Any() {
		data := personPage{Errors: errs}
		data.Error = "form.errors"
		s.renderPerson(w, r, http.StatusUnprocessableEntity, data)
		return
	}
	password, generated := f.Password, f.Password == ""
	if generated {
		password = app.GeneratePassword()
	}
	caller, _ := s.principal(r)
	if err := s.app.SetPassword(r.Context(), caller, r.PathValue("id"), password); err != nil {
		s.adminFailed(w, r, err)
		return
	}
	data := personPage{}
	data.Message = "admin.password_set"
	if generated {
		data.Generated = password
	}
	s.renderPerson(w, r, http.StatusOK, data)
}

// adminPersonDisabled disables or enables a person.
func (s *Server) adminPersonDisabled(w http.ResponseWriter, r *http.Request) {
	f, err := form.ParseDisabled(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	id := r.PathValue("id")
	caller, _ := s.principal(r)
	err = s.app.SetDisabled(r.Context(), caller, id, f.Disabled)
	if errors.Is(err, app.ErrDisableSelf) {
		data := personPage{}
		data.Error = "admin.cannot_disable_self"
		s.renderPerson(w, r, http.StatusUnprocessableEntity, data)
		return
	}
	if err != nil {
		s.adminFailed(w, r, err)
		return
	}
	seeOther(w, r, "/admin/people/"+id)
}

// adminSessionRevoke ends one session of a person at once.
func (s *Server) adminSessionRevoke(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	caller, _ := s.principal(r)
	if err := s.app.RevokeSession(r.Context(), caller, id, r.PathValue("sid")); err != nil {
		s.adminFailed(w, r, err)
		return
	}
	seeOther(w, r, "/admin/people/"+id)
}

// adminFailed answers an admin operation's refusal: an unknown person or
// session is not found, a caller who is not an admin is forbidden.
func (s *Server) adminFailed(w http.ResponseWriter, r *http.Request, err error) {
	s.operationFailed(w, r, err)
}
