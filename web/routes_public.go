package web

import "net/http"

// routesPublic registers the public pages (UI.md §7): no sign-in, read
// only; and the club's switch that makes a tournament public.
func (s *Server) routesPublic(mux *http.ServeMux) {
	mux.HandleFunc("GET /p/{tid}", s.publicShow)
	mux.HandleFunc("GET /p/{tid}/standings", s.publicStandings)
	mux.HandleFunc("GET /p/{tid}/rounds/{n}", s.publicRound)
	mux.HandleFunc("GET /p/{tid}/entrants/{id}", s.publicEntrant)
	mux.HandleFunc("GET /p/{tid}/screen", s.publicScreen)
	mux.HandleFunc("GET /p/{tid}/prizes", s.publicPrizes) // web/public_prizes.go
	mux.HandleFunc("GET /p/{tid}/clock", s.publicClock)
	mux.HandleFunc("GET /p/{tid}/events", s.publicEvents)
	mux.HandleFunc("POST /tournaments/{tid}/public", s.requireSignedIn(s.publicSwitch))
	mux.HandleFunc("POST /tournaments/{tid}/time-zone", s.requireSignedIn(s.timeZoneSave)) // web/time_zone_save.go
}
