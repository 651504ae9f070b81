package web

import (
	"fmt"
	"net/http"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
)

// tournamentPage is a tournament: entrants, rounds, referees, links, and
// the next step made obvious.
type tournamentPage struct {
	Page
	D app.TournamentDetail
	// Next is the next step: a message id, its argument and where to go.
	Next      nextStep
	NextRound int
	RefName   string
	RefErr    string
}

type nextStep struct {
	Msg  string
	Arg  any
	Href string
}

// nextStepOf says what the secretary does next with a tournament.
func nextStepOf(d app.TournamentDetail) nextStep {
	tid := d.Tournament.ID
	if len(d.Entrants) == 0 {
		return nextStep{Msg: "secretary.next.entrants", Href: tournamentPath(tid, "/entrants")}
	}
	if len(d.Rounds) == 0 {
		return nextStep{Msg: "secretary.next.round", Arg: 1, Href: tournamentPath(tid, "/rounds/new")}
	}
	last := d.Rounds[len(d.Rounds)-1]
	switch {
	case last.State == domain.RoundPlaying:
		return nextStep{Msg: "secretary.next.sheets", Arg: last.Number, Href: tournamentPath(tid, fmt.Sprintf("/rounds/%d", last.Number))}
	case last.State == domain.RoundSheetsDelivered:
		return nextStep{Msg: "secretary.next.publish", Arg: last.Number, Href: tournamentPath(tid, fmt.Sprintf("/rounds/%d", last.Number))}
	case last.Number < d.Tournament.RoundsPlanned:
		return nextStep{Msg: "secretary.next.round", Arg: last.Number + 1, Href: tournamentPath(tid, "/rounds/new")}
	}
	return nextStep{Msg: "secretary.next.done", Href: tournamentPath(tid, "/standings")}
}

func (s *Server) tournamentShow(w http.ResponseWriter, r *http.Request) {
	s.renderTournament(w, r, http.StatusOK, "", "", "")
}

func (s *Server) renderTournament(w http.ResponseWriter, r *http.Request, status int, refName, refErr, message string) {
	d, err := s.app.TournamentDetail(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	data := tournamentPage{Page: s.page(r, "secretary.tournament_title"), D: d, Next: nextStepOf(d), NextRound: len(d.Rounds) + 1, RefName: refName, RefErr: refErr}
	data.Message = message
	if refErr != "" {
		data.Error = "form.errors"
	}
	s.render(w, r, status, "tournament_show", &data)
}

// refereeAssign names a referee of the tournament (API PUT …/referees/{name}).
func (s *Server) refereeAssign(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	err := s.app.AssignReferee(r.Context(), s.caller(r), r.PathValue("tid"), name)
	if fe, ok := invalidFields(langOf(r), err, nil); ok || name == "" {
		_ = fe
		s.renderTournament(w, r, http.StatusUnprocessableEntity, name, translate(langOf(r), "secretary.referee_invalid"), "")
		return
	} else if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	seeOther(w, r, tournamentPath(r.PathValue("tid"))+"?assigned=1")
}
