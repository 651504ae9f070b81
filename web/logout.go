package web

import (
	"net/http"
	"slices"
)

// logout ends the session in the database (at once, for every replica)
// and forgets the cookie.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(SessionCookie); err == nil && c.Value != "" {
		if err := s.app.EndSession(r.Context(), c.Value); err != nil {
			s.serverError(w, r, err)
			return
		}
	}
	s.clearSessionCookie(w, r)
	seeOther(w, r, "/login")
}

// logoutShow: GET /logout (UI.md §2 names /logout). Typed in the address
// bar or followed from one of our pages it signs out as the button does;
// sent by another site (Sec-Fetch-Site cross-site or same-site: a link or
// an image elsewhere) it only asks, with the button, so no other site
// signs a secretary out in the middle of an evening.
func (s *Server) logoutShow(w http.ResponseWriter, r *http.Request) {
	if site := r.Header.Get("Sec-Fetch-Site"); site == "" || slices.Contains([]string{"none", "same-origin"}, site) {
		s.logout(w, r)
		return
	}
	data := s.page(r, "logout.title")
	s.render(w, r, http.StatusOK, "logout", &data)
}
