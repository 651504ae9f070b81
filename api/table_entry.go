package api

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/httperr"
	"segnapunti/messages"
)

// Table entry (API §4.2, UI.md §6): entry links per table, the lines'
// signatures, and the table code as a bearer token good for exactly its
// table's hands, sheet and signature.

// tableCodeRoutes are the routes a table code may call (gin's full paths).
var tableCodeRoutes = map[string]bool{
	"/v1/tournaments/:tid/rounds/:n/tables/:t/sheet/hands":   true,
	"/v1/tournaments/:tid/rounds/:n/tables/:t/sheet":         true,
	"/v1/tournaments/:tid/rounds/:n/tables/:t/sheet/confirm": true,
	// Issue 22: the scoring line fixes its last hand (api/table_fix.go).
	"/v1/tournaments/:tid/rounds/:n/tables/:t/sheet/hands/:h": true,
}

// authenticateTableCode tries a bearer token that is no API token as a
// table code. It answers the request itself (and returns false) when the
// address has sent too many wrong codes, or the code is dead or unknown.
func (s *server) authenticateTableCode(c *gin.Context, token string) (app.Principal, bool) {
	p, state, err := s.app.TableEntryFrom(c.Request.Context(), c.RemoteIP(), token)
	var th *app.Throttled
	switch {
	case errors.As(err, &th):
		c.Header("Retry-After", strconv.Itoa(int(th.RetryAfter.Round(time.Second)/time.Second)+1))
		s.fail(c, &apiError{status: httperr.Throttled.API, typ: httperr.Throttled.Type(), detail: th.Error()})
		return p, false
	case err != nil:
		s.fail(c, err)
		return p, false
	case state == app.LinkRevoked || state == app.LinkDelivered:
		detail := messages.New("api.code_replaced")
		if state == app.LinkDelivered {
			detail = messages.New("api.code_delivered")
		}
		c.Header("WWW-Authenticate", `Bearer realm="segnapunti", error="invalid_token"`)
		s.fail(c, &apiError{status: http.StatusUnauthorized, typ: typeUnauthorized, msg: detail})
		return p, false
	case state != app.LinkLive:
		c.Header("WWW-Authenticate", `Bearer realm="segnapunti", error="invalid_token"`)
		s.fail(c, &apiError{status: http.StatusUnauthorized, typ: typeUnauthorized, msg: messages.New("api.token_invalid")})
		return p, false
	}
	if !tableCodeRoutes[c.FullPath()] {
		c.Header("WWW-Authenticate", `Bearer realm="segnapunti", error="invalid_token"`)
		s.fail(c, &apiError{status: http.StatusUnauthorized, typ: typeUnauthorized,
			msg: messages.New("api.code_scope")})
		return p, false
	}
	return p, true
}

type entryLinkResponse struct {
	URL   string `json:"url"`
	Code  string `json:"code"`
	Short string `json:"short"`
}

// issueEntryLink: POST …/rounds/{n}/tables/{t}/entry-link.
func (s *server) issueEntryLink(c *gin.Context) {
	round, table, err := tableParams(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	links, err := s.app.IssueEntryLinks(c.Request.Context(), mustPrincipal(c), c.Param("tid"), round, []int{table})
	if err != nil {
		s.fail(c, err)
		return
	}
	l := links[0]
	c.Header("Cache-Control", "no-store")
	created201(c, l.URL, entryLinkResponse{URL: l.URL, Code: l.Code, Short: l.Short})
}

type confirmRequest struct {
	Line    string `json:"line"`
	Entrant string `json:"entrant"`
}

type confirmationJSON struct {
	Line    string `json:"line"`
	Entrant string `json:"entrant"`
	At      string `json:"at"`
	// Kind: "end" (the scorer's line) or "confirm"; SignedBy: the line
	// whose own signature stored it (the other line when a confirmation
	// alone ended the sheet: then At is that confirmation's time).
	Kind     string `json:"kind"`
	SignedBy string `json:"signed_by"`
}

type confirmResponse struct {
	Confirmations []confirmationJSON `json:"confirmations"`
	Delivered     bool               `json:"delivered"`
}

func toConfirmationsJSON(list []app.Confirmation) []confirmationJSON {
	out := make([]confirmationJSON, len(list))
	for i, c := range list {
		out[i] = confirmationJSON{Line: c.Line.String(), Entrant: c.Entrant, At: c.At.UTC().Format(time.RFC3339), Kind: string(c.Kind), SignedBy: c.SignedBy.String()}
	}
	return out
}

// confirmSheet: POST …/sheet/confirm — the other line's confirmation
// ends and delivers the sheet (API §4.2).
func (s *server) confirmSheet(c *gin.Context) {
	round, table, err := tableParams(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	body, err := readBody(c, s.cfg.MaxBodyBytes)
	if err != nil {
		s.fail(c, err)
		return
	}
	var req confirmRequest
	if err := decodeBody(body, &req); err != nil {
		s.fail(c, err)
		return
	}
	var missing []fieldError
	if req.Line == "" {
		missing = append(missing, fieldAt("/line", "field.line_required"))
	}
	if req.Entrant == "" {
		missing = append(missing, fieldMsg(fieldError{Pointer: "/entrant"}, messages.New("api.entrant_required")))
	}
	if len(missing) > 0 {
		s.fail(c, &apiError{status: http.StatusUnprocessableEntity, typ: typeInvalid, msg: messages.New("api.missing_fields", len(missing)), errors: missing})
		return
	}
	res, err := s.app.ConfirmSheet(c.Request.Context(), mustPrincipal(c), c.Param("tid"), round, table, req.Line, req.Entrant)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, confirmResponse{Confirmations: toConfirmationsJSON(res.Confirmations), Delivered: res.Delivered})
}
