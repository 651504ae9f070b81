package web

import (
	"net/http"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/web/form"
)

// adminPage is /admin's data: people, clubs, referees and the two
// creation forms.
type adminPage struct {
	Page
	People     []app.Person
	Referees   []app.Person
	Clubs      []domain.Club
	Roles      []domain.Role
	PersonForm form.Person
	PersonErrs form.Errors
	ClubForm   form.Club
	ClubErrs   form.Errors
	// PublicURLForm is the public-address form's value: the
	// stored address, or what was sent when refused; PublicURLEnv the
	// address the environment fixes (it wins; the form is then
	// informative), PublicURLLAN the LAN address serve found.
	PublicURLForm string
	PublicURLErrs form.Errors
	PublicURLEnv  string
	PublicURLLAN  string
	// Generated is a password generated for a new person, shown once.
	Generated *generatedPassword
}

type generatedPassword struct{ Name, Password string }

func (s *Server) adminShow(w http.ResponseWriter, r *http.Request) {
	s.renderAdmin(w, r, http.StatusOK, adminPage{PersonForm: form.Person{Role: domain.RoleClub}})
}

// renderAdmin loads the lists and renders /admin around data's forms.
func (s *Server) renderAdmin(w http.ResponseWriter, r *http.Request, status int, data adminPage) {
	msg, errMsg, args := data.Message, data.Error, data.ErrorArgs
	data.Page = s.page(r, "admin.title")
	data.Message, data.Error, data.ErrorArgs = msg, errMsg, args
	caller, _ := s.principal(r)
	var err error
	if data.People, err = s.app.People(r.Context(), caller); err != nil {
		s.adminFailed(w, r, err)
		return
	}
	for _, p := range data.People {
		if p.Role == domain.RoleReferee {
			data.Referees = append(data.Referees, p)
		}
	}
	if data.Clubs, err = s.app.Clubs(r.Context(), caller); err != nil {
		s.adminFailed(w, r, err)
		return
	}
	data.Roles = domain.Roles
	if data.PublicURLErrs == nil {
		if data.PublicURLForm, err = s.app.PublicURL(r.Context()); err != nil {
			s.serverError(w, r, err)
			return
		}
		data.PublicURLErrs = form.Errors{}
	}
	data.PublicURLEnv, data.PublicURLLAN = s.publicURL, s.lanURL
	if data.PersonErrs == nil {
		data.PersonErrs = form.Errors{}
	}
	if data.ClubErrs == nil {
		data.ClubErrs = form.Errors{}
	}
	s.render(w, r, status, "admin", &data)
}
