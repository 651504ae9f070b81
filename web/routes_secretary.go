package web

import "net/http"

// routesSecretary registers the secretary pages (UI.md). Empty for now.
func (s *Server) routesSecretary(mux *http.ServeMux) {}
