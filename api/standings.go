package api

import (
	"context"
	"fmt"

	"github.com/gin-gonic/gin"

	"segnapunti/domain"
	"segnapunti/store"
)

// Standings (RULES §8): GET /v1/tournaments/{tid}/standings?after_round=n,
// computed on every request from the stored sheets, the rounds' byes and
// the referee adjustments — nothing is cached, so a correction or an
// adjustment shows at once.

// standingsOf is the tournament's standings after round afterRound (0:
// every round that has a sheet). The exports call it.
func (s *server) standingsOf(ctx context.Context, t domain.Tournament, afterRound int) ([]domain.Standing, error) {
	st, err := s.standings(ctx, t, afterRound)
	return st.rows, err
}

// standingsTable is the standings with what the answer shows besides them.
type standingsTable struct {
	afterRound  int // the last round counted
	rows        []domain.Standing
	adjustments map[string][]store.Adjustment // by entrant: those counted
}

// standings reads what the standings are computed from and computes them.
func (s *server) standings(ctx context.Context, t domain.Tournament, afterRound int) (standingsTable, error) {
	entrants, err := s.db.ListEntrants(ctx, t.ID)
	if err != nil {
		return standingsTable{}, err
	}
	rounds, err := s.db.ListRounds(ctx, t.ID)
	if err != nil {
		return standingsTable{}, err
	}
	adjustments, err := s.db.ListAdjustments(ctx, t.ID)
	if err != nil {
		return standingsTable{}, err
	}
	var sheets []store.SheetAt
	for sh, err := range s.db.EachSheet(ctx, t.ID) {
		if err != nil {
			return standingsTable{}, err
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
func computeStandings(t domain.Tournament, entrants []domain.Entrant, rounds []domain.Round, sheets []store.SheetAt, adjustments []store.Adjustment, afterRound int) (standingsTable, error) {
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
			return standingsTable{}, fmt.Errorf("standings: a sheet is stored for round %d, which does not exist", sh.Round)
		}
		tb, ok := r.Assignment(sh.Table)
		if !ok {
			return standingsTable{}, fmt.Errorf("standings: a sheet is stored for table %d, which round %d does not have", sh.Table, sh.Round)
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
				return standingsTable{}, err
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
		return standingsTable{}, fmt.Errorf("standings of tournament %s: %w", t.ID, err)
	}
	return standingsTable{afterRound: afterRound, rows: rows, adjustments: counted}, nil
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

type standingJSON struct {
	Rank        int              `json:"rank"`
	Entrant     string           `json:"entrant"`
	Players     []playerJSON     `json:"players"`
	VP          int              `json:"vp"`
	MP          int              `json:"mp"`
	Wins        int              `json:"wins"`
	Adjustments []adjustmentJSON `json:"adjustments"`
	Tiebreak    *string          `json:"tiebreak"`
}

type standingsResponse struct {
	AfterRound int            `json:"after_round"`
	Standings  []standingJSON `json:"standings"`
}

func toStandingsResponse(st standingsTable) standingsResponse {
	out := standingsResponse{AfterRound: st.afterRound, Standings: make([]standingJSON, 0, len(st.rows))}
	for _, r := range st.rows {
		row := standingJSON{
			Rank: r.Rank, Entrant: r.Entrant.ID, Players: make([]playerJSON, 0, len(r.Entrant.Players)),
			VP: r.VP, MP: r.MP, Wins: r.Wins, Adjustments: []adjustmentJSON{},
		}
		for _, p := range r.Entrant.Players {
			row.Players = append(row.Players, playerJSON{Name: p.Name, Membership: p.Membership})
		}
		for _, a := range st.adjustments[r.Entrant.ID] {
			row.Adjustments = append(row.Adjustments, toAdjustmentJSON(a))
		}
		if r.Tiebreak != "" {
			row.Tiebreak = new(r.Tiebreak)
		}
		out.Standings = append(out.Standings, row)
	}
	return out
}

// getStandings: GET .../standings?after_round=n, for whoever may read the
// tournament (its club, its referees, the federation, an admin).
func (s *server) getStandings(c *gin.Context) {
	t, _, err := s.tournamentAccess(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	q := c.Request.URL.Query()
	if err := onlyParams(q, "after_round"); err != nil {
		s.fail(c, err)
		return
	}
	after, err := intParam(q, "after_round", 1, t.RoundsPlanned, false)
	if err != nil {
		s.fail(c, err)
		return
	}
	st, err := s.standings(c.Request.Context(), t, after)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toStandingsResponse(st))
}
