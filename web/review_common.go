package web

import (
	"net/http"
	"strconv"

	"segnapunti/domain"
	"segnapunti/httperr"
)

// Shared by the referee's pages: turning an operation's refusal into a
// page, and reading numbers from paths.

// refereeFail shows the page for an app refusal, with the status of its
// kind in the one table of both doors (package httperr): 404 for what the
// caller may not read, 403 for what it may not do, 409 for a state
// conflict. The referee's pages answer any refused value (a bad path
// value, a wrong field) with one "invalid request" page, 400: their forms
// show the fields they name before they come here. Any other kind is
// answered as on the secretary's pages.
func (s *Server) refereeFail(w http.ResponseWriter, r *http.Request, err error) {
	switch k := httperr.Of(err); k {
	case httperr.NotFound:
		s.notFound(w, r)
	case httperr.Forbidden:
		s.renderError(w, r, k.Page, "referee.forbidden")
	case httperr.RoundClosed, httperr.Conflict, httperr.Precondition:
		s.renderError(w, r, k.Page, "referee.conflict")
	case httperr.Unavailable:
		s.renderError(w, r, k.Page, "referee.unavailable")
	case httperr.Invalid, httperr.BadParameter, httperr.UnreadableWorkbook, httperr.ImportMismatch, httperr.TooLarge:
		s.renderError(w, r, http.StatusBadRequest, "referee.bad_request")
	default:
		s.operationFailed(w, r, err)
	}
}

// pathNumber reads a whole-number path value; ok false when it is not one.
func pathNumber(r *http.Request, name string) (int, bool) {
	n, err := strconv.Atoi(r.PathValue(name))
	return n, err == nil && n >= 1 && n <= 100000
}

// findingView is a finding as the referee's pages show it.
type findingView struct {
	Code, Severity, Message, Rule, Field string
	SevLabel                             string // the severity's word (referee.sev_*)
}

func findingViews(list []domain.Finding, lang Lang) []findingView {
	out := make([]findingView, 0, len(list))
	for _, f := range list {
		out = append(out, findingView{Code: string(f.Code), Severity: string(f.Severity), Message: f.Message(lang), Rule: f.Rule, Field: fieldName(f.Pointer),
			SevLabel: translate(lang, "referee.sev_"+string(f.Severity))})
	}
	return out
}
