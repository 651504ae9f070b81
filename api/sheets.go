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

	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/importers/sheetjson"
	"segnapunti/store"
)

// Stored sheets: whole (PUT), hand by hand (POST .../hands), read back
// (GET) — API §4, §4.1.

// sheetTarget is the table of a round of a tournament that a sheet
// belongs to.
type sheetTarget struct {
	t     domain.Tournament
	r     domain.Round
	table domain.TableAssignment
}

func (g sheetTarget) path() string {
	return roundPath(g.t.ID, g.r.Number) + "/tables/" + strconv.Itoa(g.table.Table) + "/sheet"
}

// target resolves the path to a table. For a write it also checks that the
// caller manages the tournament and that the round still takes sheets.
func (s *server) target(c *gin.Context, write bool) (sheetTarget, error) {
	t, a, err := s.tournamentAccess(c)
	if err != nil {
		return sheetTarget{}, err
	}
	if write && !a.manage() {
		return sheetTarget{}, errForbidden("only the organising club or an admin enters sheets; referees correct them through corrections")
	}
	rn, err := pathNumber(c, "n", maxRoundsPlanned)
	if err != nil {
		return sheetTarget{}, err
	}
	n, err := pathNumber(c, "t", maxTables)
	if err != nil {
		return sheetTarget{}, err
	}
	// Only this table's row: loading the whole round was the main cost of
	// every sheet write (measured under 32 concurrent clients).
	r, err := s.db.GetRoundTable(c.Request.Context(), t.ID, rn, n)
	if errors.Is(err, domain.ErrNotFound) {
		return sheetTarget{}, errNotFound(fmt.Sprintf("tournament %q has no round %d", t.ID, rn))
	}
	if err != nil {
		return sheetTarget{}, err
	}
	tb, ok := r.Assignment(n)
	if !ok {
		return sheetTarget{}, errNotFound(fmt.Sprintf("round %d of tournament %q has no table %d", r.Number, t.ID, n))
	}
	if write && r.State.Order() >= domain.RoundSheetsDelivered.Order() {
		return sheetTarget{}, errRoundClosed(t.ID, r.Number, string(r.State))
	}
	return sheetTarget{t: t, r: r, table: tb}, nil
}

// errRoundClosed: FITAB art. 20, FIBur-INT art. 19: a delivered sheet is
// final; what may still change goes through a referee's correction (RULES
// §9). The store says so too when the round was closed between the check
// in target and the write.
func errRoundClosed(tid string, n int, state string) error {
	return &apiError{status: http.StatusConflict, typ: typeRoundClosed,
		detail: fmt.Sprintf("round %d is %s: its sheets are final and can no longer be entered or replaced; a correction goes through the referee (POST /v1/tournaments/%s/corrections, RULES §9)", n, state, tid)}
}

// fillSheetDefaults adds to a sheet body the fields API §4.1 lets a client
// leave out — ruleset, hands_planned, ns.id, eo.id — and those the service
// knows anyway (kind, a pinned vp_table, round, table). A field that is
// given is left as it is and checked afterwards by checkSheetAgrees.
func fillSheetDefaults(root *jsonValue, g sheetTarget) {
	// null means absent, as in the sheet decoder: it takes the default too.
	def := func(v *jsonValue, key string, val *jsonValue) {
		v.setDefault(key, val)
	}
	def(root, "ruleset", jsonStringValue(string(g.t.Ruleset)))
	def(root, "hands_planned", jsonIntValue(g.r.HandsPlanned))
	def(root, "kind", jsonStringValue(string(g.t.Kind)))
	if !g.t.VPTable.IsZero() {
		def(root, "vp_table", jsonStringValue(g.t.VPTable.ID()))
	}
	def(root, "round", jsonIntValue(g.r.Number))
	def(root, "table", jsonIntValue(g.table.Table))
	for _, side := range []struct{ key, id string }{{"ns", g.table.NS}, {"eo", g.table.EO}} {
		switch v := root.field(side.key); {
		case v == nil || v.kind == jsonNull:
			o := jsonObjectValue()
			o.set("id", jsonStringValue(side.id))
			root.setDefault(side.key, o)
		case v.kind == jsonObject:
			def(v, "id", jsonStringValue(side.id))
		}
	}
}

// checkSheetAgrees checks a decoded sheet against the tournament, the round
// and the table it is stored at (API §4.1: fields may be left out but must
// agree when given).
func checkSheetAgrees(sh domain.Sheet, g sheetTarget) []fieldError {
	var errs []fieldError
	if sh.Ruleset != g.t.Ruleset {
		errs = append(errs, fieldError{Pointer: "/ruleset", Detail: fmt.Sprintf("the tournament is played under %s, not %s", g.t.Ruleset, sh.Ruleset)})
	}
	if sh.HandsPlanned != g.r.HandsPlanned {
		errs = append(errs, fieldError{Pointer: "/hands_planned", Detail: fmt.Sprintf("round %d plans %d hands, not %d", g.r.Number, g.r.HandsPlanned, sh.HandsPlanned)})
	}
	if sh.Kind != g.t.Kind {
		errs = append(errs, fieldError{Pointer: "/kind", Detail: fmt.Sprintf("the tournament is a %s tournament, not %s", g.t.Kind, sh.Kind)})
	}
	switch {
	case g.t.VPTable.IsZero() && !sh.VPTable.IsZero():
		errs = append(errs, fieldError{Pointer: "/vp_table", Detail: "the tournament pins no VP table, so the table follows RULES §6.2; leave vp_table out"})
	case sh.VPTable != g.t.VPTable:
		errs = append(errs, fieldError{Pointer: "/vp_table", Detail: fmt.Sprintf("the tournament pins the VP table %s, not %s", g.t.VPTable.ID(), sh.VPTable.ID())})
	}
	if sh.Round != g.r.Number {
		errs = append(errs, fieldError{Pointer: "/round", Detail: fmt.Sprintf("the sheet is stored at round %d, not %d", g.r.Number, sh.Round)})
	}
	if sh.Table != g.table.Table {
		errs = append(errs, fieldError{Pointer: "/table", Detail: fmt.Sprintf("the sheet is stored at table %d, not %d", g.table.Table, sh.Table)})
	}
	for _, l := range domain.Lines {
		want := g.table.NS
		if l == domain.EO {
			want = g.table.EO
		}
		if got := sh.Sides[l].ID; got != want {
			errs = append(errs, fieldError{Pointer: "/" + l.String() + "/id", Detail: fmt.Sprintf("table %d of round %d seats entrant %q at %s, not %q", g.table.Table, g.r.Number, want, l.Label(), got)})
		}
	}
	return errs
}

// emptySheet is the sheet hand-by-hand entry starts from (API §4.1).
func emptySheet(g sheetTarget) domain.Sheet {
	return domain.Sheet{
		Ruleset: g.t.Ruleset, HandsPlanned: g.r.HandsPlanned, Kind: g.t.Kind, VPTable: g.t.VPTable,
		Tournament: g.t.Name, Round: g.r.Number, Table: g.table.Table,
		Sides: [2]domain.Side{{ID: g.table.NS}, {ID: g.table.EO}},
	}
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
}

type handsResponse struct {
	Hands   int             `json:"hands"`
	Report  json.RawMessage `json:"report"`
	Version int             `json:"version"`
}

// etag is a sheet version as an entity tag (RFC 9110 §8.8.3).
func etag(version int) string { return `"` + strconv.Itoa(version) + `"` }

// ifMatch reads If-Match: absent is 0 (create or replace unconditionally,
// as the store's PutSheet), "*" is -1 (the sheet must exist), a strong tag
// "N" is N. A weak tag never matches for If-Match (RFC 9110 §13.1.1) and
// a list is not needed by any client of a single sheet: both are 400.
func ifMatch(c *gin.Context) (int, error) {
	h := strings.TrimSpace(c.GetHeader("If-Match"))
	if h == "" {
		return 0, nil
	}
	if h == "*" {
		return -1, nil
	}
	bad := &apiError{status: http.StatusBadRequest, typ: typeMalformed,
		detail: `If-Match must be one entity tag as sent in ETag, like "3"`,
		errors: []fieldError{{Header: "If-Match", Detail: `want one strong entity tag like "3"`}}}
	if len(h) < 3 || h[0] != '"' || h[len(h)-1] != '"' {
		return 0, bad
	}
	v, err := strconv.Atoi(h[1 : len(h)-1])
	if err != nil || v < 1 || strconv.Itoa(v) != h[1:len(h)-1] {
		return 0, bad
	}
	return v, nil
}

func errStale(version int) error {
	detail := "the sheet has changed since you read it; GET it again and retry with its ETag"
	if version < 0 {
		detail = "If-Match: * needs an existing sheet, and there is none yet"
	}
	return &apiError{status: http.StatusPreconditionFailed, typ: typePrecondition, detail: detail,
		errors: []fieldError{{Header: "If-Match", Detail: detail}}}
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
	g, err := s.target(c, true)
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
	if root.kind == jsonObject && root.field("sheets") != nil {
		s.fail(c, invalidFields([]fieldError{{Pointer: "/sheets", Detail: "one sheet is stored per table: send the sheet, not a batch"}}))
		return
	}
	if root.kind == jsonObject {
		fillSheetDefaults(root, g)
	}
	sheets, _, err := sheetjson.Decode(root.appendJSON(nil))
	if err != nil {
		s.fail(c, err)
		return
	}
	sh := sheets[0]
	if errs := checkSheetAgrees(sh, g); len(errs) > 0 {
		s.fail(c, invalidFields(errs))
		return
	}
	ctx := c.Request.Context()
	if version < 0 {
		// If-Match: * — replace whatever version is stored, if one is.
		st, err := s.db.GetSheet(ctx, g.t.ID, g.r.Number, g.table.Table)
		if errors.Is(err, domain.ErrNotFound) {
			s.fail(c, errStale(version))
			return
		} else if err != nil {
			s.fail(c, err)
			return
		}
		version = st.Version
	}
	rep := domain.Validate(sh)
	stored, err := reportjson.Marshal(rep, domain.English)
	if err != nil {
		s.fail(c, fmt.Errorf("encode report: %w", err))
		return
	}
	v, err := s.db.PutOpenSheet(ctx, g.t.ID, g.r.Number, g.table.Table, sh, stored, version)
	switch {
	case errors.Is(err, store.ErrRoundClosed):
		s.fail(c, errRoundClosed(g.t.ID, g.r.Number, "no longer being played"))
		return
	case (errors.Is(err, domain.ErrConflict) || errors.Is(err, domain.ErrNotFound)) && version > 0:
		s.fail(c, errStale(version))
		return
	case errors.Is(err, domain.ErrConflict):
		s.fail(c, errConflict("another write to this sheet happened at the same time; GET it and retry with If-Match"))
		return
	case err != nil:
		s.fail(c, err)
		return
	}
	report := stored
	if lang != domain.English {
		if report, err = reportjson.Marshal(rep, lang); err != nil {
			s.fail(c, fmt.Errorf("encode report: %w", err))
			return
		}
	}
	sheetJSON, err := sheetjson.Encode(sh)
	if err != nil {
		s.fail(c, fmt.Errorf("encode sheet: %w", err))
		return
	}
	b, _ := marshalJSON(sheetResponse{Sheet: sheetJSON, Report: report, Version: v})
	c.Header("ETag", etag(v))
	status := http.StatusOK
	if v == 1 {
		status = http.StatusCreated
		c.Header("Location", g.path())
	}
	writeJSON(c, status, b)
}

// maxIdempotencyKey bounds the Idempotency-Key header.
const maxIdempotencyKey = 255

// errHandsFull stops an append to a sheet that has every hand a match can
// have (API §1: 1..4 hands).
var errHandsFull = errConflict(fmt.Sprintf("the sheet holds %d hands already, the most a match has (API §1)", maxHands))

// appendHand: POST .../sheet/hands adds the next hand (hand-by-hand entry).
// With an Idempotency-Key, a retried request adds the hand once and answers
// as the first time (with Idempotent-Replayed: true).
func (s *server) appendHand(c *gin.Context) {
	g, err := s.target(c, true)
	if err != nil {
		s.fail(c, err)
		return
	}
	lang, err := langOnly(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	key := c.GetHeader("Idempotency-Key")
	if len(key) > maxIdempotencyKey || strings.ContainsFunc(key, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
		s.fail(c, &apiError{status: http.StatusBadRequest, typ: typeMalformed,
			detail: fmt.Sprintf("Idempotency-Key must be 1 to %d printable ASCII characters", maxIdempotencyKey),
			errors: []fieldError{{Header: "Idempotency-Key", Detail: "printable ASCII, no spaces"}}})
		return
	}
	body, err := readBody(c, s.cfg.MaxBodyBytes)
	if err != nil {
		s.fail(c, err)
		return
	}
	h, err := decodeHand(body, g)
	if err != nil {
		s.fail(c, err)
		return
	}
	st, replay, err := s.db.AppendHand(c.Request.Context(), g.t.ID, g.r.Number, g.table.Table, emptySheet(g), h, key,
		func(sh domain.Sheet) ([]byte, error) {
			if len(sh.Hands) > maxHands {
				return nil, errHandsFull
			}
			return marshalReport(sh, domain.English)
		})
	if errors.Is(err, store.ErrRoundClosed) {
		err = errRoundClosed(g.t.ID, g.r.Number, "no longer being played")
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	report := st.ReportJSON
	if lang != domain.English {
		if report, err = marshalReport(st.Sheet, lang); err != nil {
			s.fail(c, err)
			return
		}
	}
	b, _ := marshalJSON(handsResponse{Hands: len(st.Sheet.Hands), Report: report, Version: st.Version})
	c.Header("ETag", etag(st.Version))
	c.Header("Location", g.path())
	if replay {
		c.Header("Idempotent-Replayed", "true")
	}
	writeJSON(c, http.StatusCreated, b)
}

// decodeHand reads one hand of API §1 through the sheet decoder, so that a
// hand is held to exactly the rules of a hand inside a sheet: it is put in
// a one-hand sheet of the tournament, and the decoder's pointers are taken
// back to the hand ("/hands/0/ns/base" → "/ns/base").
func decodeHand(body []byte, g sheetTarget) (domain.Hand, error) {
	hand, err := parseJSON(body)
	if err != nil {
		return domain.Hand{}, err
	}
	if hand.kind != jsonObject {
		return domain.Hand{}, invalidFields([]fieldError{{Pointer: "", Detail: "want one hand, a JSON object {\"end\", \"ns\", \"eo\"}, got " + hand.kind.String()}})
	}
	wrap := jsonObjectValue()
	wrap.set("ruleset", jsonStringValue(string(g.t.Ruleset)))
	wrap.set("hands_planned", jsonIntValue(g.r.HandsPlanned))
	wrap.set("hands", &jsonValue{kind: jsonArray, items: []*jsonValue{hand}})
	sheets, _, err := sheetjson.Decode(wrap.appendJSON(nil))
	var se *sheetjson.Error
	if errors.As(err, &se) {
		ptr := se.Pointer
		if rest, ok := strings.CutPrefix(ptr, "/hands/0"); ok {
			ptr = rest
		}
		detail := se.Detail
		if ptr != "" {
			detail = ptr + ": " + se.Detail
		}
		return domain.Hand{}, errInvalid(detail, fieldError{Pointer: ptr, Detail: se.Detail})
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
	g, err := s.target(c, false)
	if err != nil {
		s.fail(c, err)
		return
	}
	lang, err := langOnly(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	st, err := s.db.GetSheet(c.Request.Context(), g.t.ID, g.r.Number, g.table.Table)
	if errors.Is(err, domain.ErrNotFound) {
		s.fail(c, errNotFound(fmt.Sprintf("no sheet has been entered for table %d of round %d yet", g.table.Table, g.r.Number)))
		return
	}
	if err != nil {
		s.fail(c, err)
		return
	}
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
	history, err := s.sheetCorrections(c.Request.Context(), g.t.ID, g.r.Number, g.table.Table)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := storedSheetResponse{Sheet: sheetJSON, Report: report, Version: st.Version, Corrections: history}
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
