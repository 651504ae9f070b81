package web

import "net/http"

// logout ends the session in the database (at once, for every replica)
// and forgets the cookie.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		if err := s.store.EndSession(r.Context(), c.Value); err != nil {
			s.serverError(w, r, err)
			return
		}
	}
	s.clearSessionCookie(w, r)
	seeOther(w, r, "/login")
}
