package domain

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPairingWithdrawalRULES12_3Property: random fields of 7-41 entrants,
// withdrawals at random rounds, danese, mitchell and italiana: nobody is
// seated from the round of its withdrawal on; everybody else plays, rests
// or — in a fixed calendar, opposite a withdrawn entrant — sits alone
// (vacated, not a rest); every round-robin pair meets at most once; the
// checker agrees with the generator (FITAB art. 37, FIBur-INT art. 33).
func TestPairingWithdrawalRULES12_3Property(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 33))
	systems := []PairingSystem{SystemDanese, SystemMitchell, SystemItaliana}
	for iter := range 150 {
		n := 7 + rng.IntN(35)
		sys := systems[iter%len(systems)]
		rounds := 3 + rng.IntN(4)
		if sys == SystemMitchell {
			rounds = min(rounds, (n+1)/2)
		}
		if sys == SystemItaliana {
			rounds = min(rounds, n-1)
		}
		entrants := ids(n)
		withdrawn := map[string]int{}
		for range 1 + rng.IntN(3) {
			withdrawn[entrants[rng.IntN(n)]] = 2 + rng.IntN(rounds-1)
		}
		var prev []PairedRound
		met := map[[2]string]int{}
		for k := 1; k <= rounds; k++ {
			req := PairingRequest{Ruleset: FIBurIta, System: sys, Round: k, RoundsPlanned: rounds,
				Entrants: entrants, Previous: slices.Clone(prev), Withdrawn: withdrawn}
			if k == 1 && sys != SystemItaliana {
				req.System = SystemEntryOrder
			}
			if req.System == SystemDanese {
				req.Standings = slices.Clone(entrants)
				rng.Shuffle(n, func(i, j int) { req.Standings[i], req.Standings[j] = req.Standings[j], req.Standings[i] })
			}
			r, err := GeneratePairing(req)
			if err != nil {
				if sys != SystemDanese { // a fixed calendar may refuse a second rest (RULES §11)
					break
				}
				t.Fatalf("n=%d %s round %d: %v", n, sys, k, err)
			}
			seen := map[string]int{}
			for _, tb := range r.Tables {
				for _, id := range append(slices.Clone(tb.NS), tb.EO...) {
					seen[id]++
				}
				if sys == SystemItaliana {
					p := sortedPair(tb.NS[0], tb.EO[0])
					if met[p]++; met[p] > 1 {
						t.Fatalf("n=%d round %d: %v meet twice", n, k, p)
					}
				}
			}
			for _, id := range append(slices.Clone(r.Byes), r.Vacated...) {
				seen[id]++
			}
			for _, id := range entrants {
				gone := withdrawn[id] > 0 && withdrawn[id] <= k
				switch {
				case gone && seen[id] > 0:
					t.Fatalf("n=%d %s round %d: %s withdrew from round %d and is seated", n, sys, k, id, withdrawn[id])
				case !gone && seen[id] != 1:
					t.Fatalf("n=%d %s round %d: %s seated %d times", n, sys, k, id, seen[id])
				}
			}
			if sys == SystemDanese && len(r.Vacated) > 0 {
				t.Fatalf("danese leaves nobody alone: %v", r.Vacated)
			}
			if rep := CheckRound(req, r); !rep.OK {
				t.Fatalf("n=%d %s round %d: checker disagrees: %+v", n, sys, k, rep.Problems)
			}
			prev = append(prev, r)
		}
	}
}

// TestPairingWithdrawalFixedCalendarFITABArt37: in a Mitchell movement the
// line that would have met the withdrawn pair sits alone (the bye score),
// and that is not a rest: it may still rest later in the session.
func TestPairingWithdrawalFixedCalendarFITABArt37(t *testing.T) {
	r1 := prevRound(1, SystemEntryOrder, []string{"1-5", "2-6", "3-7", "4-8"})
	req := PairingRequest{Ruleset: FITAB2025, System: SystemMitchell, Round: 2, Entrants: ids(8),
		Previous: []PairedRound{r1}, Withdrawn: map[string]int{"6": 2}}
	r2 := mustPair(t, req)
	// EO lines move up one table: 8 to table 1, 5 to 2, 6 to 3 — 6 is gone, 3 alone.
	if got := seating(r2); got != "1:1v8 2:2v5 4:4v7" || !slices.Equal(r2.Vacated, []string{"3"}) || len(r2.Byes) != 0 {
		t.Errorf("round 2: %s vacated %v byes %v", got, r2.Vacated, r2.Byes)
	}
	if rep := CheckRound(req, r2); !rep.OK {
		t.Errorf("checker: %+v", rep.Problems)
	}
	// A round 2 that seats 6 anyway is flagged.
	bad := prevRound(2, SystemMitchell, []string{"1-8", "2-5", "3-6", "4-7"})
	rep := CheckRound(req, bad)
	if !slices.ContainsFunc(rep.Problems, func(p PairingProblem) bool { return p.Code == PairingWithdrawnSeated }) {
		t.Errorf("a withdrawn entrant seated: %+v, want WITHDRAWN_SEATED", rep.Problems)
	}
	// The vacated line is no rest (RULES §12.3): not counted for the session.
	req3 := req
	req3.Round, req3.Previous = 3, []PairedRound{r1, r2}
	if rests := req3.sessionRests(3); len(rests) != 0 {
		t.Errorf("rests after round 2: %v, want none (3 sat alone, not a rest)", rests)
	}
}

// TestPairingWithdrawalMitchellGoesOnFITABArt37: after a withdrawal the
// Mitchell movement goes on round after round ("alle coppie con cui
// avrebbero dovuto giocare nei turni successivi è attribuito il punteggio
// per riposo", FITAB art. 37): the EO lines still move up one table as if
// the withdrawn pair were there (RULES §11), and each round leaves alone
// the pair it would have met. 8 pairs, 6 (EO) withdraws from round 2;
// written by hand from the movement: round 2 6 meets 3, round 3 4, round 4
// 1.
func TestPairingWithdrawalMitchellGoesOnFITABArt37(t *testing.T) {
	r1 := prevRound(1, SystemEntryOrder, []string{"1-5", "2-6", "3-7", "4-8"})
	prev := []PairedRound{r1}
	want := []struct{ seating, vacated string }{
		{"1:1v8 2:2v5 4:4v7", "[3]"},
		{"1:1v7 2:2v8 3:3v5", "[4]"},
		{"2:2v7 3:3v8 4:4v5", "[1]"},
	}
	for i, w := range want {
		n := i + 2
		req := PairingRequest{Ruleset: FITAB2025, System: SystemMitchell, Round: n, RoundsPlanned: 4, Entrants: ids(8),
			Previous: slices.Clone(prev), Withdrawn: map[string]int{"6": 2}}
		r := mustPair(t, req)
		if got := seating(r); got != w.seating || fmt.Sprint(r.Vacated) != w.vacated || len(r.Byes) != 0 {
			t.Errorf("round %d: %s vacated %v byes %v, want %s vacated %s", n, got, r.Vacated, r.Byes, w.seating, w.vacated)
		}
		if rep := CheckRound(req, r); !rep.OK {
			t.Errorf("round %d: checker %+v", n, rep.Problems)
		}
		prev = append(prev, r)
	}
}
