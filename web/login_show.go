package web

import (
	"net/http"

	"segnapunti/web/form"
)

// loginPage is the sign-in page's data.
type loginPage struct {
	Page
	Form   form.Login
	Errors form.Errors
}

// loginShow shows the sign-in form; a signed-in person goes home.
func (s *Server) loginShow(w http.ResponseWriter, r *http.Request) {
	if _, ok := viewerOf(r); ok {
		seeOther(w, r, "/")
		return
	}
	data := loginPage{Page: s.page(r, "login.title"), Form: form.Login{Next: safeNext(r.URL.Query().Get("next"))}, Errors: form.Errors{}}
	s.render(w, r, http.StatusOK, "login", &data)
}
