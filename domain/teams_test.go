package domain

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func teamMatchOf(a, b TeamTable) TeamMatchResult {
	res, err := TeamMatch(FITAB2025, 1, a, b)
	if err != nil {
		panic(err)
	}
	return res
}

func teamTable(table, match int, ns, eo string, nsTotal, eoTotal int) TeamTable {
	return TeamTable{MatchTable: MatchTable{Table: table, Match: match, NS: ns, EO: eo}, NSTotal: nsTotal, EOTotal: eoTotal}
}

// RULES §12.5's own example: table 1 A 1200 – B 800, table 2 B 700 – A 900
// → A 2100, B 1500, difference 600 → 13-7.
func TestTeamMatch_RULES12_5_Example(t *testing.T) {
	for _, order := range []string{"table 1 first", "table 2 first"} {
		t1 := teamTable(1, 1, "A", "B", 1200, 800)
		t2 := teamTable(2, 1, "B", "A", 700, 900)
		a, b := t1, t2
		if order == "table 2 first" {
			a, b = t2, t1
		}
		got := teamMatchOf(a, b)
		if got.Teams != [2]string{"A", "B"} {
			t.Fatalf("%s: teams %v, want [A B]", order, got.Teams)
		}
		if got.Totals != [2]int{2100, 1500} {
			t.Errorf("%s: totals %v, want [2100 1500]", order, got.Totals)
		}
		if got.MP != [2]int{600, -600} {
			t.Errorf("%s: MP %v, want [600 -600]", order, got.MP)
		}
		if got.VP != [2]int{13, 7} {
			t.Errorf("%s: VP %v, want [13 7]", order, got.VP)
		}
		if got.Tables != [2]int{1, 2} {
			t.Errorf("%s: tables %v", order, got.Tables)
		}
	}
}

// RULES §12.5 "the tables' own VP are not counted": A wins table 1 by 1000
// (fibur-teams alone would give it 14-6) and loses table 2 by 900; the team
// difference is 100, a 10-10 draw.
func TestTeamMatch_RULES12_5_TablesOwnVPNotCounted(t *testing.T) {
	got := teamMatchOf(teamTable(3, 2, "A", "B", 1500, 500), teamTable(4, 2, "B", "A", 1300, 400))
	if got.Totals != [2]int{1900, 1800} || got.MP != [2]int{100, -100} || got.VP != [2]int{10, 10} {
		t.Errorf("got totals %v MP %v VP %v, want [1900 1800] [100 -100] [10 10]", got.Totals, got.MP, got.VP)
	}
}

// RULES §6.1 fibur-teams column (FIBur-INT art. 17), read on the team
// difference: every band's edges, the loser's side and a tie.
func TestTeamMatch_RULES6_1_FiburTeamsBandEdges(t *testing.T) {
	cases := []struct{ diff, win, lose int }{
		{0, 10, 10}, {150, 10, 10}, {155, 11, 9}, {350, 11, 9}, {355, 12, 8}, {550, 12, 8},
		{555, 13, 7}, {800, 13, 7}, {805, 14, 6}, {1050, 14, 6}, {1055, 15, 5}, {1300, 15, 5},
		{1305, 16, 4}, {1600, 16, 4}, {1605, 17, 3}, {1900, 17, 3}, {1905, 18, 2}, {2200, 18, 2},
		{2205, 19, 1}, {2500, 19, 1}, {2505, 20, 0}, {4000, 20, 0},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.diff), func(t *testing.T) {
			// A ahead by diff: split across the two tables.
			got := teamMatchOf(teamTable(1, 1, "A", "B", 1000+c.diff, 1000), teamTable(2, 1, "B", "A", 600, 600))
			if got.VP != [2]int{c.win, c.lose} || got.MP != [2]int{c.diff, -c.diff} {
				t.Errorf("A +%d: VP %v MP %v, want [%d %d]", c.diff, got.VP, got.MP, c.win, c.lose)
			}
			// B ahead by diff: B is the second team, the winner's VP go to it.
			got = teamMatchOf(teamTable(1, 1, "A", "B", 500, 500), teamTable(2, 1, "B", "A", 800+c.diff, 800))
			if got.VP != [2]int{c.lose, c.win} || got.MP != [2]int{-c.diff, c.diff} {
				t.Errorf("B +%d: VP %v MP %v, want [%d %d]", c.diff, got.VP, got.MP, c.lose, c.win)
			}
		})
	}
}

// RULES §12.5, API §4.3: a match is exactly two tables with the same match
// number whose ns/eo are the same two teams swapped; anything else is
// refused naming the table.
func TestValidateTeamRound_RULES12_5_MalformedMatches(t *testing.T) {
	good := []MatchTable{{1, 1, "1", "2"}, {2, 1, "2", "1"}, {3, 2, "3", "4"}, {4, 2, "4", "3"}}
	if err := ValidateTeamRound(FITAB2025, good, []string{"5"}); err != nil {
		t.Fatalf("a well-formed round is refused: %v", err)
	}
	cases := []struct {
		name   string
		tables []MatchTable
		byes   []string
		table  string
	}{
		{"one table", []MatchTable{{1, 1, "1", "2"}}, nil, "table 1"},
		{"three tables", []MatchTable{{1, 1, "1", "2"}, {2, 1, "2", "1"}, {3, 1, "1", "2"}}, nil, "table 1"},
		{"not swapped", []MatchTable{{1, 1, "1", "2"}, {2, 1, "1", "2"}}, nil, "table 2"},
		{"other team", []MatchTable{{1, 1, "1", "2"}, {2, 1, "3", "1"}}, nil, "table 2"},
		{"no match number", []MatchTable{{1, 0, "1", "2"}, {2, 0, "2", "1"}}, nil, "table 1"},
		{"team in two matches", []MatchTable{{1, 1, "1", "2"}, {2, 1, "2", "1"}, {3, 2, "1", "3"}, {4, 2, "3", "1"}}, nil, "table 3"},
		{"team against itself", []MatchTable{{1, 1, "1", "1"}, {2, 1, "1", "1"}}, nil, "table 1"},
		{"table twice", []MatchTable{{1, 1, "1", "2"}, {1, 1, "2", "1"}}, nil, "table 1"},
		{"plays and rests", good, []string{"3"}, "byes[0]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ValidateTeamRound(FITAB2025, c.tables, c.byes)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			if !namesPlace(err, c.table) {
				t.Errorf("err %q does not name %s", err, c.table)
			}
		})
	}
}

// RULES §12.5: team standings rank on team VP, then MP; a team without an
// opponent rests with the teams' bye score of §7 (FITAB art. 38 12/365,
// FIBur-INT art. 34 12/355).
func TestTeamStandings_RULES12_5_RankAndBye(t *testing.T) {
	teams := []Entrant{{ID: "1", Team: "Aquile"}, {ID: "2", Team: "Bisonti"}, {ID: "3", Team: "Cervi"}}
	rounds := []TeamRoundInput{
		// 1 beats 2 by 600 (13-7); 3 rests.
		{Round: 1, HandsPlanned: 3, Tables: []TeamTable{teamTable(1, 1, "1", "2", 1200, 800), teamTable(2, 1, "2", "1", 700, 900)}, Byes: []string{"3"}},
		// 3 beats 2 by 600 (13-7); 1 rests.
		{Round: 2, HandsPlanned: 3, Tables: []TeamTable{teamTable(1, 1, "3", "2", 1200, 800), teamTable(2, 1, "2", "3", 700, 900)}, Byes: []string{"1"}},
	}
	for _, c := range []struct {
		rs     Ruleset
		byeMP  int
		byeTag string
	}{{FITAB2025, 365, "FITAB art. 38"}, {FIBurIta, 355, "FIBur-INT art. 34"}} {
		t.Run(c.byeTag, func(t *testing.T) {
			rows, matches, err := TeamStandings(c.rs, teams, rounds, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(matches) != 2 {
				t.Fatalf("%d matches, want 2", len(matches))
			}
			byID := map[string]Standing{}
			for _, r := range rows {
				byID[r.Entrant.ID] = r
			}
			// 1 and 3: 13 + 12 VP, 600 + bye MP; 2: 7 + 7 VP, −1200 MP.
			for _, id := range []string{"1", "3"} {
				if r := byID[id]; r.VP != 25 || r.MP != 600+c.byeMP {
					t.Errorf("team %s: VP %d MP %d, want 25 and %d", id, r.VP, r.MP, 600+c.byeMP)
				}
			}
			if r := byID["2"]; r.VP != 14 || r.MP != -1200 || r.Rank != 3 {
				t.Errorf("team 2: rank %d VP %d MP %d, want 3, 14, -1200", r.Rank, r.VP, r.MP)
			}
			if got := TeamMatchesOf("2", matches); len(got) != 2 || got[0].Round != 1 || got[1].Round != 2 {
				t.Errorf("team 2's matches: %+v", got)
			}
		})
	}
}

// RULES §12.5 "ranked on team VP then MP": more VP beats more MP.
func TestTeamStandings_RULES12_5_VPBeforeMP(t *testing.T) {
	teams := []Entrant{{ID: "1"}, {ID: "2"}, {ID: "3"}, {ID: "4"}}
	rounds := []TeamRoundInput{{Round: 1, HandsPlanned: 3, Tables: []TeamTable{
		// 1 beats 2 by 160: 11-9, +160.
		teamTable(1, 1, "1", "2", 1160, 1000), teamTable(2, 1, "2", "1", 500, 500),
		// 3 beats 4 by 150: 10-10, +150 — fewer VP, so below 1 although ahead of 4.
		teamTable(3, 2, "3", "4", 1150, 1000), teamTable(4, 2, "4", "3", 500, 500),
	}}}
	rows, _, err := TeamStandings(FITAB2025, teams, rounds, nil)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range rows {
		order = append(order, r.Entrant.ID)
	}
	if !slices.Equal(order, []string{"1", "3", "4", "2"}) {
		t.Errorf("order %v, want [1 3 4 2] (11 VP; 10 VP +150; 10 VP −150; 9 VP)", order)
	}
}

// assertTeamRound asserts the structure of a generated team round: whole
// matches (ValidateTeamRound), tables 1..2M, every active team once.
func assertTeamRound(t testing.TB, r PairedRound, active []string) {
	t.Helper()
	mts, err := matchTables(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := ValidateTeamRound(FITAB2025, mts, r.Byes); err != nil {
		t.Fatalf("round %d: %v", r.Number, err)
	}
	seen := map[string]int{}
	for i, m := range mts {
		if m.Table != i+1 {
			t.Errorf("round %d: table %d at position %d", r.Number, m.Table, i)
		}
		if m.Match != (m.Table+1)/2 {
			t.Errorf("round %d: table %d in match %d", r.Number, m.Table, m.Match)
		}
		seen[m.NS]++
		seen[m.EO]++
	}
	for _, b := range r.Byes {
		seen[b] += 2
	}
	for _, id := range active {
		if seen[id] != 2 {
			t.Errorf("round %d: team %s seated %d times (want at two tables or resting)", r.Number, id, seen[id])
		}
	}
}

// RULES §12.5 "Teams are paired like pairs (§11)", each pairing seated as
// the two tables of one match; a Danese round avoids the previous
// opponents as for pairs; an odd team rests.
func TestGenerateTeams_RULES12_5_TwoTablesPerMatch(t *testing.T) {
	for _, n := range []int{8, 9} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			r1, err := GeneratePairing(PairingRequest{Ruleset: FITAB2025, Kind: KindTeams, System: SystemEntryOrder, Round: 1, Entrants: ids(n)})
			if err != nil {
				t.Fatal(err)
			}
			assertTeamRound(t, r1, ids(n))
			if len(r1.Tables) != 2*(n/2) || len(r1.Byes) != n%2 {
				t.Errorf("round 1: %d tables, %d byes", len(r1.Tables), len(r1.Byes))
			}
			// Standings in entry order: the Danese pairs 1-2, 3-4 ... but
			// they met in round 1, so it must avoid those meetings.
			r2, err := GeneratePairing(PairingRequest{Ruleset: FITAB2025, Kind: KindTeams, System: SystemDanese, Round: 2,
				Entrants: ids(n), Standings: ids(n), Previous: []PairedRound{r1}})
			if err != nil {
				t.Fatal(err)
			}
			assertTeamRound(t, r2, ids(n))
			met := map[[2]string]bool{}
			for _, tb := range r1.Tables {
				met[[2]string{tb.NS[0], tb.EO[0]}] = true
			}
			for _, tb := range r2.Tables {
				if met[[2]string{tb.NS[0], tb.EO[0]}] {
					t.Errorf("round 2 table %d: %s and %s meet again", tb.Table, tb.NS[0], tb.EO[0])
				}
			}
			if n%2 == 1 && slices.Equal(r1.Byes, r2.Byes) {
				t.Errorf("team %v rests twice", r1.Byes)
			}
		})
	}
}

// API §4.3: a hand-posted team round (choice) keeps the referee's tables
// when they are whole matches and is refused naming the table otherwise —
// not "entrant appears twice" for the two tables of one match.
func TestGenerateTeams_RULES12_5_Choice(t *testing.T) {
	choice := PairedRound{Tables: []PairedTable{
		{Table: 1, Match: 1, NS: one("1"), EO: one("2")}, {Table: 2, Match: 1, NS: one("2"), EO: one("1")},
		{Table: 5, Match: 2, NS: one("3"), EO: one("4")}, {Table: 6, Match: 2, NS: one("4"), EO: one("3")},
	}}
	got, err := GeneratePairing(PairingRequest{Ruleset: FITAB2025, Kind: KindTeams, System: SystemChoice, Round: 1, Entrants: ids(4), Choice: &choice})
	if err != nil {
		t.Fatalf("a well-formed team choice is refused: %v", err)
	}
	if len(got.Tables) != 4 || got.Tables[2].Table != 5 || got.Tables[2].Match != 2 {
		t.Errorf("tables not kept: %+v", got.Tables)
	}
	bad := choice
	bad.Tables = slices.Clone(choice.Tables)
	bad.Tables[3] = PairedTable{Table: 6, Match: 2, NS: one("3"), EO: one("4")}
	_, err = GeneratePairing(PairingRequest{Ruleset: FITAB2025, Kind: KindTeams, System: SystemChoice, Round: 1, Entrants: ids(4), Choice: &bad})
	if !errors.Is(err, ErrInvalid) || !namesPlace(err, "table 6") {
		t.Errorf("err = %v, want ErrInvalid naming table 6", err)
	}
}

// Generation of a 200-team Danese round (aim: under 50 ms).
func BenchmarkGenerateTeams200Danese(b *testing.B) {
	const n = 200
	r1, err := GeneratePairing(PairingRequest{Ruleset: FITAB2025, Kind: KindTeams, System: SystemEntryOrder, Round: 1, Entrants: ids(n)})
	if err != nil {
		b.Fatal(err)
	}
	req := PairingRequest{Ruleset: FITAB2025, Kind: KindTeams, System: SystemDanese, Round: 2, Entrants: ids(n), Standings: ids(n), Previous: []PairedRound{r1}}
	b.ResetTimer()
	for b.Loop() {
		if _, err := GeneratePairing(req); err != nil {
			b.Fatal(err)
		}
	}
}

// RULES §12.5 with §11's checker: a generated team round checks ok (the
// two tables of a match are not "an entrant twice"); a round whose match
// is not the same two teams swapped is MATCH_MALFORMED at that table; a
// rematch in a Danese team round is found at the match's first table.
func TestCheckRound_RULES12_5_TeamRounds(t *testing.T) {
	r1 := mustPair(t, PairingRequest{Ruleset: FITAB2025, Kind: KindTeams, System: SystemEntryOrder, Round: 1, Entrants: ids(8)})
	req := PairingRequest{Ruleset: FITAB2025, Kind: KindTeams, System: SystemDanese, Entrants: ids(8), Standings: ids(8), Previous: []PairedRound{r1}}
	r2 := mustPair(t, func() PairingRequest { q := req; q.Round = 2; return q }())
	if rep := CheckRound(req, r2); !rep.OK {
		t.Errorf("the generated team round is not ok: %+v", rep.Problems)
	}
	bad := r2
	bad.Tables = slices.Clone(r2.Tables)
	bad.Tables[3] = PairedTable{Table: 4, Match: 2, NS: bad.Tables[2].NS, EO: bad.Tables[2].EO} // not swapped
	rep := CheckRound(req, bad)
	if rep.OK || len(rep.Problems) != 1 || rep.Problems[0].Code != PairingMatchMalformed || rep.Problems[0].Table != 4 {
		t.Errorf("malformed match: %+v", rep)
	}
	// a rematch: round 2 repeats round 1's meetings (1-2 at tables 1-2,
	// 3-4 at 3-4, ...) while the Danese avoids them.
	again := r1
	again.Number = 2
	again.System = SystemDanese
	rep = CheckRound(req, again)
	if rep.OK {
		t.Fatal("a repeated team round checks ok")
	}
	for _, p := range rep.Problems {
		if p.Table != 0 && p.Table%2 != 1 {
			t.Errorf("problem %s at table %d, want a match's first (odd) table", p.Code, p.Table)
		}
	}
}

// RULES §12.5 (FITAB art. 2.2 "nell'ambito della stessa squadra"): a line
// of the line-up is two different players of the team seated there, and
// nobody sits at both tables of the match.
func TestValidateLineup_FITAB2_2(t *testing.T) {
	team := func(id string, members ...string) Entrant {
		e := Entrant{ID: id, Team: "T" + id}
		for _, m := range members {
			e.Players = append(e.Players, Player{Name: "P " + m, Membership: m})
		}
		return e
	}
	a := team("1", "FT01", "FT02", "FT03", "FT04", "FT05")
	b := team("2", "FT07", "FT08", "FT09", "FT10")
	table := TableAssignment{Table: 1, Match: 1, NS: "1", EO: "2"}
	ok := Lineup{Table: 1, NS: []string{"FT01", "FT02"}, EO: []string{"FT07", "FT08"}}
	if err := ValidateLineup(FITAB2025, table, a, b, ok, nil); err != nil {
		t.Fatalf("a valid line-up is refused: %v", err)
	}
	other := Lineup{Table: 2, NS: []string{"FT09", "FT10"}, EO: []string{"FT03", "FT04"}}
	if err := ValidateLineup(FITAB2025, table, a, b, ok, &other); err != nil {
		t.Fatalf("a valid line-up beside the other table's is refused: %v", err)
	}
	cases := []struct {
		name  string
		l     Lineup
		other *Lineup
		nsT   Entrant
		field string
	}{
		{"a player of the other team", Lineup{Table: 1, NS: []string{"FT01", "FT07"}, EO: []string{"FT08", "FT09"}}, nil, a, "ns[1]"},
		{"not a member at all", Lineup{Table: 1, NS: []string{"FT01", "FT02"}, EO: []string{"FT07", "XX99"}}, nil, a, "eo[1]"},
		{"one player", Lineup{Table: 1, NS: []string{"FT01"}, EO: []string{"FT07", "FT08"}}, nil, a, "ns"},
		{"three players", Lineup{Table: 1, NS: []string{"FT01", "FT02"}, EO: []string{"FT07", "FT08", "FT09"}}, nil, a, "eo"},
		{"the same player twice", Lineup{Table: 1, NS: []string{"FT01", "FT01"}, EO: []string{"FT07", "FT08"}}, nil, a, "ns[1]"},
		{"sits at the other table too", ok, &Lineup{Table: 2, NS: []string{"FT09", "FT10"}, EO: []string{"FT02", "FT03"}}, a, "ns[1]"},
		{"wrong team at the line", ok, nil, b, "ns"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ValidateLineup(FITAB2025, table, c.nsT, b, c.l, c.other)
			if !errors.Is(err, ErrInvalid) || !strings.HasPrefix(strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": "), c.field+":") {
				t.Errorf("err = %v, want ErrInvalid naming %s", err, c.field)
			}
		})
	}
}

// RULES §12.5 through the official standings: the two tables of a match
// give one team result from the team totals (the RULES example, A 13 – B
// 7), not the tables' own VP; a match with one sheet only does not count;
// a resting team gets the teams' bye score (FITAB art. 38: 12 VP, 365 MP).
func TestOfficialStandings_RULES12_5_TeamMatches(t *testing.T) {
	res := func(round, table int, ns, eo string, nsTotal, eoTotal, nsVP int) TableResult {
		// the tables' own VP, deliberately not the team result
		return TableResult{Round: round, Table: table, NS: ns, EO: eo,
			Official: [2]LineResult{{Total: nsTotal, MP: nsTotal - eoTotal, VP: nsVP}, {Total: eoTotal, MP: eoTotal - nsTotal, VP: MaxVP - nsVP}}}
	}
	tour := Tournament{ID: "t", Ruleset: FITAB2025, Kind: KindTeams}
	entrants := []Entrant{{ID: "A"}, {ID: "B"}, {ID: "C"}, {ID: "D"}, {ID: "E"}}
	rounds := []Round{{Number: 1, HandsPlanned: 3, Byes: []string{"E"}, Tables: []TableAssignment{
		{Table: 1, Match: 1, NS: "A", EO: "B"}, {Table: 2, Match: 1, NS: "B", EO: "A"},
		{Table: 3, Match: 2, NS: "C", EO: "D"}, {Table: 4, Match: 2, NS: "D", EO: "C"},
	}}}
	out, err := OfficialStandings(OfficialStandingsInput{Tournament: tour, Entrants: entrants, Rounds: rounds, Results: []TableResult{
		res(1, 1, "A", "B", 1200, 800, 16), res(1, 2, "B", "A", 700, 900, 12),
		res(1, 3, "C", "D", 1500, 500, 20), // table 4's sheet is missing
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]int{}
	for _, r := range out.Rows {
		got[r.Entrant.ID] = [2]int{r.VP, r.MP}
	}
	want := map[string][2]int{"A": {13, 600}, "B": {7, -600}, "C": {0, 0}, "D": {0, 0}, "E": {12, 365}}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("team %s: VP, MP = %v, want %v", id, got[id], w)
		}
	}
	if len(out.TeamMatches) != 1 || out.TeamMatches[0].Totals != [2]int{2100, 1500} {
		t.Errorf("team matches: %+v", out.TeamMatches)
	}
}

// The property for teams (RULES §12.5 with §11, §12.3): for 7..41
// teams, a whole italiana calendar seats every round as whole matches,
// every two teams meet exactly once, and the checker agrees with the
// generator; a Danese round after a withdrawal never seats the withdrawn
// team.
func TestTeamRoundsProperty_RULES12_5(t *testing.T) {
	for n := 7; n <= 41; n += 3 {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			rounds := n - 1 + n%2
			var prev []PairedRound
			met := map[[2]string]int{}
			for r := 1; r <= rounds; r++ {
				req := PairingRequest{Ruleset: FIBurIta, Kind: KindTeams, System: SystemItaliana, Round: r, RoundsPlanned: rounds, Entrants: ids(n), Previous: prev}
				got := mustPair(t, req)
				assertTeamRound(t, got, ids(n))
				if rep := CheckRound(req, got); !rep.OK {
					t.Fatalf("round %d: the checker disagrees with the generator: %+v", r, rep.Problems)
				}
				for _, tb := range got.Tables {
					if tb.Table%2 == 1 {
						a, b := tb.NS[0], tb.EO[0]
						if b < a {
							a, b = b, a
						}
						met[[2]string{a, b}]++
					}
				}
				prev = append(prev, got)
			}
			if len(met) != n*(n-1)/2 {
				t.Errorf("%d meetings, want %d", len(met), n*(n-1)/2)
			}
			for k, c := range met {
				if c != 1 {
					t.Errorf("%v met %d times", k, c)
				}
			}
			// Danese round 2 with team "3" withdrawn from round 2.
			r1 := mustPair(t, PairingRequest{Ruleset: FIBurIta, Kind: KindTeams, System: SystemEntryOrder, Round: 1, Entrants: ids(n)})
			r2 := mustPair(t, PairingRequest{Ruleset: FIBurIta, Kind: KindTeams, System: SystemDanese, Round: 2, Entrants: ids(n), Standings: ids(n),
				Previous: []PairedRound{r1}, Withdrawn: map[string]int{"3": 2}})
			active := slices.DeleteFunc(ids(n), func(id string) bool { return id == "3" })
			assertTeamRound(t, r2, active)
			for _, tb := range r2.Tables {
				if tb.NS[0] == "3" || tb.EO[0] == "3" {
					t.Errorf("withdrawn team 3 seated at table %d", tb.Table)
				}
			}
			if slices.Contains(r2.Byes, "3") {
				t.Errorf("withdrawn team 3 rests")
			}
		})
	}
}

// namesPlace reports whether a refusal names place ("table 3", "byes[0]"):
// a Refusal's first argument is the table or the bye's index.
func namesPlace(err error, place string) bool {
	var ref *Refusal
	if !errors.As(err, &ref) || len(ref.Args) == 0 {
		return strings.Contains(err.Error(), place+":")
	}
	n := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(place, "table "), "byes["), "]")
	isBye := strings.HasPrefix(place, "byes[")
	return fmt.Sprint(ref.Args[0]) == n && isBye == (ref.Code == "rule.team_bye_plays")
}
