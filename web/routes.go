package web

import "net/http"

// routes registers every page. Each group lives in its own file
// (routes_AREA.go) so that several people add pages without editing the
// same lines.
func (s *Server) routes(mux *http.ServeMux) {
	mux.Handle("GET /static/{version}/{file}", s.static)
	mux.HandleFunc("GET /{$}", s.requireSignedIn(s.homeShow))
	s.routesAuth(mux)
	s.routesAdmin(mux)
	s.routesSecretary(mux)
	s.routesTable(mux)
	s.routesReferee(mux)
	s.routesPublic(mux)
	s.routesPairing(mux)
	mux.HandleFunc("/", s.notFound)
}
