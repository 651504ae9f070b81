package domain

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"
)

// TableResult is the stored result of one table in one round: who the round
// seated at each line and the match's official and computed result per line
// (OfficialResult), as the store keeps it beside the sheet.
type TableResult struct {
	Round, Table int
	// NS and EO are the entrants the round seats at the table (not the ids
	// written on the sheet); NS2 and EO2 the second players of the lines of
	// an individual tournament ("" otherwise).
	NS, EO   string
	NS2, EO2 string
	Official [2]LineResult
	Computed [2]LineResult
	Differs  bool
	Kind     CorrectionKind // "" when nothing differs
}

// Entrant is the entrant seated at line l.
func (r TableResult) Entrant(l Line) string {
	if l == EO {
		return r.EO
	}
	return r.NS
}

// Players is the entrant ids seated at line l: the entrant, or the two
// players of an individual line.
func (r TableResult) Players(l Line) []string {
	return TableAssignment{NS: r.NS, EO: r.EO, NS2: r.NS2, EO2: r.EO2}.Line(l)
}

// RecordedAdjustment is a referee adjustment as recorded: what it was
// computed from and its effect (RULES §7).
type RecordedAdjustment struct {
	Entrant string
	Round   int // 0: not tied to a round, counts after every round
	Case    AdjustmentCase
	Effect  AdjustmentEffect
	Author  string
	At      time.Time
}

// OfficialStandingsInput is what the standings of a tournament are built
// from: the stored table results, the rounds (their byes and planned hands;
// their tables name the opponent of an entrant whose match an adjustment
// replaces) and the recorded adjustments.
type OfficialStandingsInput struct {
	Tournament  Tournament
	Entrants    []Entrant
	Rounds      []Round
	Results     []TableResult
	Adjustments []RecordedAdjustment
	// AfterRound counts rounds 1..AfterRound; 0 means up to the last round
	// with a result.
	AfterRound int
}

// OfficialStandingsResult is the standings with what a page shows beside
// them.
type OfficialStandingsResult struct {
	AfterRound int // the last round counted
	Rows       []Standing
	// Counted holds, per entrant, the indexes in the input's Adjustments of
	// those counted (round 0 or ≤ AfterRound).
	Counted map[string][]int
	// Differing are the counted table results whose official result is not
	// the computed one (RULES §8: the pages show them so that the referee
	// acts in time).
	Differing []TableResult
	// TeamMatches are the counted team matches (RULES §12.5), by round and
	// match; nil outside team tournaments.
	TeamMatches []TeamMatchResult
}

// OfficialStandings builds the standings (RULES §8) from the stored table
// results and ranks them with Standings:
//
//   - every table result of a round up to AfterRound gives each line its
//     official VP and MP (the written result, RULES §8 — not the computed
//     one), credited to the entrants the round seats at that table;
//   - every bye of a round gives the rest score of RULES §7 for the
//     tournament's ruleset and kind and the round's planned hands;
//   - an adjustment whose effect is a result (a bye, an awarded or lost
//     match, a late start) takes the place of the entrant's result of that
//     round, whether a sheet or a bye gave one or not;
//   - an adjustment's penalty (the second warning's −1 VP, a referee score)
//     is added to the entrant's totals.
//
// Individual tournaments rank players (RULES §8: "VP follow the player, not
// the pair"): both players of a line get the line's VP and MP, and they
// met the two players of the other line (not each other) for the
// head-to-head tie-break. A bye or an adjustment is its player's own.
// A result for a round that does not exist is an error.
func OfficialStandings(in OfficialStandingsInput) (OfficialStandingsResult, error) {
	after := in.AfterRound
	if after == 0 {
		for i := range in.Results {
			after = max(after, in.Results[i].Round)
		}
	}
	byNumber := make(map[int]*Round, len(in.Rounds))
	for i := range in.Rounds {
		byNumber[in.Rounds[i].Number] = &in.Rounds[i]
	}

	type key struct {
		entrant string
		round   int
	}
	results := make([]MatchResult, 0, 2*len(in.Results)+len(in.Entrants))
	at := make(map[key]int, cap(results))
	put := func(r MatchResult) {
		k := key{r.Entrant, r.Round}
		if i, ok := at[k]; ok {
			results[i] = r
			return
		}
		at[k] = len(results)
		results = append(results, r)
	}
	out := OfficialStandingsResult{AfterRound: after, Counted: map[string][]int{}}
	individual := in.Tournament.Kind == KindIndividual
	// RULES §12.5: in a team tournament the two tables of a match give one
	// team result, from the team totals; a match with one sheet only does
	// not count yet (§12.2).
	teamTables := map[[2]int][]TeamTable{}
	for i := range in.Results {
		tr := &in.Results[i]
		if tr.Round > after {
			continue
		}
		if _, ok := byNumber[tr.Round]; !ok {
			return OfficialStandingsResult{}, fmt.Errorf("standings: a result is stored for round %d, which does not exist", tr.Round)
		}
		if individual {
			for _, l := range Lines {
				opp := tr.Players(l.Other())
				for _, p := range tr.Players(l) {
					put(MatchResult{Round: tr.Round, Entrant: p, Players: []string{p}, OpponentPlayers: opp, VP: tr.Official[l].VP, MP: tr.Official[l].MP})
				}
			}
		} else if m := tableMatch(in.Tournament.Kind, byNumber[tr.Round], tr.Table); m > 0 {
			k := [2]int{tr.Round, m}
			teamTables[k] = append(teamTables[k], TeamTable{MatchTable: MatchTable{Table: tr.Table, Match: m, NS: tr.NS, EO: tr.EO},
				NSTotal: tr.Official[NS].Total, EOTotal: tr.Official[EO].Total})
		} else {
			put(MatchResult{Round: tr.Round, Entrant: tr.NS, Opponent: tr.EO, VP: tr.Official[NS].VP, MP: tr.Official[NS].MP})
			put(MatchResult{Round: tr.Round, Entrant: tr.EO, Opponent: tr.NS, VP: tr.Official[EO].VP, MP: tr.Official[EO].MP})
		}
		if tr.Differs {
			out.Differing = append(out.Differing, *tr)
		}
	}
	for _, k := range slices.SortedFunc(maps.Keys(teamTables), func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) }) {
		ts := teamTables[k]
		if len(ts) != TablesPerTeamMatch {
			continue // the other table's sheet is missing: the match does not count yet
		}
		res, err := TeamMatch(in.Tournament.Ruleset, k[0], ts[0], ts[1])
		if err != nil {
			return OfficialStandingsResult{}, fmt.Errorf("standings: round %d: %w", k[0], err)
		}
		out.TeamMatches = append(out.TeamMatches, res)
		for j := range 2 {
			put(MatchResult{Round: k[0], Entrant: res.Teams[j], Opponent: res.Teams[1-j], VP: res.VP[j], MP: res.MP[j]})
		}
	}
	for i := range in.Rounds {
		r := &in.Rounds[i]
		if r.Number > after || len(r.Byes)+len(r.Vacated) == 0 {
			continue
		}
		e, err := AdjustmentCase{Reason: ReasonBye, Ruleset: in.Tournament.Ruleset, Kind: in.Tournament.Kind, HandsPlanned: r.HandsPlanned}.Effect()
		if err != nil {
			return OfficialStandingsResult{}, fmt.Errorf("bye score of round %d: %w", r.Number, err)
		}
		// RULES §12.3: an entrant alone because its opponent withdrew gets
		// the bye score too.
		for _, id := range slices.Concat(r.Byes, r.Vacated) {
			br := MatchResult{Round: r.Number, Entrant: id, VP: e.Result.VP, MP: e.Result.MP, Bye: true}
			if individual {
				br.Players = []string{id}
			}
			put(br)
		}
	}

	var penalties []Adjustment
	for ai := range in.Adjustments {
		a := &in.Adjustments[ai]
		if a.Round > after {
			continue
		}
		out.Counted[a.Entrant] = append(out.Counted[a.Entrant], ai)
		e := a.Effect
		if e.Result != nil && a.Round > 0 {
			r := MatchResult{Round: a.Round, Entrant: a.Entrant, VP: e.Result.VP, MP: e.Result.MP, Bye: e.Bye, Awarded: e.Awarded && !e.Bye}
			if individual {
				r.Players = []string{a.Entrant}
			}
			if !e.Bye {
				if rd, ok := byNumber[a.Round]; ok {
					if individual {
						r.OpponentPlayers = opponentsIn(rd, a.Entrant)
					} else {
						r.Opponent = opponentIn(rd, a.Entrant)
					}
				}
			}
			put(r)
		}
		if e.Delta != (MatchScore{}) {
			penalties = append(penalties, Adjustment{
				Entrant: a.Entrant, Round: a.Round, Reason: a.Case.Reason,
				VP: e.Delta.VP, MP: e.Delta.MP, Note: a.Case.Note, Author: a.Author, At: a.At,
			})
		}
	}
	// Pairs and teams: one entrant a line (the pairs reading of
	// StandingsInput); individual: one result per player.
	kind := Kind("")
	if individual {
		kind = KindIndividual
	}
	rows, err := Standings(StandingsInput{Kind: kind, Entrants: in.Entrants, Results: results, Adjustments: penalties})
	if err != nil {
		return OfficialStandingsResult{}, fmt.Errorf("standings of tournament %s: %w", in.Tournament.ID, err)
	}
	out.Rows = rows
	return out, nil
}

// opponentIn is the entrant seated against id in round r, "" when id is
// not seated.
func opponentIn(r *Round, id string) string {
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

// opponentsIn is the players seated against id in round r (individual), nil
// when id is not seated.
func opponentsIn(r *Round, id string) []string {
	for _, tb := range r.Tables {
		if l, ok := tb.LineOf(id); ok {
			return tb.Line(l.Other())
		}
	}
	return nil
}

// tableMatch is the team match of table t in round r (RULES §12.5), 0 when
// the tournament is not of teams or the round was seated one table a match
// (before match numbers, migration 00019).
func tableMatch(k Kind, r *Round, t int) int {
	if k != KindTeams || r == nil {
		return 0
	}
	a, _ := r.Assignment(t)
	return a.Match
}
