package app

import (
	"context"
	"fmt"

	"segnapunti/domain"
	"segnapunti/store"
)

// Standings (RULES §8), computed on every request from the stored sheets,
// the rounds' byes and the referee adjustments — nothing is cached, so a
// correction or an adjustment shows at once.

// Standings is the standings of a tournament p may read after round
// afterRound (0: every round that has a sheet; else 1..rounds_planned).
func (a *App) Standings(ctx context.Context, p Principal, tid string, afterRound int) (StandingsTable, error) {
	return a.StandingsAfter(ctx, p, tid, func(t domain.Tournament) (int, error) {
		if afterRound < 0 || afterRound > t.RoundsPlanned {
			return 0, paramError("after_round", fmt.Sprintf("after_round must be an integer from 1 to %d", t.RoundsPlanned))
		}
		return afterRound, nil
	})
}

// StandingsAfter is Standings with the round read once the tournament is
// known to be readable (a door's parameter is checked against its
// rounds_planned, and a tournament p may not see is a 404 first).
func (a *App) StandingsAfter(ctx context.Context, p Principal, tid string, afterRound func(domain.Tournament) (int, error)) (StandingsTable, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return StandingsTable{}, err
	}
	after, err := afterRound(t)
	if err != nil {
		return StandingsTable{}, err
	}
	return a.StandingsOf(ctx, t, after)
}

// StandingsTable is the standings with what a page or an answer shows
// besides them.
type StandingsTable struct {
	AfterRound  int // the last round counted
	Rows        []domain.Standing
	Adjustments map[string][]store.Adjustment // by entrant: those counted
}

// StandingsOf reads what the standings of t are computed from and
// computes them, after round afterRound (0: every round that has a
// sheet). The caller has checked that t may be read (the exports, a
// correction's before and after).
func (a *App) StandingsOf(ctx context.Context, t domain.Tournament, afterRound int) (StandingsTable, error) {
	entrants, err := a.db.ListEntrants(ctx, t.ID)
	if err != nil {
		return StandingsTable{}, err
	}
	rounds, err := a.db.ListRounds(ctx, t.ID)
	if err != nil {
		return StandingsTable{}, err
	}
	adjustments, err := a.db.ListAdjustments(ctx, t.ID)
	if err != nil {
		return StandingsTable{}, err
	}
	var sheets []store.SheetAt
	for sh, err := range a.db.EachSheet(ctx, t.ID) {
		if err != nil {
			return StandingsTable{}, err
		}
		sheets = append(sheets, sh)
	}
	return computeStandings(t, entrants, rounds, sheets, adjustments, afterRound)
}

// computeStandings builds the input of domain.Standings from the records:
//
//   - every stored sheet of a round up to afterRound gives each line a
//     result: the VP and MP domain.Validate computes from the hands (never
//     the written figures, RULES §6), credited to the entrants the round
//     seats at that table (not the ids written on the sheet);
//   - every bye of a round's byes list gives the rest score of RULES §7
//     (the domain's bye effect for the tournament's ruleset and kind and
//     the round's planned hands);
//   - an adjustment whose effect is a result (a bye, an awarded or lost
//     match, a late start) takes the place of the entrant's result of that
//     round, whether a sheet or a bye gave one or not;
//   - an adjustment's penalty (the second warning's −1 VP, a referee score)
//     is added to the entrant's totals.
//
// afterRound 0 means every round up to the last one with a sheet. Results
// of an individual tournament are credited to the entrant seated at the
// line (the rounds seat one entrant per line), as in a pairs tournament.
func computeStandings(t domain.Tournament, entrants []domain.Entrant, rounds []domain.Round, sheets []store.SheetAt, adjustments []store.Adjustment, afterRound int) (StandingsTable, error) {
	if afterRound == 0 {
		for _, sh := range sheets {
			afterRound = max(afterRound, sh.Round)
		}
	}
	counts := func(round int) bool { return round <= afterRound }

	type key struct {
		entrant string
		round   int
	}
	var results []domain.MatchResult
	at := map[key]int{} // index in results
	put := func(r domain.MatchResult) {
		k := key{r.Entrant, r.Round}
		if i, ok := at[k]; ok {
			results[i] = r
			return
		}
		at[k] = len(results)
		results = append(results, r)
	}

	byNumber := make(map[int]domain.Round, len(rounds))
	for _, r := range rounds {
		byNumber[r.Number] = r
	}
	for _, sh := range sheets {
		if !counts(sh.Round) {
			continue
		}
		r, ok := byNumber[sh.Round]
		if !ok {
			return StandingsTable{}, fmt.Errorf("standings: a sheet is stored for round %d, which does not exist", sh.Round)
		}
		tb, ok := r.Assignment(sh.Table)
		if !ok {
			return StandingsTable{}, fmt.Errorf("standings: a sheet is stored for table %d, which round %d does not have", sh.Table, sh.Round)
		}
		lines := domain.Validate(sh.Sheet).Computed.Lines
		put(domain.MatchResult{Round: r.Number, Entrant: tb.NS, Opponent: tb.EO, VP: lines[domain.NS].VP, MP: lines[domain.NS].MP})
		put(domain.MatchResult{Round: r.Number, Entrant: tb.EO, Opponent: tb.NS, VP: lines[domain.EO].VP, MP: lines[domain.EO].MP})
	}
	for _, r := range rounds {
		if !counts(r.Number) {
			continue
		}
		for _, id := range r.Byes {
			score, err := byeScore(t, r)
			if err != nil {
				return StandingsTable{}, err
			}
			put(domain.MatchResult{Round: r.Number, Entrant: id, VP: score.VP, MP: score.MP, Bye: true})
		}
	}

	var penalties []domain.Adjustment
	counted := map[string][]store.Adjustment{}
	for _, a := range adjustments {
		if a.Round > 0 && !counts(a.Round) {
			continue
		}
		counted[a.Entrant] = append(counted[a.Entrant], a)
		e := a.Effect
		if e.Result != nil && a.Round > 0 {
			r := domain.MatchResult{Round: a.Round, Entrant: a.Entrant, VP: e.Result.VP, MP: e.Result.MP, Bye: e.Bye, Awarded: e.Awarded && !e.Bye}
			if !e.Bye {
				r.Opponent = opponentIn(byNumber[a.Round], a.Entrant)
			}
			put(r)
		}
		if e.Delta != (domain.MatchScore{}) {
			penalties = append(penalties, domain.Adjustment{
				Entrant: a.Entrant, Round: a.Round, Reason: a.Case.Reason,
				VP: e.Delta.VP, MP: e.Delta.MP, Note: a.Case.Note, Author: a.Author, At: a.At,
			})
		}
	}

	// The rounds are already cut at afterRound above; the domain counts
	// everything it is given.
	rows, err := domain.Standings(domain.StandingsInput{Entrants: entrants, Results: results, Adjustments: penalties})
	if err != nil {
		return StandingsTable{}, fmt.Errorf("standings of tournament %s: %w", t.ID, err)
	}
	return StandingsTable{AfterRound: afterRound, Rows: rows, Adjustments: counted}, nil
}

// byeScore is the rest score of RULES §7 for a bye in round r.
func byeScore(t domain.Tournament, r domain.Round) (domain.MatchScore, error) {
	e, err := domain.AdjustmentCase{Reason: domain.ReasonBye, Ruleset: t.Ruleset, Kind: t.Kind, HandsPlanned: r.HandsPlanned}.Effect()
	if err != nil {
		return domain.MatchScore{}, fmt.Errorf("bye score of round %d: %w", r.Number, err)
	}
	return *e.Result, nil
}

// opponentIn is the entrant seated against id in round r, "" when id is
// not seated.
func opponentIn(r domain.Round, id string) string {
	for _, tb := range r.Tables {
		switch id {
		case tb.NS:
			return tb.EO
		case tb.EO:
			return tb.NS
		}
	}
	return ""
}
