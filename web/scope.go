package web

import (
	"net/http"

	"segnapunti/app"
)

// Authorization is the first step of a page that acts on one object
//: a wrapper per route group resolves who may do what to it
// through one app call, before any form is read. A caller who may not see
// the object gets its 404 whatever was posted.

// sheetHandler is a page of one table's sheet, given its scope.
type sheetHandler func(http.ResponseWriter, *http.Request, app.SheetScope)

// withSheet resolves the table of the path (…/rounds/{n}/tables/{t}) for
// reading (the page shows the sheet whatever may be done with it; a save
// is refused by the operation) and runs h with it.
func (s *Server) withSheet(h sheetHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n, t, ok := sheetCoords(r)
		if !ok {
			s.notFound(w, r)
			return
		}
		sc, err := s.app.SheetScope(r.Context(), s.caller(r), r.PathValue("tid"), n, t, app.SheetRead)
		if err != nil {
			s.operationFailed(w, r, err)
			return
		}
		h(w, r, sc)
	}
}

// tableHandler is a page of a table's phone, given the principal its code
// opened.
type tableHandler func(http.ResponseWriter, *http.Request, app.Principal)

// withTableCode opens the path's table code once per request (a refused
// form shows the page again with the same principal) and runs h with it;
// a code that opens nothing is answered here (tableRefused).
func (s *Server) withTableCode(h tableHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, state, err := s.app.TableEntryFrom(r.Context(), clientAddress(r), r.PathValue("code"))
		if s.tableRefused(w, r, state, err) {
			return
		}
		h(w, r, p)
	}
}

// withHandIndex refuses a path whose hand index {i} is not a number of a
// hand (404) before the code is opened.
func (s *Server) withHandIndex(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if handIndex(r) < 0 {
			s.renderError(w, r, http.StatusNotFound, "table.bad_form")
			return
		}
		h(w, r)
	}
}

// tournamentHandler is a page acting on one tournament, given its scope.
type tournamentHandler func(http.ResponseWriter, *http.Request, app.TournamentScope)

// withTournament resolves the tournament of the path for use and runs h
// with it; a refusal is answered by fail (the route group's own pages).
func (s *Server) withTournament(use app.TournamentUse, fail func(http.ResponseWriter, *http.Request, error), h tournamentHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sc, err := s.app.TournamentScope(r.Context(), s.caller(r), r.PathValue("tid"), use)
		if err != nil {
			fail(w, r, err)
			return
		}
		h(w, r, sc)
	}
}
