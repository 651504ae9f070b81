package web

import (
	"net/http"

	"segnapunti/web/form"
)

// setupPage is the first-run page's data.
type setupPage struct {
	Page
	Form   form.Setup
	Errors form.Errors
}

// setupShow shows the first-admin form for the one-time code; a wrong or
// used code is 404 with a page saying setup is done or the link is wrong.
func (s *Server) setupShow(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("code")
	open, err := s.app.SetupOpen(r.Context(), code)
	if err != nil {
		s.serverError(w, r, err)
		return
	}
	if !open {
		s.renderError(w, r, http.StatusNotFound, "setup.closed")
		return
	}
	data := setupPage{Page: s.page(r, "setup.title"), Form: form.Setup{Code: code}, Errors: form.Errors{}}
	s.render(w, r, http.StatusOK, "setup", &data)
}
