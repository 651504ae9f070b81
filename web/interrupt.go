package web

import (
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
)

// The referee's "interrupt the tournament" action (RULES §12.6, FITAB
// art. 39, issue 21 item 7): /tournaments/{tid}/interrupt asks after which
// completed round the tournament stopped and why; "anteprima" shows the
// ruling — valid with the standings after that round, or void — before
// it is applied, through the same operations as PATCH /v1/tournaments/{tid}
// {"interrupted_after_round", "reason"}.

type interruptPage struct {
	Page
	D app.TournamentDetail
	// After and Reason as typed; Errs their refusals.
	After, Reason string
	Errs          fieldErrors
	// Ruling is the preview, nil until asked.
	Ruling *domain.Interruption
}

func (s *Server) interruptShow(w http.ResponseWriter, r *http.Request) {
	k, err := s.app.CompletedRounds(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	s.renderInterrupt(w, r, http.StatusOK, &interruptPage{After: strconv.Itoa(k), Errs: fieldErrors{}})
}

func (s *Server) renderInterrupt(w http.ResponseWriter, r *http.Request, status int, data *interruptPage) {
	d, err := s.app.TournamentDetail(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	if !d.Access.Judge(d.Tournament) {
		s.renderError(w, r, http.StatusForbidden, "referee.forbidden")
		return
	}
	msg, errID := data.Message, data.Error
	data.Page = s.page(r, "referee.interrupt_title")
	data.Message, data.Error = msg, errID
	data.D = d
	s.render(w, r, status, "interrupt_show", data)
}

// interruptPreview shows the ruling (nothing written); interruptApply
// applies it.
func (s *Server) interruptPreview(w http.ResponseWriter, r *http.Request) {
	s.interruptPost(w, r, false)
}

func (s *Server) interruptApply(w http.ResponseWriter, r *http.Request) { s.interruptPost(w, r, true) }

func (s *Server) interruptPost(w http.ResponseWriter, r *http.Request, apply bool) {
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	data := &interruptPage{After: strings.TrimSpace(r.PostForm.Get("interrupted_after_round")), Reason: r.PostForm.Get("reason"), Errs: fieldErrors{}}
	lang := langOf(r)
	tid := r.PathValue("tid")
	k, convErr := strconv.Atoi(data.After)
	var err error
	if convErr != nil {
		data.Errs["interrupted_after_round"] = translate(lang, "secretary.whole_number")
	} else if apply {
		_, _, err = s.app.InterruptTournament(r.Context(), s.caller(r), tid, k, data.Reason)
	} else {
		var ruling domain.Interruption
		if ruling, err = s.app.PreviewInterruption(r.Context(), s.caller(r), tid, k, data.Reason); err == nil {
			data.Ruling = &ruling
		}
	}
	if fe, ok := invalidFields(lang, err, nil); ok {
		data.Errs = fe
	} else if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	if len(data.Errs) > 0 {
		data.Error = "form.errors"
		s.renderInterrupt(w, r, http.StatusUnprocessableEntity, data)
		return
	}
	if apply {
		seeOther(w, r, tournamentPath(tid))
		return
	}
	s.renderInterrupt(w, r, http.StatusOK, data)
}
