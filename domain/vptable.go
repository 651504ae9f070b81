package domain

import "fmt"

// VPTable converts a match's MP difference into victory points (RULES §6.1).
// Build one with ParseVPTable or ChooseVPTable.
type VPTable struct {
	id string
	// upper[i] is the last MP difference (inclusive) that gives the winner
	// 10+i VP; anything above upper[9] gives 20-0.
	upper [10]int
}

// The seven tables of RULES §6.1, band upper bounds for 10-10 .. 19-1.
var vpTables = []VPTable{
	// FITAB art. 18
	{"fitab-2", [10]int{50, 130, 210, 310, 410, 510, 630, 750, 880, 1010}},
	{"fitab-3", [10]int{60, 160, 260, 360, 510, 660, 810, 1010, 1260, 1510}},
	{"fitab-4", [10]int{110, 310, 510, 710, 910, 1110, 1310, 1510, 1710, 2010}},
	// FIBur-INT art. 17 (the GEN table equals fibur-3)
	{"fibur-2", [10]int{40, 120, 200, 300, 400, 500, 620, 740, 870, 1000}},
	{"fibur-3", [10]int{50, 150, 250, 350, 500, 650, 800, 1000, 1250, 1500}},
	{"fibur-4", [10]int{100, 300, 500, 700, 900, 1100, 1300, 1500, 1700, 2000}},
	{"fibur-teams", [10]int{150, 350, 550, 800, 1050, 1300, 1600, 1900, 2200, 2500}},
}

// VPTables lists the seven tables in a stable order.
func VPTables() []VPTable { return append([]VPTable(nil), vpTables...) }

// MaxVP is what a line can score in one match; the two lines' VP add up to it.
const MaxVP = 20

// ParseVPTable returns the table with the given id (fitab-2 .. fibur-teams).
func ParseVPTable(id string) (VPTable, error) {
	for _, t := range vpTables {
		if t.id == id {
			return t, nil
		}
	}
	return VPTable{}, fmt.Errorf("%w: unknown VP table %q (want fitab-2, fitab-3, fitab-4, fibur-2, fibur-3, fibur-4 or fibur-teams)", ErrInvalid, id)
}

// ID is the table's id, e.g. "fitab-3".
func (t VPTable) ID() string { return t.id }

// IsZero reports whether t is the zero VPTable (no table).
func (t VPTable) IsZero() bool { return t.id == "" }

// Bands returns the inclusive [low, high] MP range of each VP pair 10-10 ..
// 19-1; 20-0 is everything above the last high.
func (t VPTable) Bands() [10][2]int {
	var b [10][2]int
	low := 0
	for i, hi := range t.upper {
		b[i] = [2]int{low, hi}
		low = hi + 5
	}
	return b
}

// Lookup returns the winner's and the loser's VP for an MP difference. The
// sign of diff is ignored. A difference between two bands (possible only
// through an adjustment) falls in the band whose upper bound is the first
// at or above it (RULES §6.1).
func (t VPTable) Lookup(diff int) (winner, loser int) {
	if diff < 0 {
		diff = -diff
	}
	for i, hi := range t.upper {
		if diff <= hi {
			return 10 + i, MaxVP - 10 - i
		}
	}
	return MaxVP, 0
}

// EquivalentMP is the MP worth k VP above a draw: the lower bound of the band
// that gives 10+k VP (RULES §7 "equivalent MP" [INTERP]). k ≤ 0 is 0; k is
// capped at 10.
func (t VPTable) EquivalentMP(k int) int {
	if k <= 0 {
		return 0
	}
	if k > 10 {
		k = 10
	}
	return t.upper[k-1] + 5
}

func mustVPTable(id string) VPTable {
	t, err := ParseVPTable(id)
	if err != nil {
		panic(err) // only reached with the constant ids below
	}
	return t
}

// ChooseVPTable picks the VP table of a match (RULES §6.2). A pinned table
// wins. Otherwise the table follows the round's planned hands [INTERP],
// except fibur-int, which goes one table up from the hands actually played
// (FIBur-INT art. 17, last sentence); teams use fibur-teams.
func ChooseVPTable(r Ruleset, k Kind, planned, played int, pinned VPTable) VPTable {
	if !pinned.IsZero() {
		return pinned
	}
	if k == KindTeams {
		return mustVPTable("fibur-teams") // [INTERP] FITAB publishes no team table
	}
	if r == FIBurInt {
		return mustVPTable(fiburIntOneUp(played))
	}
	return plannedColumn(r, planned)
}

// fiburIntOneUp is FIBur-INT art. 17: "tabelle previste per un numero di mani
// superiore rispetto a quello effettivamente giocato". There is no 5-hand
// table, so 3 and 4 played hands both use fibur-4 [INTERP].
func fiburIntOneUp(played int) string {
	switch {
	case played <= 1:
		return "fibur-2"
	case played == 2:
		return "fibur-3"
	default:
		return "fibur-4"
	}
}

// plannedColumn is the federation's column for the planned hands, clamped to
// the published 2..4.
func plannedColumn(r Ruleset, planned int) VPTable {
	planned = min(max(planned, 2), 4)
	if r.Federation() == FITAB {
		return vpTables[planned-2] // fitab-2 .. fitab-4
	}
	return vpTables[3+planned-2] // fibur-2 .. fibur-4
}

// EquivalentMPTable is the table that converts adjustment VP into MP: the
// federation's column for the round's planned hands, never the fibur-int
// one-up table; teams use fibur-teams (RULES §7 [INTERP]).
func EquivalentMPTable(r Ruleset, k Kind, planned int) VPTable {
	if k == KindTeams {
		return mustVPTable("fibur-teams")
	}
	return plannedColumn(r, planned)
}
