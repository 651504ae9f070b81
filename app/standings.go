package app

import (
	"context"
	"slices"
	"sync"

	"segnapunti/domain"
	"segnapunti/store"
)

// Standings (RULES §8), ranked from the stored match results (one narrow
// query, store.MatchResults: the WRITTEN result of every delivered sheet,
// changed only by an applied correction), the rounds' byes and the referee
// adjustments. The result is cached per tournament state
// (store.StandingsStampByRound: the tournament's version, the results'
// count and versions — also round by round —, the adjustments): every
// sheet write, correction, adjustment or round state change gives a new
// stamp, so a cached table is never served across a change; the results
// are kept per round the same way (resultsByRound), so after a sheet
// write only its round is read again.

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
	stamp, byRound, err := a.db.StandingsStampByRound(ctx, t.ID)
	if err != nil {
		return StandingsTable{}, err
	}
	st, err := a.standings.Get(t.ID, afterRound, stamp, func() (StandingsTable, error) {
		return a.readStandings(ctx, t, stamp, byRound, afterRound)
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

// factsNow is factsAt the tournament's stamp read now, which it returns
// too (pages that show the tournament's version).
func (a *App) factsNow(ctx context.Context, tid string) (standingsFacts, store.StandingsStamp, error) {
	stamp, err := a.db.StandingsStamp(ctx, tid)
	if err != nil {
		return standingsFacts{}, stamp, err
	}
	facts, err := a.factsAt(ctx, tid, stamp)
	return facts, stamp, err
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
func (a *App) readStandings(ctx context.Context, t domain.Tournament, stamp store.StandingsStamp, byRound map[int]store.RoundStamp, afterRound int) (StandingsTable, error) {
	facts, err := a.factsAt(ctx, t.ID, stamp)
	if err != nil {
		return StandingsTable{}, err
	}
	entrants, rounds := facts.entrants, facts.rounds
	adjustments, err := a.db.ListAdjustments(ctx, t.ID)
	if err != nil {
		return StandingsTable{}, err
	}
	results, err := a.standingsResults.read(ctx, a.db, t.ID, stamp.TournamentPart(), byRound, afterRound, rounds)
	if err != nil {
		return StandingsTable{}, err
	}
	return computeStandings(t, entrants, rounds, results, adjustments, afterRound)
}

// resultsByRound keeps, per tournament and round, the results the
// standings read (store.MatchResultsSeatedIn) with the tournament version
// and the round's stamp they were read at: after a sheet write only its
// round is read again (issue 26: at 10,000 × 8 the whole read was 40,000
// rows, as much of the server's CPU as the ranking of the process's).
// Each round is checked against the stamp the request read, so a round
// another process wrote is read again too: a round's results are never
// used across a change of it (equal round stamps at an equal version,
// equal results, as for the tournament stamp). Rows are shared by
// concurrent readers: read them, never change them.
type resultsByRound struct {
	mu sync.Mutex
	m  map[string]map[int]roundResults // by tournament, by round
}

type roundResults struct {
	version store.StandingsStamp // the tournament's (StandingsStamp.TournamentPart)
	stamp   store.RoundStamp
	rows    []domain.TableResult
}

// read is what db.MatchResultsSeated(ctx, tid, afterRound, rounds) reads
// at the state byRound names (the rounds that have results), the rounds
// whose stamp the cache holds taken from it.
func (c *resultsByRound) read(ctx context.Context, db *store.DB, tid string, version store.StandingsStamp, byRound map[int]store.RoundStamp, afterRound int, rounds []domain.Round) ([]domain.TableResult, error) {
	counted := make([]int, 0, len(byRound))
	for n := range byRound {
		if afterRound == 0 || n <= afterRound {
			counted = append(counted, n)
		}
	}
	slices.Sort(counted)
	have := make(map[int][]domain.TableResult, len(counted))
	var stale []int
	c.mu.Lock()
	for _, n := range counted {
		if e, ok := c.m[tid][n]; ok && e.version == version && e.stamp == byRound[n] {
			have[n] = e.rows
		} else {
			stale = append(stale, n)
		}
	}
	c.mu.Unlock()
	if len(stale) > 0 {
		fresh, err := db.MatchResultsSeatedIn(ctx, tid, stale, rounds)
		if err != nil {
			return nil, err
		}
		for len(fresh) > 0 { // by round and table: one run a round
			n := fresh[0].Round
			end := 1
			for end < len(fresh) && fresh[end].Round == n {
				end++
			}
			have[n], fresh = fresh[:end:end], fresh[end:]
		}
		c.mu.Lock()
		if c.m == nil {
			c.m = map[string]map[int]roundResults{}
		}
		kept := c.m[tid]
		if kept == nil || len(stale) == len(counted) {
			kept = map[int]roundResults{} // nothing else to keep: rounds gone are dropped too
			c.m[tid] = kept
		}
		for _, n := range stale {
			kept[n] = roundResults{version: version, stamp: byRound[n], rows: have[n]}
		}
		c.mu.Unlock()
	}
	size := 0
	for _, n := range counted {
		size += len(have[n])
	}
	out := make([]domain.TableResult, 0, size)
	for _, n := range counted {
		out = append(out, have[n]...)
	}
	return out, nil
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
