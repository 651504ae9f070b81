package app

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
)

// standingsSheet is a one-hand fitab-2025 sheet: NS base+points against EO.
func standingsSheet(ns, eo int) domain.Sheet {
	return domain.Sheet{Ruleset: domain.FITAB2025, HandsPlanned: 3,
		Hands: []domain.Hand{{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 0, Points: ns}, {Base: 0, Points: eo}}}}}
}

func pairs(ids ...string) []domain.Entrant {
	out := make([]domain.Entrant, len(ids))
	for i, id := range ids {
		out[i] = domain.Entrant{ID: id}
	}
	return out
}

// computeStandings builds the standings' input from the records as its
// comment says; each rule has a case. The sheets are one hand of three, so
// the FITAB 3-hand table applies (RULES §6.2): a 300-point win is 13-7.
func TestComputeStandingsFromRecords(t *testing.T) {
	tour := domain.Tournament{ID: "t", Ruleset: domain.FITAB2025, Kind: domain.KindPairs, RoundsPlanned: 3, HandsPerRound: 3}
	r1 := domain.Round{Number: 1, HandsPlanned: 3, Phase: domain.PhaseMitchell,
		Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}, {Table: 2, NS: "3", EO: "4"}}, Byes: []string{"5"}}
	r2 := domain.Round{Number: 2, HandsPlanned: 3, Phase: domain.PhaseMitchell,
		Tables: []domain.TableAssignment{{Table: 1, NS: "2", EO: "1"}}}
	// The sheet's own ids are wrong on purpose: the round's seating counts.
	s11 := standingsSheet(300, 0)
	s11.Sides = [2]domain.Side{{ID: "4"}, {ID: "3"}}
	sheets := []store.SheetAt{
		{Round: 1, Table: 1, StoredSheet: store.StoredSheet{Sheet: s11}},
		{Round: 1, Table: 2, StoredSheet: store.StoredSheet{Sheet: standingsSheet(0, 0)}},
	}
	lateStart := store.Adjustment{Entrant: "6", Round: 1, Case: domain.AdjustmentCase{Reason: domain.ReasonLateStart},
		Effect: domain.AdjustmentEffect{Result: &domain.MatchScore{VP: 8, MP: -130}}}
	awarded := store.Adjustment{Entrant: "4", Round: 1, Case: domain.AdjustmentCase{Reason: domain.ReasonLateOver10},
		Effect: domain.AdjustmentEffect{Result: &domain.MatchScore{VP: 14, MP: 365}, Awarded: true}}
	penalty := store.Adjustment{Entrant: "1", Round: 2, Case: domain.AdjustmentCase{Reason: domain.ReasonRefereeScore, Note: "x"},
		Effect: domain.AdjustmentEffect{Delta: domain.MatchScore{VP: -2, MP: -130}}}
	type got struct {
		Entrant      string
		VP, MP, Wins int
	}
	for _, tc := range []struct {
		name        string
		sheets      []store.SheetAt
		adjustments []store.Adjustment
		after       int
		wantAfter   int
		want        []got
	}{
		{"no sheet yet: after_round 0, everyone at 0", nil, nil, 0, 0,
			[]got{{"1", 0, 0, 0}, {"2", 0, 0, 0}, {"3", 0, 0, 0}, {"4", 0, 0, 0}, {"5", 0, 0, 0}, {"6", 0, 0, 0}}},
		{"RULES §6 sheets by the round's seating, RULES §7 bye 14/365 and no win", sheets, nil, 0, 1,
			[]got{{"5", 14, 365, 0}, {"1", 13, 300, 1}, {"3", 10, 0, 0}, {"4", 10, 0, 0}, {"2", 7, -300, 0}, {"6", 0, 0, 0}}},
		{"a result adjustment takes the place of the match; one without a sheet adds one", sheets, []store.Adjustment{awarded, lateStart}, 0, 1,
			[]got{{"4", 14, 365, 1}, {"5", 14, 365, 0}, {"1", 13, 300, 1}, {"3", 10, 0, 0}, {"6", 8, -130, 0}, {"2", 7, -300, 0}}},
		{"a penalty of a later round does not count before it", sheets, []store.Adjustment{penalty}, 1, 1,
			[]got{{"5", 14, 365, 0}, {"1", 13, 300, 1}, {"3", 10, 0, 0}, {"4", 10, 0, 0}, {"2", 7, -300, 0}, {"6", 0, 0, 0}}},
		{"after its round it does", sheets, []store.Adjustment{penalty}, 2, 2,
			[]got{{"5", 14, 365, 0}, {"1", 11, 170, 1}, {"3", 10, 0, 0}, {"4", 10, 0, 0}, {"2", 7, -300, 0}, {"6", 0, 0, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := computeStandings(tour, pairs("1", "2", "3", "4", "5", "6"), []domain.Round{r1, r2}, resultsOf([]domain.Round{r1, r2}, tc.sheets), tc.adjustments, tc.after)
			if err != nil {
				t.Fatal(err)
			}
			if st.AfterRound != tc.wantAfter {
				t.Errorf("after round %d, want %d", st.AfterRound, tc.wantAfter)
			}
			var rows []got
			for _, r := range st.Rows {
				rows = append(rows, got{r.Entrant.ID, r.VP, r.MP, r.Wins})
			}
			if d := cmp.Diff(tc.want, rows); d != "" {
				t.Errorf("standings (-want +got):\n%s", d)
			}
		})
	}
}

// BenchmarkComputeStandings: a large tournament — 400 pairs, 5 rounds, 200
// tables a round, three hands a sheet — ranked from its records, as every
// standings request, correction and export does.
func BenchmarkComputeStandings(b *testing.B) {
	const nPairs, nRounds = 400, 5
	tour := domain.Tournament{ID: "t", Ruleset: domain.FITAB2025, Kind: domain.KindPairs, RoundsPlanned: nRounds, HandsPerRound: 3}
	var entrants []domain.Entrant
	for i := 1; i <= nPairs; i++ {
		entrants = append(entrants, domain.Entrant{ID: strconv.Itoa(i)})
	}
	var rounds []domain.Round
	var sheets []store.SheetAt
	for n := 1; n <= nRounds; n++ {
		r := domain.Round{Number: n, HandsPlanned: 3, Phase: domain.PhaseMitchell}
		for tb := 1; tb <= nPairs/2; tb++ {
			ns, eo := tb, (tb+n*7)%(nPairs/2)+nPairs/2+1
			r.Tables = append(r.Tables, domain.TableAssignment{Table: tb, NS: strconv.Itoa(ns), EO: strconv.Itoa(eo)})
			s := standingsSheet(5*((tb*n)%97), 5*((tb+n)%89))
			s.Hands = append(s.Hands, s.Hands[0], s.Hands[0])
			sheets = append(sheets, store.SheetAt{Round: n, Table: tb, StoredSheet: store.StoredSheet{Sheet: s}})
		}
		rounds = append(rounds, r)
	}
	results := resultsOf(rounds, sheets)
	for b.Loop() {
		if _, err := computeStandings(tour, entrants, rounds, results, nil, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// A counted result whose official (written) figures differ from the
// computed ones counts as written (RULES §8) and is listed for both its
// entrants with the ruling a correction would get now (RULES §9): a sum
// error in the round being played applies; an "other" error never does
// (FITAB art. 20).
func TestComputeStandingsListsDiscrepancies_S8(t *testing.T) {
	tour := domain.Tournament{ID: "t", Ruleset: domain.FITAB2025, Kind: domain.KindPairs, Level: domain.LevelRegional, RoundsPlanned: 3, HandsPerRound: 3}
	r1 := domain.Round{Number: 1, HandsPlanned: 3, Phase: domain.PhaseMitchell, State: domain.RoundPlaying,
		Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}, {Table: 2, NS: "3", EO: "4"}}}
	written := [2]domain.LineResult{{Total: 745, MP: 10, VP: 11}, {Total: 735, MP: -10, VP: 9}}
	computed := [2]domain.LineResult{{Total: 735, MP: 0, VP: 10}, {Total: 735, MP: 0, VP: 10}}
	results := []domain.TableResult{
		{Round: 1, Table: 1, NS: "1", EO: "2", Official: written, Computed: computed, Differs: true, Kind: domain.CorrectionSum},
		{Round: 1, Table: 2, NS: "3", EO: "4", Official: written, Computed: computed, Differs: true, Kind: domain.CorrectionOther},
	}
	st, err := computeStandings(tour, pairs("1", "2", "3", "4"), []domain.Round{r1}, results, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Rows {
		want := map[string]int{"1": 11, "2": 9, "3": 11, "4": 9}[r.Entrant.ID]
		if r.VP != want {
			t.Errorf("entrant %s: %d VP, want the written %d", r.Entrant.ID, r.VP, want)
		}
	}
	want := map[string][]Discrepancy{
		"1": {{Round: 1, Table: 1, Line: domain.NS, Official: written[0], Computed: computed[0], Kind: domain.CorrectionSum, Correctable: domain.RulingApply}},
		"2": {{Round: 1, Table: 1, Line: domain.EO, Official: written[1], Computed: computed[1], Kind: domain.CorrectionSum, Correctable: domain.RulingApply}},
		"3": {{Round: 1, Table: 2, Line: domain.NS, Official: written[0], Computed: computed[0], Kind: domain.CorrectionOther, Correctable: domain.RulingReject}},
		"4": {{Round: 1, Table: 2, Line: domain.EO, Official: written[1], Computed: computed[1], Kind: domain.CorrectionOther, Correctable: domain.RulingReject}},
	}
	if d := cmp.Diff(want, st.Discrepancies); d != "" {
		t.Errorf("discrepancies (-want +got):\n%s", d)
	}
}
