package app

import (
	"context"
	"errors"

	"segnapunti/domain"
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
	rec, err := a.db.GetCorrection(ctx, t.ID, id)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && id < 1) {
		return store.Correction{}, notFound("tournament %q has no correction %d", t.ID, id)
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
