package domain

import (
	"testing"
)

// The knapsack tables must agree with a brute-force enumeration of the
// multisets of allowed burrachi (RULES §4), for every ruleset and every base
// up to 2000.
func TestBonusSumsAgreeWithEnumeration(t *testing.T) {
	for _, r := range Rulesets {
		t.Run(string(r), func(t *testing.T) {
			sums := sumsFor(r)
			for base := 0; base <= 2000; base += 50 {
				type agg struct{ ways, minCards, minCount, pWays, pMinCards, pMinCount int }
				a := agg{minCards: 1 << 20, minCount: 1 << 20, pMinCards: 1 << 20, pMinCount: 1 << 20}
				for _, rd := range r.Readings(base, 1<<20) {
					if rd.Closed {
						continue
					}
					cards, count := 0, 0
					for bt, n := range rd.Burrachi {
						cards += n * bt.MinCards()
						count += n
					}
					a.ways++
					a.minCards, a.minCount = min(a.minCards, cards), min(a.minCount, count)
					if rd.Burrachi[Pulito] > 0 {
						a.pWays++
						a.pMinCards, a.pMinCount = min(a.pMinCards, cards), min(a.pMinCount, count)
					}
				}
				got := sums.at(base)
				if min(a.ways, 2) != int(got.ways) {
					t.Fatalf("base %d: %d readings, table says %d", base, a.ways, got.ways)
				}
				if a.ways > 0 && (a.minCards != int(got.minCards) || a.minCount != int(got.minCount)) {
					t.Fatalf("base %d: min cards/count %d/%d, table %d/%d", base, a.minCards, a.minCount, got.minCards, got.minCount)
				}
				if min(a.pWays, 2) != int(got.pulitoWays) {
					t.Fatalf("base %d: %d readings with a pulito, table says %d", base, a.pWays, got.pulitoWays)
				}
				if a.pWays > 0 && (a.pMinCards != int(got.pulitoMinCards) || a.pMinCount != int(got.pulitoMinCount)) {
					t.Fatalf("base %d: pulito min cards/count %d/%d, table %d/%d", base, a.pMinCards, a.pMinCount, got.pulitoMinCards, got.pulitoMinCount)
				}
			}
		})
	}
}

// RULES §4: base is a multiple of 100 in the international rulesets, of 50
// otherwise, and never negative; 50 itself is no sum of bonuses.
func TestRepresentable(t *testing.T) {
	cases := []struct {
		r    Ruleset
		base int
		want bool
	}{
		{FITAB2025, 0, true}, {FITAB2025, 50, false}, {FITAB2025, 100, true}, {FITAB2025, 150, true},
		{FITAB2025, 250, true}, {FITAB2025, 1230, false}, {FITAB2025, -100, false},
		{FIBurIta, 150, true}, {FIBurIta, 50, false},
		{FITABInt, 150, false}, {FITABInt, 100, true}, {FITABInt, 300, true}, {FITABInt, 250, false},
		{FIBurInt, 350, false}, {FIBurInt, 400, true},
	}
	for _, c := range cases {
		if got := c.r.Representable(c.base); got != c.want {
			t.Errorf("%s.Representable(%d) = %v, want %v", c.r, c.base, got, c.want)
		}
	}
}

// A closing reading needs a burraco, and a pulito in the international
// rulesets (FITAB art. 17, FITAB-INT rule 1, FIBur-INT art. 16).
func TestReadingsClosing(t *testing.T) {
	closing := func(r Ruleset, base int) int {
		n := 0
		for _, rd := range r.Readings(base, 100) {
			if rd.Closed {
				n++
			}
		}
		return n
	}
	if n := closing(FITAB2025, 100); n != 0 {
		t.Errorf("base 100 has %d closing readings: a closing bonus alone is no closing", n)
	}
	if n := closing(FITAB2025, 200); n != 1 {
		t.Errorf("fitab-2025 base 200: %d closing readings, want 1 (sporco + closing)", n)
	}
	if n := closing(FIBurInt, 200); n != 0 {
		t.Errorf("fibur-int base 200: %d closing readings, want 0 (sporco cannot close)", n)
	}
	if n := closing(FIBurInt, 300); n != 1 {
		t.Errorf("fibur-int base 300: %d closing readings, want 1 (pulito + closing)", n)
	}
}
