package app

import (
	"context"

	"segnapunti/domain"
	"segnapunti/store"
)

// Standings (RULES §8), ranked from the stored match results (one narrow
// query, store.MatchResults: the WRITTEN result of every delivered sheet,
// changed only by an applied correction), the rounds' byes and the referee
// adjustments. The result is cached per tournament state
// (store.StandingsStamp: the tournament's version, the results' count and
// versions, the adjustments): every sheet write, correction, adjustment or
// round state change gives a new stamp, so a cached table is never served
// across a change.

// Standings is the standings of a tournament p may read after round
// afterRound (0: every round that has a sheet; else 1..rounds_planned).
func (a *App) Standings(ctx context.Context, p Principal, tid string, afterRound int) (StandingsTable, error) {
	scope, err := a.TournamentScope(ctx, p, tid, TournamentRead)
	if err != nil {
		return StandingsTable{}, err
	}
	if t := scope.Tournament; afterRound < 0 || afterRound > t.RoundsPlanned {
		return StandingsTable{}, paramError("after_round", "api.int_range", "after_round", 1, t.RoundsPlanned)
	}
	return a.StandingsAfter(ctx, scope, afterRound)
}

// StandingsAfter is the standings of the tournament of scope (resolved
// with TournamentRead before a door checked its parameter against the
// tournament's rounds_planned: a tournament p may not see is a 404 first)
// after round after (0: every round that has a sheet).
func (a *App) StandingsAfter(ctx context.Context, scope TournamentScope, after int) (StandingsTable, error) {
	if err := scope.allows(TournamentRead); err != nil {
		return StandingsTable{}, err
	}
	t := scope.Tournament
	ruling, interrupted := t.Interruption()
	if interrupted && after == 0 {
		// FITAB art. 39: a valid interrupted tournament's final standings
		// are those after its last completed round.
		after = ruling.AfterRound
	}
	st, err := a.StandingsOf(ctx, t, after)
	if interrupted {
		k := ruling.AfterRound
		st.InterruptedAfterRound, st.Void = &k, !ruling.Valid
	}
	return st, err
}

// StandingsTable is the standings with what a page or an answer shows
// besides them. A table may be shared by concurrent readers (the cache):
// read it, never change it.
type StandingsTable struct {
	AfterRound int // the last round counted
	// InterruptedAfterRound and Void: the tournament was interrupted
	// (FITAB art. 39, RULES §12.6); a void one has no final standings.
	InterruptedAfterRound *int
	Void                  bool
	// Stamp names the state the table was computed at (equal stamps,
	// equal tables): an answer may be cached by it.
	Stamp       store.StandingsStamp
	Rows        []domain.Standing
	Adjustments map[string][]store.Adjustment // by entrant: those counted
	// Discrepancies are, by entrant, the counted matches whose official
	// (written) result is not the computed one (RULES §8), by round.
	Discrepancies map[string][]Discrepancy
	// Teams: a team tournament (RULES §12.5); TeamMatches its counted
	// matches, by round and match.
	Teams       bool
	TeamMatches []domain.TeamMatchResult
}

// Discrepancy is a counted match whose official result differs from the
// computed one, seen from one entrant's line, and what a correction of it
// would be ruled now (RULES §9 with the service's records and no facts
// the caller would add: domain.Decide).
type Discrepancy struct {
	Round, Table int
	Line         domain.Line
	Official     domain.LineResult
	Computed     domain.LineResult
	Kind         domain.CorrectionKind // sum, inversion, other
	Correctable  domain.Ruling         // apply, apply_keep_pairing, reject
}

// StandingsOf reads what the standings of t are computed from and
// computes them, after round afterRound (0: every round that has a
// result). The caller has checked that t may be read (the exports, a
// correction's before and after).
func (a *App) StandingsOf(ctx context.Context, t domain.Tournament, afterRound int) (StandingsTable, error) {
	stamp, err := a.db.StandingsStamp(ctx, t.ID)
	if err != nil {
		return StandingsTable{}, err
	}
	st, err := a.standings.Get(t.ID, afterRound, stamp, func() (StandingsTable, error) {
		return a.readStandings(ctx, t, stamp, afterRound)
	})
	st.Stamp = stamp
	return st, err
}

// standingsFacts are the entrants and rounds of a tournament at one
// version of it. Shared by concurrent readers: read them, never change
// them.
type standingsFacts struct {
	entrants []domain.Entrant
	rounds   []domain.Round
}

// factsAt reads the entrants and rounds of tournament tid at stamp, from
// the cache per tournament version when its version has not moved.
func (a *App) factsAt(ctx context.Context, tid string, stamp store.StandingsStamp) (standingsFacts, error) {
	return a.standingsFacts.Get(tid, 0, stamp.TournamentPart(), func() (standingsFacts, error) {
		entrants, err := a.db.ListEntrants(ctx, tid)
		if err != nil {
			return standingsFacts{}, err
		}
		rounds, err := a.db.ListRounds(ctx, tid)
		return standingsFacts{entrants: entrants, rounds: rounds}, err
	})
}

// readStandings computes the standings without the standings cache; the
// entrants and rounds come from the cache per tournament version (a sheet
// write or an adjustment does not change them: the live page's read after
// a write reads only the adjustments and the results).
func (a *App) readStandings(ctx context.Context, t domain.Tournament, stamp store.StandingsStamp, afterRound int) (StandingsTable, error) {
	facts, err := a.factsAt(ctx, t.ID, stamp)
	if err != nil {
		return StandingsTable{}, err
	}
	entrants, rounds := facts.entrants, facts.rounds
	adjustments, err := a.db.ListAdjustments(ctx, t.ID)
	if err != nil {
		return StandingsTable{}, err
	}
	results, err := a.db.MatchResultsSeated(ctx, t.ID, afterRound, rounds)
	if err != nil {
		return StandingsTable{}, err
	}
	return computeStandings(t, entrants, rounds, results, adjustments, afterRound)
}

// computeStandings ranks the records with domain.OfficialStandings:
//
//   - every stored result of a round up to afterRound gives each line its
//     OFFICIAL VP and MP — the written figures (RULES §8, first paragraph),
//     not those domain.Validate computes — credited to the entrants the
//     round seats at that table (not the ids written on the sheet);
//   - every bye of a round's byes list gives the rest score of RULES §7;
//   - an adjustment whose effect is a result takes the place of the
//     entrant's result of that round; an adjustment's penalty is added.
//
// Each counted result whose official figures differ from the computed
// ones is listed, for both its entrants, with the ruling a correction of
// it would get now (CorrectionSituation, domain.Decide).
func computeStandings(t domain.Tournament, entrants []domain.Entrant, rounds []domain.Round, results []domain.TableResult, adjustments []store.Adjustment, afterRound int) (StandingsTable, error) {
	recorded := make([]domain.RecordedAdjustment, len(adjustments))
	for i, a := range adjustments {
		recorded[i] = domain.RecordedAdjustment{Entrant: a.Entrant, Round: a.Round, Case: a.Case, Effect: a.Effect, Author: a.Author, At: a.At}
	}
	res, err := domain.OfficialStandings(domain.OfficialStandingsInput{
		Tournament: t, Entrants: entrants, Rounds: rounds, Results: results,
		Adjustments: recorded, AfterRound: afterRound,
	})
	if err != nil {
		return StandingsTable{}, err
	}
	out := StandingsTable{AfterRound: res.AfterRound, Rows: res.Rows,
		Adjustments: make(map[string][]store.Adjustment, len(res.Counted)),
		Teams:       t.Kind == domain.KindTeams, TeamMatches: res.TeamMatches}
	for id, idx := range res.Counted {
		for _, i := range idx {
			out.Adjustments[id] = append(out.Adjustments[id], adjustments[i])
		}
	}
	if len(res.Differing) > 0 {
		out.Discrepancies = map[string][]Discrepancy{}
		rulings := map[[2]any]domain.Ruling{} // by round and kind
		for _, tr := range res.Differing {
			k := [2]any{tr.Round, tr.Kind}
			ruling, ok := rulings[k]
			if !ok {
				ruling = domain.Decide(CorrectionSituation(t, rounds, tr.Round, tr.Kind, CorrectionFacts{})).Ruling
				rulings[k] = ruling
			}
			for _, l := range domain.Lines {
				for _, id := range tr.Players(l) { // individual: both players of the line
					out.Discrepancies[id] = append(out.Discrepancies[id], Discrepancy{
						Round: tr.Round, Table: tr.Table, Line: l,
						Official: tr.Official[l], Computed: tr.Computed[l], Kind: tr.Kind, Correctable: ruling,
					})
				}
			}
		}
	}
	return out, nil
}

// resultsOf is the results of sheets as the store computes and keeps them
// (domain.OfficialResult), seated as the rounds seat them: for standings of
// sheets not (or not yet) stored, e.g. a correction's preview.
func resultsOf(rounds []domain.Round, sheets []store.SheetAt) []domain.TableResult {
	var out []domain.TableResult
	for _, sh := range sheets {
		for _, r := range rounds {
			tb, ok := r.Assignment(sh.Table)
			if r.Number != sh.Round || !ok {
				continue
			}
			m := domain.OfficialResult(sh.Sheet, domain.Validate(sh.Sheet))
			tr := domain.TableResult{Round: sh.Round, Table: sh.Table, NS: tb.NS, EO: tb.EO, NS2: tb.NS2, EO2: tb.EO2, Differs: m.Differs, Kind: m.Kind}
			for _, l := range domain.Lines {
				tr.Official[l], tr.Computed[l] = m.Lines[l].Official, m.Lines[l].Computed
			}
			out = append(out, tr)
		}
	}
	return out
}
