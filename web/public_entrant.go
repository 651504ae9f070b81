package web

import (
	"net/http"

	"segnapunti/app"
)

type publicEntrantPage struct {
	publicPage
	Card  app.EntrantCard
	Name  string
	Names map[string]string // opponent id → name
}

// publicEntrant: GET /p/{tid}/entrants/{id} — one entrant's card.
func (s *Server) publicEntrant(w http.ResponseWriter, r *http.Request) {
	p, ok := s.publicLoad(w, r, "public.entrant.title", "sse:standings")
	if !ok {
		return
	}
	card, err := p.T.Card(r.PathValue("id"))
	if err != nil {
		s.publicFail(w, r, err)
		return
	}
	data := publicEntrantPage{publicPage: p, Card: card, Name: entrantName(card.Entrant), Names: map[string]string{}}
	for _, row := range card.Rows {
		for _, id := range row.Opponents { // individual: both opposing players
			if e, ok := p.T.Entrant(id); ok {
				data.Names[id] = entrantName(e)
			}
		}
	}
	s.renderPublic(w, r, "public_entrant", &data)
}
