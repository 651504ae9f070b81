package domain

import "sync"

// A reading of a line's base is one way to write it as burraco bonuses plus
// 0 or 100 for the closing (RULES §4). Validation raises an error only when
// no reading is consistent with the rest of the sheet, so it needs, for every
// possible sum of bonuses, what the readings of that sum have in common.
//
// bonusSums answers that for one ruleset, for sums up to maxBonusSum, in
// units of 50 points (every bonus is a multiple of 50).
type bonusSums struct {
	types []BurracoType
	sums  []bonusSum // indexed by sum/50
}

// bonusSum describes the multisets of burrachi whose bonuses add up to one
// sum.
type bonusSum struct {
	ways     uint8 // number of multisets, capped at 2 ("several")
	minCards int16 // least Σ MinCards over the multisets (TOO_MANY_BURRACHI)
	minCount int16 // least number of burrachi (the 35-per-burraco table check)
	// withPulito: the same, over multisets holding at least one pulito, which
	// a closing line needs in the international rulesets.
	pulitoWays     uint8
	pulitoMinCards int16
	pulitoMinCount int16
}

// maxBonusSum bounds the table: no base above it is representable, since
// the deck cannot hold more burrachi (105 cards / 7 per burraco × 300).
const maxBonusSum = 5000

const bonusUnit = 50

func (b bonusSum) ok() bool       { return b.ways > 0 }
func (b bonusSum) pulitoOK() bool { return b.pulitoWays > 0 }

// sumsFor returns the table of a ruleset, computed once.
func sumsFor(r Ruleset) *bonusSums {
	switch r {
	case FITAB2025:
		return fitab2025Sums()
	case FIBurIta:
		return fiburItaSums()
	default:
		return internationalSums()
	}
}

var (
	fitab2025Sums     = sync.OnceValue(func() *bonusSums { return newBonusSums(FITAB2025.BurracoTypes()) })
	fiburItaSums      = sync.OnceValue(func() *bonusSums { return newBonusSums(FIBurIta.BurracoTypes()) })
	internationalSums = sync.OnceValue(func() *bonusSums { return newBonusSums(FIBurInt.BurracoTypes()) })
)

// newBonusSums runs an unbounded-knapsack pass over the allowed types.
func newBonusSums(types []BurracoType) *bonusSums {
	const n = maxBonusSum/bonusUnit + 1
	const inf = int16(1 << 14)
	sums := make([]bonusSum, n)
	for i := range sums {
		sums[i] = bonusSum{minCards: inf, minCount: inf, pulitoMinCards: inf, pulitoMinCount: inf}
	}
	sums[0] = bonusSum{ways: 1, pulitoMinCards: inf, pulitoMinCount: inf}
	for _, t := range types {
		step := t.Bonus() / bonusUnit
		cards := int16(t.MinCards())
		for u := step; u < n; u++ {
			prev := sums[u-step]
			cur := &sums[u]
			if prev.ways > 0 {
				cur.ways = min(cur.ways+prev.ways, 2)
				cur.minCards = min(cur.minCards, prev.minCards+cards)
				cur.minCount = min(cur.minCount, prev.minCount+1)
			}
			// A multiset with a pulito: either it adds the pulito now, or
			// the smaller one already had one.
			if t == Pulito && prev.ways > 0 {
				cur.pulitoWays = min(cur.pulitoWays+prev.ways, 2)
				cur.pulitoMinCards = min(cur.pulitoMinCards, prev.minCards+cards)
				cur.pulitoMinCount = min(cur.pulitoMinCount, prev.minCount+1)
			} else if prev.pulitoWays > 0 {
				cur.pulitoWays = min(cur.pulitoWays+prev.pulitoWays, 2)
				cur.pulitoMinCards = min(cur.pulitoMinCards, prev.pulitoMinCards+cards)
				cur.pulitoMinCount = min(cur.pulitoMinCount, prev.pulitoMinCount+1)
			}
		}
	}
	return &bonusSums{types: types, sums: sums}
}

// at returns what is known of the multisets adding up to sum; ok() is false
// for a sum no multiset reaches.
func (b *bonusSums) at(sum int) bonusSum {
	if sum < 0 || sum%bonusUnit != 0 || sum > maxBonusSum {
		return bonusSum{}
	}
	return b.sums[sum/bonusUnit]
}

// Representable reports whether base can be written as a sum of the
// ruleset's burraco bonuses plus 0 or 100 for the closing (RULES §5.1
// BASE_NOT_REPRESENTABLE).
func (r Ruleset) Representable(base int) bool {
	s := sumsFor(r)
	return s.at(base).ok() || s.at(base-ClosingBonus).ok()
}

// Reading is one way to read a base: the burrachi and whether the line
// closed.
type Reading struct {
	Burrachi map[BurracoType]int
	Closed   bool
}

// Readings lists every reading of base under the ruleset that a legal hand
// allows: a closing reading needs a burraco (a pulito in the international
// rulesets), RULES §4. It is meant for explanations and tests, not for the
// validation hot path; at most limit readings are returned.
func (r Ruleset) Readings(base, limit int) []Reading {
	var out []Reading
	types := r.BurracoTypes()
	var walk func(i, rest int, cur map[BurracoType]int, closed bool)
	walk = func(i, rest int, cur map[BurracoType]int, closed bool) {
		if len(out) >= limit {
			return
		}
		if rest == 0 {
			if closed && !closingAllowed(r, cur) {
				return
			}
			m := make(map[BurracoType]int, len(cur))
			for t, n := range cur {
				if n > 0 {
					m[t] = n
				}
			}
			out = append(out, Reading{Burrachi: m, Closed: closed})
			return
		}
		if i == len(types) || rest < 0 {
			return
		}
		t := types[i]
		for n := rest / t.Bonus(); n >= 0; n-- {
			cur[t] = n
			walk(i+1, rest-n*t.Bonus(), cur, closed)
		}
		cur[t] = 0
	}
	if base >= 0 && base <= maxBonusSum {
		walk(0, base, map[BurracoType]int{}, false)
		if base >= ClosingBonus {
			walk(0, base-ClosingBonus, map[BurracoType]int{}, true)
		}
	}
	return out
}

// closingAllowed: a closing line must have a burraco, and a pulito in the
// international rulesets (FITAB art. 17, FITAB-INT rule 1, FIBur-INT art. 16).
func closingAllowed(r Ruleset, burrachi map[BurracoType]int) bool {
	if r.International() {
		return burrachi[Pulito] > 0
	}
	for _, n := range burrachi {
		if n > 0 {
			return true
		}
	}
	return false
}
