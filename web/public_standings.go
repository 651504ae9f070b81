package web

import "net/http"

type publicStandingsPage struct {
	publicPage
	Table standingsTable
}

// publicStandings: GET /p/{tid}/standings — the current standings.
func (s *Server) publicStandings(w http.ResponseWriter, r *http.Request) {
	p, ok := s.publicLoad(w, r, "public.standings.title", "sse:standings")
	if !ok {
		return
	}
	st, provisional, err := p.T.Standings(0)
	if err != nil {
		s.publicFail(w, r, err)
		return
	}
	data := publicStandingsPage{publicPage: p, Table: toStandingsTable(p.Base, st, provisional)}
	s.renderPublic(w, r, "public_standings", &data)
}
