package domain

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
)

// individualSchedule seats rounds 1..rounds of an individual tournament.
func individualSchedule(tb testing.TB, n, rounds int, seed uint64) []PairedRound {
	var prev []PairedRound
	for r := 1; r <= rounds; r++ {
		got, err := GeneratePairing(PairingRequest{Ruleset: FITAB2025, Kind: KindIndividual, System: SystemDraw, Round: r,
			Entrants: ids(n), Previous: prev, Seed: u64(seed + uint64(r))})
		if err != nil {
			tb.Fatalf("round %d: %v", r, err)
		}
		prev = append(prev, got)
	}
	return prev
}

func playedRounds(n int, rounds []PairedRound) []int {
	played := make([]int, n)
	for _, r := range rounds {
		for _, t := range r.Tables {
			for _, id := range append(append([]string{}, t.NS...), t.EO...) {
				i, _ := strconv.Atoi(id)
				played[i-1]++
			}
		}
	}
	return played
}

// RULES §11 individual [INTERP: minimise repeated opponents, then repeated
// table-mates]: the figures of the report, against the simple lower bound.
func TestPairingIndividualRepeatsAgainstBound(t *testing.T) {
	if testing.Short() {
		t.Skip("figures for the report")
	}
	for _, n := range []int{16, 24, 40, 100} {
		for rounds := 5; rounds <= 7; rounds++ {
			t.Run(fmt.Sprintf("FITAB art. 2.3 n=%d rounds=%d", n, rounds), func(t *testing.T) {
				sched := individualSchedule(t, n, rounds, 1)
				part, opp, mates := IndividualRepeats(ids(n), sched)
				bound := IndividualOpponentLowerBound(n, playedRounds(n, sched))
				if part != 0 {
					t.Errorf("%d repeated partners", part)
				}
				if opp < bound {
					t.Errorf("%d repeated opponents is below the lower bound %d: the count or the bound is wrong", opp, bound)
				}
				t.Logf("players=%d rounds=%d repeated_opponents=%d lower_bound=%d repeated_table_mates=%d", n, rounds, opp, bound, mates)
			})
		}
	}
}

// FITAB art. 2.3 the bound itself: 8 players, 7 rounds, 2 opponents a round
// among 7 others: each repeats ≥ 14−7 = 7, so ≥ 28 pairs.
func TestPairingOpponentLowerBound(t *testing.T) {
	played := []int{7, 7, 7, 7, 7, 7, 7, 7}
	if got := IndividualOpponentLowerBound(8, played); got != 28 {
		t.Errorf("bound = %d, want 28", got)
	}
	if got := IndividualOpponentLowerBound(16, []int{7, 7}); got != 0 {
		t.Errorf("bound = %d, want 0", got)
	}
}

// Goal: danese_modificato for 500 tables (1,000 pairs) in ≤ 50 ms. The
// standings put every two previous opponents next to each other, so no
// table of pure danese is allowed.
func BenchmarkDaneseModificato1000Pairs(b *testing.B) {
	const n = 1000
	entrants := ids(n)
	r1 := PairedRound{Number: 1, System: SystemEntryOrder}
	standings := make([]string, 0, n)
	for t := range n / 2 {
		r1.Tables = append(r1.Tables, PairedTable{Table: t + 1, NS: one(entrants[t]), EO: one(entrants[t+n/2])})
		standings = append(standings, entrants[t], entrants[t+n/2])
	}
	req := PairingRequest{Ruleset: FIBurIta, System: SystemDaneseModificato, Round: 2, RoundsPlanned: 5,
		Entrants: entrants, Previous: []PairedRound{r1}, Standings: standings}
	for b.Loop() {
		if _, err := GeneratePairing(req); err != nil {
			b.Fatal(err)
		}
	}
}

// Goal: an individual schedule of 400 players × 7 rounds in ≤ 1 s.
func BenchmarkIndividual400x7(b *testing.B) {
	var opp int
	for b.Loop() {
		sched := individualSchedule(b, 400, 7, 1)
		_, opp, _ = IndividualRepeats(ids(400), sched)
	}
	b.ReportMetric(float64(opp), "repeated_opponents")
}

// The checker on a 1,000-pair Danish round.
func BenchmarkCheckRoundDanese1000Pairs(b *testing.B) {
	entrants := ids(1000)
	r1, _ := GeneratePairing(PairingRequest{Ruleset: FIBurIta, System: SystemDraw, Round: 1, Entrants: entrants, Seed: u64(1)})
	req := PairingRequest{Ruleset: FIBurIta, System: SystemDanese, Round: 2, Entrants: entrants, Previous: []PairedRound{r1}, Standings: entrants}
	r2, _ := GeneratePairing(req)
	for b.Loop() {
		if !CheckRound(req, r2).OK {
			b.Fatal("valid round flagged")
		}
	}
}

// A 1,001-pair session: round 1 drawn, round 2 danese (round 1's rest
// leads), round 3 Mitchell, the first round of its phase (roles set by
// mitchellSwapRoles), generated and checked.
func BenchmarkMitchell1001Pairs(b *testing.B) {
	entrants := ids(1001)
	r1, _ := GeneratePairing(PairingRequest{Ruleset: FIBurIta, System: SystemDraw, Round: 1, Entrants: entrants, Seed: u64(1)})
	bye := r1.Byes[0]
	standings := append([]string{bye}, slices.DeleteFunc(slices.Clone(entrants), func(e string) bool { return e == bye })...)
	r2, err := GeneratePairing(PairingRequest{Ruleset: FIBurIta, System: SystemDanese, Round: 2, Entrants: entrants, Previous: []PairedRound{r1}, Standings: standings})
	if err != nil {
		b.Fatal(err)
	}
	req := PairingRequest{Ruleset: FIBurIta, System: SystemMitchell, Round: 3, Entrants: entrants, Previous: []PairedRound{r1, r2}}
	for b.Loop() {
		r3, err := GeneratePairing(req)
		if err != nil {
			b.Fatal(err)
		}
		if !CheckRound(req, r3).OK {
			b.Fatal("valid round flagged")
		}
	}
}

// Round 2 of an italiana of 1,001 pairs after a drawn round 1, generated
// and checked.
func BenchmarkItaliana1001Pairs(b *testing.B) {
	entrants := ids(1001)
	r1, _ := GeneratePairing(PairingRequest{Ruleset: FIBurIta, System: SystemDraw, Round: 1, Entrants: entrants, Seed: u64(1)})
	req := PairingRequest{Ruleset: FIBurIta, System: SystemItaliana, Round: 2, Entrants: entrants, Previous: []PairedRound{r1}}
	for b.Loop() {
		r2, err := GeneratePairing(req)
		if err != nil {
			b.Fatal(err)
		}
		if !CheckRound(req, r2).OK {
			b.Fatal("valid round flagged")
		}
	}
}

// BenchmarkDanese1000With50Withdrawn: the goal is a 1,000-pair
// Danish round with 50 withdrawn under 50 ms (RULES §12.3).
func BenchmarkDanese1000With50Withdrawn(b *testing.B) {
	entrants := ids(1000)
	r1, err := GeneratePairing(PairingRequest{Ruleset: FITAB2025, System: SystemEntryOrder, Round: 1, Entrants: entrants})
	if err != nil {
		b.Fatal(err)
	}
	withdrawn := map[string]int{}
	for i := 0; i < 1000; i += 20 {
		withdrawn[entrants[i]] = 2
	}
	standings := slices.Clone(entrants)
	slices.Reverse(standings)
	req := PairingRequest{Ruleset: FITAB2025, System: SystemDanese, Round: 2, Entrants: entrants,
		Previous: []PairedRound{r1}, Standings: standings, Withdrawn: withdrawn}
	b.ReportAllocs()
	for b.Loop() {
		r, err := GeneratePairing(req)
		if err != nil || len(r.Tables) != 475 {
			b.Fatalf("%v, %d tables", err, len(r.Tables))
		}
	}
}
