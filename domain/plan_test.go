package domain

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestPlanParseFITABArt2(t *testing.T) {
	ph := func(from int, sys string) PlanPhaseInput { return PlanPhaseInput{FromRound: from, System: sys} }
	cases := []struct {
		name    string
		rs      Ruleset
		kind    Kind
		rounds  int
		in      PlanInput
		pointer string // "" = accepted
	}{
		{"RULES §12.1 no plan: entry_order, danese, one session", FITAB2025, KindPairs, 4, PlanInput{}, ""},
		{"FITAB art. 2 draw then mitchell then danese, sessions 3+2", FITAB2025, KindPairs, 5,
			PlanInput{FirstRound: "draw", Phases: []PlanPhaseInput{ph(1, "mitchell"), ph(4, "danese")}, Sessions: []int{3, 2}}, ""},
		{"FITAB art. 2 first_round mitchell is not a first-round seating", FITAB2025, KindPairs, 4,
			PlanInput{FirstRound: "mitchell"}, "/first_round"},
		{"FITAB art. 2 first_round unknown", FITAB2025, KindPairs, 4, PlanInput{FirstRound: "swiss"}, "/first_round"},
		{"FITAB art. 2 first phase must start at round 1", FITAB2025, KindPairs, 4,
			PlanInput{Phases: []PlanPhaseInput{ph(2, "danese")}}, "/phases/0/from_round"},
		{"FITAB art. 2 phases in order of their first round", FITAB2025, KindPairs, 6,
			PlanInput{Phases: []PlanPhaseInput{ph(1, "mitchell"), ph(4, "danese"), ph(4, "italiana")}}, "/phases/2/from_round"},
		{"FITAB art. 2 a phase beyond the rounds planned", FITAB2025, KindPairs, 4,
			PlanInput{Phases: []PlanPhaseInput{ph(1, "mitchell"), ph(5, "danese")}}, "/phases/1/from_round"},
		{"FITAB art. 2 a phase system draw is a first-round seating", FITAB2025, KindPairs, 4,
			PlanInput{Phases: []PlanPhaseInput{ph(1, "draw")}}, "/phases/0/system"},
		{"FITAB art. 2 gironi from round 1 has no standings to form groups", FITAB2025, KindPairs, 4,
			PlanInput{Phases: []PlanPhaseInput{ph(1, "gironi")}}, "/phases/0/system"},
		{"FITAB art. 2 gironi from round 2", FITAB2025, KindPairs, 4,
			PlanInput{Phases: []PlanPhaseInput{ph(1, "danese"), ph(2, "gironi")}}, ""},
		{"FITAB art. 2 B danese_modificato non in funzione", FITAB2025, KindPairs, 4,
			PlanInput{Phases: []PlanPhaseInput{ph(1, "danese_modificato")}}, "/phases/0/system"},
		{"FIBur-INT art. 2 b) danese_modificato allowed", FIBurIta, KindPairs, 4,
			PlanInput{Phases: []PlanPhaseInput{ph(1, "danese_modificato")}}, ""},
		{"FITAB definitions SESSIONE: sessions add up to the rounds planned", FITAB2025, KindPairs, 5,
			PlanInput{Sessions: []int{3, 3}}, "/sessions"},
		{"FITAB definitions SESSIONE: a session of no rounds", FITAB2025, KindPairs, 4,
			PlanInput{Sessions: []int{4, 0}}, "/sessions/1"},
		{"FITAB art. 2.3 individual tournaments have no phases", FITAB2025, KindIndividual, 5,
			PlanInput{Phases: []PlanPhaseInput{ph(1, "danese")}}, "/phases"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ParsePlan(c.in, c.rs, c.kind, c.rounds)
			if c.pointer == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				sum := 0
				for _, n := range p.Sessions {
					sum += n
				}
				if sum != c.rounds {
					t.Errorf("sessions %v do not add up to %d", p.Sessions, c.rounds)
				}
				return
			}
			var pe *PlanError
			if !errors.As(err, &pe) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want a PlanError", err)
			}
			if !slices.ContainsFunc(pe.Problems, func(p PlanProblem) bool { return p.Pointer == c.pointer }) {
				t.Errorf("problems %+v do not name %s", pe.Problems, c.pointer)
			}
		})
	}
}

func TestPlanPhaseAndSystemOfRoundRULES12_1(t *testing.T) {
	mustPlan := func(in PlanInput, rounds int) Plan {
		p, err := ParsePlan(in, FITAB2025, KindPairs, rounds)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	mitchell := mustPlan(PlanInput{FirstRound: "draw", Phases: []PlanPhaseInput{{1, "mitchell"}, {4, "danese"}}, Sessions: []int{3, 2}}, 5)
	gironi := mustPlan(PlanInput{Phases: []PlanPhaseInput{{1, "danese"}, {3, "gironi"}}}, 6)
	italiana := mustPlan(PlanInput{FirstRound: "draw", Phases: []PlanPhaseInput{{1, "italiana"}}}, 7)
	def := DefaultPlan(4)
	cases := []struct {
		name   string
		plan   Plan
		round  int
		phase  Phase
		system PairingSystem
	}{
		{"FITAB art. 2: round 1 seated by draw in a Mitchell event is a mitchell round", mitchell, 1, PhaseMitchell, SystemDraw},
		{"FITAB art. 2: round 3 of the Mitchell phase", mitchell, 3, PhaseMitchell, SystemMitchell},
		{"FITAB art. 2: round 4 opens the danese phase", mitchell, 4, PhaseDanese, SystemDanese},
		{"FITAB art. 20: the round that forms the groups is gironi", gironi, 3, PhaseGironi, SystemGironi},
		{"FITAB art. 20: later rounds inside the groups are italiana", gironi, 4, PhaseItaliana, SystemGironi},
		{"FITAB art. 2 D: italiana seats round 1 on its calendar", italiana, 1, PhaseItaliana, SystemItaliana},
		{"API §4.3 no plan: round 1 in entry order, danese phase", def, 1, PhaseDanese, SystemEntryOrder},
		{"API §4.3 no plan: round 2 danese", def, 2, PhaseDanese, SystemDanese},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.plan.PhaseOf(c.round); got != c.phase {
				t.Errorf("PhaseOf(%d) = %s, want %s", c.round, got, c.phase)
			}
			if got := c.plan.SystemFor(c.round); got != c.system {
				t.Errorf("SystemFor(%d) = %s, want %s", c.round, got, c.system)
			}
		})
	}
	// FITAB definitions "SESSIONE": sessions 3 + 2.
	for round, want := range map[int][2]int{1: {1, 1}, 3: {1, 1}, 4: {2, 4}, 5: {2, 4}} {
		if s, st := mitchell.SessionOf(round), mitchell.SessionStart(round); s != want[0] || st != want[1] {
			t.Errorf("round %d: session %d from round %d, want %d from %d", round, s, st, want[0], want[1])
		}
	}
}

// TestPairingRestsPerSessionFITABArt38: a line rests at most once per
// session; a rest in another session is not a second rest (RULES §12.1).
func TestPairingRestsPerSessionFITABArt38(t *testing.T) {
	r1 := prevRound(1, SystemEntryOrder, []string{"1-4", "2-5"}, "3") // 3 rests in round 1
	standings := []string{"1", "2", "4", "5", "3"}                    // 3 is last
	req := func(sessionStart int) PairingRequest {
		return PairingRequest{Ruleset: FITAB2025, System: SystemDanese, Round: 2, Entrants: ids(5),
			Previous: []PairedRound{r1}, Standings: standings, SessionStart: sessionStart}
	}
	// Same session: 3 rested, so the lowest placed that has not rests: 5.
	if got := mustPair(t, req(1)).Byes; !slices.Equal(got, []string{"5"}) {
		t.Errorf("same session: byes %v, want [5]", got)
	}
	// Round 2 opens session 2: 3 has not rested in it and rests.
	second := mustPair(t, req(2))
	if !slices.Equal(second.Byes, []string{"3"}) {
		t.Errorf("new session: byes %v, want [3]", second.Byes)
	}
	// The checker agrees: no SECOND_REST in the new session, one in the same.
	if rep := CheckRound(req(2), second); !rep.OK {
		t.Errorf("new session: checker says %+v", rep.Problems)
	}
	rep := CheckRound(req(1), second)
	if !slices.ContainsFunc(rep.Problems, func(p PairingProblem) bool { return p.Code == PairingSecondRest }) {
		t.Errorf("same session: checker misses SECOND_REST: %+v", rep.Problems)
	}
}

// TestPairingItalianaFromRound1Property: italiana seats round 1 (FITAB
// art. 2 D "secondo un calendario prestabilito", RULES §12.1); over n − 1
// rounds (n even) or n rounds (n odd) every two entrants meet exactly once,
// every entrant of an odd group rests exactly once, and the checker agrees
// with the generator round by round, on entry order and on a drawn order.
func TestPairingItalianaFromRound1Property(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 12))
	for range 60 {
		n := 3 + rng.IntN(38)
		draw := rng.IntN(2) == 0
		rounds := n - 1
		if n%2 == 1 {
			rounds = n
		}
		entrants := ids(n)
		var prev []PairedRound
		met := map[[2]string]int{}
		rests := map[string]int{}
		for k := 1; k <= rounds; k++ {
			req := PairingRequest{Ruleset: FITAB2025, System: SystemItaliana, Round: k, RoundsPlanned: rounds,
				Entrants: entrants, Previous: slices.Clone(prev), Draw: draw && k == 1}
			if k == 1 && draw {
				req.Seed = u64(rng.Uint64())
			}
			r, err := GeneratePairing(req)
			if err != nil {
				t.Fatalf("n=%d draw=%v round %d: %v", n, draw, k, err)
			}
			if draw && k == 1 && r.Seed == nil {
				t.Fatalf("n=%d: a drawn calendar records no seed", n)
			}
			assertSeatedOnce(t, entrants, r)
			check := req
			check.Draw, check.Seed = false, nil // the checker reads the round's own seed
			if rep := CheckRound(check, r); !rep.OK {
				t.Fatalf("n=%d draw=%v round %d: checker disagrees: %+v", n, draw, k, rep.Problems)
			}
			for _, tb := range r.Tables {
				met[sortedPair(tb.NS[0], tb.EO[0])]++
			}
			for _, b := range r.Byes {
				rests[b]++
			}
			prev = append(prev, r)
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if c := met[sortedPair(entrants[i], entrants[j])]; c != 1 {
					t.Fatalf("n=%d draw=%v: %s and %s met %d times", n, draw, entrants[i], entrants[j], c)
				}
			}
			want := n % 2
			if rests[entrants[i]] != want {
				t.Fatalf("n=%d: %s rested %d times, want %d", n, entrants[i], rests[entrants[i]], want)
			}
		}
	}
}

// TestPairingGironiGroupsRecordedRULES12_1: the gironi round records its
// groups; later rounds read them back (whatever the standings say now),
// and the checker re-derives both without being told the group size.
func TestPairingGironiGroupsRecordedRULES12_1(t *testing.T) {
	r1 := prevRound(1, SystemEntryOrder, []string{"1-5", "2-6", "3-7", "4-8"})
	st1 := []string{"3", "1", "8", "6", "2", "7", "5", "4"}
	req2 := PairingRequest{Ruleset: FITAB2025, System: SystemGironi, Round: 2, Entrants: ids(8),
		Previous: []PairedRound{r1}, Standings: st1, GroupSize: 4}
	r2 := mustPair(t, req2)
	want := [][]string{{"3", "1", "8", "6"}, {"2", "7", "5", "4"}}
	if len(r2.Groups) != 2 || !slices.Equal(r2.Groups[0], want[0]) || !slices.Equal(r2.Groups[1], want[1]) {
		t.Fatalf("groups %v, want %v", r2.Groups, want)
	}
	check2 := req2
	check2.GroupSize = 0
	if rep := CheckRound(check2, r2); !rep.OK {
		t.Errorf("round 2: checker without group size: %+v", rep.Problems)
	}
	// Round 3: no group size, standings changed; the recorded groups hold.
	req3 := PairingRequest{Ruleset: FITAB2025, System: SystemGironi, Round: 3, Entrants: ids(8),
		Previous: []PairedRound{r1, r2}, Standings: st1}
	r3 := mustPair(t, req3)
	if r3.Groups != nil {
		t.Errorf("round 3 records groups again: %v", r3.Groups)
	}
	group := map[string]int{}
	for gi, g := range want {
		for _, e := range g {
			group[e] = gi
		}
	}
	for _, tb := range r3.Tables {
		if group[tb.NS[0]] != group[tb.EO[0]] {
			t.Errorf("round 3 table %d crosses the groups: %s v %s", tb.Table, tb.NS[0], tb.EO[0])
		}
	}
	if rep := CheckRound(req3, r3); !rep.OK {
		t.Errorf("round 3: checker: %+v", rep.Problems)
	}
	// A round 3 that swaps 1 (group 1) and 7 (group 2) crosses the groups:
	// the movement is broken.
	bad := r3
	bad.Tables = slices.Clone(r3.Tables)
	for i := range bad.Tables {
		bad.Tables[i].NS, bad.Tables[i].EO = slices.Clone(bad.Tables[i].NS), slices.Clone(bad.Tables[i].EO)
	}
	swapIDs(&bad, "1", "7")
	rep := CheckRound(req3, bad)
	if !slices.ContainsFunc(rep.Problems, func(p PairingProblem) bool { return p.Code == PairingMovementBroken }) {
		t.Errorf("a round crossing the groups: %+v, want MOVEMENT_BROKEN", rep.Problems)
	}
}
