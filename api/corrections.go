package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/httperr"
	"segnapunti/importers/sheetjson"
	"segnapunti/messages"
)

// Score corrections after delivery (RULES §9): POST and GET
// /v1/tournaments/{tid}/corrections, GET .../corrections/{cid}. Every
// request is ruled on (domain.Decide) from the service's own records and
// recorded, applied or rejected; the trail is append-only (no PUT, PATCH or
// DELETE route, and the database refuses UPDATE and DELETE).

// correctionRequest is the body of API §4.1. standings_contested is not
// in the service's records (the paper standings of a gironi phase may be
// contested on paper), so the referee says it; version is the sheet
// version the correction was made on, as If-Match says it.
type correctionRequest struct {
	Round                int        `json:"round"`
	Table                int        `json:"table"`
	Kind                 string     `json:"kind"`
	BothLinesAcknowledge bool       `json:"both_lines_acknowledge"`
	RefereeCountersigned bool       `json:"referee_countersigned"`
	StandingsContested   bool       `json:"standings_contested"`
	Reason               string     `json:"reason"`
	Corrected            *jsonValue `json:"corrected"`
	Version              *int       `json:"version"`
}

// correctedParts are the parts of a sheet a correction may change: the
// written bottom of the sheet, merged field by field (RFC 7396: null
// removes a field), and the hands, replaced as a whole (API §1).
var correctedParts = []string{"written", "hands"}

// check validates the fields that need no stored data.
func (r correctionRequest) check() (domain.CorrectionKind, []fieldError) {
	var errs []fieldError
	bad := func(ptr, key string, a ...any) {
		errs = append(errs, fieldAt(ptr, key, a...))
	}
	if r.Round < 1 || r.Round > maxRoundsPlanned {
		bad("/round", "api.corr_round", maxRoundsPlanned)
	}
	if r.Table < 1 || r.Table > maxTables {
		bad("/table", "api.corr_table", maxTables)
	}
	var kind domain.CorrectionKind
	var err error
	if r.Kind == "" {
		bad("/kind", "api.corr_kind")
	} else if kind, err = domain.ParseCorrectionKind(r.Kind); err != nil {
		errs = append(errs, domainField("/kind", err))
	}
	errs = appendErr(errs, checkText("/reason", r.Reason, maxNoteLength, true))
	if r.Version != nil && *r.Version < 1 {
		bad("/version", "api.version_min")
	}
	v := r.Corrected
	switch {
	case v == nil || v.kind == jsonNull:
		bad("/corrected", "api.corr_corrected")
	case v.kind != jsonObject:
		bad("/corrected", "api.want_object", v.kind.msg())
	case len(v.keys) == 0:
		bad("/corrected", "api.corr_name_part")
	default:
		for i, k := range v.keys {
			switch it := v.items[i]; k {
			case "written":
				if it.kind != jsonObject {
					bad("/corrected/written", "api.want_object", it.kind.msg())
				}
			case "hands":
				if it.kind != jsonArray {
					bad("/corrected/hands", "api.want_array", it.kind.msg())
				}
			default:
				bad("/corrected/"+k, "api.corr_unknown_part", k)
			}
		}
	}
	return kind, errs
}

// situationJSON is a situation in the words of POST /v1/rulings.
func situationJSON(s domain.CorrectionSituation) rulingRequest {
	return rulingRequest{
		Ruleset: string(s.Ruleset), Kind: string(s.Kind), Level: string(s.Level), Phase: string(s.Phase),
		ErrorRound: s.ErrorRound, CurrentRound: s.CurrentRound, CurrentRoundStarted: s.CurrentRoundStarted,
		TournamentClosed: s.TournamentClosed, StandingsPublished: s.StandingsPublished, StandingsContested: s.StandingsContested,
		PositionsPublished: s.PositionsPublished, BothLinesAcknowledge: s.BothLinesAcknowledge, RefereeCountersigned: s.RefereeCountersigned,
	}
}

// setField puts key in an object, replacing its value when present.
func setField(v *jsonValue, key string, val *jsonValue) {
	for i, k := range v.keys {
		if k == key {
			v.items[i] = val
			return
		}
	}
	v.set(key, val)
}

func deleteField(v *jsonValue, key string) {
	for i, k := range v.keys {
		if k == key {
			v.keys = append(v.keys[:i], v.keys[i+1:]...)
			v.items = append(v.items[:i], v.items[i+1:]...)
			return
		}
	}
}

// mergePatch applies an RFC 7396 merge patch to an object: null removes a
// field, an object merges into an object, anything else replaces.
func mergePatch(target, patch *jsonValue) {
	for i, k := range patch.keys {
		p := patch.items[i]
		switch cur := target.field(k); {
		case p.kind == jsonNull:
			deleteField(target, k)
		case p.kind == jsonObject && cur != nil && cur.kind == jsonObject:
			mergePatch(cur, p)
		default:
			setField(target, k, p)
		}
	}
}

// parts is an object holding root's values of the named keys (null for a
// key root lacks).
func parts(root *jsonValue, keys []string) json.RawMessage {
	out := jsonObjectValue()
	for _, k := range keys {
		v := root.field(k)
		if v == nil {
			v = &jsonValue{kind: jsonNull}
		}
		out.set(k, v)
	}
	return out.appendJSON(nil)
}

// mergePatchChange is a correction's "corrected": a JSON merge patch of
// the stored sheet (app.SheetChange).
type mergePatchChange struct{ patch *jsonValue }

// Apply is app.SheetChange's: correctSheet.
func (m mergePatchChange) Apply(cur domain.Sheet) (domain.Sheet, []byte, []byte, error) {
	return correctSheet(cur, m.patch)
}

// correctSheet applies the corrected parts to the stored sheet through the
// sheet decoder, so that a corrected sheet is held to every rule of API §1,
// with pointers into the request ("/corrected/hands/0/ns/base"). It returns
// the corrected sheet and the changed parts before and after.
func correctSheet(cur domain.Sheet, corrected *jsonValue) (domain.Sheet, json.RawMessage, json.RawMessage, error) {
	enc, err := sheetjson.Encode(cur)
	if err != nil {
		return domain.Sheet{}, nil, nil, fmt.Errorf("encode stored sheet: %w", err)
	}
	root, err := parseJSON(enc)
	if err != nil {
		return domain.Sheet{}, nil, nil, fmt.Errorf("read stored sheet: %w", err)
	}
	keys := corrected.keys
	before := parts(root, keys)
	if w := corrected.field("written"); w != nil {
		cw := root.field("written")
		if cw == nil || cw.kind != jsonObject {
			cw = jsonObjectValue()
			setField(root, "written", cw)
		}
		mergePatch(cw, w)
		if len(cw.keys) == 0 {
			deleteField(root, "written")
		}
	}
	if h := corrected.field("hands"); h != nil {
		setField(root, "hands", h)
	}
	sheets, _, err := sheetjson.Decode(root.appendJSON(nil))
	var se *sheetjson.Error
	if errors.As(err, &se) {
		ptr := se.Pointer
		for _, k := range correctedParts {
			if ptr == "/"+k || strings.HasPrefix(ptr, "/"+k+"/") {
				ptr = "/corrected" + ptr
			}
		}
		return domain.Sheet{}, nil, nil, sheetInvalid(ptr, se)
	}
	if err != nil {
		return domain.Sheet{}, nil, nil, err
	}
	sh := sheets[0]
	// Cells tie fields to the spreadsheet they came from; those of the
	// corrected parts no longer do.
	if cur.Cells != nil {
		sh.Cells = map[string]string{}
		for ptr, cell := range cur.Cells {
			keep := true
			for _, k := range keys {
				if ptr == "/"+k || strings.HasPrefix(ptr, "/"+k+"/") {
					keep = false
				}
			}
			if keep {
				sh.Cells[ptr] = cell
			}
		}
	}
	enc, err = sheetjson.Encode(sh)
	if err != nil {
		return domain.Sheet{}, nil, nil, fmt.Errorf("encode corrected sheet: %w", err)
	}
	after, err := parseJSON(enc)
	if err != nil {
		return domain.Sheet{}, nil, nil, fmt.Errorf("read corrected sheet: %w", err)
	}
	return sh, before, parts(after, keys), nil
}

// correctionJSON is one entry of the trail.
type correctionJSON struct {
	ID           int64           `json:"id"`
	Round        int             `json:"round"`
	Table        int             `json:"table"`
	Kind         string          `json:"kind"`
	Ruling       string          `json:"ruling"`
	Rules        []string        `json:"rules"`
	RulingReason string          `json:"ruling_reason"`
	Reason       string          `json:"reason"`
	Applied      bool            `json:"applied"`
	Situation    rulingRequest   `json:"situation"`
	Before       json.RawMessage `json:"before"`
	After        json.RawMessage `json:"after"`
	Version      int             `json:"version"`
	Author       string          `json:"author"`
	At           string          `json:"at"`
}

func toCorrectionJSON(c app.Correction) correctionJSON {
	out := correctionJSON{
		ID: c.ID, Round: c.Round, Table: c.Table, Kind: string(c.Kind), Ruling: string(c.Ruling),
		Rules: append([]string{}, c.Rules...), RulingReason: c.RulingReason, Reason: c.Reason, Applied: c.Applied,
		Situation: situationJSON(c.Situation), Before: c.Before, After: c.After, Version: c.SheetVersion,
		Author: c.Author, At: c.At.UTC().Format(time.RFC3339Nano),
	}
	if len(out.Before) == 0 {
		out.Before = json.RawMessage("null")
	}
	if len(out.After) == 0 {
		out.After = json.RawMessage("null")
	}
	return out
}

type correctionResponse struct {
	Ruling          rulingJSON     `json:"ruling"`
	Applied         bool           `json:"applied"`
	StandingsBefore []standingJSON `json:"standings_before"`
	StandingsAfter  []standingJSON `json:"standings_after"`
	Correction      correctionJSON `json:"correction"`
	Version         int            `json:"version"`
}

type correctionsResponse struct {
	Corrections []correctionJSON `json:"corrections"`
}

func correctionsPath(tid string) string {
	return "/v1/tournaments/" + url.PathEscape(tid) + "/corrections"
}

// staleProblem is the 412 of a correction made on a version the sheet no
// longer has, with the version it has now (an RFC 9457 extension member),
// so the referee can read the sheet again and decide.
type staleProblem struct {
	problem
	CurrentVersion int `json:"current_version"`
}

func (s *server) failStale(c *gin.Context, e *app.StaleSheetError) {
	detail := messages.New("api.stale", e.Want, e.Current)
	p := staleProblem{
		problem: localize(problem{Type: httperr.Precondition.Type(), Title: titleFor(httperr.Precondition.API), Status: httperr.Precondition.API, msg: detail,
			Errors: []fieldError{fieldMsg(fieldError{Header: "If-Match"}, messages.New("api.sheet_version", e.Current))}}, langOf(c)),
		CurrentVersion: e.Current,
	}
	b, err := json.Marshal(p)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("ETag", etag(e.Current))
	c.Data(httperr.Precondition.API, problemContentType, b)
	c.Abort()
}

// readCorrection reads a correction request: If-Match and the body.
func (s *server) readCorrection(c *gin.Context) (app.CorrectionInput, error) {
	version, err := ifMatch(c)
	if err != nil {
		return app.CorrectionInput{}, err
	}
	version = max(version, 0) // If-Match: * — any version; the sheet must exist anyway
	var req correctionRequest
	if err := s.decodeJSON(c, &req); err != nil {
		return app.CorrectionInput{}, err
	}
	kind, errs := req.check()
	if req.Version != nil && *req.Version >= 1 {
		if version > 0 && version != *req.Version {
			errs = append(errs, fieldAt("/version", "api.version_if_match", *req.Version, etag(version)))
		}
		version = *req.Version
	}
	if len(errs) > 0 {
		return app.CorrectionInput{}, invalidFields(errs)
	}
	return app.CorrectionInput{
		Round: req.Round, Table: req.Table, Kind: kind, Reason: req.Reason, Version: version,
		Facts:  app.CorrectionFacts{StandingsContested: req.StandingsContested, BothLinesAcknowledge: req.BothLinesAcknowledge, RefereeCountersigned: req.RefereeCountersigned},
		Change: mergePatchChange{req.Corrected},
	}, nil
}

// createCorrection: POST .../corrections, by a referee of the tournament
// or an admin (at club level, the organising club too). The ruling is made
// and recorded, and when it applies the sheet is corrected, in one
// transaction under the sheet's lock.
func (s *server) createCorrection(c *gin.Context) {
	in, err := s.readCorrection(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	// resolved first: s.tournamentScope(app.TournamentCorrect)
	res, err := s.app.CreateCorrection(c.Request.Context(), tournamentScopeOf(c), in)
	var stale *app.StaleSheetError
	switch {
	case errors.As(err, &stale):
		s.failStale(c, stale)
		return
	case err != nil:
		s.fail(c, err)
		return
	}
	decision, rec, before, after := res.Decision, res.Record, res.StandingsBefore, res.StandingsAfter
	out := correctionResponse{
		Ruling: toRulingJSON(decision, domain.English), Applied: rec.Applied,
		StandingsBefore: toStandingsResponse(before).Standings, StandingsAfter: toStandingsResponse(after).Standings,
		Correction: toCorrectionJSON(rec), Version: rec.SheetVersion,
	}
	c.Header("ETag", etag(rec.SheetVersion))
	created201(c, correctionsPath(c.Param("tid"))+"/"+strconv.FormatInt(rec.ID, 10), out)
}

func (s *server) listCorrections(c *gin.Context) {
	listOfTournament(s, c, s.app.Corrections, toCorrectionJSON, func(l []correctionJSON) any { return correctionsResponse{Corrections: l} })
}

func (s *server) getCorrection(c *gin.Context) {
	id, err := strconv.ParseInt(c.Param("cid"), 10, 64)
	if err != nil {
		id = 0 // not a number: no such correction
	}
	rec, err := s.app.Correction(c.Request.Context(), mustPrincipal(c), c.Param("tid"), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toCorrectionJSON(rec))
}
