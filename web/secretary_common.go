package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/httperr"
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
// about form fields, with the status of its kind in the one table of both
// doors (package httperr): not found (also what another club's tournament
// is, and an address whose values name nothing), forbidden, conflicts,
// closed rounds; a failure the person cannot fix (the database out of
// reach or full, anything else) is serverError's.
func (s *Server) operationFailed(w http.ResponseWriter, r *http.Request, err error) {
	k := httperr.Of(err)
	switch text := secretaryText(k, err); {
	case k == httperr.NotFound || k == httperr.BadParameter:
		s.notFound(w, r)
	case text != "":
		s.renderError(w, r, k.Page, text)
	default:
		s.serverError(w, r, err)
	}
}

// refused is operationFailed with a page's own message for some kinds
// (own), the status still the kind's.
func (s *Server) refused(w http.ResponseWriter, r *http.Request, err error, own map[*httperr.Kind]string) {
	k := httperr.Of(err)
	if text, ok := own[k]; ok {
		s.renderError(w, r, k.Page, text)
		return
	}
	s.operationFailed(w, r, err)
}

// secretaryText is the message of the secretary's page for a refusal of
// kind k; "" for the kinds serverError shows.
func secretaryText(k *httperr.Kind, err error) string {
	switch k {
	case httperr.Forbidden:
		return "error.forbidden"
	case httperr.RoundClosed:
		return "secretary.round_closed"
	case httperr.Precondition, httperr.Conflict:
		return "secretary.conflict"
	case httperr.Invalid, httperr.UnreadableWorkbook, httperr.ImportMismatch:
		return "form.errors"
	case httperr.TooLarge:
		if errors.Is(err, app.ErrWorkbookTooLarge) {
			return "secretary.import_too_large"
		}
		return "secretary.too_large"
	case httperr.Busy:
		return "secretary.import_busy"
	case httperr.Throttled:
		return "table.throttled"
	}
	return ""
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
