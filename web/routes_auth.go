package web

import "net/http"

// routesAuth: sign-in, sign-out and first-run setup (UI.md §2).
func (s *Server) routesAuth(mux *http.ServeMux) {
	mux.HandleFunc("GET /login", s.loginShow)
	mux.HandleFunc("POST /login", s.loginCheck)
	mux.HandleFunc("POST /logout", s.logout)
	mux.HandleFunc("GET /logout", s.logoutShow)
	mux.HandleFunc("GET /setup", s.setupShow)
	mux.HandleFunc("POST /setup", s.setupCheck)
}
