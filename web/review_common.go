package web

import (
	"errors"
	"net/http"
	"strconv"

	"segnapunti/app"
	"segnapunti/domain"
)

// Shared by the referee's pages: turning an operation's refusal into a
// page, and reading numbers from paths.

// refereeFail shows the page for an app refusal: 404 for what the caller
// may not read, 403 for what it may not do, 409 for a state conflict,
// 400 for a bad path value.
func (s *Server) refereeFail(w http.ResponseWriter, r *http.Request, err error) {
	var ae *app.Error
	switch {
	case errors.Is(err, domain.ErrNotFound):
		s.notFound(w, r)
	case errors.Is(err, app.ErrForbidden):
		s.renderError(w, r, http.StatusForbidden, "referee.forbidden")
	case errors.Is(err, app.ErrRoundClosed), errors.Is(err, domain.ErrConflict):
		s.renderError(w, r, http.StatusConflict, "referee.conflict")
	case errors.Is(err, app.ErrUnavailable):
		s.renderError(w, r, http.StatusServiceUnavailable, "referee.unavailable")
	case errors.As(err, &ae):
		s.renderError(w, r, http.StatusBadRequest, "referee.bad_request")
	default:
		s.serverError(w, r, err)
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
}

func findingViews(list []domain.Finding, lang Lang) []findingView {
	out := make([]findingView, 0, len(list))
	for _, f := range list {
		out = append(out, findingView{Code: string(f.Code), Severity: string(f.Severity), Message: f.Message(lang), Rule: f.Rule, Field: fieldName(f.Pointer)})
	}
	return out
}
