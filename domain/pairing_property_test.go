package domain

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// assertSeatedOnce: every entrant exactly once per round, seated or resting
// (RULES §10).
func assertSeatedOnce(t *testing.T, entrants []string, r PairedRound) {
	t.Helper()
	seen := map[string]int{}
	for _, tb := range r.Tables {
		for _, id := range slices.Concat(tb.NS, tb.EO) {
			seen[id]++
		}
	}
	for _, b := range r.Byes {
		seen[b]++
	}
	for _, e := range entrants {
		if seen[e] != 1 {
			t.Fatalf("round %d: %s appears %d times", r.Number, e, seen[e])
		}
	}
	if len(seen) != len(entrants) {
		t.Fatalf("round %d: %d ids for %d entrants", r.Number, len(seen), len(entrants))
	}
}

// assertRestOnce: a line rests at most once per session (FITAB art. 38,
// FIBur-INT art. 34).
func assertRestOnce(t *testing.T, rounds []PairedRound) {
	t.Helper()
	rested := map[string]int{}
	for _, r := range rounds {
		for _, b := range r.Byes {
			if n, ok := rested[b]; ok {
				t.Fatalf("%s rests in rounds %d and %d", b, n, r.Number)
			}
			rested[b] = r.Number
		}
	}
}

// Property: random tournaments of 8–400 entrants and 3–11 rounds, odd and
// even, seeded, under every later-round system.
func TestPairingPropertyRandomTournaments(t *testing.T) {
	systems := []PairingSystem{SystemDanese, SystemDaneseModificato, SystemMitchell, SystemItaliana, SystemGironi}
	for seed := uint64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		n := 8 + rng.IntN(393)
		sys := systems[int(seed)%len(systems)]
		if sys == SystemItaliana {
			n = 8 + rng.IntN(30)
		}
		rounds := 3 + rng.IntN(9)
		group := 4 + rng.IntN(6)
		switch sys {
		case SystemMitchell:
			rounds = min(rounds, (n+1)/2)
		case SystemItaliana:
			rounds = min(rounds, 1+n-1)
		case SystemGironi:
			// Round 1's rest may sit in any group: an odd group plays
			// len(g)−1 rounds without a second rest (roundRobinOrder).
			for _, g := range gironiGroups(ids(n), group) {
				rounds = min(rounds, 1+len(g)-1)
			}
		}
		t.Run(fmt.Sprintf("seed=%d %s n=%d rounds=%d", seed, sys, n, rounds), func(t *testing.T) {
			entrants := ids(n)
			var prev []PairedRound
			var phaseStandings []string
			for r := 1; r <= rounds; r++ {
				req := PairingRequest{Ruleset: FIBurIta, System: sys, Round: r, RoundsPlanned: rounds, Entrants: entrants,
					Previous: prev, GroupSize: group, Seed: u64(seed)}
				if r == 1 {
					req.System = SystemDraw
				}
				standings := slices.Clone(entrants)
				rng.Shuffle(n, func(i, j int) { standings[i], standings[j] = standings[j], standings[i] })
				req.Standings = standings
				if sys == SystemGironi {
					if r == 2 {
						phaseStandings = standings
					}
					if r > 2 {
						req.Standings = phaseStandings
					}
				}
				got, err := GeneratePairing(req)
				if err != nil {
					t.Fatalf("round %d: %v", r, err)
				}
				assertSeatedOnce(t, entrants, got)
				if chk := CheckRound(req, got); !chk.OK {
					t.Fatalf("round %d: checker: %+v", r, chk.Problems)
				}
				switch {
				case r == 1:
				case sys == SystemDanese:
					assertDaneseOrder(t, req.Standings, got)
				case sys == SystemDaneseModificato && r < rounds:
					last := lastOpponents(prev)
					for _, tb := range got.Tables {
						if last[tb.NS[0]] == tb.EO[0] {
							t.Fatalf("round %d table %d: %s v %s met in round %d", r, tb.Table, tb.NS[0], tb.EO[0], r-1)
						}
					}
				case sys == SystemMitchell:
					// Round 1's only rest is the incomplete table's NS line,
					// so no table swaps roles (mitchellSwapRoles).
					first, _ := seatsOf(prev[0])
					now, _ := seatsOf(got)
					for tb := 1; tb <= first.tables; tb++ {
						if first.ns[tb] != now.ns[tb] {
							t.Fatalf("round %d: NS at table %d moved: %s then %s", r, tb, first.ns[tb], now.ns[tb])
						}
					}
					assertMitchellMove(t, prev[len(prev)-1], got)
				}
				if r > 1 && (sys == SystemMitchell || sys == SystemItaliana || sys == SystemGironi) {
					from := 2
					if sys == SystemMitchell {
						from = 1
					}
					met := map[[2]string]bool{}
					for _, p := range prev[from-1:] {
						for _, tb := range p.Tables {
							met[sortedPair(tb.NS[0], tb.EO[0])] = true
						}
					}
					for _, tb := range got.Tables {
						if met[sortedPair(tb.NS[0], tb.EO[0])] {
							t.Fatalf("round %d table %d: rematch %s v %s under %s", r, tb.Table, tb.NS[0], tb.EO[0], sys)
						}
					}
				}
				prev = append(prev, got)
			}
			assertRestOnce(t, prev) // FIBur-INT art. 34, round robins too
		})
	}
}

// assertDaneseOrder: FITAB art. 2 A, the i-th table holds the (2i−1)-th and
// 2i-th placed of those playing, the better placed NS.
func assertDaneseOrder(t *testing.T, standings []string, r PairedRound) {
	t.Helper()
	var playing []string
	for _, s := range standings {
		if !slices.Contains(r.Byes, s) {
			playing = append(playing, s)
		}
	}
	for i, tb := range r.Tables {
		if tb.NS[0] != playing[2*i] || tb.EO[0] != playing[2*i+1] {
			t.Fatalf("round %d table %d: %s v %s, want %s v %s", r.Number, tb.Table, tb.NS[0], tb.EO[0], playing[2*i], playing[2*i+1])
		}
	}
}

// Property: individual schedules of 8–400 players, 3–7 rounds: no repeated
// partner ever (FITAB art. 2.3), nobody rests twice (FITAB art. 38).
func TestPairingPropertyIndividual(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		n := 8 + rng.IntN(393)
		rounds := 3 + rng.IntN(5)
		if r := n % 4; r > 0 {
			rounds = min(rounds, n/r)
		}
		t.Run(fmt.Sprintf("seed=%d n=%d rounds=%d", seed, n, rounds), func(t *testing.T) {
			entrants := ids(n)
			var prev []PairedRound
			for r := 1; r <= rounds; r++ {
				req := PairingRequest{Ruleset: FITAB2025, Kind: KindIndividual, System: SystemDraw, Round: r, Entrants: entrants, Previous: prev, Seed: u64(seed*100 + uint64(r))}
				got, err := GeneratePairing(req)
				if err != nil {
					t.Fatalf("round %d: %v", r, err)
				}
				assertSeatedOnce(t, entrants, got)
				if chk := CheckRound(req, got); !chk.OK {
					t.Fatalf("round %d: checker: %+v", r, chk.Problems)
				}
				prev = append(prev, got)
			}
			assertRestOnce(t, prev)
			if part, _, _ := IndividualRepeats(entrants, prev); part != 0 {
				t.Fatalf("%d repeated partners", part)
			}
		})
	}
}

// Mutation: the checker finds every defect injected into a valid round.
func TestPairingCheckerFindsInjectedDefects(t *testing.T) {
	entrants := ids(9)
	r1 := mustPair(t, PairingRequest{Ruleset: FIBurIta, System: SystemEntryOrder, Round: 1, Entrants: entrants})
	standings := []string{"9", "8", "7", "6", "5", "4", "3", "2", "1"}
	type mut struct {
		name   string
		system PairingSystem
		mutate func(r *PairedRound)
		want   PairingCode
	}
	swapEntrants := func(r *PairedRound) { r.Tables[0].EO, r.Tables[1].EO = r.Tables[1].EO, r.Tables[0].EO }
	muts := []mut{
		{"FITAB art. 2 A swap two entrants", SystemDanese, swapEntrants, PairingWrongOrder},
		{"FITAB art. 2 A NS and EO swapped", SystemDanese, func(r *PairedRound) { r.Tables[0].NS, r.Tables[0].EO = r.Tables[0].EO, r.Tables[0].NS }, PairingWrongOrder},
		{"RULES §10 seat one twice", SystemDanese, func(r *PairedRound) { r.Tables[1].NS = slices.Clone(r.Tables[0].NS) }, PairingEntrantTwice},
		{"RULES §10 one missing", SystemDanese, func(r *PairedRound) { r.Tables = r.Tables[1:] }, PairingMissingEntrant},
		{"RULES §10 unknown entrant", SystemDanese, func(r *PairedRound) { r.Tables[0].NS = one("99") }, PairingUnknownEntrant},
		{"FITAB art. 38 repeat a rest", SystemDanese, func(r *PairedRound) { swapIDs(r, r.Byes[0], r1.Byes[0]) }, PairingSecondRest},
		{"FITAB art. 38 danese wrong rest", SystemDanese, func(r *PairedRound) {
			r.Tables[0].NS, r.Byes = r.Byes, r.Tables[0].NS
		}, PairingWrongRest},
		{"FIBur-INT art. 2 b rematch in danese_modificato", SystemDaneseModificato, func(r *PairedRound) {
			for _, t := range r1.Tables {
				a, b := t.NS[0], t.EO[0]
				if pairedOpponentIn(*r, a) != "" && pairedOpponentIn(*r, b) != "" {
					swapIDs(r, pairedOpponentIn(*r, a), b)
					return
				}
			}
		}, PairingRematch},
		{"FITAB art. 2 C break the mitchell movement", SystemMitchell, swapEntrants, PairingMovementBroken},
		{"FITAB art. 2 C mitchell NS moved", SystemMitchell, func(r *PairedRound) { r.Tables[0].NS, r.Tables[1].NS = r.Tables[1].NS, r.Tables[0].NS }, PairingMovementBroken},
		{"FITAB art. 2 D break the italiana calendar", SystemItaliana, swapEntrants, PairingMovementBroken},
	}
	for _, m := range muts {
		t.Run(m.name, func(t *testing.T) {
			req := PairingRequest{Ruleset: FIBurIta, System: m.system, Round: 2, RoundsPlanned: 5, Entrants: entrants, Previous: []PairedRound{r1}, Standings: standings}
			good := mustPair(t, req)
			if chk := CheckRound(req, good); !chk.OK {
				t.Fatalf("valid round flagged: %+v", chk.Problems)
			}
			bad := good
			bad.Tables = slices.Clone(good.Tables)
			bad.Byes = slices.Clone(good.Byes)
			m.mutate(&bad)
			chk := CheckRound(req, bad)
			if chk.OK {
				t.Fatalf("defect not found in %s", seating(bad))
			}
			found := false
			for _, p := range chk.Problems {
				found = found || p.Code == m.want
				if p.Detail == "" || p.DetailIT == "" || p.Rule == "" {
					t.Errorf("problem %s lacks detail or rule: %+v", p.Code, p)
				}
			}
			if !found {
				t.Errorf("want %s, got %+v", m.want, chk.Problems)
			}
		})
	}
	t.Run("FITAB art. 2.3 repeat a partner", func(t *testing.T) {
		players := ids(8)
		req := PairingRequest{Ruleset: FITAB2025, Kind: KindIndividual, System: SystemDraw, Round: 1, Entrants: players, Seed: u64(3)}
		p1 := mustPair(t, req)
		req.Round, req.Previous = 2, []PairedRound{p1}
		p2 := mustPair(t, req)
		if chk := CheckRound(req, p2); !chk.OK {
			t.Fatalf("valid round flagged: %+v", chk.Problems)
		}
		// Rebuild round 2 with round 1's first line kept together.
		bad := PairedRound{Number: 2, System: SystemDraw, Tables: slices.Clone(p1.Tables)}
		chk := CheckRound(req, bad)
		n := 0
		for _, p := range chk.Problems {
			if p.Code == PairingRepeatedPartner {
				n++
			}
		}
		if n != 4 {
			t.Errorf("want 4 REPEATED_PARTNER (each line of round 1), got %+v", chk.Problems)
		}
	})
	t.Run("FITAB art. 2 A: danese_modificato refused under fitab is NOT_DERIVABLE", func(t *testing.T) {
		req := PairingRequest{Ruleset: FITAB2025, System: SystemDaneseModificato, Round: 2, Entrants: entrants, Previous: []PairedRound{r1}, Standings: standings}
		chk := CheckRound(req, PairedRound{Number: 2, Tables: r1.Tables, Byes: []string{"9"}})
		if chk.OK || chk.Problems[len(chk.Problems)-1].Code != PairingNotDerivable {
			t.Errorf("got %+v", chk)
		}
	})
}

// swapIDs exchanges two entrants wherever they sit or rest.
func swapIDs(r *PairedRound, x, y string) {
	sw := func(l []string) {
		for i, id := range l {
			switch id {
			case x:
				l[i] = y
			case y:
				l[i] = x
			}
		}
	}
	for i := range r.Tables {
		r.Tables[i].NS, r.Tables[i].EO = slices.Clone(r.Tables[i].NS), slices.Clone(r.Tables[i].EO)
		sw(r.Tables[i].NS)
		sw(r.Tables[i].EO)
	}
	sw(r.Byes)
}

// pairedOpponentIn is the one a pairs entrant meets in r.
func pairedOpponentIn(r PairedRound, id string) string {
	for _, t := range r.Tables {
		if t.NS[0] == id {
			return t.EO[0]
		}
		if t.EO[0] == id {
			return t.NS[0]
		}
	}
	return ""
}

// phasePlan is a session: the system of each round after the first (drawn).
type phasePlan []PairingSystem

// randomPlan strings phases of 1–3 rounds of the later-round systems, no
// phase twice in a row; gironi, whose groups may rest several lines, only
// last. The first phases follow the reported order draw → danese →
// mitchell → danese_modificato when fixed is set.
// A session of an odd field is at most n rounds long (one new rest a
// round); a gironi phase at most as long as its smallest group allows.
func randomPlan(rng *rand.Rand, n, group int, fixed bool) phasePlan {
	tables := (n + 1) / 2
	smallest := n
	for _, g := range gironiGroups(ids(n), group) {
		smallest = min(smallest, len(g))
	}
	systems := []PairingSystem{SystemDanese, SystemDaneseModificato, SystemMitchell, SystemItaliana, SystemGironi}
	var plan phasePlan
	var order []PairingSystem
	if fixed {
		order = []PairingSystem{SystemDanese, SystemMitchell, SystemDaneseModificato}
	}
	last := PairingSystem("")
	for len(plan) < 9 {
		var sys PairingSystem
		if len(order) > 0 {
			sys, order = order[0], order[1:]
		} else {
			sys = systems[rng.IntN(len(systems))]
			if sys == last {
				continue
			}
		}
		k := 1 + rng.IntN(3)
		switch sys {
		case SystemMitchell:
			k = min(k, tables-1)
		case SystemItaliana:
			k = min(k, n-1)
		case SystemGironi:
			k = min(k, smallest-1)
		}
		for range k {
			plan = append(plan, sys)
		}
		last = sys
		if sys == SystemGironi {
			break
		}
	}
	if n%2 == 1 {
		plan = plan[:min(len(plan), n-1)]
	}
	return plan
}

// Property (FITAB art. 38, FIBur-INT art. 34, RULES §11): sessions that mix
// phases — draw, then danese, danese_modificato, mitchell, italiana, gironi —
// with odd (and some even) numbers of pairs and standings from simulated
// results. Every generated round passes the checker, nobody rests twice in
// the session, each system keeps its movement, and a refusal happens exactly
// when the independent oracle says no seating of the system keeps the rule
// (then the referee seats the rest of the session by danese, as by choice).
func TestPairingPropertyMixedPhases(t *testing.T) {
	refused := 0
	for seed := uint64(1); seed <= 160; seed++ {
		rng := rand.New(rand.NewPCG(seed, 13))
		n := 5 + 2*rng.IntN(19) // odd, 5..41
		if seed%5 == 0 {
			n++
		}
		group := 3 + rng.IntN(5)
		plan := randomPlan(rng, n, group, seed%4 == 0)
		narrowNS := seed%3 == 0 // NS wins every table 11–9: round 1's rest leads
		t.Run(fmt.Sprintf("seed=%d n=%d plan=%v", seed, n, plan), func(t *testing.T) {
			entrants := ids(n)
			rounds := []PairedRound{}
			vp := map[string]int{}
			standings := func() []string {
				out := slices.Clone(entrants)
				slices.SortStableFunc(out, func(a, b string) int { return vp[b] - vp[a] })
				return out
			}
			var phaseStandings []string
			total := 1 + len(plan)
			for r := 1; r <= total; r++ {
				sys := SystemDraw
				if r > 1 {
					sys = plan[r-2]
				}
				req := PairingRequest{Ruleset: FIBurIta, System: sys, Round: r, RoundsPlanned: total, Entrants: entrants,
					Previous: slices.Clone(rounds), GroupSize: group, Seed: u64(seed * 31), Standings: standings()}
				start := PhaseStart(req)
				if r == start {
					phaseStandings = req.Standings
				}
				if sys == SystemGironi {
					req.Standings = phaseStandings
				}
				got, err := GeneratePairing(req)
				if expect := restRefusalExpected(req); err != nil || expect {
					if err == nil || !expect {
						t.Fatalf("round %d (%s): refusal expected %v, got err %v", r, sys, expect, err)
					}
					if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "FIBur-INT art. 34") {
						t.Fatalf("round %d: refusal %v does not cite FIBur-INT art. 34", r, err)
					}
					refused++
					for i := r; i <= total; i++ {
						plan[i-2] = SystemDanese // the referee goes on by danese
					}
					req.System = SystemDanese
					req.Standings = standings()
					got = mustPair(t, req)
				}
				assertSeatedOnce(t, entrants, got)
				if chk := CheckRound(req, got); !chk.OK {
					t.Fatalf("round %d %s (%s): checker: %+v", r, req.System, seating(got), chk.Problems)
				}
				assertSystemKept(t, req, got)
				rounds = append(rounds, got)
				assertRestOnce(t, rounds)
				for _, tb := range got.Tables {
					ns := 11
					if !narrowNS {
						ns = rng.IntN(21)
					}
					vp[tb.NS[0]] += ns
					vp[tb.EO[0]] += 20 - ns
				}
				for _, b := range got.Byes {
					vp[b] += 14
				}
			}
		})
	}
	t.Logf("%d rounds refused by FIBur-INT art. 34 (and seated by danese instead)", refused)
}

// restRefusalExpected is the oracle, independent of the generator's
// search: the round must be refused under FIBur-INT art. 34 when every
// seating the system allows rests a line a second time.
//   - italiana, gironi: round k of a round robin rests k different entrants
//     of each odd group (Berger), so a group with fewer than k entrants that
//     had not rested before the phase must rest one again;
//   - mitchell [mitchellSwapRoles]: the rest falls on a fixed line of the
//     table the missing EO line reaches; a second rest is forced when both
//     lines of that table in the round before the phase had rested by then.
func restRefusalExpected(req PairingRequest) bool {
	start := PhaseStart(req)
	before := restRounds(req.Previous[:start-1])
	switch req.System {
	case SystemItaliana, SystemGironi:
		groups := [][]string{req.Entrants}
		if req.System == SystemGironi {
			groups = gironiGroups(req.Standings, req.GroupSize)
		}
		k := req.Round - start + 1
		for _, g := range groups {
			fresh := 0
			for _, e := range g {
				if before[e] == 0 {
					fresh++
				}
			}
			if len(g)%2 == 1 && fresh < k {
				return true
			}
		}
	case SystemMitchell:
		base, _ := seatsOf(req.Previous[start-2])
		for h := 1; h <= base.tables; h++ {
			if base.eo[h] != "" {
				continue
			}
			moves := req.Round - (start - 1)
			tb := (h-1+moves*mitchellStep)%base.tables + 1
			return before[base.ns[tb]] > 0 && before[base.eo[tb]] > 0
		}
	}
	return false
}

// assertSystemKept: the round follows its system (RULES §11).
func assertSystemKept(t *testing.T, req PairingRequest, got PairedRound) {
	t.Helper()
	start := PhaseStart(req)
	prev := req.Previous
	switch req.System {
	case SystemDanese:
		assertDaneseOrder(t, req.Standings, got)
	case SystemDaneseModificato:
		if req.Round < req.RoundsPlanned {
			last := lastOpponents(prev)
			for _, tb := range got.Tables {
				if last[tb.NS[0]] == tb.EO[0] {
					t.Fatalf("round %d table %d: %s v %s met in round %d", got.Number, tb.Table, tb.NS[0], tb.EO[0], got.Number-1)
				}
			}
		}
	case SystemMitchell:
		if req.Round > start {
			assertMitchellMove(t, prev[len(prev)-1], got)
			break
		}
		// First round of the phase: each table keeps its lines, the NS one
		// fixed unless mitchellSwapRoles; EO lines move up one table.
		base, _ := seatsOf(prev[len(prev)-1])
		rested := restRounds(prev)
		fixed := lineSeats{tables: base.tables, ns: map[int]string{}, eo: map[int]string{}}
		for tb := 1; tb <= base.tables; tb++ {
			fixed.ns[tb], fixed.eo[tb] = base.ns[tb], base.eo[tb]
			if base.eo[tb] != "" && rested[base.ns[tb]] > 0 && rested[base.eo[tb]] == 0 {
				fixed.ns[tb], fixed.eo[tb] = base.eo[tb], base.ns[tb]
			}
		}
		now, _ := seatsOf(got)
		for tb := 1; tb <= base.tables; tb++ {
			if now.ns[tb] != fixed.ns[tb] || now.eo[tb] != fixed.eo[mitchellEOFrom(tb, base.tables)] {
				t.Fatalf("round %d table %d: %s v %q, want fixed %s v %q", got.Number, tb, now.ns[tb], now.eo[tb], fixed.ns[tb], fixed.eo[mitchellEOFrom(tb, base.tables)])
			}
		}
	}
	// Mitchell and the round robins never repeat a meeting of their phase
	// (Mitchell: from the round that set its seating).
	from := start
	switch req.System {
	case SystemMitchell:
		from = start - 1
	case SystemItaliana, SystemGironi:
	default:
		return
	}
	met := map[[2]string]int{}
	for _, p := range prev[from-1:] {
		for _, tb := range p.Tables {
			met[sortedPair(tb.NS[0], tb.EO[0])] = p.Number
		}
	}
	for _, tb := range got.Tables {
		if n, ok := met[sortedPair(tb.NS[0], tb.EO[0])]; ok {
			t.Fatalf("round %d table %d: %s v %s met in round %d under %s", got.Number, tb.Table, tb.NS[0], tb.EO[0], n, req.System)
		}
	}
}
