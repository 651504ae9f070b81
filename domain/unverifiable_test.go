package domain

import "testing"

// RULES §5.1 UNVERIFIABLE_BREAKDOWN (info): only the base is given and
// several readings are possible — nothing wrong, just unproven.
func TestUnverifiableBreakdown(t *testing.T) {
	one := func(r Ruleset, end HandEnd, ns LineScore) Sheet {
		return Sheet{Ruleset: r, HandsPlanned: 2, Kind: KindPairs, Hands: []Hand{{End: end, Lines: [2]LineScore{ns, {Base: 0, Points: -40}}}}}
	}
	cases := []struct {
		name  string
		sheet Sheet
		want  bool
	}{
		{"FITAB art. 13/base 200 is a pulito, two sporchi, or a sporco and the closing", one(FITAB2025, EndUnknown, LineScore{Base: 200, Points: 50}), true},
		{"FIBur-INT art. 13/base 400 in fibur-int: two puliti, pulito and two sporchi, …", one(FIBurInt, EndUnknown, LineScore{Base: 400, Points: 50}), true},
		{"near-miss: base 0 has one reading", one(FITAB2025, EndUnknown, LineScore{Base: 0, Points: 50}), false},
		{"near-miss: base 100 in fitab-2025 is one sporco (a closing alone is no closing)", one(FITAB2025, EndUnknown, LineScore{Base: 100, Points: 50}), false},
		{"near-miss: base 150 in fitab-2025 is one semipulito", one(FITAB2025, EndStockExhausted, LineScore{Base: 150, Points: 50}), false},
		{"near-miss: the breakdown is given", one(FITAB2025, EndUnknown, LineScore{Base: 200, Points: 50, Burrachi: map[BurracoType]int{Pulito: 1}}), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got *Finding
			for _, f := range Validate(c.sheet).Findings {
				if f.Code == UnverifiableBreakdown && f.Hand == 1 && f.Line != nil && *f.Line == NS {
					got = &f
				}
			}
			if (got != nil) != c.want {
				t.Fatalf("UNVERIFIABLE_BREAKDOWN on hand 1 NS: %v, want %v", got != nil, c.want)
			}
			if got != nil && (got.Severity != SeverityInfo || got.Pointer != "/hands/0/ns/base" || *got.Written != c.sheet.Hands[0].Lines[NS].Base) {
				t.Errorf("finding %+v: want info on /hands/0/ns/base with the written base", *got)
			}
		})
	}
}
