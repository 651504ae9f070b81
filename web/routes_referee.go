package web

import (
	"net/http"

	"segnapunti/app"
	"segnapunti/domain"
)

// routesReferee registers the referee's desk (UI.md §4) and the
// federation's desk. Who may do what is decided by the app operations.
func (s *Server) routesReferee(mux *http.ServeMux) {
	in := s.requireSignedIn
	mux.HandleFunc("GET /tournaments/{tid}/review", in(s.reviewShow))
	mux.HandleFunc("GET /tournaments/{tid}/rounds/{n}/tables/{t}/correct", in(s.correctionShow))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/{n}/tables/{t}/correct/preview", in(s.withTournament(app.TournamentCorrect, s.refereeFail, s.correctionPreview)))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/{n}/tables/{t}/correct", in(s.withTournament(app.TournamentCorrect, s.refereeFail, s.correctionApply)))
	mux.HandleFunc("GET /tournaments/{tid}/corrections", in(s.correctionList))
	mux.HandleFunc("GET /tournaments/{tid}/adjustments", in(s.adjustmentList))
	mux.HandleFunc("POST /tournaments/{tid}/adjustments", in(s.adjustmentCreate))
	mux.HandleFunc("GET /tournaments/{tid}/rounds/{n}/control", in(s.roundControlShow))
	mux.HandleFunc("GET /tournaments/{tid}/check", in(s.pairingCheckShow))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/{n}/control", in(s.roundControlMove))
	mux.HandleFunc("GET /tournaments/{tid}/interrupt", in(s.interruptShow)) // web/interrupt.go
	mux.HandleFunc("POST /tournaments/{tid}/interrupt/preview", in(s.interruptPreview))
	mux.HandleFunc("POST /tournaments/{tid}/interrupt", in(s.interruptApply))
	fed := s.requireRole(domain.RoleFederation, domain.RoleAdmin)
	mux.HandleFunc("GET /federation", fed(s.federationShow))
	mux.HandleFunc("GET /federation/season", fed(s.federationSeason))
	mux.HandleFunc("GET /federation/tournaments/{tid}/workbook.xlsx", fed(s.federationWorkbook))
	mux.HandleFunc("GET /federation/tournaments/{tid}/export.json", fed(s.federationJSON))
	mux.HandleFunc("GET /federation/verify", fed(s.federationVerifyShow)) // web/federation_verify.go
	mux.HandleFunc("POST /federation/verify", fed(s.federationVerifyUpload))
	mux.HandleFunc("GET /federation/screening", fed(s.federationScreening))
	mux.HandleFunc("GET /federation/verification", fed(s.federationVerifications))
	mux.HandleFunc("GET /tournaments/{tid}/verification", in(s.tournamentVerification))
}
