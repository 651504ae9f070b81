package web

import (
	"net/http"

	"segnapunti/domain"
)

// pairingCheckPage is /tournaments/{tid}/check: every round of a
// tournament re-derived from the records and held against its system
// (RULES §11; the same check as GET …/rounds/{n}/check and `segnapunti
// pairings check`), for the federation's desk and the referee.
type pairingCheckPage struct {
	Page
	Tournament domain.Tournament
	Rounds     []roundCheckView
}

type roundCheckView struct {
	Number   int
	System   string
	OK       bool
	Problems []pairingProblemView
	// Unavailable: the round cannot be checked (e.g. an individual
	// tournament); Reason says why.
	Unavailable bool
	Reason      string
}

type pairingProblemView struct {
	Table         int
	Code, Message string
	Rule          string
}

func (s *Server) pairingCheckShow(w http.ResponseWriter, r *http.Request) {
	p, _ := s.principal(r)
	ctx := r.Context()
	tid := r.PathValue("tid")
	d, err := s.app.TournamentDetail(ctx, p, tid)
	if err != nil {
		s.refereeFail(w, r, err)
		return
	}
	data := pairingCheckPage{Page: s.page(r, "referee.check_title"), Tournament: d.Tournament}
	for _, rd := range d.Rounds {
		v := roundCheckView{Number: rd.Number}
		chk, err := s.app.CheckRound(ctx, p, tid, rd.Number)
		if err != nil {
			v.Unavailable, v.Reason = true, err.Error()
		} else {
			v.System, v.OK = string(chk.System), chk.OK
			for _, pr := range chk.Problems {
				v.Problems = append(v.Problems, pairingProblemView{Table: pr.Table, Code: string(pr.Code), Message: pr.Message(data.Lang), Rule: pr.Rule})
			}
		}
		data.Rounds = append(data.Rounds, v)
	}
	s.render(w, r, http.StatusOK, "pairing_check", &data)
}
