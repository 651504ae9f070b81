package web

import "net/http"

// homePage is the signed-in person's home: their tournaments (filled by
// the secretary pages from package app).
type homePage struct {
	Page
	Name        string
	Tournaments []homeTournament
}

type homeTournament struct {
	ID, Name, Date string
}

func (s *Server) homeShow(w http.ResponseWriter, r *http.Request) {
	v, _ := viewerOf(r)
	data := homePage{Page: s.page(r, "home.title"), Name: v.Person.Name}
	s.render(w, r, http.StatusOK, "home", &data)
}
