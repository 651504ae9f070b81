package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/messages"
)

// Shared by the secretary pages: turning an operation's refusal into a
// page, and its fields into the form fields they name (UI.md: the JSON
// pointer /hands/0/ns/total fills the field hands.0.ns.total).

// fieldErrors maps a form field name to the text shown next to it.
type fieldErrors map[string]string

// Has reports whether field has an error (templates: aria-invalid).
func (e fieldErrors) Has(field string) bool { _, ok := e[field]; return ok }

// fieldName is the form field a JSON pointer names.
func fieldName(pointer string) string {
	return strings.ReplaceAll(strings.TrimPrefix(pointer, "/"), "/", ".")
}

// invalidFields returns the fields of an operation's ErrInvalid refusal,
// each with its detail in lang (messages.M.OnPage; row: the list row of an
// index, nil for index + 1), and false for any other error.
func invalidFields(lang Lang, err error, row func(i int) int) (fieldErrors, bool) {
	var ae *app.Error
	if !errors.As(err, &ae) || !errors.Is(err, domain.ErrInvalid) || errors.Is(err, app.ErrBadParameter) {
		return nil, false
	}
	out := fieldErrors{}
	for _, f := range ae.Fields {
		name := fieldName(f.Pointer)
		if f.Pointer == "" {
			name = f.Parameter
		}
		detail := f.Msg.OnPage(row).In(lang)
		switch {
		case f.Msg.Key != "":
		case lang == domain.English:
			detail = f.Detail
		default:
			// Another package's English without a code: the page says
			// the field is wrong rather than show an English sentence.
			detail = messages.Text(lang, "form.invalid_value")
		}
		if prev, ok := out[name]; ok {
			out[name] = prev + "; " + detail
			continue
		}
		out[name] = detail
	}
	return out, true
}

// operationFailed renders the page for an operation's refusal that is not
// about form fields: not found (also what another club's tournament is),
// forbidden, conflicts, closed rounds, unavailable; anything else is a
// server error.
func (s *Server) operationFailed(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, domain.ErrNotFound), errors.Is(err, app.ErrBadParameter):
		s.notFound(w, r)
	case errors.Is(err, app.ErrForbidden):
		s.renderError(w, r, http.StatusForbidden, "error.forbidden")
	case errors.Is(err, app.ErrRoundClosed):
		s.renderError(w, r, http.StatusConflict, "secretary.round_closed")
	case errors.Is(err, app.ErrPrecondition), errors.Is(err, domain.ErrConflict):
		s.renderError(w, r, http.StatusConflict, "secretary.conflict")
	case errors.Is(err, domain.ErrInvalid):
		s.renderError(w, r, http.StatusUnprocessableEntity, "form.errors")
	case errors.Is(err, app.ErrUnavailable):
		s.renderError(w, r, http.StatusServiceUnavailable, "secretary.unavailable")
	default:
		s.serverError(w, r, err)
	}
}

// caller is the principal of a signed-in request (the routes require a
// session, so it is always there).
func (s *Server) caller(r *http.Request) app.Principal {
	p, _ := s.principal(r)
	return p
}

// pathInt reads a whole-number path value; false when it is not one.
func pathInt(r *http.Request, name string) (int, bool) {
	n, err := strconv.Atoi(r.PathValue(name))
	return n, err == nil && n > 0 && n <= 100000
}

// tournamentPath is the secretary's page of a tournament.
func tournamentPath(tid string, rest ...string) string {
	return "/tournaments/" + tid + strings.Join(rest, "")
}

// levelIDs, rulesetIDs, kindIDs: the API ids offered by the selects, in
// the order the forms show them.
var (
	levelIDs   = []string{"club", "provincial", "regional", "national", "event"}
	rulesetIDs = []string{"fitab-2025", "fitab-int", "fibur-ita", "fibur-int"}
	kindIDs    = []string{"pairs", "individual", "teams", "international"}
	phaseIDs   = []string{"mitchell", "danese", "danese_modificato", "italiana", "gironi"}
)

// isConflict: a conflict that is not a closed round.
func isConflict(err error) bool {
	return errors.Is(err, domain.ErrConflict) && !errors.Is(err, app.ErrRoundClosed)
}

// errNotFoundPath: a path value that cannot name anything.
var errNotFoundPath = &app.Error{Kind: domain.ErrNotFound, Detail: "no such page"}
