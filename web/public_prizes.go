package web

import (
	"net/http"

	"segnapunti/app"
)

// publicPrizesPage is /p/{tid}/prizes: the prize list of a public
// tournament (issue 22), printable, in the public pages' style — the
// awards only once they are final (app.PublicPrizes), one
// <tr data-prize="{category}" data-entrant="{id}"> per award as on the
// club's prize page (UI.md §9).
type publicPrizesPage struct {
	publicPage
	Prizes app.PublicPrizes
}

// publicPrizes: GET /p/{tid}/prizes.
func (s *Server) publicPrizes(w http.ResponseWriter, r *http.Request) {
	p, ok := s.publicLoad(w, r, "public.prizes.title", "sse:standings, sse:round")
	if !ok {
		return
	}
	prizes, err := s.app.PublicPrizes(r.Context(), p.T)
	if err != nil {
		s.publicFail(w, r, err)
		return
	}
	s.renderPublic(w, r, "public_prizes", &publicPrizesPage{publicPage: p, Prizes: prizes})
}
