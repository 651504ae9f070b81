package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/web/form"
)

// adjustmentCreate is POST /tournaments/{tid}/adjustments: one
// app.CreateAdjustment with the caller; field errors go back next to the
// inputs, a success to the list with the new adjustment's effect.
func (s *Server) adjustmentCreate(w http.ResponseWriter, r *http.Request) {
	f, errs, err := form.ParseAdjustment(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	tid := r.PathValue("tid")
	if !errs.Any() {
		p, _ := s.principal(r)
		var adj, aerr = s.app.CreateAdjustment(r.Context(), p, tid, app.AdjustmentInput{
			Entrant: f.Entrant, Round: f.Round, Reason: f.Reason, Note: f.Note, VP: f.VP, MP: f.MP})
		if aerr == nil {
			id := strconv.FormatInt(adj.ID, 10)
			seeOther(w, r, "/tournaments/"+url.PathEscape(tid)+"/adjustments?created="+id+"#adjustment-"+id)
			return
		}
		err = aerr
	}
	var ae *app.Error
	status := http.StatusUnprocessableEntity
	switch {
	case errs.Any():
	case errors.Is(err, domain.ErrInvalid) && errors.As(err, &ae) && !errors.Is(err, app.ErrBadParameter):
	case errors.Is(err, domain.ErrConflict) && errors.As(err, &ae):
		status = http.StatusConflict
	default:
		s.refereeFail(w, r, err)
		return
	}
	data, ok := s.adjustmentsData(w, r)
	if !ok {
		return
	}
	if !data.Desk.CanJudge { // refused above already; never a form for who may not adjust
		s.renderError(w, r, http.StatusForbidden, "referee.forbidden")
		return
	}
	data.Form, data.Errs = f, errs
	if ae != nil {
		if status == http.StatusConflict {
			data.Errs["round"], data.Detail["round"] = "adjust.err_conflict", refusalDetail(langOf(r), ae)
		}
		for _, fe := range ae.Fields {
			name := strings.TrimPrefix(fe.Pointer, "/")
			if _, ok := adjustFieldMessage[name]; !ok { // party, played, at_interruption, or the rule itself
				name = "reason"
			}
			if _, seen := data.Errs[name]; !seen {
				data.Errs[name] = adjustFieldMessage[name]
			}
			if name != "reason" {
				continue // the field's message says it all in the page's language
			}
			detail := fieldRefusalDetail(langOf(r), fe) // the rule's explanation (it cites the article)
			if detail == "" {
				continue
			}
			if data.Detail[name] != "" {
				data.Detail[name] += "; "
			}
			data.Detail[name] += detail
		}
	}
	data.Error = "adjust.not_saved"
	s.render(w, r, status, "adjustments", &data)
}

// adjustFieldMessage is the message of each form field the operation may
// refuse.
var adjustFieldMessage = map[string]string{
	"entrant": "adjust.err_entrant",
	"round":   "adjust.err_round",
	"reason":  "adjust.err_reason",
	"note":    "adjust.err_note",
	"vp":      "adjust.err_vp",
	"mp":      "adjust.err_mp",
}
