package app

import (
	"context"
	"errors"
	"slices"
	"strings"

	"segnapunti/domain"
	"segnapunti/events"
	"segnapunti/store"
)

// Referee adjustments (RULES §7): creating one.

// AdjustmentInput is a new adjustment (API §4.1) — entrant, round, reason,
// note, vp, mp — plus what some reasons need to know:
//
//   - Party: the entrant's side of a lateness or abandonment (offender,
//     innocent, both, later_opponent); forced_removal takes innocent;
//   - Played: forced_removal, the innocent line's result against the
//     removed pair (when left out, read from the round's stored sheet);
//   - AtInterruption: abandonments, the innocent line's score when play
//     stopped, when the referee established one;
//   - Advantage: the usual score would bring the line an advantage it
//     might not have earned (late_over_10, abandon_temporary,
//     abandon_justified): it scores 0.
//
// VP and MP are the referee score of referee_score and nothing else: every
// other reason's score follows from RULES §7.
type AdjustmentInput struct {
	Entrant        string
	Round          *int
	Reason         string
	Note           string
	VP             *int
	MP             *int
	Party          *string
	Played         *ScoreInput
	AtInterruption *ScoreInput
	Advantage      bool
}

// ScoreInput is a VP and MP pair given by the caller (both required).
type ScoreInput struct {
	VP *int
	MP *int
}

const (
	// MaxNoteLength bounds an adjustment's note.
	MaxNoteLength = 2000
	// MaxAdjustMP bounds a referee's MP: far beyond any real match (a
	// 4-hand match rarely reaches 4000) and far inside every column type.
	MaxAdjustMP = 100000
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

// CreateAdjustment records an adjustment (RULES §7) by a referee of the
// tournament or an admin (at club level the organising club too): it
// checks the input against the tournament, its entrants and rounds,
// counts the entrant's earlier warnings and byes and stores the case with
// its effect, in one transaction.
func (a *App) CreateAdjustment(ctx context.Context, p Principal, tid string, in AdjustmentInput) (store.Adjustment, error) {
	t, err := a.refereed(ctx, p, tid, "makes adjustments")
	if err != nil {
		return store.Adjustment{}, err
	}
	entered, err := a.enteredIDs(ctx, t.ID)
	if err != nil {
		return store.Adjustment{}, err
	}
	rs, err := a.db.ListRounds(ctx, t.ID)
	if err != nil {
		return store.Adjustment{}, err
	}
	rounds := make(map[int]domain.Round, len(rs))
	for _, r := range rs {
		rounds[r.Number] = r
	}
	ac, round, errs := in.check(t, entered, rounds)
	if len(errs) > 0 {
		return store.Adjustment{}, invalid(errs)
	}
	if ac.Reason == domain.ReasonForcedRemoval && ac.Played == nil {
		if ac.Played, err = a.playedAgainst(ctx, t, round, in.Entrant); err != nil {
			return store.Adjustment{}, err
		}
	}
	stored, err := a.db.AddAdjustment(ctx, t.ID, in.Entrant, buildAdjustment(ac, round.Number, in.Entrant, p.Name))
	if err != nil {
		return store.Adjustment{}, err
	}
	a.changed(ctx, t.ID, events.Standings, round.Number, 0)
	return stored, nil
}

// buildAdjustment assesses case c of entrant in round against the
// entrant's record read in the store's transaction (its warnings and
// byes), for AddAdjustment: one result per entrant and round.
func buildAdjustment(c domain.AdjustmentCase, round int, entrant, author string) func(store.EntrantRecord) (store.Adjustment, error) {
	return func(rec store.EntrantRecord) (store.Adjustment, error) {
		cs := countsOf(c, round, rec)
		effect, err := cs.Effect()
		if err != nil {
			return store.Adjustment{}, invalid(domainFieldErrors(err, adjustmentPointer))
		}
		if effect.Result != nil {
			// One result per entrant and round: a second would silently
			// replace the first in the standings.
			for _, prev := range rec.Adjustments {
				if prev.Round == round && prev.Effect.Result != nil {
					return store.Adjustment{}, conflict("api.adjust_exists", entrant, round, prev.ID, prev.Case.Reason)
				}
			}
		}
		return store.Adjustment{Round: round, Case: cs, Effect: effect, Author: author}, nil
	}
}

// check reads the input against the tournament, its entrants and rounds,
// and returns the case to assess (without the counts of the entrant's
// record, which the store reads in the transaction).
func (r AdjustmentInput) check(t domain.Tournament, entered map[string]bool, rounds map[int]domain.Round) (domain.AdjustmentCase, domain.Round, []FieldError) {
	var errs []FieldError
	bad := func(ptr, key string, a ...any) {
		errs = append(errs, field(ptr, key, a...))
	}
	c := domain.AdjustmentCase{Ruleset: t.Ruleset, Kind: t.Kind, HandsPlanned: t.HandsPerRound, Advantage: r.Advantage, Note: strings.TrimSpace(r.Note)}
	switch {
	case r.Entrant == "":
		bad("/entrant", "field.adjust_entrant")
	case !entered[r.Entrant]:
		bad("/entrant", "field.not_entered", r.Entrant)
	}
	var err error
	if r.Reason == "" {
		bad("/reason", "field.adjust_reason")
	} else if c.Reason, err = domain.ParseAdjustmentReason(r.Reason); err != nil {
		errs = append(errs, domainError("/reason", err))
	}
	errs = appendErr(errs, checkText("/note", r.Note, MaxNoteLength, c.Reason == domain.ReasonRefereeScore))
	var round domain.Round
	switch {
	case r.Round == nil && c.Reason != "" && !slices.Contains(roundlessReasons, c.Reason):
		bad("/round", "field.adjust_round", c.Reason)
	case r.Round != nil:
		rd, ok := rounds[*r.Round]
		if !ok {
			bad("/round", "field.no_round", t.ID, *r.Round)
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
			bad("/party", "field.adjust_no_party", c.Reason)
		} else if c.Party, err = domain.ParseParty(*r.Party); err != nil {
			errs = append(errs, domainError("/party", err))
		}
	}
	if c.Reason == domain.ReasonRefereeScore {
		if r.VP == nil {
			bad("/vp", "field.adjust_vp")
		}
		if r.MP == nil {
			bad("/mp", "field.adjust_mp")
		}
		if r.VP != nil && r.MP != nil {
			if *r.VP < -domain.MaxVP || *r.VP > domain.MaxVP {
				bad("/vp", "field.adjust_out_of_range", *r.VP, domain.MaxVP, domain.MaxVP)
			}
			if *r.MP < -MaxAdjustMP || *r.MP > MaxAdjustMP {
				bad("/mp", "field.adjust_out_of_range", *r.MP, MaxAdjustMP, MaxAdjustMP)
			}
			c.Referee = &domain.MatchScore{VP: *r.VP, MP: *r.MP}
		}
	} else if c.Reason != "" {
		for _, f := range []struct {
			ptr string
			v   *int
		}{{"/vp", r.VP}, {"/mp", r.MP}} {
			if f.v != nil {
				bad(f.ptr, "field.adjust_score_only", c.Reason)
			}
		}
	}
	score := func(ptr string, s *ScoreInput) *domain.MatchScore {
		if s == nil {
			return nil
		}
		if s.VP == nil || s.MP == nil {
			bad(ptr, "field.adjust_both")
			return nil
		}
		if *s.MP < -MaxAdjustMP || *s.MP > MaxAdjustMP {
			bad(ptr+"/mp", "field.adjust_mp_range", *s.MP)
			return nil
		}
		return &domain.MatchScore{VP: *s.VP, MP: *s.MP}
	}
	if r.Played != nil && c.Reason != domain.ReasonForcedRemoval {
		bad("/played", "field.adjust_played_only")
	} else {
		c.Played = score("/played", r.Played)
	}
	if r.AtInterruption != nil && !slices.Contains(abandonReasons, c.Reason) {
		bad("/at_interruption", "field.adjust_interrupt_only")
	} else {
		c.AtInterruption = score("/at_interruption", r.AtInterruption)
	}
	if r.Advantage && !slices.Contains(advantageReasons, c.Reason) {
		bad("/advantage", "field.adjust_no_advantage", c.Reason)
	}
	return c, round, errs
}

// playedAgainst is the VP and MP the entrant's line scored in the round's
// stored sheet (forced_removal: the innocent line's result against the
// removed pair).
func (a *App) playedAgainst(ctx context.Context, t domain.Tournament, r domain.Round, entrant string) (*domain.MatchScore, error) {
	for _, tb := range r.Tables {
		line, seated := tb.LineOf(entrant) // individual: either player of a line
		if !seated {
			continue
		}
		st, err := a.db.GetSheet(ctx, t.ID, r.Number, tb.Table)
		if errors.Is(err, domain.ErrNotFound) {
			break
		}
		if err != nil {
			return nil, err
		}
		res := domain.Validate(st.Sheet).Computed.Lines[line]
		return &domain.MatchScore{VP: res.VP, MP: res.MP}, nil
	}
	return nil, invalid([]FieldError{field("/played", "field.adjust_no_sheet", entrant, r.Number)})
}

// adjustmentPointer maps the fields AdjustmentCase.Effect names to the
// input: what the service derived from the round points at /round.
func adjustmentPointer(field string) string {
	switch field {
	case "hands_planned", "phase", "late_round":
		return "/round"
	case "ruleset", "kind", "warnings_before", "byes_before":
		return ""
	}
	return "/" + strings.ReplaceAll(field, ".", "/")
}

// domainFieldErrors turns a domain validation error — one ErrInvalid, or
// several joined, each "field: detail" with the field named as the API
// spells it (a dot for nesting: "played.vp") — into field errors; pointer
// maps a field name to the JSON pointer that names it in the input.
func domainFieldErrors(err error, pointer func(field string) string) []FieldError {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	var out []FieldError
	for _, e := range errs {
		msg := domainDetail(e)
		field, detail, ok := strings.Cut(msg, ": ")
		if !ok || strings.ContainsAny(field, " \"") || !errors.Is(e, domain.ErrInvalid) {
			out = append(out, uncoded("", msg))
			continue
		}
		out = append(out, uncoded(pointer(field), detail))
	}
	return out
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
