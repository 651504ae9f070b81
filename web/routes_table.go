package web

import "net/http"

// routesTable registers the table pages (UI.md). Empty for now.
func (s *Server) routesTable(mux *http.ServeMux) {}
