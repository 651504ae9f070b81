package domain

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// vpStandings orders the entrants by the VP the rounds gave them (RULES §8,
// reduced to the VP total for these tests): at every table NS scores nsVP
// and EO eoVP, a rest scores byeVP; ties keep the order of entry.
func vpStandings(entrants []string, rounds []PairedRound, nsVP, eoVP, byeVP int) []string {
	vp := map[string]int{}
	for _, r := range rounds {
		for _, t := range r.Tables {
			vp[t.NS[0]] += nsVP
			vp[t.EO[0]] += eoVP
		}
		for _, b := range r.Byes {
			vp[b] += byeVP
		}
	}
	out := slices.Clone(entrants)
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(vp[b], vp[a]) })
	return out
}

// assertMitchellMove: RULES §11 mitchell, the fixed lines stay at their
// table, every mobile line moves up one table (T to 1), and the rest is the
// fixed line the missing EO line reaches.
func assertMitchellMove(t *testing.T, before, after PairedRound) {
	t.Helper()
	b, err := seatsOf(before)
	if err != nil {
		t.Fatal(err)
	}
	a, err := seatsOf(after)
	if err != nil {
		t.Fatal(err)
	}
	if a.tables != b.tables {
		t.Fatalf("round %d has %d tables, round %d %d", after.Number, a.tables, before.Number, b.tables)
	}
	for tb := 1; tb <= a.tables; tb++ {
		if a.ns[tb] != b.ns[tb] {
			t.Fatalf("round %d: the fixed line at table %d changed: %s then %s", after.Number, tb, b.ns[tb], a.ns[tb])
		}
		if from := mitchellEOFrom(tb, a.tables); a.eo[tb] != b.eo[from] {
			t.Fatalf("round %d table %d: EO %q, the mobile line of table %d was %q", after.Number, tb, a.eo[tb], from, b.eo[from])
		}
	}
}

// The reported bug (FIBur-INT art. 34, RULES §11 "a line rests at most once
// per session"): 9 pairs, fibur-ita, round 1 drawn, round 2 danese, round 3
// mitchell. Every round NS wins every table narrowly (11–9) and the rest
// scores 14 VP (FIBur-INT art. 34, three hands), so round 1's resting pair
// leads, sits NS at table 1 in round 2, and the missing EO line of the
// incomplete table reaches table 1 in round 3: the plain movement rests it a
// second time.
func TestPairingMitchellAfterDaneseRestsOncePerSessionFIBurINTArt34(t *testing.T) {
	for _, seed := range []uint64{956749904275849816, 9754901340991653569, 18430978117590320925} {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			entrants := ids(9)
			req := PairingRequest{Ruleset: FIBurIta, System: SystemDraw, Round: 1, RoundsPlanned: 5, Entrants: entrants, Seed: u64(seed)}
			r1 := mustPair(t, req)
			req.System, req.Round, req.Previous = SystemDanese, 2, []PairedRound{r1}
			req.Standings = vpStandings(entrants, req.Previous, 11, 9, 14)
			if req.Standings[0] != r1.Byes[0] {
				t.Fatalf("scenario: round 1's rest %s should lead, standings %v", r1.Byes[0], req.Standings)
			}
			r2 := mustPair(t, req)
			req.System, req.Round, req.Previous = SystemMitchell, 3, []PairedRound{r1, r2}
			req.Standings = vpStandings(entrants, req.Previous, 11, 9, 14)
			r3, err := GeneratePairing(req)
			if err != nil {
				t.Fatalf("round 3: %v", err)
			}
			if chk := CheckRound(req, r3); !chk.OK {
				t.Fatalf("round 3 %s: checker: %+v", seating(r3), chk.Problems)
			}
			rounds := []PairedRound{r1, r2, r3}
			assertRestOnce(t, rounds)
			// The movement goes on from round 3 without a second rest.
			for r := 4; r <= 5; r++ {
				req.Round, req.Previous = r, slices.Clone(rounds)
				next := mustPair(t, req)
				if chk := CheckRound(req, next); !chk.OK {
					t.Fatalf("round %d %s: checker: %+v", r, seating(next), chk.Problems)
				}
				assertMitchellMove(t, rounds[len(rounds)-1], next)
				rounds = append(rounds, next)
			}
			assertRestOnce(t, rounds)
		})
	}
}

// mitchellSwapRoles, by hand: 7 pairs; round 1 entry order rests 4; round 2
// danese (standings 4 1 2 3 5 6 7) rests 7, the lowest not rested, and
// seats 4 NS at table 1. The missing EO line of table 4 reaches table 1 in
// round 3: 4 already rested and 1 has not, so at table 1 they swap roles (1
// stays, 4 moves). FIBur-INT art. 34 / FITAB art. 38.
func TestPairingMitchellSwapsRolesFITABArt38(t *testing.T) {
	entrants := ids(7)
	r1 := prevRound(1, SystemEntryOrder, []string{"1-5", "2-6", "3-7"}, "4")
	r2 := mustPair(t, PairingRequest{Ruleset: FITAB2025, System: SystemDanese, Round: 2, Entrants: entrants, Previous: []PairedRound{r1},
		Standings: []string{"4", "1", "2", "3", "5", "6", "7"}})
	if got := seating(r2); got != "1:4v1 2:2v3 3:5v6 bye:7" {
		t.Fatalf("round 2 = %s", got)
	}
	prev := []PairedRound{r1, r2}
	for _, want := range []string{
		"2:2v4 3:5v3 4:7v6 bye:1", // the rest reaches table 1, where 1 now stays
		"1:1v6 3:5v4 4:7v3 bye:2",
		"1:1v3 2:2v6 4:7v4 bye:5",
	} {
		req := PairingRequest{Ruleset: FITAB2025, System: SystemMitchell, Round: len(prev) + 1, Entrants: entrants, Previous: prev}
		got := mustPair(t, req)
		if seating(got) != want {
			t.Fatalf("round %d = %s, want %s", req.Round, seating(got), want)
		}
		if chk := CheckRound(req, got); !chk.OK {
			t.Fatalf("round %d: checker: %+v", req.Round, chk.Problems)
		}
		prev = append(prev, got)
	}
	assertRestOnce(t, prev)
	// The plain movement (4 stays at table 1 and rests again) is flagged.
	req := PairingRequest{Ruleset: FITAB2025, System: SystemMitchell, Round: 3, Entrants: entrants, Previous: prev[:2]}
	plain := PairedRound{Number: 3, System: SystemMitchell, Byes: []string{"4"}, Tables: []PairedTable{
		{Table: 2, NS: one("2"), EO: one("1")}, {Table: 3, NS: one("5"), EO: one("3")}, {Table: 4, NS: one("7"), EO: one("6")}}}
	assertCodes(t, CheckRound(req, plain), PairingSecondRest, PairingMovementBroken, PairingWrongRest)
	// With 4 tables a fifth Mitchell round from round 2 would be a rematch.
	_, err := GeneratePairing(PairingRequest{Ruleset: FITAB2025, System: SystemMitchell, Round: 6, Entrants: entrants, Previous: prev})
	var ref *Refusal
	if !errors.Is(err, ErrInvalid) || !errors.As(err, &ref) || ref.Code != "rule.mitchell_rounds" || ref.Args[1] != 4 {
		t.Errorf("round 6: err = %v", err)
	}
}

// mitchellSwapRoles: when both lines of the table the rest reaches have
// rested, no Mitchell keeps FITAB art. 38: the generator refuses naming the
// article and the line, and the checker flags the plain movement.
func TestPairingMitchellRefusesSecondRestFITABArt38(t *testing.T) {
	entrants := ids(7)
	prev := []PairedRound{
		prevRound(1, SystemEntryOrder, []string{"1-5", "2-6", "3-7"}, "4"),
		prevRound(2, SystemDanese, []string{"1-2", "3-5", "4-6"}, "7"),
		prevRound(3, SystemDanese, []string{"4-7", "1-3", "2-5"}, "6"),
	}
	req := PairingRequest{Ruleset: FITAB2025, System: SystemMitchell, Round: 4, Entrants: entrants, Previous: prev}
	_, err := GeneratePairing(req)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "FITAB art. 38") || !strings.Contains(err.Error(), "where 4 stays, who already rested in round 1") {
		t.Fatalf("err = %v, want ErrInvalid citing FITAB art. 38 and pair 4", err)
	}
	plain := PairedRound{Number: 4, System: SystemMitchell, Byes: []string{"4"}, Tables: []PairedTable{
		{Table: 2, NS: one("1"), EO: one("7")}, {Table: 3, NS: one("2"), EO: one("3")}, {Table: 4, NS: one("6"), EO: one("5")}}}
	assertCodes(t, CheckRound(req, plain), PairingSecondRest, PairingNotDerivable)
	// Under FIBur the same refusal cites FIBur-INT art. 34.
	req.Ruleset = FIBurIta
	if _, err := GeneratePairing(req); err == nil || !strings.Contains(err.Error(), "FIBur-INT art. 34") {
		t.Errorf("fibur-ita: err = %v, want FIBur-INT art. 34", err)
	}
}

// roundRobinOrder and roundRobinRestExempt (FITAB art. 38, FITAB art. 2
// gironi): 11 pairs in groups of 5 by the standings after round 2 (the
// last block of one joins the second: 6..11); 1 rested in round 1 and sits
// in the odd first group, 9 rested in round 2 and sits in the even second,
// which rests nobody. 1 takes its group's last Berger number: four rounds
// pass without a second rest, the fifth is refused naming the entrant.
func TestPairingGironiPostponesRestFITABArt38(t *testing.T) {
	entrants := ids(11)
	prev := []PairedRound{
		prevRound(1, SystemEntryOrder, []string{"2-7", "3-8", "4-9", "5-10", "6-11"}, "1"),
		prevRound(2, SystemDanese, []string{"1-2", "3-4", "5-6", "7-8", "10-11"}, "9"),
	}
	standings := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"} // groups 1-5, 6-11
	var phase []PairedRound
	for r := 3; r <= 7; r++ {
		req := PairingRequest{Ruleset: FITAB2025, System: SystemGironi, GroupSize: 5, Round: r, Entrants: entrants,
			Previous: slices.Concat(prev, phase), Standings: standings}
		got, err := GeneratePairing(req)
		if r == 7 {
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "rests 1 (group 1), who already rested in round 1") || !strings.Contains(err.Error(), "FITAB art. 38") {
				t.Fatalf("round 7: err = %v, want the refusal citing FITAB art. 38", err)
			}
			break
		}
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if chk := CheckRound(req, got); !chk.OK {
			t.Fatalf("round %d: checker: %+v", r, chk.Problems)
		}
		phase = append(phase, got)
	}
	all := slices.Concat(prev, phase)
	assertRestOnce(t, all)
	// Group 2 (6 entrants: 6 7 8 9 10 11) is even and rests nobody; group 1
	// rests 2, 3, 4, 5 in rounds 3-6 (1 last).
	var rests []string
	for _, r := range phase {
		rests = append(rests, r.Byes...)
	}
	if got := strings.Join(rests, " "); got != "2 3 4 5" {
		t.Errorf("rests in rounds 3-6: %s, want 2 3 4 5", got)
	}
}

// The checker agrees with the generator on a round robin: the Berger
// calendar in the group's own order (the first Berger number rests first)
// rests the pair that rested in round 1 again, and is flagged.
func TestPairingItalianaSecondRestFlaggedFITABArt38(t *testing.T) {
	entrants := ids(5)
	r1 := prevRound(1, SystemEntryOrder, []string{"2-4", "3-5"}, "1")
	req := PairingRequest{Ruleset: FITAB2025, System: SystemItaliana, Round: 2, Entrants: entrants, Previous: []PairedRound{r1}}
	got := mustPair(t, req)
	if slices.Contains(got.Byes, "1") || len(got.Byes) != 1 {
		t.Fatalf("round 2 = %s, want one rest, not 1", seating(got))
	}
	plain := PairedRound{Number: 2, System: SystemItaliana, Byes: []string{"1"}}
	for _, p := range bergerRound(5, 1) {
		if p[0] >= 0 && p[1] >= 0 {
			plain.Tables = append(plain.Tables, PairedTable{Table: len(plain.Tables) + 1, NS: one(entrants[p[0]]), EO: one(entrants[p[1]])})
		}
	}
	assertCodes(t, CheckRound(req, plain), PairingSecondRest)
}

// assertCodes: the check failed with at least the given codes, every
// problem carrying its rule and both texts.
func assertCodes(t *testing.T, chk PairingCheck, want ...PairingCode) {
	t.Helper()
	if chk.OK {
		t.Fatalf("check OK, want %v", want)
	}
	for _, w := range want {
		if !slices.ContainsFunc(chk.Problems, func(p PairingProblem) bool { return p.Code == w }) {
			t.Errorf("want %s among %+v", w, chk.Problems)
		}
	}
	for _, p := range chk.Problems {
		if p.Rule == "" || p.Detail == "" || p.DetailIT == "" {
			t.Errorf("problem without rule or text: %+v", p)
		}
	}
}
