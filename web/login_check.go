package web

import (
	"errors"
	"math"
	"net/http"
	"strconv"

	"segnapunti/app"
	"segnapunti/web/form"
)

// loginCheck signs a person in: a new session (a new token every time),
// its cookie, and back to where they were going. Wrong passwords slow down
// per name, per name and address, and per address (app.SignInWait; 429
// while waiting).
func (s *Server) loginCheck(w http.ResponseWriter, r *http.Request) {
	f, errs, err := form.ParseLogin(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	f.Next = safeNext(f.Next)
	f.Password = "" // never echoed back
	data := loginPage{Page: s.page(r, "login.title"), Form: f, Errors: errs}
	if errs.Any() {
		data.Error = "form.errors"
		s.render(w, r, http.StatusUnprocessableEntity, "login", &data)
		return
	}
	addr := clientAddress(r)
	if d := s.app.SignInWait(r.Context(), f.Username, addr); d > 0 {
		secs := int(math.Ceil(d.Seconds()))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		data.Error = "login.too_many"
		data.ErrorArgs = []any{secs}
		s.render(w, r, http.StatusTooManyRequests, "login", &data)
		return
	}
	person, err := s.app.CheckPassword(r.Context(), f.Username, r.PostFormValue("password"))
	if errors.Is(err, app.ErrBadCredentials) {
		s.app.SignInFailed(r.Context(), f.Username, addr)
		data.Error = "login.wrong"
		data.Errors = form.Errors{"password": "login.wrong"}
		s.render(w, r, http.StatusUnauthorized, "login", &data)
		return
	}
	if err != nil {
		s.serverError(w, r, err)
		return
	}
	s.app.SignInSucceeded(r.Context(), f.Username, addr)
	if err := s.signIn(w, r, person); err != nil {
		s.serverError(w, r, err)
		return
	}
	seeOther(w, r, f.Next)
}

// signIn starts a session for person and sets its cookie.
func (s *Server) signIn(w http.ResponseWriter, r *http.Request, person app.Person) error {
	token, err := s.app.StartSession(r.Context(), person, s.ttl, r.UserAgent(), clientAddress(r))
	if err != nil {
		return err
	}
	s.setSessionCookie(w, r, token)
	return nil
}
