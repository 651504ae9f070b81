package api

import (
	"errors"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
)

// Fix before confirming through the API (issue 22, as the table page's
// edit-hand and remove-hand): the scoring line changes or removes the
// sheet's last hand until the other line confirms.
//
//	PUT    …/tables/{t}/sheet/hands/{h}  {"line": "ns", "entrant": "1", "hand": {…}}
//	DELETE …/tables/{t}/sheet/hands/{h}?line=ns&entrant=1
//
// h is the hand's number (1-based) and must be the last; If-Match names the
// sheet's version (optional). 200 with the hands, report and version; 409
// when the sheet is confirmed (only the referee corrects it) or the line
// is not the one that ended it (FIX_NOT_SCORING_LINE); 422 for an entrant
// number not of that line or a bad hand.

// fixHandRequest is the body of PUT …/sheet/hands/{h}.
type fixHandRequest struct {
	Line    string `json:"line"`
	Entrant string `json:"entrant"`
}

// fixHandResponse is the sheet after the change.
type fixHandResponse struct {
	handsResponse
	// Reopened: the scoring line's end signature was dropped; it ends the
	// sheet again.
	Reopened bool `json:"reopened"`
}

// handIndex is the path's hand number {h} as the 0-based index (the
// round and the table are the scope's: sheetScope).
func handIndex(c *gin.Context) (int, error) {
	h, err := pathNumber(c, "h", app.MaxHands)
	return h - 1, err
}

// editHand: PUT …/sheet/hands/{h}.
func (s *server) editHand(c *gin.Context) {
	scope := sheetScopeOf(c) // resolved first: s.sheetScope(app.SheetWrite)
	index, err := handIndex(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	lang, err := langOnly(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	version, err := ifMatch(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	body, err := readBody(c, s.cfg.MaxBodyBytes)
	if err != nil {
		s.fail(c, err)
		return
	}
	root, err := parseJSON(body)
	if err != nil {
		s.fail(c, err)
		return
	}
	if root.kind != jsonObject {
		s.fail(c, invalidFields([]fieldError{fieldAt("", "api.fix_object", root.kind.msg())}))
		return
	}
	hand := root.field("hand")
	root.remove("hand")
	var req fixHandRequest
	if err := bindJSON(root, &req); err != nil {
		s.fail(c, err)
		return
	}
	if hand == nil {
		s.fail(c, invalidFields([]fieldError{fieldAt("/hand", "api.fix_hand")}))
		return
	}
	h, err := decodeHand(hand.appendJSON(nil), scope.SheetTarget)
	var ae *apiError
	if errors.As(err, &ae) { // the hand's pointers are the body's under /hand
		for i := range ae.errors {
			if ae.errors[i].Parameter == "" && ae.errors[i].Header == "" {
				ae.errors[i].Pointer = "/hand" + ae.errors[i].Pointer
			}
		}
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	res, err := s.app.FixLastHandAs(c.Request.Context(), scope, index, req.Line, req.Entrant, &h, max(version, 0))
	s.fixAnswer(c, res, err, lang)
}

// removeHand: DELETE …/sheet/hands/{h}?line=…&entrant=….
func (s *server) removeHand(c *gin.Context) {
	scope := sheetScopeOf(c) // resolved first: s.sheetScope(app.SheetWrite)
	index, err := handIndex(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	q := c.Request.URL.Query()
	if err := onlyParams(q, "lang", "line", "entrant"); err != nil {
		s.fail(c, err)
		return
	}
	lang := headerLang(c.GetHeader("Accept-Language"))
	if q.Has("lang") {
		if lang, err = langParam(q); err != nil {
			s.fail(c, err)
			return
		}
	}
	version, err := ifMatch(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	res, err := s.app.FixLastHandAs(c.Request.Context(), scope, index, q.Get("line"), q.Get("entrant"), nil, max(version, 0))
	var ae *app.Error
	if errors.As(err, &ae) && errors.Is(err, domain.ErrInvalid) { // line and entrant are query parameters here
		for i, f := range ae.Fields {
			if f.Pointer == "/line" || f.Pointer == "/entrant" {
				ae.Fields[i].Parameter, ae.Fields[i].Pointer = f.Pointer[1:], ""
			}
		}
	}
	s.fixAnswer(c, res, err, lang)
}

// fixAnswer answers a change of the last hand: the sheet, or the refusal
// (a hand that is not the last is named as the path's {h}).
func (s *server) fixAnswer(c *gin.Context, res app.FixResult, err error, lang domain.Lang) {
	var ae *app.Error
	if errors.As(err, &ae) {
		for i, f := range ae.Fields {
			if f.Pointer == "/index" {
				ae.Fields[i].Parameter, ae.Fields[i].Pointer = "h", ""
			}
		}
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	report, err := marshalReport(res.Sheet, lang)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("ETag", etag(res.Version))
	c.Header("Location", sheetPath(res.Target))
	ok200(c, fixHandResponse{handsResponse: handsResponse{Hands: len(res.Sheet.Hands), Report: report, Version: res.Version}, Reopened: res.Reopened})
}
