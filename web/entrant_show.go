package web

import (
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
)

// An entrant's page (UI.md §9): the entrant, and for whoever may judge the
// tournament the withdrawal form (withdrawn_from_round, reason; RULES
// §12.3) that takes effect from the round it names.

type entrantPage struct {
	Page
	D       app.TournamentDetail
	Entrant domain.Entrant
	// Form as typed and its errors.
	From, Reason string
	Errs         fieldErrors
}

func (s *Server) entrantShow(w http.ResponseWriter, r *http.Request) {
	data := &entrantPage{Errs: fieldErrors{}}
	if r.URL.Query().Get("withdrawn") != "" {
		data.Message = "secretary.withdrawal_saved"
	}
	s.renderEntrant(w, r, http.StatusOK, data)
}

func (s *Server) renderEntrant(w http.ResponseWriter, r *http.Request, status int, data *entrantPage) {
	d, err := s.app.TournamentDetail(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	id := r.PathValue("id")
	found := false
	for _, e := range d.Entrants {
		if e.ID == id {
			data.Entrant, found = e, true
		}
	}
	if !found {
		s.renderError(w, r, http.StatusNotFound, "error.not_found")
		return
	}
	msg, errID := data.Message, data.Error
	data.Page = s.page(r, "secretary.entrant_title")
	data.Message, data.Error = msg, errID
	data.D = d
	if data.From == "" && data.Entrant.WithdrawnFromRound != nil {
		data.From, data.Reason = strconv.Itoa(*data.Entrant.WithdrawnFromRound), data.Entrant.WithdrawnReason
	}
	s.render(w, r, status, "entrant_show", data)
}

// entrantWithdraw takes the withdrawal form through the same operation as
// PATCH /v1/tournaments/{tid}/entrants/{id} {"withdrawn_from_round"}.
func (s *Server) entrantWithdraw(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	data := &entrantPage{Errs: fieldErrors{}, From: strings.TrimSpace(r.PostForm.Get("withdrawn_from_round")), Reason: r.PostForm.Get("reason")}
	lang := langOf(r)
	n, err := strconv.Atoi(data.From)
	if err != nil {
		data.Errs["withdrawn_from_round"] = translate(lang, "secretary.whole_number")
	} else {
		_, err = s.app.WithdrawFromRound(r.Context(), s.caller(r), r.PathValue("tid"), r.PathValue("id"), n, data.Reason)
		if fe, ok := invalidFields(lang, err, nil); ok {
			for k := range fe {
				data.Errs[k] = translate(lang, "secretary.field.withdrawn_from_round")
			}
		} else if err != nil {
			s.operationFailed(w, r, err)
			return
		}
	}
	if len(data.Errs) > 0 {
		data.Error = "form.errors"
		s.renderEntrant(w, r, http.StatusUnprocessableEntity, data)
		return
	}
	seeOther(w, r, tournamentPath(r.PathValue("tid"))+"/entrants/"+r.PathValue("id")+"?withdrawn=1")
}
