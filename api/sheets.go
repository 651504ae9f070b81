package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/importers/sheetjson"
	"segnapunti/messages"
)

// Stored sheets: whole (PUT), hand by hand (POST .../hands), read back
// (GET) — API §4, §4.1.

// sheetPath is the URL of the sheet of a target.
func sheetPath(g app.SheetTarget) string {
	return roundPath(g.Tournament.ID, g.Round.Number) + "/tables/" + strconv.Itoa(g.Table.Table) + "/sheet"
}

// tableParams reads the round and table numbers of the path.
func tableParams(c *gin.Context) (round, table int, err error) {
	if round, err = pathNumber(c, "n", maxRoundsPlanned); err != nil {
		return 0, 0, err
	}
	if table, err = pathNumber(c, "t", maxTables); err != nil {
		return 0, 0, err
	}
	return round, table, nil
}

// sheetDefaults are the fields API §4.1 lets a client leave out — ruleset,
// hands_planned, ns.id, eo.id — and those the service knows anyway (kind,
// a pinned vp_table, round, table), for the decoder to fill in while it
// reads the body (sheetjson.DecodeSheet: absent or null takes the
// default; a field that is given is checked afterwards by
// app.CheckSheetAgrees).
func sheetDefaults(g app.SheetTarget) sheetjson.Defaults {
	t := g.Tournament
	d := sheetjson.Defaults{
		Ruleset: new(string(t.Ruleset)), HandsPlanned: new(g.Round.HandsPlanned), Kind: new(string(t.Kind)),
		Round: new(g.Round.Number), Table: new(g.Table.Table),
		IDs: [2]*string{new(g.Table.NS), new(g.Table.EO)},
	}
	if !t.VPTable.IsZero() {
		d.VPTable = new(t.VPTable.ID())
	}
	// A line is named by "id" (one entrant) or, at a table of an
	// individual tournament, by "ids" (its two players: API §4.2).
	for _, l := range domain.Lines {
		if want := g.Side(l); want.IDs != nil {
			d.IDs[l], d.LineIDs[l] = nil, want.IDs
		}
	}
	return d
}

type sheetResponse struct {
	Sheet   json.RawMessage `json:"sheet"`
	Report  json.RawMessage `json:"report"`
	Version int             `json:"version"`
}

// storedSheetResponse is what GET answers: the sheet with its history.
type storedSheetResponse struct {
	Sheet       json.RawMessage   `json:"sheet"`
	Report      json.RawMessage   `json:"report"`
	Version     int               `json:"version"`
	UpdatedAt   *string           `json:"updated_at,omitempty"`
	Corrections []json.RawMessage `json:"corrections"`
	// Confirmations: the lines' signatures (table_entry.go).
	Confirmations []confirmationJSON `json:"confirmations"`
	// History: the earlier versions, newest first (api/imports_undo.go).
	History []sheetVersionJSON `json:"history"`
}

type handsResponse struct {
	Hands   int             `json:"hands"`
	Report  json.RawMessage `json:"report"`
	Version int             `json:"version"`
}

// etag is a sheet version as an entity tag (RFC 9110 §8.8.3).
func etag(version int) string { return `"` + strconv.Itoa(version) + `"` }

// ifMatch reads If-Match (RFC 9110 §13.1.1): absent is 0 (create or
// replace unconditionally, as the store's PutSheet), "*" is -1 (the sheet
// must exist), a strong tag "N" is N. A header that is not a list of
// entity tags is a 400. Well-formed tags that cannot be a version of ours
// ("stale-0", "0", a weak W/"3": If-Match compares strongly) never match:
// the precondition fails, a 412. A list naming two of our versions cannot
// be checked in one write and is a 400.
func ifMatch(c *gin.Context) (int, error) {
	h := strings.TrimSpace(c.GetHeader("If-Match"))
	if h == "" {
		return 0, nil
	}
	if h == "*" {
		return -1, nil
	}
	bad := &apiError{status: http.StatusBadRequest, typ: typeMalformed,
		msg:    messages.New("api.if_match_syntax"),
		errors: []fieldError{fieldMsg(fieldError{Header: "If-Match"}, messages.New("api.if_match_want"))}}
	tags, ok := parseETags(h)
	if !ok {
		return 0, bad
	}
	version := 0
	for _, t := range tags {
		if t.weak {
			continue
		}
		v, err := strconv.Atoi(t.opaque)
		if err != nil || v < 1 || strconv.Itoa(v) != t.opaque {
			continue
		}
		if version != 0 {
			return 0, bad
		}
		version = v
	}
	if version == 0 {
		return 0, app.Stale(1)
	}
	return version, nil
}

// entityTag is one entity tag of a header (RFC 9110 §8.8.3).
type entityTag struct {
	weak   bool
	opaque string // between the quotes
}

// parseETags reads a comma-separated list of entity tags:
// [W/] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E / obs-text.
func parseETags(h string) ([]entityTag, bool) {
	var out []entityTag
	for part := range strings.SplitSeq(h, ",") {
		p := strings.Trim(part, " \t")
		var t entityTag
		if rest, ok := strings.CutPrefix(p, "W/"); ok {
			t.weak, p = true, rest
		}
		if len(p) < 2 || p[0] != '"' || p[len(p)-1] != '"' {
			return nil, false
		}
		t.opaque = p[1 : len(p)-1]
		for i := 0; i < len(t.opaque); i++ {
			if b := t.opaque[i]; b != 0x21 && (b < 0x23 || b == 0x7f) {
				return nil, false
			}
		}
		out = append(out, t)
	}
	return out, len(out) > 0
}

// marshalReport renders a report in the request's language.
func marshalReport(sh domain.Sheet, lang domain.Lang) ([]byte, error) {
	b, err := reportjson.Marshal(domain.Validate(sh), lang)
	if err != nil {
		return nil, fmt.Errorf("encode report: %w", err)
	}
	return b, nil
}

// putSheet: PUT .../rounds/{n}/tables/{t}/sheet enters or replaces a
// whole sheet and answers it with its report and version.
func (s *server) putSheet(c *gin.Context) {
	scope := sheetScopeOf(c) // resolved first: s.sheetScope(app.SheetReplace)
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
	// The body is read once the caller is known to manage the
	// tournament: a refused caller's body is never decoded.
	sh, err := s.readSheet(c, scope.SheetTarget)
	if err != nil {
		s.fail(c, err)
		return
	}
	res, err := s.app.PutSheet(c.Request.Context(), scope, sh, version)
	if err != nil {
		s.fail(c, err)
		return
	}
	report, err := reportjson.Marshal(res.Report, lang)
	if err != nil {
		s.fail(c, fmt.Errorf("encode report: %w", err))
		return
	}
	sheetJSON, err := sheetjson.Encode(res.Sheet)
	if err != nil {
		s.fail(c, fmt.Errorf("encode sheet: %w", err))
		return
	}
	b, _ := marshalJSON(sheetResponse{Sheet: sheetJSON, Report: report, Version: res.Version})
	c.Header("ETag", etag(res.Version))
	status := http.StatusOK
	if res.Created {
		status = http.StatusCreated
		c.Header("Location", sheetPath(res.Target))
	}
	writeJSON(c, status, b)
}

// readSheet reads the body of a PUT as the sheet of table g: one parse,
// the decoder filling in the defaults.
func (s *server) readSheet(c *gin.Context, g app.SheetTarget) (domain.Sheet, error) {
	body, err := readBody(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return domain.Sheet{}, err
	}
	sh, err := sheetjson.DecodeSheet(body, sheetDefaults(g))
	if err == nil {
		return sh, nil
	}
	// A refused body is read again as the route read it before (a
	// generic JSON parse first, its bounds and wording): the same
	// answer for the same bad body, at no cost to a good one.
	root, perr := parseJSON(body)
	if perr != nil {
		return domain.Sheet{}, perr
	}
	if root.kind == jsonObject && root.field("sheets") != nil {
		return domain.Sheet{}, invalidFields([]fieldError{fieldAt("/sheets", "api.one_sheet")})
	}
	return domain.Sheet{}, syntaxAs400(err)
}

// maxIdempotencyKey bounds the Idempotency-Key header.
const maxIdempotencyKey = 255

// appendHand: POST .../sheet/hands adds the next hand (hand-by-hand entry).
// With an Idempotency-Key, a retried request adds the hand once and answers
// as the first time (with Idempotent-Replayed: true).
func (s *server) appendHand(c *gin.Context) {
	scope := sheetScopeOf(c) // resolved first: s.sheetScope(app.SheetWrite)
	lang, err := langOnly(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	key := c.GetHeader("Idempotency-Key")
	if len(key) > maxIdempotencyKey || strings.ContainsFunc(key, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
		s.fail(c, errMalformed(messages.New("api.idem_key", maxIdempotencyKey),
			fieldMsg(fieldError{Header: "Idempotency-Key"}, messages.New("api.idem_key_field"))))
		return
	}
	body, err := readBody(c, s.cfg.MaxBodyBytes)
	if err != nil {
		s.fail(c, err)
		return
	}
	h, err := decodeHand(body, scope.SheetTarget)
	if err != nil {
		s.fail(c, err)
		return
	}
	res, err := s.app.AppendHand(c.Request.Context(), scope, h, key)
	if errors.Is(err, app.ErrIdempotencyReused) {
		e := errInvalid(messages.New("api.idem_reused"), fieldMsg(fieldError{Header: "Idempotency-Key"}, messages.New("api.idem_reused_field")))
		e.cause = err
		s.fail(c, e)
		return
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	st := res.Stored
	report := st.ReportJSON
	if lang != domain.English {
		if report, err = marshalReport(st.Sheet, lang); err != nil {
			s.fail(c, err)
			return
		}
	}
	b, _ := marshalJSON(handsResponse{Hands: len(st.Sheet.Hands), Report: report, Version: st.Version})
	c.Header("ETag", etag(st.Version))
	c.Header("Location", sheetPath(res.Target))
	if res.Replayed {
		c.Header("Idempotent-Replayed", "true")
	}
	writeJSON(c, http.StatusCreated, b)
}

// decodeHand reads one hand of API §1 through the sheet decoder, so that a
// hand is held to exactly the rules of a hand inside a sheet: it is put in
// a one-hand sheet of the tournament, and the decoder's pointers are taken
// back to the hand ("/hands/0/ns/base" → "/ns/base").
func decodeHand(body []byte, g app.SheetTarget) (domain.Hand, error) {
	hand, err := parseJSON(body)
	if err != nil {
		return domain.Hand{}, err
	}
	if hand.kind != jsonObject {
		return domain.Hand{}, invalidFields([]fieldError{fieldMsg(fieldError{}, messages.New("api.want_hand", hand.kind.msg()))})
	}
	wrap := jsonObjectValue()
	wrap.set("ruleset", jsonStringValue(string(g.Tournament.Ruleset)))
	wrap.set("hands_planned", jsonIntValue(g.Round.HandsPlanned))
	wrap.set("hands", &jsonValue{kind: jsonArray, items: []*jsonValue{hand}})
	sheets, _, err := sheetjson.Decode(wrap.appendJSON(nil))
	var se *sheetjson.Error
	if errors.As(err, &se) {
		ptr := se.Pointer
		if rest, ok := strings.CutPrefix(ptr, "/hands/0"); ok {
			ptr = rest
		}
		return domain.Hand{}, sheetInvalid(ptr, se)
	}
	if err != nil {
		return domain.Hand{}, err
	}
	return sheets[0].Hands[0], nil
}

// getSheet: GET .../sheet answers the sheet, its report (computed now, in
// the request's language), its version as ETag, and its correction history
// (RULES §9, oldest first).
func (s *server) getSheet(c *gin.Context) {
	round, table, err := tableParams(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	lang, err := langOnly(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	v, err := s.app.Sheet(c.Request.Context(), mustPrincipal(c), c.Param("tid"), round, table)
	if err != nil {
		s.fail(c, err)
		return
	}
	st := v.Stored
	tag := etag(st.Version)
	c.Header("ETag", tag)
	if inm := c.GetHeader("If-None-Match"); inm != "" && etagListHas(inm, tag) {
		c.Status(http.StatusNotModified)
		return
	}
	report, err := marshalReport(st.Sheet, lang)
	if err != nil {
		s.fail(c, err)
		return
	}
	sheetJSON, err := sheetjson.Encode(st.Sheet)
	if err != nil {
		s.fail(c, fmt.Errorf("encode sheet: %w", err))
		return
	}
	history := make([]json.RawMessage, 0, len(v.Corrections))
	for _, rec := range v.Corrections {
		b, err := json.Marshal(toCorrectionJSON(rec))
		if err != nil {
			s.fail(c, err)
			return
		}
		history = append(history, b)
	}
	versions, err := toSheetVersionsJSON(v.History)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := storedSheetResponse{Sheet: sheetJSON, Report: report, Version: st.Version, Corrections: history, Confirmations: toConfirmationsJSON(v.Confirmations), History: versions}
	if !st.UpdatedAt.IsZero() {
		u := st.UpdatedAt.UTC().Format(time.RFC3339)
		out.UpdatedAt = &u
	}
	ok200(c, out)
}

// etagListHas implements the weak comparison of If-None-Match (RFC 9110
// §13.1.2) for our tags.
func etagListHas(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}
