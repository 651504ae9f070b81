package web

import "net/http"

// routesPublic registers the public pages (UI.md). Empty for now.
func (s *Server) routesPublic(mux *http.ServeMux) {}
