package web

import "net/http"

// routesReferee registers the referee pages (UI.md). Empty for now.
func (s *Server) routesReferee(mux *http.ServeMux) {}
