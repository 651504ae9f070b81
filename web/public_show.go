package web

import "net/http"

// publicShow: GET /p/{tid} — the tournament, its rounds, links.
func (s *Server) publicShow(w http.ResponseWriter, r *http.Request) {
	p, ok := s.publicLoad(w, r, "public.tournament.title", "sse:round, sse:standings")
	if !ok {
		return
	}
	s.renderPublic(w, r, "public_tournament", &p)
}
