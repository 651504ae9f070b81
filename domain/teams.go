package domain

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Teams (RULES §12.5, FITAB art. 2.2, art. 19, FIBur-INT art. 17): a match
// between teams A and B is two tables played at the same time, A's pair NS
// and B's pair EO at one, B's pair NS and A's pair EO at the other. Each
// table has an ordinary sheet (§5); the match result is read from the two
// team totals, not from the tables' own VP.

// TablesPerTeamMatch is how many tables one team match seats (RULES §12.5).
const TablesPerTeamMatch = 2

// MinTeamPlayers is the fewest players a team enters with (RULES §12.5:
// "four or more").
const MinTeamPlayers = 4

// ruleTeams is the article a team rule cites, by federation.
func ruleTeams(r Ruleset) string {
	if r.Federation() == FITAB {
		return "FITAB art. 2.2"
	}
	return "FIBur-INT art. 17"
}

// MatchTable is one table of a team round: its number, the match it
// belongs to and the team at each line.
type MatchTable struct {
	Table int
	Match int
	NS    string
	EO    string
}

// ValidateTeamRound checks the tables of a team round (RULES §12.5, API
// §4.3): every table has a match number ≥ 1; a match is exactly two tables
// with that number whose NS and EO are the same two different teams
// swapped; a team plays at most one match and does not also rest; table
// numbers are unique. The error wraps ErrInvalid and names the table.
func ValidateTeamRound(r Ruleset, tables []MatchTable, byes []string) error {
	_, err := validateTeamRound(r, tables, byes)
	return err
}

// TeamRoundProblem is ValidateTeamRound that also returns the table named
// (0 for a rest).
func TeamRoundProblem(r Ruleset, tables []MatchTable, byes []string) (int, error) {
	return validateTeamRound(r, tables, byes)
}

// validateTeamRound is ValidateTeamRound that also returns the table named
// (0 for a rest).
func validateTeamRound(r Ruleset, tables []MatchTable, byes []string) (int, error) {
	art := ruleTeams(r)
	byMatch := map[int][]MatchTable{}
	seenTable := map[int]bool{}
	for _, t := range tables {
		if t.Table < 1 {
			return t.Table, refuse("", "rule.team_table_number", t.Table)
		}
		if seenTable[t.Table] {
			return t.Table, refuse("", "rule.team_table_twice", t.Table)
		}
		seenTable[t.Table] = true
		if t.Match < 1 {
			return t.Table, refuse("", "rule.team_match_number", t.Table, art)
		}
		if t.NS == "" || t.EO == "" {
			return t.Table, refuse("", "rule.team_line_empty", t.Table)
		}
		if t.NS == t.EO {
			return t.Table, refuse("", "rule.team_both_lines", t.Table, t.NS)
		}
		byMatch[t.Match] = append(byMatch[t.Match], t)
	}
	matchOf := map[string]int{}
	for _, m := range sortedKeys(byMatch) {
		ts := byMatch[m]
		if len(ts) != TablesPerTeamMatch {
			return ts[0].Table, refuse("", "rule.team_match_tables", ts[0].Table, m, len(ts), TablesPerTeamMatch, art)
		}
		a, b := ts[0], ts[1]
		if a.NS != b.EO || a.EO != b.NS {
			return b.Table, refuse("", "rule.team_match_swap", b.Table, m, a.NS, a.EO, a.Table, b.NS, b.EO, art)
		}
		for _, team := range []string{a.NS, a.EO} {
			if other, ok := matchOf[team]; ok {
				return a.Table, refuse("", "rule.team_two_matches", a.Table, team, other, m)
			}
			matchOf[team] = m
		}
	}
	for i, id := range byes {
		if m, ok := matchOf[id]; ok {
			return 0, refuse("", "rule.team_bye_plays", i, id, m)
		}
	}
	return 0, nil
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TeamTable is one table of a team match with its official final totals
// (RULES §6 total, §8: the written result counts).
type TeamTable struct {
	MatchTable
	NSTotal, EOTotal int
}

// TeamMatchResult is a team match's result (RULES §12.5).
type TeamMatchResult struct {
	Round  int
	Match  int
	Tables [TablesPerTeamMatch]int // the two table numbers, ascending
	// Teams are the two teams, the NS team of the lower table first.
	Teams [2]string
	// Totals are each team's total: the sum of its two lines' final totals.
	Totals [2]int
	// MP are the team MP: +difference for the winner, −difference for the
	// loser, both 0 on a tie (RULES §6 on the team totals).
	MP [2]int
	// VP are the team VP from the fibur-teams table on the difference.
	VP [2]int
}

// TeamVPTable is the table team VP are read from (RULES §6.2, §12.5): always
// fibur-teams — the tables' own VP are not counted.
func TeamVPTable() VPTable { return mustVPTable("fibur-teams") }

// TeamMatch computes a match's result from its two tables (RULES §12.5):
// each team's total is the sum of its lines' final totals at the two
// tables, the MP difference is the difference of the team totals, the VP
// come from the fibur-teams table. Two tables that are not one match
// (ValidateTeamRound) are an error wrapping ErrInvalid.
func TeamMatch(r Ruleset, round int, a, b TeamTable) (TeamMatchResult, error) {
	if b.Table < a.Table {
		a, b = b, a
	}
	if a.Match != b.Match {
		return TeamMatchResult{}, invalidf("table %d: match %d, table %d: match %d; a team match is two tables of one match", a.Table, a.Match, b.Table, b.Match)
	}
	if err := ValidateTeamRound(r, []MatchTable{a.MatchTable, b.MatchTable}, nil); err != nil {
		return TeamMatchResult{}, err
	}
	res := TeamMatchResult{Round: round, Match: a.Match, Tables: [2]int{a.Table, b.Table}, Teams: [2]string{a.NS, a.EO}}
	// a.NS is b.EO, a.EO is b.NS.
	res.Totals[0] = a.NSTotal + b.EOTotal
	res.Totals[1] = a.EOTotal + b.NSTotal
	diff := res.Totals[0] - res.Totals[1]
	res.MP = [2]int{diff, -diff}
	win, lose := TeamVPTable().Lookup(diff)
	switch {
	case diff > 0:
		res.VP = [2]int{win, lose}
	case diff < 0:
		res.VP = [2]int{lose, win}
	default:
		res.VP = [2]int{win, lose} // 10-10
	}
	return res, nil
}

// TeamRoundInput is one round of a team tournament as the standings read it.
type TeamRoundInput struct {
	Round        int
	HandsPlanned int
	Tables       []TeamTable
	// Byes are the teams without an opponent: the teams' bye score (§7).
	Byes []string
}

// TeamByeScore is the rest score of a team (RULES §7 bye row, §12.5: FITAB
// art. 38 12 VP/365 MP, FIBur-INT art. 34 12/355).
func TeamByeScore(r Ruleset) MatchScore {
	return AdjustmentCase{Ruleset: r, Kind: KindTeams}.byeScore()
}

// TeamMatchResults turns a team round into the team results the standings
// count (RULES §12.5): one MatchResult per team per match, with the team
// VP and MP, and the teams' bye score for each team that rests. Every table
// must belong to a complete match.
func TeamMatchResults(r Ruleset, rounds []TeamRoundInput) ([]TeamMatchResult, []MatchResult, error) {
	var matches []TeamMatchResult
	var results []MatchResult
	bye := TeamByeScore(r)
	for _, rd := range rounds {
		plain := make([]MatchTable, len(rd.Tables))
		for i, t := range rd.Tables {
			plain[i] = t.MatchTable
		}
		if err := ValidateTeamRound(r, plain, rd.Byes); err != nil {
			return nil, nil, fmt.Errorf("round %d: %w", rd.Round, err)
		}
		byMatch := map[int][]TeamTable{}
		for _, t := range rd.Tables {
			byMatch[t.Match] = append(byMatch[t.Match], t)
		}
		for _, m := range sortedKeys(byMatch) {
			ts := byMatch[m]
			res, err := TeamMatch(r, rd.Round, ts[0], ts[1])
			if err != nil {
				return nil, nil, fmt.Errorf("round %d: %w", rd.Round, err)
			}
			matches = append(matches, res)
			for i := range 2 {
				results = append(results, MatchResult{Round: rd.Round, Entrant: res.Teams[i], Opponent: res.Teams[1-i], VP: res.VP[i], MP: res.MP[i]})
			}
		}
		for _, id := range rd.Byes {
			results = append(results, MatchResult{Round: rd.Round, Entrant: id, VP: bye.VP, MP: bye.MP, Bye: true})
		}
	}
	return matches, results, nil
}

// TeamStandings ranks the teams (RULES §12.5, §8): on team VP, then team MP,
// then the tie-breaks of §8, from the team results of TeamMatchResults and
// the adjustments.
func TeamStandings(r Ruleset, teams []Entrant, rounds []TeamRoundInput, adjustments []Adjustment) ([]Standing, []TeamMatchResult, error) {
	matches, results, err := TeamMatchResults(r, rounds)
	if err != nil {
		return nil, nil, err
	}
	rows, err := Standings(StandingsInput{Kind: KindTeams, Entrants: teams, Results: results, Adjustments: adjustments})
	if err != nil {
		return nil, nil, err
	}
	return rows, matches, nil
}

// TeamMatchesOf lists the team matches of one team, by round (for the
// standings' "matches").
func TeamMatchesOf(team string, matches []TeamMatchResult) []TeamMatchResult {
	var out []TeamMatchResult
	for _, m := range matches {
		if m.Teams[0] == team || m.Teams[1] == team {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b TeamMatchResult) int { return cmp.Compare(a.Round, b.Round) })
	return out
}

// matchTables reads a paired team round's tables as MatchTables.
func matchTables(r PairedRound) ([]MatchTable, error) {
	out := make([]MatchTable, len(r.Tables))
	for i, t := range r.Tables {
		if len(t.NS) != 1 || len(t.EO) != 1 {
			return nil, invalidf("round %d table %d: a line is one team", r.Number, t.Table)
		}
		out[i] = MatchTable{Table: t.Table, Match: t.Match, NS: t.NS[0], EO: t.EO[0]}
	}
	return out, nil
}

// collapseTeamRound reads a team round as the pairing of its teams: one
// table per match (the seating of its lower table), numbered 1..M in match
// order, so that the pairs systems of §11 pair teams like pairs.
func collapseTeamRound(r Ruleset, pr PairedRound) (PairedRound, error) {
	if legacyTeamRound(pr) {
		return pr, nil
	}
	mts, err := matchTables(pr)
	if err != nil {
		return PairedRound{}, err
	}
	if err := ValidateTeamRound(r, mts, pr.Byes); err != nil {
		return PairedRound{}, fmt.Errorf("round %d: %w", pr.Number, err)
	}
	first := map[int]MatchTable{}
	for _, t := range mts {
		if f, ok := first[t.Match]; !ok || teamPairingSeat(t.Table, f.Table) {
			first[t.Match] = t
		}
	}
	out := pr
	out.Tables = make([]PairedTable, 0, len(first))
	for i, m := range sortedKeys(first) {
		t := first[m]
		out.Tables = append(out.Tables, PairedTable{Table: i + 1, NS: one(t.NS), EO: one(t.EO)})
	}
	return out, nil
}

// expandTeamRound seats each pairing of teams as one match of two tables
// (RULES §12.5): pairing k is match k at tables 2k−1 (A NS, B EO) and 2k
// (B NS, A EO).
func expandTeamRound(pr PairedRound) PairedRound {
	tables := make([]PairedTable, 0, TablesPerTeamMatch*len(pr.Tables))
	pr.Tables = slices.Clone(pr.Tables)
	slices.SortFunc(pr.Tables, func(a, b PairedTable) int { return cmp.Compare(a.Table, b.Table) })
	for k, t := range pr.Tables {
		m := k + 1
		tables = append(tables,
			PairedTable{Table: 2*m - 1, Match: m, NS: t.NS, EO: t.EO},
			PairedTable{Table: 2 * m, Match: m, NS: t.EO, EO: t.NS})
	}
	pr.Tables = tables
	return pr
}

// generateTeams seats a team round (RULES §12.5 "Teams are paired like
// pairs (§11)"): the previous rounds and a referee's choice are read one
// table per match, the round is paired as a pairs round, and each pairing
// becomes a match of two tables. A choice whose tables are not whole
// matches is refused naming the table.
func generateTeams(req PairingRequest) (PairedRound, error) {
	pairs := req
	pairs.Kind = KindPairs
	pairs.Previous = make([]PairedRound, len(req.Previous))
	for i, p := range req.Previous {
		c, err := collapseTeamRound(req.Ruleset, p)
		if err != nil {
			return PairedRound{}, fmt.Errorf("previous[%d]: %w", i, err)
		}
		pairs.Previous[i] = c
	}
	if req.Choice != nil {
		c, err := collapseTeamRound(req.Ruleset, *req.Choice)
		if err != nil {
			return PairedRound{}, fmt.Errorf("choice: %w", err)
		}
		pairs.Choice = &c
	}
	out, err := GeneratePairing(pairs)
	if err != nil {
		return PairedRound{}, err
	}
	if req.System == SystemChoice {
		out.Tables = slices.Clone(req.Choice.Tables) // the referee's table numbers
		return out, nil
	}
	return expandTeamRound(out), nil
}

// PairingMatchMalformed: a team round's tables are not whole matches (RULES
// §12.5: two tables with one match number, the same two teams swapped).
const PairingMatchMalformed PairingCode = "MATCH_MALFORMED"

// checkTeamRound is CheckRound for a team round: the matches must be whole
// (MATCH_MALFORMED naming the table); then the round is checked as the
// pairing of its teams, one table per match, like pairs (§11).
func checkTeamRound(req PairingRequest, published PairedRound) PairingCheck {
	if legacyTeamRound(published) {
		req.Kind = KindPairs
		for i, p := range req.Previous {
			if !legacyTeamRound(p) {
				c, err := collapseTeamRound(req.Ruleset, p)
				if err == nil {
					req.Previous = slices.Clone(req.Previous)
					req.Previous[i] = c
				}
			}
		}
		return CheckRound(req, published)
	}
	malformed := func(table int, err error) PairingCheck {
		return PairingCheck{System: req.System, Problems: []PairingProblem{{Table: table, Code: PairingMatchMalformed, Rule: ruleTeams(req.Ruleset),
			Detail:   err.Error(),
			DetailIT: fmt.Sprintf("tavolo %d: una partita a squadre è di due tavoli con lo stesso numero di partita e le stesse due squadre invertite", table)}}}
	}
	mts, err := matchTables(published)
	if err != nil {
		return malformed(0, err)
	}
	if table, err := validateTeamRound(req.Ruleset, mts, published.Byes); err != nil {
		return malformed(table, err)
	}
	pairs := req
	pairs.Kind = KindPairs
	pairs.Previous = make([]PairedRound, len(req.Previous))
	for i, p := range req.Previous {
		c, err := collapseTeamRound(req.Ruleset, p)
		if err != nil {
			return PairingCheck{System: req.System, Problems: []PairingProblem{{Code: PairingNotDerivable, Rule: ruleTeams(req.Ruleset),
				Detail: fmt.Sprintf("previous[%d]: %v", i, err), DetailIT: fmt.Sprintf("turno %d: le partite a squadre non sono complete", p.Number)}}}
		}
		pairs.Previous[i] = c
	}
	collapsed, _ := collapseTeamRound(req.Ruleset, published) // validated above
	rep := CheckRound(pairs, collapsed)
	// the problems name a pairing k: that is match k, whose first table is
	// the published one.
	firstTable := map[int]int{}
	for i, t := range sortedMatchFirstTables(mts) {
		firstTable[i+1] = t
	}
	for i := range rep.Problems {
		if t := rep.Problems[i].Table; t > 0 {
			rep.Problems[i].Table = firstTable[t]
		}
	}
	return rep
}

// sortedMatchFirstTables is each match's first table (teamPairingSeat), in
// match order — the order collapseTeamRound numbers the pairings in.
func sortedMatchFirstTables(mts []MatchTable) []int {
	first := map[int]int{}
	for _, t := range mts {
		if f, ok := first[t.Match]; !ok || teamPairingSeat(t.Table, f) {
			first[t.Match] = t.Table
		}
	}
	out := make([]int, 0, len(first))
	for _, m := range sortedKeys(first) {
		out = append(out, first[m])
	}
	return out
}

// PlayersPerTeamLine is how many players of a team sit at one line: a pair.
const PlayersPerTeamLine = 2

// Lineup says which players of each team sit at one table of a match
// (RULES §12.5, API §4.3): membership numbers, NS line then EO line.
type Lineup struct {
	Table int
	NS    []string
	EO    []string
}

// Line is the memberships at line l.
func (l Lineup) Line(line Line) []string {
	if line == EO {
		return l.EO
	}
	return l.NS
}

// ValidateLineup checks a table's line-up (RULES §12.5: "modificare gli
// accoppiamenti prima dell'inizio di ogni partita, nell'ambito della stessa
// squadra", FITAB art. 2.2): each line is a pair of two different players
// of the team seated at that line (by membership number), and no player
// sits at the other table of the match too (other: that table's line-up,
// nil when it has none). Errors wrap ErrInvalid and name the field
// ("ns[1]", "eo").
func ValidateLineup(r Ruleset, table TableAssignment, nsTeam, eoTeam Entrant, l Lineup, other *Lineup) error {
	art := ruleTeams(r)
	seatedOther := map[string]bool{}
	if other != nil {
		for _, m := range append(slices.Clone(other.NS), other.EO...) {
			seatedOther[m] = true
		}
	}
	for _, line := range []struct {
		field string
		team  Entrant
		ids   []string
		want  string
	}{{"ns", nsTeam, l.NS, table.NS}, {"eo", eoTeam, l.EO, table.EO}} {
		if line.team.ID != line.want {
			return refuse(line.field, "rule.lineup_team", line.team.ID, table.Table, strings.ToUpper(line.field), line.want)
		}
		if len(line.ids) != PlayersPerTeamLine {
			return refuse(line.field, "rule.lineup_pair", len(line.ids), PlayersPerTeamLine, line.team.ID, art)
		}
		members := map[string]bool{}
		for _, p := range line.team.Players {
			if p.Membership != "" {
				members[p.Membership] = true
			}
		}
		for i, m := range line.ids {
			field := fmt.Sprintf("%s[%d]", line.field, i)
			if strings.TrimSpace(m) == "" {
				return refuse(field, "rule.lineup_empty")
			}
			if !members[m] {
				return refuse(field, "rule.lineup_stranger", m, line.team.ID, art)
			}
			if i > 0 && line.ids[0] == m {
				return refuse(field, "rule.lineup_same", m)
			}
			if seatedOther[m] {
				return refuse(field, "rule.lineup_other_table", m)
			}
		}
	}
	return nil
}

// legacyTeamRound reports whether a team round was seated one table per
// match, before match numbers were recorded (migration 00019, RULES §12.5):
// no table has a match number. Such a round reads as the pairing of its
// teams as it is.
func legacyTeamRound(pr PairedRound) bool {
	if len(pr.Tables) == 0 {
		return false
	}
	for _, t := range pr.Tables {
		if t.Match != 0 {
			return false
		}
	}
	return true
}
