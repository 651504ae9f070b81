package api

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/domain"
	"segnapunti/store"
)

// Referee adjustments (RULES §7): POST and GET
// /v1/tournaments/{tid}/adjustments, GET .../adjustments/{aid}.

// adjustmentRequest is the body of API §4.1 — entrant, round, reason, note,
// vp, mp — plus what some reasons need to know:
//
//   - party: the entrant's side of a lateness or abandonment (offender,
//     innocent, both, later_opponent); forced_removal takes innocent;
//   - played: forced_removal, the innocent line's result against the
//     removed pair (when left out, read from the round's stored sheet);
//   - at_interruption: abandonments, the innocent line's score when play
//     stopped, when the referee established one;
//   - advantage: the usual score would bring the line an advantage it
//     might not have earned (late_over_10, abandon_temporary,
//     abandon_justified): it scores 0.
//
// vp and mp are the referee score of referee_score and nothing else: every
// other reason's score follows from RULES §7.
type adjustmentRequest struct {
	Entrant        string        `json:"entrant"`
	Round          *int          `json:"round"`
	Reason         string        `json:"reason"`
	Note           string        `json:"note"`
	VP             *int          `json:"vp"`
	MP             *int          `json:"mp"`
	Party          *string       `json:"party"`
	Played         *scoreRequest `json:"played"`
	AtInterruption *scoreRequest `json:"at_interruption"`
	Advantage      bool          `json:"advantage"`
}

type scoreRequest struct {
	VP *int `json:"vp"`
	MP *int `json:"mp"`
}

const (
	maxNoteLength = 2000
	// maxAdjustMP bounds a referee's MP: far beyond any real match (a 4-hand
	// match rarely reaches 4000) and far inside every column type.
	maxAdjustMP = 100000
)

// roundlessReasons may be given without a round: a warning and a referee
// score count in the overall standings; every other reason sets or
// changes the result of one round's match.
var roundlessReasons = []domain.AdjustmentReason{domain.ReasonWarning, domain.ReasonRefereeScore}

// partyReasons take a party; advantageReasons the advantage flag (RULES §7,
// "0 if that would be an unfair advantage").
var (
	partyReasons = []domain.AdjustmentReason{domain.ReasonLateUpTo5, domain.ReasonLate5To10, domain.ReasonLateOver10,
		domain.ReasonAbandonTemporary, domain.ReasonAbandonJustified, domain.ReasonAbandonUnjustified, domain.ReasonForcedRemoval}
	advantageReasons = []domain.AdjustmentReason{domain.ReasonLateOver10, domain.ReasonAbandonTemporary, domain.ReasonAbandonJustified}
	abandonReasons   = []domain.AdjustmentReason{domain.ReasonAbandonTemporary, domain.ReasonAbandonJustified, domain.ReasonAbandonUnjustified}
)

// check reads the request against the tournament, its entrants and rounds,
// and returns the case to assess (without the counts of the entrant's
// record, which the store reads in the transaction).
func (r adjustmentRequest) check(t domain.Tournament, entered map[string]bool, rounds map[int]domain.Round) (domain.AdjustmentCase, domain.Round, []fieldError) {
	var errs []fieldError
	bad := func(ptr, format string, a ...any) {
		errs = append(errs, fieldError{Pointer: ptr, Detail: fmt.Sprintf(format, a...)})
	}
	c := domain.AdjustmentCase{Ruleset: t.Ruleset, Kind: t.Kind, HandsPlanned: t.HandsPerRound, Advantage: r.Advantage, Note: strings.TrimSpace(r.Note)}
	switch {
	case r.Entrant == "":
		bad("/entrant", "required: the entrant's id")
	case !entered[r.Entrant]:
		bad("/entrant", "entrant %q is not entered in the tournament", r.Entrant)
	}
	var err error
	if r.Reason == "" {
		bad("/reason", "required: one of the reasons of RULES §7")
	} else if c.Reason, err = domain.ParseAdjustmentReason(r.Reason); err != nil {
		bad("/reason", "%s", domainDetail(err))
	}
	errs = appendErr(errs, checkText("/note", r.Note, maxNoteLength, c.Reason == domain.ReasonRefereeScore))
	var round domain.Round
	switch {
	case r.Round == nil && c.Reason != "" && !slices.Contains(roundlessReasons, c.Reason):
		bad("/round", "required for %s: the round whose match it concerns", c.Reason)
	case r.Round != nil:
		rd, ok := rounds[*r.Round]
		if !ok {
			bad("/round", "tournament %q has no round %d", t.ID, *r.Round)
			break
		}
		round = rd
		c.HandsPlanned, c.Phase = rd.HandsPlanned, rd.Phase
		// FITAB art. 38/bis: a late start is lost round by round from the
		// first, so round n is the n-th round missed.
		c.LateRound = rd.Number
	}
	if r.Party != nil {
		if !slices.Contains(partyReasons, c.Reason) {
			bad("/party", "%s takes no party", c.Reason)
		} else if c.Party, err = domain.ParseParty(*r.Party); err != nil {
			bad("/party", "%s", domainDetail(err))
		}
	}
	if c.Reason == domain.ReasonRefereeScore {
		if r.VP == nil {
			bad("/vp", "required for referee_score: the VP awarded (negative for a penalty)")
		}
		if r.MP == nil {
			bad("/mp", "required for referee_score: the MP awarded (negative for a penalty)")
		}
		if r.VP != nil && r.MP != nil {
			if *r.VP < -domain.MaxVP || *r.VP > domain.MaxVP {
				bad("/vp", "%d is out of range (want -%d..%d)", *r.VP, domain.MaxVP, domain.MaxVP)
			}
			if *r.MP < -maxAdjustMP || *r.MP > maxAdjustMP {
				bad("/mp", "%d is out of range (want -%d..%d)", *r.MP, maxAdjustMP, maxAdjustMP)
			}
			c.Referee = &domain.MatchScore{VP: *r.VP, MP: *r.MP}
		}
	} else if c.Reason != "" {
		for _, f := range []struct {
			ptr string
			v   *int
		}{{"/vp", r.VP}, {"/mp", r.MP}} {
			if f.v != nil {
				bad(f.ptr, "only referee_score takes a score; the score of %s follows from RULES §7", c.Reason)
			}
		}
	}
	score := func(ptr string, s *scoreRequest) *domain.MatchScore {
		if s == nil {
			return nil
		}
		if s.VP == nil || s.MP == nil {
			bad(ptr, "want both vp and mp")
			return nil
		}
		if *s.MP < -maxAdjustMP || *s.MP > maxAdjustMP {
			bad(ptr+"/mp", "%d is out of range", *s.MP)
			return nil
		}
		return &domain.MatchScore{VP: *s.VP, MP: *s.MP}
	}
	if r.Played != nil && c.Reason != domain.ReasonForcedRemoval {
		bad("/played", "only forced_removal takes played")
	} else {
		c.Played = score("/played", r.Played)
	}
	if r.AtInterruption != nil && !slices.Contains(abandonReasons, c.Reason) {
		bad("/at_interruption", "only an abandonment takes at_interruption")
	} else {
		c.AtInterruption = score("/at_interruption", r.AtInterruption)
	}
	if r.Advantage && !slices.Contains(advantageReasons, c.Reason) {
		bad("/advantage", "%s has no advantage rule", c.Reason)
	}
	return c, round, errs
}

// playedAgainst is the VP and MP the entrant's line scored in the round's
// stored sheet (forced_removal: the innocent line's result against the
// removed pair).
func (s *server) playedAgainst(c *gin.Context, t domain.Tournament, r domain.Round, entrant string) (*domain.MatchScore, error) {
	for _, tb := range r.Tables {
		if tb.NS != entrant && tb.EO != entrant {
			continue
		}
		st, err := s.db.GetSheet(c.Request.Context(), t.ID, r.Number, tb.Table)
		if errors.Is(err, domain.ErrNotFound) {
			break
		}
		if err != nil {
			return nil, err
		}
		line := domain.NS
		if tb.EO == entrant {
			line = domain.EO
		}
		res := domain.Validate(st.Sheet).Computed.Lines[line]
		return &domain.MatchScore{VP: res.VP, MP: res.MP}, nil
	}
	return nil, invalidFields([]fieldError{{Pointer: "/played", Detail: fmt.Sprintf("required: entrant %q has no stored sheet in round %d to read its result from", entrant, r.Number)}})
}

// adjustmentPointer maps the fields AdjustmentCase.Effect names to the
// request: what the service derived from the round points at /round.
func adjustmentPointer(field string) string {
	switch field {
	case "hands_planned", "phase", "late_round":
		return "/round"
	case "ruleset", "kind", "warnings_before", "byes_before":
		return ""
	}
	return "/" + strings.ReplaceAll(field, ".", "/")
}

// countsOf fills the case's record-based inputs from the entrant's record:
// the warnings it had (every earlier adjustment whose effect was or implied
// a warning, RULES §7, FITAB art. 21) and, for a bye, the earlier rounds it
// rested in — its byes in the rounds' byes lists and its bye adjustments
// (RULES §10: at most one per session [INTERP: the tournament is the
// session; the service keeps no sessions]).
func countsOf(c domain.AdjustmentCase, round int, rec store.EntrantRecord) domain.AdjustmentCase {
	rested := map[int]bool{}
	for _, n := range rec.ByeRounds {
		rested[n] = true
	}
	for _, a := range rec.Adjustments {
		if a.Effect.Warning {
			c.WarningsBefore++
		}
		if a.Case.Reason == domain.ReasonBye && a.Round > 0 {
			rested[a.Round] = true
		}
	}
	if c.Reason == domain.ReasonBye {
		for n := range rested {
			if n < round {
				c.ByesBefore++
			}
		}
	}
	return c
}

func (s *server) createAdjustment(c *gin.Context) {
	t, err := s.app.AdjustTournament(c.Request.Context(), mustPrincipal(c), c.Param("tid"))
	if err != nil {
		s.fail(c, err)
		return
	}
	var req adjustmentRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	entered, err := s.app.EnteredIDs(ctx, t.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	rs, err := s.db.ListRounds(ctx, t.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	rounds := make(map[int]domain.Round, len(rs))
	for _, r := range rs {
		rounds[r.Number] = r
	}
	ac, round, errs := req.check(t, entered, rounds)
	if len(errs) > 0 {
		s.fail(c, invalidFields(errs))
		return
	}
	if ac.Reason == domain.ReasonForcedRemoval && ac.Played == nil {
		if ac.Played, err = s.playedAgainst(c, t, round, req.Entrant); err != nil {
			s.fail(c, err)
			return
		}
	}
	author := mustPrincipal(c).Name
	stored, err := s.db.AddAdjustment(ctx, t.ID, req.Entrant, func(rec store.EntrantRecord) (store.Adjustment, error) {
		cs := countsOf(ac, round.Number, rec)
		effect, err := cs.Effect()
		if err != nil {
			return store.Adjustment{}, invalidFields(domainFieldErrors(err, adjustmentPointer))
		}
		if effect.Result != nil {
			// One result per entrant and round: a second would silently
			// replace the first in the standings.
			for _, prev := range rec.Adjustments {
				if prev.Round == round.Number && prev.Effect.Result != nil {
					return store.Adjustment{}, errConflict(fmt.Sprintf("entrant %q already has a result for round %d, set by adjustment %d (%s); adjustments are never edited — a referee_score can compensate", req.Entrant, round.Number, prev.ID, prev.Case.Reason))
				}
			}
		}
		return store.Adjustment{Round: round.Number, Case: cs, Effect: effect, Author: author}, nil
	})
	if err != nil {
		s.fail(c, err)
		return
	}
	s.app.AdjustmentStored(ctx, t.ID, round.Number)
	created201(c, adjustmentsPath(t.ID)+"/"+strconv.FormatInt(stored.ID, 10), toAdjustmentJSON(stored))
}

func adjustmentsPath(tid string) string {
	return "/v1/tournaments/" + url.PathEscape(tid) + "/adjustments"
}

type adjustmentsResponse struct {
	Adjustments []adjustmentJSON `json:"adjustments"`
}

func (s *server) listAdjustments(c *gin.Context) {
	listOfTournament(s, c, s.app.Adjustments, toAdjustmentJSON, func(l []adjustmentJSON) any { return adjustmentsResponse{Adjustments: l} })
}

func (s *server) getAdjustment(c *gin.Context) {
	id, err := strconv.ParseInt(c.Param("aid"), 10, 64)
	if err != nil {
		id = 0 // not a number: no such adjustment
	}
	adj, err := s.app.Adjustment(c.Request.Context(), mustPrincipal(c), c.Param("tid"), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toAdjustmentJSON(adj))
}

type scoreJSON struct {
	VP int `json:"vp"`
	MP int `json:"mp"`
}

func toScoreJSON(s *domain.MatchScore) *scoreJSON {
	if s == nil {
		return nil
	}
	return &scoreJSON{VP: s.VP, MP: s.MP}
}

// adjustmentJSON is a stored adjustment: who, when, why, and what it does.
// vp and mp are what it adds to the entrant's standings (null when
// nothing); effect says how.
type adjustmentJSON struct {
	ID             int64      `json:"id"`
	Entrant        string     `json:"entrant"`
	Round          *int       `json:"round"`
	Reason         string     `json:"reason"`
	Party          *string    `json:"party"`
	Note           string     `json:"note"`
	VP             *int       `json:"vp"`
	MP             *int       `json:"mp"`
	Played         *scoreJSON `json:"played,omitempty"`
	AtInterruption *scoreJSON `json:"at_interruption,omitempty"`
	Advantage      bool       `json:"advantage"`
	WarningsBefore int        `json:"warnings_before"`
	ByesBefore     int        `json:"byes_before"`
	Effect         effectJSON `json:"effect"`
	Author         string     `json:"author"`
	At             string     `json:"at"`
}

// effectJSON is domain.AdjustmentEffect: result (in place of the round's
// match, or null), bye/awarded (how that result counts in the standings),
// delta (added to the totals), late_points (the credit the sheet's
// late_points carry, RULES §6 — the adjustment does not write the sheet),
// warning (this counts as a warning), flags, rules, reason.
type effectJSON struct {
	Result     *scoreJSON `json:"result"`
	Bye        bool       `json:"bye"`
	Awarded    bool       `json:"awarded"`
	Delta      scoreJSON  `json:"delta"`
	LatePoints int        `json:"late_points"`
	Warning    bool       `json:"warning"`
	Flags      []string   `json:"flags"`
	Rules      []string   `json:"rules"`
	Reason     string     `json:"reason"`
}

func toAdjustmentJSON(a store.Adjustment) adjustmentJSON {
	out := adjustmentJSON{
		ID: a.ID, Entrant: a.Entrant, Reason: string(a.Case.Reason), Note: a.Case.Note,
		Played: toScoreJSON(a.Case.Played), AtInterruption: toScoreJSON(a.Case.AtInterruption), Advantage: a.Case.Advantage,
		WarningsBefore: a.Case.WarningsBefore, ByesBefore: a.Case.ByesBefore,
		Author: a.Author, At: a.At.UTC().Format(time.RFC3339Nano),
	}
	if a.Round > 0 {
		out.Round = new(a.Round)
	}
	if a.Case.Party != domain.PartyNone {
		out.Party = new(string(a.Case.Party))
	}
	if s, ok := a.Score(); ok {
		out.VP, out.MP = new(s.VP), new(s.MP)
	}
	e := a.Effect
	out.Effect = effectJSON{
		Result: toScoreJSON(e.Result), Bye: e.Bye, Awarded: e.Awarded,
		Delta: scoreJSON{VP: e.Delta.VP, MP: e.Delta.MP}, LatePoints: e.LatePoints, Warning: e.Warning,
		Flags: []string{}, Rules: append([]string{}, e.Rules...), Reason: e.Reason,
	}
	for _, f := range e.Flags {
		out.Effect.Flags = append(out.Effect.Flags, string(f))
	}
	return out
}
