package web

import (
	"net/http"

	"segnapunti/app"
)

type publicScreenPage struct {
	publicPage
	Table   standingsTable
	Next    *app.PublicRound
	Tables  []seatRow
	Players []playerSeat
}

// publicScreen: GET /p/{tid}/screen — the venue screen: large type, the
// standings and the seating of the round being played, scrolling by
// itself.
func (s *Server) publicScreen(w http.ResponseWriter, r *http.Request) {
	p, ok := s.publicLoad(w, r, "public.screen.title", "sse:standings, sse:round")
	if !ok {
		return
	}
	st, provisional, err := p.T.Standings(0)
	if err != nil {
		s.publicFail(w, r, err)
		return
	}
	data := publicScreenPage{publicPage: p, Table: toStandingsTable(p.Base, st, provisional)}
	if next, ok := p.T.NextRound(); ok {
		data.Next = &next
		data.Tables, data.Players = seating(p.T, next)
	}
	s.renderPublic(w, r, "public_screen", &data)
}
