package web

import (
	"cmp"
	"net/http"
	"slices"

	"segnapunti/app"
	"segnapunti/domain"
)

// homePage is the signed-in person's home: the tournaments they may see,
// newest first, and "new tournament" for those who may create one.
type homePage struct {
	Page
	Name        string
	CanCreate   bool
	Tournaments []homeTournament
}

type homeTournament struct {
	ID, Name, Date string
}

func (s *Server) homeShow(w http.ResponseWriter, r *http.Request) {
	v, _ := viewerOf(r)
	p := s.caller(r)
	data := homePage{Page: s.page(r, "home.title"), Name: v.Person.Name,
		CanCreate: app.RequireRole(p, domain.RoleClub, domain.RoleAdmin, domain.RoleFederation) == nil}
	ts, err := s.app.ListTournaments(r.Context(), p)
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	slices.SortStableFunc(ts, func(a, b domain.Tournament) int {
		if c := b.Date.Compare(a.Date); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	for _, t := range ts {
		data.Tournaments = append(data.Tournaments, homeTournament{ID: t.ID, Name: t.Name, Date: t.Date.Format("02/01/2006")})
	}
	s.render(w, r, http.StatusOK, "home", &data)
}
