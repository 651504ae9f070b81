package domain_test

// Decision-table tests for the VP tables and the table choice, written from
// RULES.md §6.1, §6.2 and §7 ("equivalent MP") and the federation codes in
// shared/seeds — not from the implementation. The expected numbers below are
// copied from the rule book, never from the code's output.

import (
	"errors"
	"fmt"
	"testing"

	"segnapunti/domain"
)

// dtBands is RULES §6.1 as printed (and as printed in FITAB art. 18 and
// FIBur-INT art. 17): for each table the inclusive MP range of 10-10, 11-9,
// ..., 19-1.
var dtBands = map[string][10][2]int{
	// FITAB art. 18
	"fitab-2": {{0, 50}, {55, 130}, {135, 210}, {215, 310}, {315, 410}, {415, 510}, {515, 630}, {635, 750}, {755, 880}, {885, 1010}},
	"fitab-3": {{0, 60}, {65, 160}, {165, 260}, {265, 360}, {365, 510}, {515, 660}, {665, 810}, {815, 1010}, {1015, 1260}, {1265, 1510}},
	"fitab-4": {{0, 110}, {115, 310}, {315, 510}, {515, 710}, {715, 910}, {915, 1110}, {1115, 1310}, {1315, 1510}, {1515, 1710}, {1715, 2010}},
	// FIBur-INT art. 17
	"fibur-2":     {{0, 40}, {45, 120}, {125, 200}, {205, 300}, {305, 400}, {405, 500}, {505, 620}, {625, 740}, {745, 870}, {875, 1000}},
	"fibur-3":     {{0, 50}, {55, 150}, {155, 250}, {255, 350}, {355, 500}, {505, 650}, {655, 800}, {805, 1000}, {1005, 1250}, {1255, 1500}},
	"fibur-4":     {{0, 100}, {105, 300}, {305, 500}, {505, 700}, {705, 900}, {905, 1100}, {1105, 1300}, {1305, 1500}, {1505, 1700}, {1705, 2000}},
	"fibur-teams": {{0, 150}, {155, 350}, {355, 550}, {555, 800}, {805, 1050}, {1055, 1300}, {1305, 1600}, {1605, 1900}, {1905, 2200}, {2205, 2500}},
}

// dtTwentyFrom is the first multiple of 5 that gives 20-0: FITAB prints
// "≥1015" (2 hands) etc., FIBur prints "oltre 1000" (so 1005).
var dtTwentyFrom = map[string]int{
	"fitab-2": 1015, "fitab-3": 1515, "fitab-4": 2015,
	"fibur-2": 1005, "fibur-3": 1505, "fibur-4": 2005, "fibur-teams": 2505,
}

// dtTableIDs lists the seven tables of RULES §6.2 in print order.
var dtTableIDs = []string{"fitab-2", "fitab-3", "fitab-4", "fibur-2", "fibur-3", "fibur-4", "fibur-teams"}

// dtTableRule is the article that prints the table.
func dtTableRule(id string) string {
	if id[:5] == "fitab" {
		return "FITAB art. 18"
	}
	return "FIBur-INT art. 17"
}

// dtVP reads RULES §6.1 literally: the sign of the difference does not
// matter, bands are inclusive, and a difference that falls between two bands
// belongs to the band whose upper bound is the first at or above it.
func dtVP(id string, diff int) (winner, loser int) {
	if diff < 0 {
		diff = -diff
	}
	for i, b := range dtBands[id] {
		if diff <= b[1] {
			return 10 + i, 10 - i
		}
	}
	return 20, 0
}

func dtMustTable(t testing.TB, id string) domain.VPTable {
	t.Helper()
	tab, err := domain.ParseVPTable(id)
	if err != nil {
		t.Fatalf("ParseVPTable(%q): %v", id, err)
	}
	return tab
}

// The literal bands must be contiguous in steps of 5 and end where 20-0
// starts; this guards the test data itself against a typo.
func TestVPRulesBandsAreContiguous(t *testing.T) {
	for _, id := range dtTableIDs {
		low := 0
		for i, b := range dtBands[id] {
			if b[0] != low || b[1] < b[0] {
				t.Errorf("%s band %d = %v, want it to start at %d", id, i, b, low)
			}
			low = b[1] + 5
		}
		if low != dtTwentyFrom[id] {
			t.Errorf("%s: 20-0 starts at %d, bands end at %d", id, dtTwentyFrom[id], low-5)
		}
	}
}

// RULES §6.1: every band edge of every table — the last value of each band
// and the first of the next — plus the start of 20-0.
func TestVPLookupBandEdges(t *testing.T) {
	for _, id := range dtTableIDs {
		tab := dtMustTable(t, id)
		if tab.ID() != id {
			t.Errorf("ParseVPTable(%q).ID() = %q", id, tab.ID())
		}
		for i, b := range dtBands[id] {
			wantW, wantL := 10+i, 10-i
			for _, diff := range []int{b[0], b[1]} {
				name := fmt.Sprintf("%s/%s/%d-%d band %d..%d/diff %d", dtTableRule(id), id, wantW, wantL, b[0], b[1], diff)
				t.Run(name, func(t *testing.T) {
					w, l := tab.Lookup(diff)
					if w != wantW || l != wantL {
						t.Errorf("Lookup(%d) = %d-%d, want %d-%d", diff, w, l, wantW, wantL)
					}
				})
			}
		}
		first := dtTwentyFrom[id]
		t.Run(fmt.Sprintf("%s/%s/20-0 from %d", dtTableRule(id), id, first), func(t *testing.T) {
			if w, l := tab.Lookup(first); w != 20 || l != 0 {
				t.Errorf("Lookup(%d) = %d-%d, want 20-0", first, w, l)
			}
			if w, l := tab.Lookup(first - 5); w != 19 || l != 1 {
				t.Errorf("Lookup(%d) = %d-%d, want 19-1", first-5, w, l)
			}
		})
	}
}

// RULES §6.1: 0 is a draw, a huge difference is 20-0, and the sign of the
// difference does not matter (the winner gets the larger number).
func TestVPLookupZeroHugeNegative(t *testing.T) {
	for _, id := range dtTableIDs {
		tab := dtMustTable(t, id)
		t.Run(dtTableRule(id)+"/"+id+"/zero is 10-10", func(t *testing.T) {
			if w, l := tab.Lookup(0); w != 10 || l != 10 {
				t.Errorf("Lookup(0) = %d-%d, want 10-10", w, l)
			}
		})
		t.Run(dtTableRule(id)+"/"+id+"/huge is 20-0", func(t *testing.T) {
			for _, diff := range []int{100_000, 1 << 30} {
				if w, l := tab.Lookup(diff); w != 20 || l != 0 {
					t.Errorf("Lookup(%d) = %d-%d, want 20-0", diff, w, l)
				}
			}
		})
		t.Run(dtTableRule(id)+"/"+id+"/negative diff reads as its absolute value", func(t *testing.T) {
			for _, b := range dtBands[id] {
				for _, diff := range []int{b[0], b[1]} {
					w1, l1 := tab.Lookup(diff)
					w2, l2 := tab.Lookup(-diff)
					if w1 != w2 || l1 != l2 {
						t.Errorf("Lookup(-%d) = %d-%d, Lookup(%d) = %d-%d", diff, w2, l2, diff, w1, l1)
					}
				}
			}
			if w, l := tab.Lookup(-100_000); w != 20 || l != 0 {
				t.Errorf("Lookup(-100000) = %d-%d, want 20-0", w, l)
			}
		})
	}
}

// RULES §6.1: "a difference that is not [a multiple of 5] belongs to the band
// whose upper bound is the first ≥ it".
func TestVPLookupNonMultipleOf5(t *testing.T) {
	cases := []struct {
		table  string
		diff   int
		winner int
	}{
		{"fitab-3", 1, 10},
		{"fitab-3", 62, 11},   // between 60 and 65: first upper bound ≥ 62 is 160
		{"fitab-3", 161, 12},  // between 160 and 165: upper 260
		{"fitab-3", 1512, 20}, // above the last upper bound 1510
		{"fitab-2", 51, 11},
		{"fitab-2", 1013, 20},
		{"fitab-4", 2011, 20},
		{"fitab-4", 113, 11},
		{"fibur-2", 43, 11},
		{"fibur-2", 1001, 20},
		{"fibur-3", 503, 15},
		{"fibur-4", 102, 11},
		{"fibur-teams", 2501, 20},
		{"fibur-teams", 152, 11},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/diff %d", dtTableRule(c.table), c.table, c.diff), func(t *testing.T) {
			w, l := dtMustTable(t, c.table).Lookup(c.diff)
			if w != c.winner || l != 20-c.winner {
				t.Errorf("Lookup(%d) = %d-%d, want %d-%d", c.diff, w, l, c.winner, 20-c.winner)
			}
		})
	}
}

// RULES §6: the two VPs add up to 20 and the winner gets the larger number;
// more MP never gives fewer VP. Every difference 0..3000, every table.
func TestVPLookupSumsTo20AndIsMonotone(t *testing.T) {
	for _, id := range dtTableIDs {
		t.Run(dtTableRule(id)+"/"+id, func(t *testing.T) {
			tab := dtMustTable(t, id)
			prev := 10
			for diff := 0; diff <= 3000; diff++ {
				w, l := tab.Lookup(diff)
				if w+l != 20 || w < l {
					t.Fatalf("Lookup(%d) = %d-%d: must add up to 20 with the winner ≥ the loser", diff, w, l)
				}
				if w < prev {
					t.Fatalf("Lookup(%d) = %d, less than %d for a smaller difference", diff, w, prev)
				}
				prev = w
				if ww, _ := dtVP(id, diff); ww != w {
					t.Fatalf("Lookup(%d) = %d-%d, RULES §6.1 gives %d-%d", diff, w, l, ww, 20-ww)
				}
			}
		})
	}
}

// GEN (seeds/002): "+300 Match Point: Giocatore A: 13 VP Giocatore B: 7 VP",
// with the online table whose bands equal the FIBur 3-hand column.
func TestVPSeedGENExample(t *testing.T) {
	gen := [][2]int{{0, 50}, {55, 150}, {155, 250}, {255, 350}, {355, 500}, {505, 650}, {655, 800}, {805, 1000}, {1005, 1250}, {1255, 1500}}
	tab := dtMustTable(t, "fibur-3")
	t.Run("GEN/+300 MP is 13-7", func(t *testing.T) {
		if w, l := tab.Lookup(300); w != 13 || l != 7 {
			t.Errorf("fibur-3 Lookup(300) = %d-%d, want 13-7", w, l)
		}
	})
	t.Run("GEN/online table equals fibur-3", func(t *testing.T) {
		for i, b := range gen {
			for _, diff := range []int{b[0], b[1]} {
				if w, _ := tab.Lookup(diff); w != 10+i {
					t.Errorf("fibur-3 Lookup(%d) = %d, GEN says %d", diff, w, 10+i)
				}
			}
		}
		if w, _ := tab.Lookup(1505); w != 20 {
			t.Errorf("fibur-3 Lookup(1505) = %d, GEN says >1500 is 20", w)
		}
	})
}

// RULES §6.2: the seven table ids parse; anything else is an error wrapping
// ErrInvalid, never a silent default.
func TestVPParseVPTable(t *testing.T) {
	for _, id := range dtTableIDs {
		t.Run("RULES §6.2/known/"+id, func(t *testing.T) {
			tab, err := domain.ParseVPTable(id)
			if err != nil || tab.ID() != id || tab.IsZero() {
				t.Errorf("ParseVPTable(%q) = %q, %v", id, tab.ID(), err)
			}
		})
	}
	for _, id := range []string{"", "fitab-1", "fitab-5", "fibur-1", "fibur-5", "fibur-team", "fitab-teams", "FITAB-3", " fitab-3", "fitab-3 ", "3"} {
		t.Run(fmt.Sprintf("RULES §6.2/unknown/%q", id), func(t *testing.T) {
			_, err := domain.ParseVPTable(id)
			if err == nil {
				t.Fatalf("ParseVPTable(%q) = nil error, want an error", id)
			}
			if !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("ParseVPTable(%q) error %v does not wrap ErrInvalid", id, err)
			}
		})
	}
}

// RULES §2: four ruleset ids; an unknown one is an error.
func TestVPParseRuleset(t *testing.T) {
	for _, id := range []string{"fitab-2025", "fitab-int", "fibur-ita", "fibur-int"} {
		t.Run("RULES §2/known/"+id, func(t *testing.T) {
			r, err := domain.ParseRuleset(id)
			if err != nil || string(r) != id {
				t.Errorf("ParseRuleset(%q) = %q, %v", id, r, err)
			}
		})
	}
	for _, id := range []string{"", "fitab", "fibur", "fitab-2024", "FITAB-2025", "fibur-INT", "fitab_int", "fitab-2025 "} {
		t.Run(fmt.Sprintf("RULES §2/unknown/%q", id), func(t *testing.T) {
			_, err := domain.ParseRuleset(id)
			if err == nil {
				t.Fatalf("ParseRuleset(%q) = nil error, want an error", id)
			}
			if !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("ParseRuleset(%q) error %v does not wrap ErrInvalid", id, err)
			}
		})
	}
}

// dtDefaultTable is RULES §6.2 "Which table", one literal row per ruleset:
// the table for (planned, played) hands of a pairs/individual match.
var dtDefaultTable = map[domain.Ruleset]func(planned, played int) string{
	// FITAB column for the planned hands [INTERP].
	domain.FITAB2025: func(p, _ int) string { return map[int]string{2: "fitab-2", 3: "fitab-3", 4: "fitab-4"}[p] },
	domain.FITABInt:  func(p, _ int) string { return map[int]string{2: "fitab-2", 3: "fitab-3", 4: "fitab-4"}[p] },
	// FIBur column for the planned hands.
	domain.FIBurIta: func(p, _ int) string { return map[int]string{2: "fibur-2", 3: "fibur-3", 4: "fibur-4"}[p] },
	// FIBur-INT art. 17, last sentence: one column up from the hands actually
	// played; 3 or 4 played → fibur-4 (no 5-hand table).
	domain.FIBurInt: func(_, pl int) string {
		return map[int]string{1: "fibur-2", 2: "fibur-3", 3: "fibur-4", 4: "fibur-4"}[pl]
	},
}

// RULES §6.2: every ruleset × kind × planned × played, the team table, and
// a pinned table winning over everything.
func TestVPChooseVPTable(t *testing.T) {
	kinds := []domain.Kind{domain.KindPairs, domain.KindIndividual, domain.KindInternational, domain.KindTeams}
	for _, r := range domain.Rulesets {
		for _, k := range kinds {
			for planned := 2; planned <= 4; planned++ {
				for played := 1; played <= 4; played++ {
					want := dtDefaultTable[r](planned, played)
					if k == domain.KindTeams {
						if r == domain.FITABInt {
							continue // RULES §6.2 is silent on fitab-int team matches
						}
						want = "fibur-teams" // FITAB [INTERP], FIBur-INT art. 17
					}
					name := fmt.Sprintf("RULES §6.2/%s/%s/planned %d played %d", r, k, planned, played)
					t.Run(name, func(t *testing.T) {
						got := domain.ChooseVPTable(r, k, planned, played, domain.VPTable{})
						if got.ID() != want {
							t.Errorf("ChooseVPTable = %q, want %q", got.ID(), want)
						}
						for _, pin := range []string{"fitab-4", "fibur-2", "fibur-teams"} {
							got := domain.ChooseVPTable(r, k, planned, played, dtMustTable(t, pin))
							if got.ID() != pin {
								t.Errorf("pinned %s: ChooseVPTable = %q, the pinned table must win", pin, got.ID())
							}
						}
					})
				}
			}
		}
	}
	// The spot checks the brief names, spelled out.
	spot := []struct {
		name            string
		r               domain.Ruleset
		planned, played int
		want            string
	}{
		{"FIBur-INT art. 17/1 played → fibur-2", domain.FIBurInt, 4, 1, "fibur-2"},
		{"FIBur-INT art. 17/2 played → fibur-3 (partite su due smazzate tabella di 3)", domain.FIBurInt, 2, 2, "fibur-3"},
		{"FIBur-INT art. 17/3 played → fibur-4 (partite su tre smazzate tabella di 4)", domain.FIBurInt, 3, 3, "fibur-4"},
		{"FIBur-INT art. 17/4 played → fibur-4 (no 5-hand table)", domain.FIBurInt, 4, 4, "fibur-4"},
		{"RULES §6.2/fitab-2025 time-out cut a 3-hand round to 2: planned column", domain.FITAB2025, 3, 2, "fitab-3"},
		{"RULES §6.2/fibur-ita time-out cut a 4-hand round to 1: planned column", domain.FIBurIta, 4, 1, "fibur-4"},
	}
	for _, c := range spot {
		t.Run(c.name, func(t *testing.T) {
			got := domain.ChooseVPTable(c.r, domain.KindPairs, c.planned, c.played, domain.VPTable{})
			if got.ID() != c.want {
				t.Errorf("ChooseVPTable = %q, want %q", got.ID(), c.want)
			}
		})
	}
	t.Run("FITAB Title V/fitab-int may pin fitab-4 for every round", func(t *testing.T) {
		for planned := 2; planned <= 4; planned++ {
			got := domain.ChooseVPTable(domain.FITABInt, domain.KindPairs, planned, planned, dtMustTable(t, "fitab-4"))
			if got.ID() != "fitab-4" {
				t.Errorf("planned %d: ChooseVPTable = %q, want fitab-4", planned, got.ID())
			}
		}
	})
}

// RULES §7 "equivalent MP" [INTERP]: the lower bound of the band that gives
// 10+k VP, in the federation's column for the planned hands (never the
// fibur-int one-up table; teams: fibur-teams).
func TestVPEquivalentMP(t *testing.T) {
	spot := []struct {
		name  string
		table string
		k     int
		want  int
	}{
		{"RULES §7/FITAB 3-hand: 1 VP ≈ 65 MP", "fitab-3", 1, 65},
		{"FITAB art. 38/bye 2 hands: 14 VP ↔ 315 MP", "fitab-2", 4, 315},
		{"FITAB art. 38/bye 3 hands: 14 VP ↔ 365 MP", "fitab-3", 4, 365},
		{"FITAB art. 38/bye 4 hands: 12 VP ↔ 315 MP", "fitab-4", 2, 315},
		{"FIBur-INT art. 34/bye 2 hands: 14 VP ↔ 305 MP", "fibur-2", 4, 305},
		{"FIBur-INT art. 34/bye 3 hands: 14 VP ↔ 355 MP", "fibur-3", 4, 355},
		{"FIBur-INT art. 34/bye 4 hands: 12 VP ↔ 305 MP", "fibur-4", 2, 305},
		{"RULES §7/0 VP above a draw is 0 MP", "fitab-3", 0, 0},
	}
	for _, c := range spot {
		t.Run(c.name, func(t *testing.T) {
			if got := dtMustTable(t, c.table).EquivalentMP(c.k); got != c.want {
				t.Errorf("%s EquivalentMP(%d) = %d, want %d", c.table, c.k, got, c.want)
			}
		})
	}
	for _, id := range dtTableIDs {
		t.Run("RULES §7/every k/"+id, func(t *testing.T) {
			tab := dtMustTable(t, id)
			for k := 1; k <= 10; k++ {
				want := dtTwentyFrom[id]
				if k < 10 {
					want = dtBands[id][k][0]
				}
				if got := tab.EquivalentMP(k); got != want {
					t.Errorf("EquivalentMP(%d) = %d, want %d (low end of %d-%d)", k, got, want, 10+k, 10-k)
				}
			}
		})
	}

	tables := []struct {
		name    string
		r       domain.Ruleset
		k       domain.Kind
		planned int
		want    string
	}{
		{"RULES §7/fibur-int 2 planned: fibur-2, not the one-up fibur-3", domain.FIBurInt, domain.KindPairs, 2, "fibur-2"},
		{"RULES §7/fibur-int 3 planned: fibur-3", domain.FIBurInt, domain.KindPairs, 3, "fibur-3"},
		{"RULES §7/fibur-int 4 planned: fibur-4", domain.FIBurInt, domain.KindPairs, 4, "fibur-4"},
		{"RULES §7/fitab-2025 3 planned: fitab-3", domain.FITAB2025, domain.KindPairs, 3, "fitab-3"},
		{"RULES §7/fitab-int 4 planned: fitab-4", domain.FITABInt, domain.KindPairs, 4, "fitab-4"},
		{"RULES §7/fibur-ita 2 planned: fibur-2", domain.FIBurIta, domain.KindIndividual, 2, "fibur-2"},
		{"RULES §7/fitab-2025 teams: fibur-teams", domain.FITAB2025, domain.KindTeams, 3, "fibur-teams"},
		{"RULES §7/fibur-ita teams: fibur-teams", domain.FIBurIta, domain.KindTeams, 4, "fibur-teams"},
	}
	for _, c := range tables {
		t.Run(c.name, func(t *testing.T) {
			if got := domain.EquivalentMPTable(c.r, c.k, c.planned); got.ID() != c.want {
				t.Errorf("EquivalentMPTable = %q, want %q", got.ID(), c.want)
			}
		})
	}
}
