package web

import (
	"errors"
	"net/http"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/web/form"
)

// personPage is /admin/people/{id}: the person, their sessions, reset
// password and disable.
type personPage struct {
	Page
	Person    store.Person
	Sessions  []store.Session
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
	p, err := s.store.GetPerson(r.Context(), r.PathValue("id"))
	if errors.Is(err, domain.ErrNotFound) {
		s.notFound(w, r)
		return
	}
	if err != nil {
		s.serverError(w, r, err)
		return
	}
	data.Person = p
	if data.Sessions, err = s.store.ListSessions(r.Context(), p.ID); err != nil {
		s.serverError(w, r, err)
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
		password = store.GeneratePassword()
	}
	err = s.store.SetPassword(r.Context(), r.PathValue("id"), password)
	if errors.Is(err, domain.ErrNotFound) {
		s.notFound(w, r)
		return
	}
	if err != nil {
		s.serverError(w, r, err)
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
	if v, _ := viewerOf(r); v.Person.ID == id && f.Disabled {
		data := personPage{}
		data.Error = "admin.cannot_disable_self"
		s.renderPerson(w, r, http.StatusUnprocessableEntity, data)
		return
	}
	err = s.store.SetDisabled(r.Context(), id, f.Disabled)
	if errors.Is(err, domain.ErrNotFound) {
		s.notFound(w, r)
		return
	}
	if err != nil {
		s.serverError(w, r, err)
		return
	}
	seeOther(w, r, "/admin/people/"+id)
}

// adminSessionRevoke ends one session of a person at once.
func (s *Server) adminSessionRevoke(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	err := s.store.RevokeSession(r.Context(), id, r.PathValue("sid"))
	if errors.Is(err, domain.ErrNotFound) {
		s.notFound(w, r)
		return
	}
	if err != nil {
		s.serverError(w, r, err)
		return
	}
	seeOther(w, r, "/admin/people/"+id)
}
