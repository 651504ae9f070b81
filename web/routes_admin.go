package web

import (
	"net/http"

	"segnapunti/domain"
)

// routesAdmin: people, clubs and referees, for admins only (UI.md §2).
func (s *Server) routesAdmin(mux *http.ServeMux) {
	admin := s.requireRole(domain.RoleAdmin)
	mux.HandleFunc("GET /admin", admin(s.adminShow))
	mux.HandleFunc("POST /admin/people", admin(s.adminPersonCreate))
	mux.HandleFunc("GET /admin/people/{id}", admin(s.adminPersonShow))
	mux.HandleFunc("POST /admin/people/{id}/password", admin(s.adminPersonPassword))
	mux.HandleFunc("POST /admin/people/{id}/disabled", admin(s.adminPersonDisabled))
	mux.HandleFunc("POST /admin/people/{id}/sessions/{sid}/revoke", admin(s.adminSessionRevoke))
	mux.HandleFunc("POST /admin/clubs", admin(s.adminClubCreate))
	mux.HandleFunc("POST /admin/public-url", admin(s.adminPublicURL))
}
