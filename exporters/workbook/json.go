package workbook

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"slices"
	"time"

	"segnapunti/domain"
	"segnapunti/messages"
)

// Schema is the JSON Schema (draft 2020-12) of the document WriteJSON
// writes.
//
//go:embed tournament-export.schema.json
var Schema []byte

// JSONFormat names the document WriteJSON writes (its "format" member);
// the number changes when a change would break a reader.
const JSONFormat = "segnapunti.tournament-export/1"

// WriteJSON writes the machine-readable tournament export described by
// Schema: the tournament, its entrants with membership numbers, its rounds,
// the matches with their hands, MP and VP, the standings, the adjustments
// and the corrections. It streams: each table is read once, in that order,
// and nothing but the current match is held. A value the schema does not
// allow (an unknown level, a hand without a match, ...) is an error
// wrapping domain.ErrInvalid that names it; the document is then
// incomplete.
func WriteJSON(w io.Writer, t TournamentExport) error {
	bw := bufio.NewWriter(w)
	jw := &jsonWriter{w: bw, enc: json.NewEncoder(bw)}
	jw.enc.SetEscapeHTML(false)
	tour, err := toJSONTournament(t)
	if err != nil {
		return err
	}
	jw.raw(`{"format":`)
	jw.value(JSONFormat)
	jw.raw(`,"exported_at":`)
	jw.value(jsonTime(t.ExportedAt))
	jw.raw(`,"tournament":`)
	jw.value(tour)
	jw.raw(`,"entrants":`)
	jsonArray(jw, "entrants", t.Entrants, func(e domain.Entrant) (any, error) { return toJSONEntrant(e), nil })
	jw.raw(`,"rounds":`)
	jsonArray(jw, "rounds", t.Rounds, toJSONRound)
	jw.raw(`,"matches":`)
	jw.matches(t.Matches, t.Hands)
	jw.raw(`,"standings":`)
	jsonArray(jw, "standings", t.Standings, func(s StandingRow) (any, error) { return toJSONStanding(s), nil })
	jw.raw(`,"adjustments":`)
	jsonArray(jw, "adjustments", t.Adjustments, toJSONAdjustment)
	jw.raw(`,"corrections":`)
	jsonArray(jw, "corrections", t.Corrections, toJSONCorrection)
	jw.raw("}\n")
	if jw.err != nil {
		return jw.err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("json: %w", err)
	}
	return nil
}

// jsonWriter writes a document piece by piece, keeping the first error.
type jsonWriter struct {
	w   *bufio.Writer
	enc *json.Encoder
	err error
}

func (jw *jsonWriter) raw(s string) {
	if jw.err == nil {
		if _, err := jw.w.WriteString(s); err != nil {
			jw.err = fmt.Errorf("json: %w", err)
		}
	}
}

func (jw *jsonWriter) value(v any) {
	if jw.err == nil {
		// Encode adds a newline: one element a line, still one document.
		if err := jw.enc.Encode(v); err != nil {
			jw.err = fmt.Errorf("json: %w", err)
		}
	}
}

func (jw *jsonWriter) fail(err error) {
	if jw.err == nil {
		jw.err = err
	}
}

// jsonArray writes the iterator's elements as an array named name (for
// errors).
func jsonArray[T any](jw *jsonWriter, name string, src iter.Seq2[T, error], conv func(T) (any, error)) {
	jw.raw("[")
	if src != nil {
		i := 0
		for v, err := range src {
			if err == nil {
				var out any
				if out, err = conv(v); err == nil {
					if i > 0 {
						jw.raw(",")
					}
					jw.value(out)
				}
			}
			if err != nil {
				jw.fail(fmt.Errorf("json: %s[%d]: %w", name, i, err))
			}
			if jw.err != nil {
				return
			}
			i++
		}
	}
	jw.raw("]")
}

// matches writes each match with its hands nested: a merge of the two
// iterators, which come in the same match order (TournamentExport).
func (jw *jsonWriter) matches(matches iter.Seq2[MatchRow, error], hands iter.Seq2[HandRow, error]) {
	if hands == nil {
		hands = Slice[HandRow](nil)
	}
	next, stop := iter.Pull2(hands)
	defer stop()
	h, herr, hok := next()
	jsonArray(jw, "matches", matches, func(m MatchRow) (any, error) {
		out := toJSONMatch(m)
		for hok && herr == nil && h.Round == m.Round && h.Table == m.Table {
			jh, err := toJSONHand(h)
			if err != nil {
				return nil, err
			}
			out.Hands = append(out.Hands, jh)
			h, herr, hok = next()
		}
		if herr != nil {
			return nil, fmt.Errorf("hands: %w", herr)
		}
		return out, nil
	})
	if jw.err == nil && hok {
		if herr != nil {
			jw.fail(fmt.Errorf("json: hands: %w", herr))
			return
		}
		jw.fail(fmt.Errorf("json: %w: hand %d of round %d, table %d has no match, or the hands are not in the order of the matches",
			domain.ErrInvalid, h.Hand, h.Round, h.Table))
	}
}

func jsonTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.Format(time.RFC3339)
	return &s
}

func jsonDate(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.Format(time.DateOnly)
	return &s
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// oneOf checks a value the schema enumerates.
func oneOf[T ~string](field string, v T, allowed []T) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	return fmt.Errorf("%w: %s %q is not one of %v", domain.ErrInvalid, field, v, allowed)
}

type jsonClub struct {
	ID   string  `json:"id"`
	Name *string `json:"name"`
}

type jsonTournament struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Date          *string  `json:"date"`
	Club          jsonClub `json:"club"`
	Level         string   `json:"level"`
	Ruleset       string   `json:"ruleset"`
	Kind          string   `json:"kind"`
	RoundsPlanned int      `json:"rounds_planned"`
	HandsPerRound int      `json:"hands_per_round"`
	VPTable       *string  `json:"vp_table"`
	// Plan: RULES §12.1, the effective plan (`segnapunti pairings check`
	// reads it as the service's own check does).
	Plan jsonPlan `json:"plan"`
}

type jsonPlan struct {
	FirstRound string          `json:"first_round"`
	Phases     []jsonPlanPhase `json:"phases"`
	Sessions   []int           `json:"sessions"`
}

type jsonPlanPhase struct {
	FromRound int    `json:"from_round"`
	System    string `json:"system"`
}

func toJSONPlan(p domain.Plan) jsonPlan {
	out := jsonPlan{FirstRound: string(p.FirstRound), Phases: []jsonPlanPhase{}, Sessions: []int{}}
	for _, k := range p.Sessions {
		if k > 0 { // a tournament of no rounds has no session
			out.Sessions = append(out.Sessions, k)
		}
	}
	for _, ph := range p.Phases {
		out.Phases = append(out.Phases, jsonPlanPhase{FromRound: ph.FromRound, System: string(ph.System)})
	}
	return out
}

func toJSONTournament(t TournamentExport) (jsonTournament, error) {
	tr := t.Tournament
	for _, err := range []error{
		oneOf("tournament level", tr.Level, domain.Levels),
		oneOf("tournament ruleset", tr.Ruleset, domain.Rulesets),
		oneOf("tournament kind", tr.Kind, domain.Kinds),
	} {
		if err != nil {
			return jsonTournament{}, fmt.Errorf("json: %w", err)
		}
	}
	out := jsonTournament{
		ID: tr.ID, Name: tr.Name, Date: jsonDate(tr.Date),
		Club:  jsonClub{ID: t.Club.ID, Name: optString(t.Club.Name)},
		Level: string(tr.Level), Ruleset: string(tr.Ruleset), Kind: string(tr.Kind),
		RoundsPlanned: tr.RoundsPlanned, HandsPerRound: tr.HandsPerRound,
		Plan: toJSONPlan(tr.EffectivePlan()),
	}
	if !tr.VPTable.IsZero() {
		out.VPTable = optString(tr.VPTable.ID())
	}
	if out.Club.ID == "" {
		out.Club.ID = tr.ClubID
	}
	return out, nil
}

type jsonPlayer struct {
	Name       string  `json:"name"`
	Membership *string `json:"membership"`
}

func toJSONPlayers(ps []domain.Player) []jsonPlayer {
	out := make([]jsonPlayer, len(ps))
	for i, p := range ps {
		out[i] = jsonPlayer{Name: p.Name, Membership: optString(p.Membership)}
	}
	return out
}

type jsonEntrant struct {
	ID      string       `json:"id"`
	Players []jsonPlayer `json:"players"`
	Team    *string      `json:"team"`
	Club    *string      `json:"club"`
	// WithdrawnFromRound: RULES §12.3; absent when not withdrawn.
	WithdrawnFromRound *int `json:"withdrawn_from_round,omitempty"`
}

func toJSONEntrant(e domain.Entrant) jsonEntrant {
	return jsonEntrant{ID: e.ID, Players: toJSONPlayers(e.Players), Team: optString(e.Team), Club: optString(e.Club), WithdrawnFromRound: e.WithdrawnFromRound}
}

// jsonTable is a table of a round: ns and eo are an entrant id, or the two
// player ids of an individual line (API §4.2).
type jsonTable struct {
	Table int `json:"table"`
	Match int `json:"match,omitempty"` // teams (RULES §12.5)
	NS    any `json:"ns"`
	EO    any `json:"eo"`
}

// jsonLine is a line as API §4.2 writes it: a string for one entrant, an
// array for the players of an individual line.
func jsonLine(ids []string) any {
	if len(ids) == 1 {
		return ids[0]
	}
	return ids
}

type jsonRound struct {
	Number       int         `json:"number"`
	HandsPlanned int         `json:"hands_planned"`
	Phase        string      `json:"phase"`
	State        string      `json:"state"`
	Tables       []jsonTable `json:"tables"`
	Byes         []string    `json:"byes"`
	// System and Seed: how the round was seated (RULES §11), so that
	// `segnapunti pairings check` re-derives it; left out for a round
	// seated by hand.
	System string  `json:"system,omitempty"`
	Seed   *uint64 `json:"seed,omitempty"`
	// Session, Vacated and Groups: RULES §12.1, §12.3.
	Session int        `json:"session,omitempty"`
	Vacated []string   `json:"vacated,omitempty"`
	Groups  [][]string `json:"groups,omitempty"`
}

func toJSONRound(r domain.Round) (any, error) {
	if err := oneOf("phase", r.Phase, domain.Phases); err != nil {
		return nil, err
	}
	if err := oneOf("state", r.State, domain.RoundStates); err != nil {
		return nil, err
	}
	out := jsonRound{
		Number: r.Number, HandsPlanned: r.HandsPlanned, Phase: string(r.Phase), State: string(r.State),
		Tables: make([]jsonTable, len(r.Tables)), Byes: append([]string{}, r.Byes...),
		System: string(r.System), Seed: r.Seed, Session: r.Session, Vacated: r.Vacated, Groups: r.Groups,
	}
	for i, ta := range r.Tables {
		out.Tables[i] = jsonTable{Table: ta.Table, Match: ta.Match, NS: jsonLine(ta.Line(domain.NS)), EO: jsonLine(ta.Line(domain.EO))}
	}
	return out, nil
}

type jsonMatchLine struct {
	ID string `json:"id"`
	// IDs: the two players of an individual line (ID is then "3 / 11").
	IDs   []string `json:"ids,omitempty"`
	Total int      `json:"total"`
	MP    int      `json:"mp"`
	VP    int      `json:"vp"`
	// ConfirmedAt: when the line signed the sheet at the table.
	ConfirmedAt *string `json:"confirmed_at,omitempty"`
	// EndedByConfirmation: the line did not sign; the other line's
	// confirmation alone ended and delivered the sheet.
	EndedByConfirmation bool `json:"ended_by_confirmation,omitempty"`
}

type jsonHandLine struct {
	Base   int `json:"base"`
	Points int `json:"points"`
	Total  int `json:"total"`
}

type jsonHand struct {
	Hand int          `json:"hand"`
	End  *string      `json:"end"`
	NS   jsonHandLine `json:"ns"`
	EO   jsonHandLine `json:"eo"`
}

type jsonMatch struct {
	Round int           `json:"round"`
	Table int           `json:"table"`
	NS    jsonMatchLine `json:"ns"`
	EO    jsonMatchLine `json:"eo"`
	Hands []jsonHand    `json:"hands"`
}

func toJSONMatch(m MatchRow) *jsonMatch {
	line := func(l domain.Line) jsonMatchLine {
		jl := jsonMatchLine{ID: m.Entrants[l], IDs: m.Players[l], Total: m.Total[l], MP: m.MP[l], VP: m.VP[l]}
		if at := m.Confirmed[l]; at != nil {
			s := at.UTC().Format(time.RFC3339)
			jl.ConfirmedAt = &s
		}
		jl.EndedByConfirmation = m.EndedByConfirmation[l]
		return jl
	}
	return &jsonMatch{Round: m.Round, Table: m.Table, NS: line(domain.NS), EO: line(domain.EO), Hands: []jsonHand{}}
}

func toJSONHand(h HandRow) (jsonHand, error) {
	if h.End != domain.EndUnknown {
		if err := oneOf(fmt.Sprintf("end of hand %d of round %d, table %d", h.Hand, h.Round, h.Table), h.End, domain.HandEnds); err != nil {
			return jsonHand{}, err
		}
	}
	line := func(l domain.Line) jsonHandLine {
		return jsonHandLine{Base: h.Base[l], Points: h.Points[l], Total: h.Total[l]}
	}
	return jsonHand{Hand: h.Hand, End: optString(string(h.End)), NS: line(domain.NS), EO: line(domain.EO)}, nil
}

type jsonStanding struct {
	Rank     int          `json:"rank"`
	Entrant  string       `json:"entrant"`
	Players  []jsonPlayer `json:"players"`
	Team     *string      `json:"team"`
	Club     *string      `json:"club"`
	VP       int          `json:"vp"`
	MP       int          `json:"mp"`
	Wins     int          `json:"wins"`
	TieBreak *string      `json:"tiebreak"`
}

func toJSONStanding(s StandingRow) jsonStanding {
	return jsonStanding{
		Rank: s.Rank, Entrant: s.Entrant.ID, Players: toJSONPlayers(s.Entrant.Players),
		Team: optString(s.Entrant.Team), Club: optString(s.Entrant.Club),
		VP: s.VP, MP: s.MP, Wins: s.Wins, TieBreak: optString(messages.Notes(domain.English, s.TieBreak)),
	}
}

type jsonAdjustment struct {
	Entrant string  `json:"entrant"`
	Round   *int    `json:"round"`
	Reason  string  `json:"reason"`
	VP      *int    `json:"vp"`
	MP      *int    `json:"mp"`
	Note    *string `json:"note"`
	Author  string  `json:"author"`
	At      *string `json:"at"`
}

func toJSONAdjustment(a AdjustmentRow) (any, error) {
	if err := oneOf("adjustment reason", a.Reason, domain.AdjustmentReasons); err != nil {
		return nil, err
	}
	out := jsonAdjustment{
		Entrant: a.Entrant, Reason: string(a.Reason), VP: a.VP, MP: a.MP,
		Note: optString(a.Note), Author: a.Author, At: jsonTime(a.At),
	}
	if a.Round != 0 {
		out.Round = &a.Round
	}
	return out, nil
}

type jsonResultLine struct {
	Total int `json:"total"`
	MP    int `json:"mp"`
	VP    int `json:"vp"`
}

type jsonResult struct {
	NS jsonResultLine `json:"ns"`
	EO jsonResultLine `json:"eo"`
}

type jsonCorrection struct {
	Round   int         `json:"round"`
	Table   int         `json:"table"`
	Kind    string      `json:"kind"`
	Ruling  string      `json:"ruling"`
	Rules   []string    `json:"rules"`
	Reason  string      `json:"reason"`
	Request *string     `json:"request"`
	Author  string      `json:"author"`
	At      *string     `json:"at"`
	Before  *jsonResult `json:"before"`
	After   *jsonResult `json:"after"`
}

func toJSONResult(r *MatchResult) *jsonResult {
	if r == nil {
		return nil
	}
	line := func(l domain.Line) jsonResultLine {
		return jsonResultLine{Total: r.Total[l], MP: r.MP[l], VP: r.VP[l]}
	}
	return &jsonResult{NS: line(domain.NS), EO: line(domain.EO)}
}

func toJSONCorrection(c CorrectionRow) (any, error) {
	if err := oneOf("correction kind", c.Kind, domain.CorrectionKinds); err != nil {
		return nil, err
	}
	if err := oneOf("ruling", c.Ruling, domain.Rulings); err != nil {
		return nil, err
	}
	return jsonCorrection{
		Round: c.Round, Table: c.Table, Kind: string(c.Kind), Ruling: string(c.Ruling),
		Rules: append([]string{}, c.Rules...), Reason: c.Reason, Request: optString(c.Request),
		Author: c.Author, At: jsonTime(c.At), Before: toJSONResult(c.Before), After: toJSONResult(c.After),
	}, nil
}
