package web

import (
	"encoding/json"
	"net/http"

	"segnapunti/app"
)

type publicScreenPage struct {
	publicPage
	Table   standingsTable
	Next    *app.PublicRound
	Tables  []seatRow
	Players []playerSeat
	// Clock: the round's clock (UI.md §9). The page is cached per
	// tournament version, which the clock does not change: clock.js asks
	// /p/{tid}/clock at once and every few seconds.
	Clock clockView
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
		data.Clock = clockView{URL: p.Base + "/clock"}
	}
	s.renderPublic(w, r, "public_screen", &data)
}

// publicClock: GET /p/{tid}/clock — the clock of the round being played,
// as JSON, never cached (the venue screen polls it).
func (s *Server) publicClock(w http.ResponseWriter, r *http.Request) {
	pt, err := s.app.PublicTournament(r.Context(), r.PathValue("tid"))
	if err != nil {
		s.publicFail(w, r, err)
		return
	}
	var c app.Clock
	round := 0
	if next, ok := pt.NextRound(); ok {
		round = next.Round.Number
		if c, err = s.app.RoundClock(r.Context(), pt.Tournament.ID, round); err != nil {
			s.serverError(w, r, err)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{"round": round, "running": c.Running, "remaining": c.Remaining, "time_called": c.Called})
}
