package web

import (
	"net/http"

	"segnapunti/app"
)

// routesSecretary registers the club secretary's pages (UI.md §3, §5).
// Who may see or do what is decided by package app; the role check here
// only keeps people without a tournament role (none today) out.
func (s *Server) routesSecretary(mux *http.ServeMux) {
	in := s.requireSignedIn
	mux.HandleFunc("GET /tournaments/new", in(s.tournamentNewShow))
	mux.HandleFunc("POST /tournaments/new", in(s.tournamentCreate))
	mux.HandleFunc("GET /tournaments/{tid}", in(s.tournamentShow))
	mux.HandleFunc("POST /tournaments/{tid}/referees", in(s.refereeAssign))
	mux.HandleFunc("GET /tournaments/{tid}/entrants", in(s.entrantsShow))
	mux.HandleFunc("POST /tournaments/{tid}/entrants", in(s.entrantsAddOne))
	mux.HandleFunc("POST /tournaments/{tid}/entrants/paste", in(s.entrantsPaste))
	mux.HandleFunc("POST /tournaments/{tid}/entrants/upload", in(s.entrantsUpload))
	mux.HandleFunc("GET /tournaments/{tid}/entrants/template.xlsx", in(s.entrantsTemplate))
	mux.HandleFunc("GET /tournaments/{tid}/entrants/{id}", in(s.entrantShow))
	mux.HandleFunc("POST /tournaments/{tid}/entrants/{id}/withdrawal", in(s.entrantWithdraw))
	mux.HandleFunc("POST /tournaments/{tid}/entrants/{id}/substitutions", in(s.entrantSubstitute))
	mux.HandleFunc("GET /tournaments/{tid}/rounds/new", in(s.roundNewShow))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/new", in(s.roundCreate))
	mux.HandleFunc("GET /tournaments/{tid}/rounds/{n}", in(s.roundShow))
	mux.HandleFunc("GET /tournaments/{tid}/rounds/{n}/tables", in(s.roundTables))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/{n}/state", in(s.roundState))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/{n}/clock", in(s.roundClockStart))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/{n}/clock/call", in(s.roundClockCall))
	mux.HandleFunc("GET /tournaments/{tid}/rounds/{n}/tables/{t}", in(s.sheetShow))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/{n}/tables/{t}", in(s.withSheet(s.sheetSave)))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/{n}/tables/{t}/validate", in(s.withSheet(s.sheetValidate)))
	mux.HandleFunc("GET /tournaments/{tid}/rounds/{n}/tables/{t}/lineup", in(s.lineupShow))  // web/lineup.go
	mux.HandleFunc("POST /tournaments/{tid}/rounds/{n}/tables/{t}/lineup", in(s.lineupSave)) // web/lineup.go
	mux.HandleFunc("GET /tournaments/{tid}/imports", in(s.importShow))
	mux.HandleFunc("POST /tournaments/{tid}/imports", in(s.withTournament(app.TournamentImport, s.operationFailed, s.importRun)))
	mux.HandleFunc("POST /tournaments/{tid}/imports/{id}/undo", in(s.importUndo))
	mux.HandleFunc("GET /tournaments/{tid}/standings", in(s.standingsShow))
	mux.HandleFunc("GET /tournaments/{tid}/prizes", in(s.prizesShow))  // web/prizes_show.go
	mux.HandleFunc("POST /tournaments/{tid}/prizes", in(s.prizesSave)) // web/prizes_show.go
	mux.HandleFunc("GET /tournaments/{tid}/export", in(s.exportShow))
	mux.HandleFunc("GET /tournaments/{tid}/export/{file}", in(s.exportDownload))
}
