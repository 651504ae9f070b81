package domain

import (
	"fmt"
	"slices"
)

// Ruleset names the federation code a tournament or a sheet is scored under
// (RULES §2). It can only be built valid: use ParseRuleset.
type Ruleset string

const (
	FITAB2025 Ruleset = "fitab-2025" // FITAB Codice di Gara 2025, Italian burraco
	FITABInt  Ruleset = "fitab-int"  // FITAB Title V, international burraco
	FIBurIta  Ruleset = "fibur-ita"  // FIBur Italian burraco (FIBur-INT art. 13, GEN, LUG, UNI3)
	FIBurInt  Ruleset = "fibur-int"  // FIBur Codice di Gara del Burraco Internazionale
)

// Rulesets lists every ruleset in a stable order.
var Rulesets = []Ruleset{FITAB2025, FITABInt, FIBurIta, FIBurInt}

// ParseRuleset returns the ruleset with the given id; an unknown id is an
// error wrapping ErrInvalid, never a silent default (RULES §2).
func ParseRuleset(id string) (Ruleset, error) {
	r := Ruleset(id)
	if slices.Contains(Rulesets, r) {
		return r, nil
	}
	return "", fmt.Errorf("%w: unknown ruleset %q (want fitab-2025, fitab-int, fibur-ita or fibur-int)", ErrInvalid, id)
}

// Federation is the body whose code a ruleset follows.
type Federation string

const (
	FITAB Federation = "FITAB"
	FIBur Federation = "FIBur"
)

// Federation tells whose code the ruleset follows; it picks the VP table
// family and the correction rules (RULES §6.1, §9).
func (r Ruleset) Federation() Federation {
	if r == FITAB2025 || r == FITABInt {
		return FITAB
	}
	return FIBur
}

// International reports whether the ruleset is one of the `*-int` codes:
// only pulito and sporco, and closing needs a pulito (FITAB-INT rule 1,
// FIBur-INT art. 16).
func (r Ruleset) International() bool { return r == FITABInt || r == FIBurInt }

// BurracoTypes lists the burraco types the ruleset allows, highest bonus
// first (RULES §2, §4).
func (r Ruleset) BurracoTypes() []BurracoType {
	switch r {
	case FITAB2025:
		return []BurracoType{Reale, RealeSporco, Super, SuperSporco, Pulito, Semipulito, Sporco}
	case FIBurIta:
		return []BurracoType{Pulito, Semipulito, Sporco}
	default:
		return []BurracoType{Pulito, Sporco}
	}
}

// Allows reports whether the ruleset has the burraco type.
func (r Ruleset) Allows(t BurracoType) bool { return slices.Contains(r.BurracoTypes(), t) }

// ScoringRule is the article that defines hand scoring and the VP tables.
func (r Ruleset) ScoringRule() string {
	if r.Federation() == FITAB {
		return "FITAB art. 18"
	}
	return "FIBur-INT art. 17"
}

// BonusRule is the article that lists the burraco bonuses.
func (r Ruleset) BonusRule() string {
	if r.Federation() == FITAB {
		return "FITAB art. 13"
	}
	return "FIBur-INT art. 13"
}

// ClosingRule is the article on closing (chiusura).
func (r Ruleset) ClosingRule() string {
	if r.Federation() == FITAB {
		return "FITAB art. 17"
	}
	return "FIBur-INT art. 16"
}

// SheetRule is the article on the score sheet and its corrections.
func (r Ruleset) SheetRule() string {
	if r.Federation() == FITAB {
		return "FITAB art. 20"
	}
	return "FIBur-INT art. 19"
}

// MinClosingBase is the least base a closing line can have: one burraco plus
// the closing bonus; a pulito in the international rulesets (RULES §5.1
// CLOSURE_IMPOSSIBLE).
func (r Ruleset) MinClosingBase() int {
	if r.International() {
		return Pulito.Bonus() + ClosingBonus
	}
	return Sporco.Bonus() + ClosingBonus
}

// BaseStep is the granularity of a representable base: 100 in the
// international rulesets, 50 otherwise (RULES §4).
func (r Ruleset) BaseStep() int {
	if r.International() {
		return 100
	}
	return 50
}

// Kind is what enters a tournament (RULES §10).
type Kind string

const (
	KindPairs         Kind = "pairs"
	KindIndividual    Kind = "individual"
	KindTeams         Kind = "teams"
	KindInternational Kind = "international"
)

// Kinds lists every tournament kind.
var Kinds = []Kind{KindPairs, KindIndividual, KindTeams, KindInternational}

// ParseKind returns the kind with the given id; "" is pairs (API §1).
func ParseKind(id string) (Kind, error) {
	if id == "" {
		return KindPairs, nil
	}
	k := Kind(id)
	if slices.Contains(Kinds, k) {
		return k, nil
	}
	return "", fmt.Errorf("%w: unknown kind %q (want pairs, individual, teams or international)", ErrInvalid, id)
}
