package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"segnapunti/domain"
	"segnapunti/events"
	"segnapunti/exporters/reportjson"
	"segnapunti/store"
)

// Score corrections after delivery (RULES §9) and referee adjustments
// (RULES §7, §8): reading the trails. Both are append-only.

// Corrections is the tournament's correction trail, oldest first.
func (a *App) Corrections(ctx context.Context, p Principal, tid string) ([]store.Correction, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return nil, err
	}
	return a.db.ListCorrections(ctx, t.ID, store.CorrectionFilter{})
}

// Correction is one recorded correction.
func (a *App) Correction(ctx context.Context, p Principal, tid string, id int64) (store.Correction, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return store.Correction{}, err
	}
	nf := notFound("api.no_correction", t.ID, id)
	if id < 1 {
		return store.Correction{}, nf
	}
	rec, err := a.db.GetCorrection(ctx, t.ID, id)
	if errors.Is(err, domain.ErrNotFound) {
		return store.Correction{}, nf
	}
	return rec, err
}

// Adjustments is the tournament's adjustments, oldest first.
func (a *App) Adjustments(ctx context.Context, p Principal, tid string) ([]store.Adjustment, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return nil, err
	}
	return a.db.ListAdjustments(ctx, t.ID)
}

// EnteredIDs is the set of the tournament's entrant ids.
func (a *App) EnteredIDs(ctx context.Context, tid string) (map[string]bool, error) {
	return a.enteredIDs(ctx, tid)
}

// CorrectionFacts are the facts of RULES §9 that are not in the service's
// records: the caller says them (default false).
type CorrectionFacts struct {
	StandingsContested   bool // the paper standings of a gironi phase are contested
	BothLinesAcknowledge bool
	RefereeCountersigned bool
}

// CorrectionSituation derives the situation RULES §9 rules on from the
// service's records (API §4.1: "the phase, level, round states, current
// round and whether the tournament is closed come from the service's own
// records"). rounds are the stored rounds, errorRound one of them. Field
// by field:
//
//   - ruleset, level: the tournament's.
//   - error_round: the round of the erroneous sheet.
//   - tournament_closed: the last planned round (rounds_planned) is stored
//     and is sheets_delivered or later — its sheets are handed in.
//   - current_round, current_round_started, phase: the latest stored round,
//     started, and its phase. [INTERP currentRoundOf: a stored round has
//     its tables out and is under way (the states have no "published, not
//     started"); a round that is not stored is not the current round, even
//     when the latest one is delivered — the next is not known yet, not
//     even its phase.]
//   - standings_published: the erroneous round is standings_published or
//     later.
//   - positions_published: the erroneous round is next_pairing_published,
//     or the next round is stored (its tables are the published positions).
//   - standings_contested, both_lines_acknowledge, referee_countersigned:
//     not in the records; facts says them.
func CorrectionSituation(t domain.Tournament, rounds []domain.Round, errorRound int, kind domain.CorrectionKind, facts CorrectionFacts) domain.CorrectionSituation {
	sit := domain.CorrectionSituation{
		Ruleset: t.Ruleset, Kind: kind, Level: t.Level, ErrorRound: errorRound,
		StandingsContested: facts.StandingsContested, BothLinesAcknowledge: facts.BothLinesAcknowledge,
		RefereeCountersigned: facts.RefereeCountersigned,
	}
	for _, r := range rounds {
		if r.Number == t.RoundsPlanned && r.State.Order() >= domain.RoundSheetsDelivered.Order() {
			sit.TournamentClosed = true
		}
		if r.Number == errorRound {
			sit.StandingsPublished = r.State.Order() >= domain.RoundStandingsPublished.Order()
			sit.PositionsPublished = sit.PositionsPublished || r.State == domain.RoundNextPairingPublished
		}
		if r.Number == errorRound+1 {
			sit.PositionsPublished = true
		}
	}
	sit.CurrentRound, sit.CurrentRoundStarted, sit.Phase = currentRoundOf(rounds)
	return sit
}

// currentRoundOf is the round being played: the latest stored one, which
// has started (see [INTERP] above). No rounds: round 0, not started.
func currentRoundOf(rounds []domain.Round) (number int, started bool, phase domain.Phase) {
	var latest domain.Round
	for _, r := range rounds {
		if r.Number > latest.Number {
			latest = r
		}
	}
	return latest.Number, latest.Number > 0, latest.Phase
}

// CorrectionInput is a referee's correction request once read (API §4.1).
type CorrectionInput struct {
	Round, Table int
	Kind         domain.CorrectionKind
	Facts        CorrectionFacts
	Reason       string
	Version      int // the sheet version it was made on; 0: any
	// Change is what the correction changes, as the door read it.
	Change SheetChange
}

// SheetChange is a correction's change of a sheet as a door reads it (a
// JSON merge patch, a form's values: CorrectedValues): applied to the
// stored sheet under its lock, it gives the corrected sheet with the
// replaced parts before and after as the store records them.
type SheetChange interface {
	Apply(stored domain.Sheet) (corrected domain.Sheet, before, after []byte, err error)
}

// CorrectionResult is a recorded correction: the ruling, the record, and
// the standings before and after it.
type CorrectionResult struct {
	Decision        domain.Decision
	Record          store.Correction
	StandingsBefore StandingsTable
	StandingsAfter  StandingsTable
}

// CreateCorrection rules on a correction (RULES §9, domain.Decide) from
// the service's records and records it, applied or rejected; when it
// applies the sheet is corrected in the same transaction, under the
// sheet's lock. By a referee of the tournament or an admin (at club level
// the organising club too): scope is resolved with TournamentCorrect
// before the door reads the request. A sheet changed since Version is a
// *store.StaleSheetError.
func (a *App) CreateCorrection(ctx context.Context, scope TournamentScope, in CorrectionInput) (CorrectionResult, error) {
	if err := scope.allows(TournamentCorrect); err != nil {
		return CorrectionResult{}, err
	}
	t, p := scope.Tournament, scope.By
	rounds, err := a.db.ListRounds(ctx, t.ID)
	if err != nil {
		return CorrectionResult{}, err
	}
	var errRound *domain.Round
	for i := range rounds {
		if rounds[i].Number == in.Round {
			errRound = &rounds[i]
		}
	}
	if errRound == nil {
		return CorrectionResult{}, invalid([]FieldError{field("/round", "field.no_round", t.ID, in.Round)})
	}
	if _, ok := errRound.Assignment(in.Table); !ok {
		return CorrectionResult{}, invalid([]FieldError{field("/table", "field.no_table_in_round", in.Round, in.Table)})
	}
	sit := CorrectionSituation(t, rounds, in.Round, in.Kind, in.Facts)
	decision := domain.Decide(sit)
	before, err := a.StandingsOf(ctx, t, 0)
	if err != nil {
		return CorrectionResult{}, err
	}
	rec, err := a.db.CorrectSheet(ctx, t.ID, in.Round, in.Table, in.Version, func(st store.StoredSheet) (store.CorrectionOutcome, error) {
		sh, beforeParts, afterParts, err := in.Change.Apply(st.Sheet)
		if err != nil {
			return store.CorrectionOutcome{}, err
		}
		oc := store.CorrectionOutcome{Correction: store.Correction{
			Kind: in.Kind, Ruling: decision.Ruling, Rules: decision.Rules, RulingReason: decision.Reason,
			Reason: strings.TrimSpace(in.Reason), Situation: sit, Before: beforeParts, After: afterParts, Author: p.Name,
		}}
		if decision.Ruling.Applies() {
			// RULES §8: a sum or inversion correction that gives no written
			// values makes the official result what the sheet adds up to.
			given := !sameWritten(sh.Written, st.Sheet.Written)
			if official := domain.CorrectedOfficial(in.Kind, sh, given); !sameWritten(official.Written, sh.Written) {
				keys, err := partKeys(afterParts, "written")
				if err != nil {
					return store.CorrectionOutcome{}, err
				}
				if oc.Correction.Before, err = sheetParts(st.Sheet, keys); err != nil {
					return store.CorrectionOutcome{}, err
				}
				if oc.Correction.After, err = sheetParts(official, keys); err != nil {
					return store.CorrectionOutcome{}, err
				}
				sh = official
			}
			report, err := reportjson.Marshal(domain.Validate(sh), domain.English)
			if err != nil {
				return store.CorrectionOutcome{}, fmt.Errorf("encode report: %w", err)
			}
			oc.Sheet, oc.ReportJSON = &sh, report
		}
		return oc, nil
	})
	var stale *store.StaleSheetError
	switch {
	case errors.As(err, &stale):
		return CorrectionResult{}, err
	case errors.Is(err, domain.ErrNotFound):
		return CorrectionResult{}, invalid([]FieldError{field("/table", "field.nothing_to_correct", in.Table, in.Round)})
	case err != nil:
		return CorrectionResult{}, err
	}
	after := before
	if rec.Applied {
		a.changed(ctx, t.ID, events.Sheet, in.Round, in.Table)
		if after, err = a.StandingsOf(ctx, t, 0); err != nil {
			return CorrectionResult{}, err
		}
	}
	return CorrectionResult{Decision: decision, Record: rec, StandingsBefore: before, StandingsAfter: after}, nil
}

// AdjustTournament loads the tournament of a new adjustment (RULES §7,
// §8): by a referee of the tournament or an admin (at club level the
// organising club too). CreateAdjustment checks and stores it.
func (a *App) AdjustTournament(ctx context.Context, p Principal, tid string) (domain.Tournament, error) {
	return a.refereed(ctx, p, tid, "makes adjustments")
}

// Adjustment is one adjustment of a tournament p may read.
func (a *App) Adjustment(ctx context.Context, p Principal, tid string, id int64) (store.Adjustment, error) {
	list, err := a.Adjustments(ctx, p, tid)
	if err != nil {
		return store.Adjustment{}, err
	}
	for _, adj := range list {
		if adj.ID == id {
			return adj, nil
		}
	}
	return store.Adjustment{}, notFound("api.no_adjustment", tid, id)
}

// sameWritten reports whether two sheets' written results are equal.
func sameWritten(a, b [2]domain.WrittenResult) bool {
	for _, l := range domain.Lines {
		if !sameInt(a[l].Total, b[l].Total) || !sameInt(a[l].MP, b[l].MP) || !sameInt(a[l].VP, b[l].VP) {
			return false
		}
	}
	return true
}

// partKeys are the top-level keys of recorded parts (a JSON object),
// with extra added.
func partKeys(parts []byte, extra string) ([]string, error) {
	m := map[string]json.RawMessage{}
	if len(parts) > 0 {
		if err := json.Unmarshal(parts, &m); err != nil {
			return nil, fmt.Errorf("correction parts: %w", err)
		}
	}
	keys := []string{extra}
	for k := range m {
		if k != extra {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys, nil
}
