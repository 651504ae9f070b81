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
	// Abandon: "", justified or unjustified (RULES §12.3: leaving during
	// a round being played).
	Abandon string
	Errs    fieldErrors
	// Sub is the substitution form as typed (UI.md §9), SubErrs its
	// errors; Subs the entrant's substitutions (RULES §12.4).
	Sub     substitutionForm
	SubErrs fieldErrors
	Subs    []domain.Substitution
}

type substitutionForm struct {
	FromRound, Out, InName, InMembership, Reason string
}

func (s *Server) entrantShow(w http.ResponseWriter, r *http.Request) {
	data := &entrantPage{Errs: fieldErrors{}, SubErrs: fieldErrors{}}
	if r.URL.Query().Get("substituted") != "" {
		data.Message = "secretary.substitution_saved"
	}
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
	subs, err := s.app.Substitutions(r.Context(), s.caller(r), d.Tournament.ID)
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	for _, sb := range subs {
		if sb.Entrant == id {
			data.Subs = append(data.Subs, sb)
		}
	}
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
	data := &entrantPage{Errs: fieldErrors{}, SubErrs: fieldErrors{}, From: strings.TrimSpace(r.PostForm.Get("withdrawn_from_round")), Reason: r.PostForm.Get("reason"), Abandon: r.PostForm.Get("abandon")}
	lang := langOf(r)
	n, err := strconv.Atoi(data.From)
	if err != nil {
		data.Errs["withdrawn_from_round"] = translate(lang, "secretary.whole_number")
	} else {
		_, err = s.app.WithdrawFromRound(r.Context(), s.caller(r), r.PathValue("tid"), r.PathValue("id"), n, data.Reason, data.Abandon)
		if fe, ok := invalidFields(lang, err, nil); ok {
			for k := range fe {
				if k == "abandon" {
					data.Errs[k] = translate(lang, "secretary.field.abandon")
					continue
				}
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

// entrantSubstitute takes the substitution form (UI.md §9: from_round,
// out, in.name, in.membership, reason) through the same operation as POST
// /v1/tournaments/{tid}/entrants/{id}/substitutions; a refusal names the
// field and cites the article (RULES §12.4).
func (s *Server) entrantSubstitute(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	f := substitutionForm{FromRound: strings.TrimSpace(r.PostForm.Get("from_round")), Out: r.PostForm.Get("out"),
		InName: r.PostForm.Get("in.name"), InMembership: r.PostForm.Get("in.membership"), Reason: r.PostForm.Get("reason")}
	data := &entrantPage{Errs: fieldErrors{}, SubErrs: fieldErrors{}, Sub: f}
	lang := langOf(r)
	n, err := strconv.Atoi(f.FromRound)
	if err != nil {
		data.SubErrs["from_round"] = translate(lang, "secretary.whole_number")
	} else {
		_, err = s.app.Substitute(r.Context(), s.caller(r), r.PathValue("tid"), r.PathValue("id"), domain.Substitution{
			FromRound: n, Out: f.Out, In: domain.Player{Name: f.InName, Membership: f.InMembership}, Reason: f.Reason})
		if fe, ok := invalidFields(lang, err, nil); ok {
			for k, detail := range fe {
				data.SubErrs[k] = translate(lang, "secretary.field.substitution") + " " + detail
			}
		} else if err != nil {
			s.operationFailed(w, r, err)
			return
		}
	}
	if len(data.SubErrs) > 0 {
		data.Error = "form.errors"
		s.renderEntrant(w, r, http.StatusUnprocessableEntity, data)
		return
	}
	seeOther(w, r, tournamentPath(r.PathValue("tid"))+"/entrants/"+r.PathValue("id")+"?substituted=1")
}
