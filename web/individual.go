package web

import (
	"context"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
)

// lineNames are the players' names by entrant id of an individual
// tournament, for the pages that show a line as its two players ("3 Rossi
// – 11 Bianchi", RULES §11); nil for the other kinds, whose pages show
// entrant numbers as before.
func (s *Server) lineNames(ctx context.Context, p app.Principal, t domain.Tournament) map[string]string {
	if t.Kind != domain.KindIndividual {
		return nil
	}
	es, err := s.app.Entrants(ctx, p, t.ID)
	if err != nil {
		return nil // the names are a courtesy: the numbers are shown anyway
	}
	out := make(map[string]string, len(es))
	for _, e := range es {
		var names []string
		for _, pl := range e.Players {
			names = append(names, pl.Name)
		}
		out[e.ID] = strings.Join(names, " / ")
	}
	return out
}
