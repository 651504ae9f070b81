package web

import (
	"net/http"

	"segnapunti/app"
)

type publicRoundPage struct {
	publicPage
	Round   app.PublicRound
	Tables  []seatRow
	Players []playerSeat
}

// publicRound: GET /p/{tid}/rounds/{n} — the seating by table and
// alphabetically, and the results as they arrive.
func (s *Server) publicRound(w http.ResponseWriter, r *http.Request) {
	n := pathRound(r)
	if n == 0 {
		s.notFound(w, r)
		return
	}
	p, ok := s.publicLoad(w, r, "public.round.title", "sse:sheet, sse:round")
	if !ok {
		return
	}
	round, err := p.T.Round(n)
	if err != nil {
		s.publicFail(w, r, err)
		return
	}
	data := publicRoundPage{publicPage: p, Round: round}
	data.Tables, data.Players = seating(p.T, round)
	s.renderPublic(w, r, "public_round", &data)
}
