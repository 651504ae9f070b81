package domain_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/messages"
)

// tournament builds standings input match by match: the second line gets
// 20 − VP and −MP, as on a sheet.
type tournament struct {
	in domain.StandingsInput
}

func newTournament(ids ...string) *tournament {
	t := &tournament{}
	for _, id := range ids {
		t.in.Entrants = append(t.in.Entrants, domain.Entrant{ID: id})
	}
	return t
}

func (t *tournament) match(round int, a, b string, vpA, mpA int) *tournament {
	t.in.Results = append(t.in.Results,
		domain.MatchResult{Round: round, Entrant: a, Opponent: b, VP: vpA, MP: mpA},
		domain.MatchResult{Round: round, Entrant: b, Opponent: a, VP: domain.MaxVP - vpA, MP: -mpA})
	return t
}

func (t *tournament) result(r domain.MatchResult) *tournament {
	t.in.Results = append(t.in.Results, r)
	return t
}

func (t *tournament) standings(tb testing.TB) []domain.Standing {
	tb.Helper()
	rows, err := domain.Standings(t.in)
	if err != nil {
		tb.Fatalf("Standings: %v", err)
	}
	return rows
}

// wantRow is what a test checks of one row; tiebreak is matched exactly
// unless it ends in "…", then as a prefix.
type wantRow struct {
	rank     int
	entrant  string
	vp, mp   int
	wins     int
	tiebreak string
}

func checkRows(t *testing.T, got []domain.Standing, want []wantRow) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Rank != w.rank || g.Entrant.ID != w.entrant || g.VP != w.vp || g.MP != w.mp || g.Wins != w.wins {
			t.Errorf("row %d = rank %d entrant %s VP %d MP %d wins %d, want rank %d entrant %s VP %d MP %d wins %d",
				i+1, g.Rank, g.Entrant.ID, g.VP, g.MP, g.Wins, w.rank, w.entrant, w.vp, w.mp, w.wins)
		}
		if prefix, ok := strings.CutSuffix(w.tiebreak, "…"); ok {
			if !strings.HasPrefix(english(g.Tiebreak), prefix) {
				t.Errorf("row %d (%s) tiebreak = %q, want it to start with %q", i+1, g.Entrant.ID, english(g.Tiebreak), prefix)
			}
		} else if english(g.Tiebreak) != w.tiebreak {
			t.Errorf("row %d (%s) tiebreak = %q, want %q", i+1, g.Entrant.ID, english(g.Tiebreak), w.tiebreak)
		}
	}
}

// FITAB art. 18 "punteggio ex-aequo": VP first, then MP; no tie-break is
// stated for entrants level with nobody.
func TestStandingsOrderByVPThenMP(t *testing.T) {
	tr := newTournament("1", "2", "3", "4", "5", "6").
		match(1, "1", "2", 15, 500).
		match(1, "3", "4", 12, 200).
		match(1, "5", "6", 12, 180)
	checkRows(t, tr.standings(t), []wantRow{
		{1, "1", 15, 500, 1, ""},
		{2, "3", 12, 200, 1, ""},
		{3, "5", 12, 180, 1, ""}, // same VP as 3, fewer MP
		{4, "6", 8, -180, 0, ""},
		{5, "4", 8, -200, 0, ""},
		{6, "2", 5, -500, 0, ""},
	})
}

// RULES §8 step 1: two entrants level on VP and MP that met: the winner of
// their match ranks higher — even though 5 has the bigger winning margin
// (step 2) and the lower number (step 4).
func TestStandingsHeadToHeadDecides(t *testing.T) {
	tr := newTournament("5", "7", "9", "12").
		match(1, "12", "5", 12, 150).
		match(1, "7", "9", 10, 0).
		match(2, "12", "7", 8, -100).
		match(2, "5", "9", 12, 200)
	checkRows(t, tr.standings(t), []wantRow{
		{1, "7", 22, 100, 1, ""},
		{2, "12", 20, 50, 1, "head-to-head: 12 beat 5 (+150 MP)"},
		{3, "5", 20, 50, 1, "head-to-head: 12 beat 5 (+150 MP)"},
		{4, "9", 18, -200, 0, ""},
	})
}

// RULES §8 step 1 with three entrants who all met: ranked by the sum of MP
// in the matches among them.
func TestStandingsHeadToHeadThreeAllMet(t *testing.T) {
	tr := newTournament("10", "20", "30", "61", "62", "63").
		match(1, "30", "20", 12, 200).
		match(1, "10", "63", 11, 100).
		match(2, "20", "10", 12, 200).
		match(2, "30", "61", 9, -100).
		match(3, "10", "30", 11, 100).
		match(3, "20", "62", 10, 0)
	want := "head-to-head, MP in the matches among 30, 20, 10: 30 +100, 20 +0, 10 -100"
	checkRows(t, tr.standings(t), []wantRow{
		{1, "30", 30, 0, 1, want},
		{2, "20", 30, 0, 1, want},
		{3, "10", 30, 0, 2, want},
		{4, "61", 11, 100, 1, ""},
		{5, "62", 10, 0, 0, ""},
		{6, "63", 9, -100, 0, ""},
	})
}

// RULES §8 step 1 [INTERP]: a drawn meeting decides nothing; step 2, the
// highest VP in a won match, decides instead.
func TestStandingsDrawnMeetingThenBestWinVP(t *testing.T) {
	tr := newTournament("5", "7", "9", "12").
		match(1, "12", "5", 10, 0).
		match(1, "7", "9", 10, 0).
		match(2, "12", "7", 15, 500).
		match(2, "5", "9", 13, 300).
		match(3, "12", "9", 8, -200).
		match(3, "5", "7", 10, 0)
	want := "head-to-head: 5 and 12 drew; highest VP in a won match: 12 had 15, 5 had 13"
	rows := tr.standings(t)
	checkRows(t, rows[:2], []wantRow{
		{1, "12", 33, 300, 1, want},
		{2, "5", 33, 300, 1, want},
	})
}

// RULES §8 step 2 [INTERP], second half: equal best-win VP, the highest MP
// margin in a won match decides; head-to-head does not apply because they
// never met. The same tournament has a shared place (step 4).
func TestStandingsBestWinMarginAndSharedPlace(t *testing.T) {
	tr := newTournament("1", "2", "3", "4", "5", "6").
		match(1, "1", "3", 14, 400).
		match(1, "2", "4", 14, 380).
		match(1, "5", "6", 10, 0).
		match(2, "1", "4", 8, -100).
		match(2, "2", "3", 8, -80).
		match(2, "5", "6", 10, 0)
	margin := "head-to-head not applicable (1 and 2 did not meet); highest VP in a won match: level (14); " +
		"highest MP margin in a won match: 1 had 400, 2 had 380"
	shared := "head-to-head: 5 and 6 drew; highest VP in a won match: level (no win); " +
		"highest MP margin in a won match: level (no win); more wins: level (0); " +
		"shared place: 5, 6 level on VP, MP and every tie-break"
	checkRows(t, tr.standings(t), []wantRow{
		{1, "1", 22, 300, 1, margin},
		{2, "2", 22, 300, 1, margin},
		{3, "5", 20, 0, 0, shared},
		{3, "6", 20, 0, 0, shared},
		{5, "4", 18, -280, 1, ""},
		{6, "3", 18, -320, 1, ""},
	})
}

// RULES §8 step 3: with the same best win, more wins rank higher.
func TestStandingsMoreWins(t *testing.T) {
	tr := newTournament("10", "11", "20", "21", "22", "23", "24", "25").
		match(1, "10", "20", 13, 300).
		match(2, "10", "21", 11, 100).
		match(3, "10", "22", 6, -400).
		match(1, "11", "23", 13, 300).
		match(2, "11", "24", 10, 0).
		match(3, "11", "25", 7, -300)
	rows := tr.standings(t)
	want := "head-to-head not applicable (10 and 11 did not meet); highest VP in a won match: level (13); " +
		"highest MP margin in a won match: level (300); more wins: 10 had 2, 11 had 1"
	checkRows(t, rows[:2], []wantRow{
		{1, "10", 30, 0, 2, want},
		{2, "11", 30, 0, 1, want},
	})
}

// RULES §8: a three-way tie where not every two met skips head-to-head —
// which would have ranked 2, 1, 3 — and step 2 ranks 3, 2, 1.
func TestStandingsThreeWayNotAllMet(t *testing.T) {
	tr := newTournament("1", "2", "3", "51", "52", "53", "54", "55").
		match(1, "1", "2", 11, 100).
		match(2, "1", "51", 12, 200).
		match(3, "1", "52", 7, -300).
		match(2, "2", "3", 13, 250).
		match(3, "2", "53", 8, -150).
		match(1, "3", "54", 14, 400).
		match(3, "3", "55", 9, -150)
	want := "head-to-head not applicable (1 and 3 did not meet); highest VP in a won match: 3 had 14, 2 had 13, 1 had 12"
	rows := tr.standings(t)
	checkRows(t, rows[:3], []wantRow{
		{1, "3", 30, 0, 1, want},
		{2, "2", 30, 0, 1, want},
		{3, "1", 30, 0, 2, want},
	})
}

// RULES §8 step 4 [INTERP]: a shared place is listed by entrant number,
// numerically when the ids are numbers (9 before 10), other ids after them.
func TestStandingsSharedPlaceNumericOrder(t *testing.T) {
	tr := newTournament("B", "10", "A", "9").
		match(1, "10", "9", 10, 0).
		match(1, "A", "B", 10, 0)
	rows := tr.standings(t)
	var got []string
	for _, r := range rows {
		got = append(got, r.Entrant.ID)
		if r.Rank != 1 {
			t.Errorf("%s rank %d, want the shared 1", r.Entrant.ID, r.Rank)
		}
		if !strings.HasPrefix(english(r.Tiebreak), "head-to-head not applicable (9 and A did not meet)") ||
			!strings.HasSuffix(english(r.Tiebreak), "shared place: 9, 10, A, B level on VP, MP and every tie-break") {
			t.Errorf("%s tiebreak %q", r.Entrant.ID, english(r.Tiebreak))
		}
	}
	if strings.Join(got, " ") != "9 10 A B" {
		t.Errorf("order %v, want 9 10 A B", got)
	}
}

// AfterRound: the standings after round 1 of the drawn-meeting tournament,
// where all four are level and share the first place.
func TestStandingsAfterRound(t *testing.T) {
	tr := newTournament("5", "7", "9", "12").
		match(1, "12", "5", 10, 0).
		match(1, "7", "9", 10, 0).
		match(2, "12", "7", 15, 500).
		match(2, "5", "9", 13, 300)
	tr.in.AfterRound = 1
	rows := tr.standings(t)
	for i, id := range []string{"5", "7", "9", "12"} {
		r := rows[i]
		if r.Entrant.ID != id || r.Rank != 1 || r.VP != 10 || r.MP != 0 || r.Wins != 0 {
			t.Errorf("row %d = %+v, want %s sharing rank 1 with 10 VP 0 MP", i+1, r, id)
		}
	}
	tr.in.AfterRound = 2
	rows = tr.standings(t)
	if rows[0].Entrant.ID != "12" || rows[0].VP != 25 {
		t.Errorf("after round 2 first = %s with %d VP, want 12 with 25", rows[0].Entrant.ID, rows[0].VP)
	}
}

// RULES §8 step 3 [INTERP]: a bye is not a win though its MP are positive;
// an awarded match is. Team tournament with the fixed team rows of FITAB
// art. 38 (bye 12 VP 365 MP).
func TestStandingsTeamsByeIsNotAWin(t *testing.T) {
	tr := newTournament("T1", "T2", "T3", "T4")
	tr.in.Kind = domain.KindTeams
	for i := range tr.in.Entrants {
		tr.in.Entrants[i].Team = "Squadra " + tr.in.Entrants[i].ID
	}
	tr.result(domain.MatchResult{Round: 1, Entrant: "T1", VP: 12, MP: 365, Bye: true}).
		result(domain.MatchResult{Round: 1, Entrant: "T2", Opponent: "T3", VP: 12, MP: 365, Awarded: true}).
		result(domain.MatchResult{Round: 1, Entrant: "T3", Opponent: "T2", VP: 8, MP: -355}).
		match(2, "T4", "T1", 12, 365).
		match(2, "T3", "T2", 12, 365)
	want := "head-to-head not applicable (T1 and T2 did not meet); highest VP in a won match: T2 had 12, T1 had no win"
	rows := tr.standings(t)
	checkRows(t, rows, []wantRow{
		{1, "T3", 20, 10, 1, ""},
		{2, "T2", 20, 0, 1, want},
		{3, "T1", 20, 0, 0, want},
		{4, "T4", 12, 365, 1, ""},
	})
	if rows[1].Entrant.Team != "Squadra T2" {
		t.Errorf("row entrant %+v lost its team name", rows[1].Entrant)
	}
}

// RULES §8: in individual tournaments VP follow the player: a line's result
// is credited to each of its players; partners have not met.
func TestStandingsIndividual(t *testing.T) {
	tr := newTournament("1", "2", "3", "4")
	tr.in.Kind = domain.KindIndividual
	line := func(round int, p, o []string, vp, mp int) {
		tr.result(domain.MatchResult{Round: round, Players: p, OpponentPlayers: o, VP: vp, MP: mp})
		tr.result(domain.MatchResult{Round: round, Players: o, OpponentPlayers: p, VP: domain.MaxVP - vp, MP: -mp})
	}
	line(1, []string{"1", "2"}, []string{"3", "4"}, 13, 300)
	line(2, []string{"1", "3"}, []string{"2", "4"}, 14, 400)
	line(3, []string{"1", "4"}, []string{"2", "3"}, 12, 200)
	// 1: 13+14+12 = 39 VP, 300+400+200 = 900 MP; 2: 13+6+8 = 27, 300−400−200 = −300;
	// 3: 7+14+8 = 29, −300+400−200 = −100; 4: 7+6+12 = 25, −300−400+200 = −500.
	checkRows(t, tr.standings(t), []wantRow{
		{1, "1", 39, 900, 3, ""},
		{2, "3", 29, -100, 1, ""},
		{3, "2", 27, -300, 1, ""},
		{4, "4", 25, -500, 1, ""},
	})

	// Two partners level on everything: 1 and 2 played together in round 1
	// and against each other in round 2 (a draw).
	tr = newTournament("1", "2", "3", "4")
	tr.in.Kind = domain.KindIndividual
	line(1, []string{"1", "2"}, []string{"3", "4"}, 13, 300)
	line(2, []string{"1", "3"}, []string{"2", "4"}, 10, 0)
	rows := tr.standings(t)
	checkRows(t, rows[:2], []wantRow{
		{1, "1", 23, 300, 1, "head-to-head: 1 and 2 drew; highest VP in a won match: level (13); highest MP margin in a won match: level (300); more wins: level (1); shared place: 1, 2 level on VP, MP and every tie-break"},
		{1, "2", 23, 300, 1, "head-to-head: 1 and 2 drew; …"},
	})
}

// RULES §7: adjustments add to the totals (FITAB art. 21: a second warning
// costs 1 VP and the equivalent MP, here 65 in 3-hand rounds), are listed on
// the row, and count only up to AfterRound, except round-0 ones.
func TestStandingsAdjustments(t *testing.T) {
	tr := newTournament("1", "2", "3", "4").
		match(1, "1", "2", 12, 200).
		match(1, "3", "4", 12, 180).
		match(2, "1", "4", 10, 0).
		match(2, "3", "2", 10, 0)
	warn := domain.Adjustment{Entrant: "1", Round: 2, Reason: domain.ReasonWarning, VP: -1, MP: -65, Note: "second warning"}
	ref := domain.Adjustment{Entrant: "4", Round: 0, Reason: domain.ReasonRefereeScore, VP: 1, MP: 40, Note: "lost count"}
	tr.in.Adjustments = []domain.Adjustment{warn, ref}
	rows := tr.standings(t)
	checkRows(t, rows, []wantRow{
		{1, "3", 22, 180, 1, ""},
		{2, "1", 21, 135, 1, ""},
		{3, "4", 19, -140, 0, ""},
		{4, "2", 18, -200, 0, ""},
	})
	if len(rows[1].Adjustments) != 1 || rows[1].Adjustments[0] != warn {
		t.Errorf("row of 1 lists adjustments %+v, want the warning", rows[1].Adjustments)
	}
	if len(rows[0].Adjustments) != 0 {
		t.Errorf("row of 3 lists adjustments %+v, want none", rows[0].Adjustments)
	}

	tr.in.AfterRound = 1
	rows = tr.standings(t)
	checkRows(t, rows, []wantRow{
		{1, "1", 12, 200, 1, ""},
		{2, "3", 12, 180, 1, ""},
		{3, "4", 9, -140, 0, ""}, // 8 −180 plus the round-0 referee score
		{4, "2", 8, -200, 0, ""},
	})
}

// An adjustment can make a tie, which the tie-breaks then settle.
func TestStandingsAdjustmentMakesTie(t *testing.T) {
	tr := newTournament("1", "2", "3", "4").
		match(1, "1", "2", 13, 300).
		match(1, "3", "4", 12, 200)
	tr.in.Adjustments = []domain.Adjustment{{Entrant: "1", Round: 1, Reason: domain.ReasonWarning, VP: -1, MP: -100}}
	rows := tr.standings(t)
	checkRows(t, rows[:2], []wantRow{
		{1, "1", 12, 200, 1, "head-to-head not applicable (1 and 3 did not meet); highest VP in a won match: 1 had 13, 3 had 12"},
		{2, "3", 12, 200, 1, "head-to-head not applicable (1 and 3 did not meet); …"},
	})
}

func TestStandingsEntrantWithoutResults(t *testing.T) {
	tr := newTournament("1", "2", "3").match(1, "1", "2", 10, 0)
	rows := tr.standings(t)
	if last := rows[len(rows)-1]; last.Entrant.ID != "3" || last.VP != 0 || last.Rank != 3 {
		t.Errorf("last row %+v, want 3 with nothing at rank 3", last)
	}
}

func TestStandingsInvalid(t *testing.T) {
	base := func() domain.StandingsInput {
		return newTournament("1", "2", "3").match(1, "1", "2", 12, 200).in
	}
	cases := []struct {
		name  string
		edit  func(*domain.StandingsInput)
		field string
	}{
		{"unknown entrant", func(in *domain.StandingsInput) { in.Results[0].Entrant = "99" }, "results[0].entrant"},
		{"unknown opponent", func(in *domain.StandingsInput) { in.Results[1].Opponent = "99" }, "results[1].opponent"},
		{"missing entrant", func(in *domain.StandingsInput) { in.Results[0].Entrant = "" }, "results[0].entrant"},
		{"round 0", func(in *domain.StandingsInput) { in.Results[0].Round = 0 }, "results[0].round"},
		{"VP over 20", func(in *domain.StandingsInput) { in.Results[0].VP = 21 }, "results[0].vp"},
		{"negative VP", func(in *domain.StandingsInput) { in.Results[1].VP = -1 }, "results[1].vp"},
		{"two results in a round", func(in *domain.StandingsInput) {
			in.Results = append(in.Results, domain.MatchResult{Round: 1, Entrant: "1", Opponent: "3", VP: 10})
		}, "results[2]"},
		{"meets itself", func(in *domain.StandingsInput) { in.Results[0].Opponent = "1" }, "results[0]"},
		{"bye with an opponent", func(in *domain.StandingsInput) { in.Results[0].Bye = true }, "results[0]"},
		{"bye and awarded", func(in *domain.StandingsInput) {
			in.Results = append(in.Results, domain.MatchResult{Round: 1, Entrant: "3", VP: 14, MP: 365, Bye: true, Awarded: true})
		}, "results[2]"},
		{"individual without players", func(in *domain.StandingsInput) { in.Kind = domain.KindIndividual }, "results[0].players"},
		{"individual unknown player", func(in *domain.StandingsInput) {
			in.Kind = domain.KindIndividual
			in.Results = []domain.MatchResult{{Round: 1, Players: []string{"1", "x"}, VP: 10}}
		}, "results[0].players[1]"},
		{"adjustment for an unknown entrant", func(in *domain.StandingsInput) {
			in.Adjustments = []domain.Adjustment{{Entrant: "7", Reason: domain.ReasonWarning}}
		}, "adjustments[0].entrant"},
		{"adjustment with an unknown reason", func(in *domain.StandingsInput) {
			in.Adjustments = []domain.Adjustment{{Entrant: "1", Reason: "fine"}}
		}, "adjustments[0].reason"},
		{"adjustment with a negative round", func(in *domain.StandingsInput) {
			in.Adjustments = []domain.Adjustment{{Entrant: "1", Round: -1, Reason: domain.ReasonWarning}}
		}, "adjustments[0].round"},
		{"entrant entered twice", func(in *domain.StandingsInput) { in.Entrants = append(in.Entrants, domain.Entrant{ID: "2"}) }, "entrants[3].id"},
		{"entrant without id", func(in *domain.StandingsInput) { in.Entrants[0].ID = "" }, "entrants[0].id"},
		{"negative after_round", func(in *domain.StandingsInput) { in.AfterRound = -1 }, "after_round"},
		{"unknown kind", func(in *domain.StandingsInput) { in.Kind = "trios" }, "kind"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := base()
			c.edit(&in)
			_, err := domain.Standings(in)
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("Standings error = %v, want ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), c.field) {
				t.Errorf("error %q does not name %q", err, c.field)
			}
		})
	}
}

// Invariants on a random tournament: ranks follow the order, VP and MP never
// increase down the table, a rank is shared only by entrants level on VP and
// MP, and every tied row says why it is where it is.
func TestStandingsInvariants(t *testing.T) {
	for seed := range uint64(20) {
		in := randomTournament(60, 6, seed)
		rows, err := domain.Standings(in)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 60 {
			t.Fatalf("%d rows, want 60", len(rows))
		}
		for i := 1; i < len(rows); i++ {
			p, r := rows[i-1], rows[i]
			if r.VP > p.VP || (r.VP == p.VP && r.MP > p.MP) {
				t.Errorf("seed %d: row %d (%d VP %d MP) above row %d (%d VP %d MP)", seed, i, p.VP, p.MP, i+1, r.VP, r.MP)
			}
			switch {
			case r.Rank == p.Rank && (r.VP != p.VP || r.MP != p.MP):
				t.Errorf("seed %d: rank %d shared by entrants not level", seed, r.Rank)
			case r.Rank != p.Rank && r.Rank != i+1:
				t.Errorf("seed %d: row %d has rank %d", seed, i+1, r.Rank)
			}
			if r.VP == p.VP && r.MP == p.MP && (len(r.Tiebreak) == 0 || len(p.Tiebreak) == 0) {
				t.Errorf("seed %d: rows %d and %d are level without a tie-break reason", seed, i, i+1)
			}
		}
	}
}

// randomTournament pairs n entrants (n even) for the given rounds — in
// round r the i-th of the first half meets the (i+r)-th of the second half —
// with table-like VP and MP, and gives entrant 1 a bye in round 1.
func randomTournament(n, rounds int, seed uint64) domain.StandingsInput {
	rng := rand.New(rand.NewPCG(seed, 7))
	tr := newTournament()
	for i := range n {
		tr.in.Entrants = append(tr.in.Entrants, domain.Entrant{ID: strconv.Itoa(i + 1)})
	}
	half := n / 2
	for r := 1; r <= rounds; r++ {
		for i := range half {
			a, b := i, half+(i+r)%half
			if r == 1 && (a == 0 || b == half+1) {
				continue
			}
			vp := 10 + rng.IntN(11) - 5
			mp := (vp - 10) * 100
			if vp == 10 {
				mp = 5 * (rng.IntN(11) - 5)
			}
			tr.match(r, strconv.Itoa(a+1), strconv.Itoa(b+1), vp, mp)
		}
	}
	tr.result(domain.MatchResult{Round: 1, Entrant: "1", VP: 14, MP: 365, Bye: true})
	tr.result(domain.MatchResult{Round: 1, Entrant: strconv.Itoa(half + 2), VP: 14, MP: 365, Bye: true})
	return tr.in
}

// BenchmarkStandings: 1,000 entrants × 8 rounds; the goal is ≤ 100 ms per
// computation.
func BenchmarkStandings(b *testing.B) {
	for _, c := range []struct {
		name string
		in   domain.StandingsInput
	}{
		{"random", randomTournament(1000, 8, 1)},
		{"all-drawn", allDrawn(1000, 8)},
	} {
		b.Run(fmt.Sprintf("%s/1000x8", c.name), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := domain.Standings(c.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// allDrawn is the worst case for the tie-breaks: every match drawn, so all
// entrants are level and go through every step.
func allDrawn(n, rounds int) domain.StandingsInput {
	tr := newTournament()
	for i := range n {
		tr.in.Entrants = append(tr.in.Entrants, domain.Entrant{ID: strconv.Itoa(i + 1)})
	}
	half := n / 2
	for r := 1; r <= rounds; r++ {
		for i := range half {
			tr.match(r, strconv.Itoa(i+1), strconv.Itoa(half+(i+r)%half+1), 10, 0)
		}
	}
	return tr.in
}

// RULES §8 step 1 [INTERP]: three entrants who all met and drew among
// themselves: head-to-head is level, and with nothing else between them they
// share the place.
func TestStandingsHeadToHeadLevelAmongThree(t *testing.T) {
	tr := newTournament("1", "2", "3", "71", "72", "73").
		match(1, "1", "2", 10, 0).
		match(1, "3", "73", 14, 400).
		match(2, "2", "3", 10, 0).
		match(2, "1", "71", 14, 400).
		match(3, "3", "1", 10, 0).
		match(3, "2", "72", 14, 400)
	want := "head-to-head: level in the matches among 1, 2, 3; highest VP in a won match: level (14); " +
		"highest MP margin in a won match: level (400); more wins: level (1); " +
		"shared place: 1, 2, 3 level on VP, MP and every tie-break"
	checkRows(t, tr.standings(t)[:3], []wantRow{
		{1, "1", 34, 400, 1, want},
		{1, "2", 34, 400, 1, want},
		{1, "3", 34, 400, 1, want},
	})
}

// A large shared place names the first ten entrants only.
func TestStandingsLargeSharedPlace(t *testing.T) {
	tr := newTournament()
	for i := 1; i <= 12; i++ {
		tr.in.Entrants = append(tr.in.Entrants, domain.Entrant{ID: strconv.Itoa(i)})
	}
	rows := tr.standings(t)
	want := "shared place: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, and 2 more level on VP, MP and every tie-break"
	for _, r := range rows {
		if r.Rank != 1 || !strings.HasSuffix(english(r.Tiebreak), want) {
			t.Errorf("%s: rank %d tiebreak %q, want rank 1 and %q", r.Entrant.ID, r.Rank, english(r.Tiebreak), want)
		}
	}
}

// english words a tie-break's notes as the API gives them.
func english(notes []domain.Note) string { return messages.Notes(domain.English, notes) }
