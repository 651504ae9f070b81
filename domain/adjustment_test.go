package domain_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"segnapunti/domain"
)

// hands is a round shape: the planned hands and the tournament kind.
type hands struct {
	n    int
	kind domain.Kind
}

var (
	h2     = hands{2, domain.KindPairs}
	h3     = hands{3, domain.KindPairs}
	h4     = hands{4, domain.KindPairs}
	teams3 = hands{3, domain.KindTeams}
	teams4 = hands{4, domain.KindTeams}
)

func score(vp, mp int) *domain.MatchScore { return &domain.MatchScore{VP: vp, MP: mp} }

// adjustmentCase is one row of RULES §7 for one ruleset and round shape.
// Expected numbers are read from the articles and the VP tables of RULES
// §6.1 ("equivalent MP" of k VP: the lower bound of the 10+k band).
type adjustmentCase struct {
	name       string
	rulesets   []domain.Ruleset
	hands      hands
	edit       func(*domain.AdjustmentCase)
	reason     domain.AdjustmentReason
	party      domain.Party
	result     *domain.MatchScore
	delta      domain.MatchScore
	latePoints int
	warning    bool
	bye        bool
	awarded    bool
	flags      []domain.AdjustmentFlag
	rule       string // an article the effect must cite
}

var (
	fitab = []domain.Ruleset{domain.FITAB2025, domain.FITABInt}
	fibur = []domain.Ruleset{domain.FIBurIta, domain.FIBurInt}
)

func runAdjustmentCases(t *testing.T, cases []adjustmentCase) {
	t.Helper()
	for _, c := range cases {
		for _, r := range c.rulesets {
			t.Run(string(r)+"/"+c.name, func(t *testing.T) {
				in := domain.AdjustmentCase{
					Reason: c.reason, Party: c.party, Ruleset: r,
					Kind: c.hands.kind, HandsPlanned: c.hands.n,
				}
				if c.edit != nil {
					c.edit(&in)
				}
				got, err := in.Effect()
				if err != nil {
					t.Fatalf("Effect() error: %v", err)
				}
				switch {
				case c.result == nil && got.Result != nil:
					t.Errorf("result = %+v, want none", *got.Result)
				case c.result != nil && got.Result == nil:
					t.Errorf("result = none, want %+v", *c.result)
				case c.result != nil && *got.Result != *c.result:
					t.Errorf("result = %+v, want %+v", *got.Result, *c.result)
				}
				if got.Delta != c.delta {
					t.Errorf("delta = %+v, want %+v", got.Delta, c.delta)
				}
				if got.LatePoints != c.latePoints {
					t.Errorf("late points = %d, want %d", got.LatePoints, c.latePoints)
				}
				if got.Warning != c.warning {
					t.Errorf("warning = %v, want %v", got.Warning, c.warning)
				}
				if got.Bye != c.bye || got.Awarded != c.awarded {
					t.Errorf("bye, awarded = %v, %v, want %v, %v", got.Bye, got.Awarded, c.bye, c.awarded)
				}
				if !slices.Equal(got.Flags, c.flags) {
					t.Errorf("flags = %q, want %q", got.Flags, c.flags)
				}
				if !slices.Contains(got.Rules, c.rule) {
					t.Errorf("rules = %q, want %q among them", got.Rules, c.rule)
				}
				if strings.TrimSpace(got.Reason) == "" {
					t.Error("reason is empty")
				}
			})
		}
	}
}

func warningsBefore(n int) func(*domain.AdjustmentCase) {
	return func(c *domain.AdjustmentCase) { c.WarningsBefore = n }
}

// FITAB art. 21, FIBur-INT art. 20: every second warning costs 1 VP and the
// equivalent MP in the overall standings; the opponents gain nothing.
func TestAdjustmentWarning(t *testing.T) {
	const w = domain.ReasonWarning
	runAdjustmentCases(t, []adjustmentCase{
		{name: "FITAB art. 21/first warning costs nothing", rulesets: fitab, hands: h3, reason: w, warning: true, rule: "FITAB art. 21"},
		{name: "FITAB art. 21/second warning 2 hands → −1 VP −55 MP", rulesets: fitab, hands: h2, edit: warningsBefore(1), reason: w, delta: domain.MatchScore{VP: -1, MP: -55}, warning: true, rule: "FITAB art. 21"},
		{name: "FITAB art. 21/second warning 3 hands → −1 VP −65 MP", rulesets: fitab, hands: h3, edit: warningsBefore(1), reason: w, delta: domain.MatchScore{VP: -1, MP: -65}, warning: true, rule: "FITAB art. 21"},
		{name: "FITAB art. 21/second warning 4 hands → −1 VP −115 MP", rulesets: fitab, hands: h4, edit: warningsBefore(1), reason: w, delta: domain.MatchScore{VP: -1, MP: -115}, warning: true, rule: "FITAB art. 21"},
		{name: "FITAB art. 21/second warning teams → −1 VP −155 MP (fibur-teams)", rulesets: fitab, hands: teams4, edit: warningsBefore(1), reason: w, delta: domain.MatchScore{VP: -1, MP: -155}, warning: true, rule: "FITAB art. 21"},
		{name: "FITAB art. 21/third warning costs nothing", rulesets: fitab, hands: h3, edit: warningsBefore(2), reason: w, warning: true, rule: "FITAB art. 21"},
		{name: "FITAB art. 21/fourth warning costs again", rulesets: fitab, hands: h3, edit: warningsBefore(3), reason: w, delta: domain.MatchScore{VP: -1, MP: -65}, warning: true, rule: "FITAB art. 21"},
		{name: "FIBur-INT art. 20/first warning costs nothing", rulesets: fibur, hands: h2, reason: w, warning: true, rule: "FIBur-INT art. 20"},
		{name: "FIBur-INT art. 20/second warning 2 hands → −1 VP −45 MP (planned column, not one up)", rulesets: fibur, hands: h2, edit: warningsBefore(1), reason: w, delta: domain.MatchScore{VP: -1, MP: -45}, warning: true, rule: "FIBur-INT art. 20"},
		{name: "FIBur-INT art. 20/second warning 3 hands → −1 VP −55 MP", rulesets: fibur, hands: h3, edit: warningsBefore(1), reason: w, delta: domain.MatchScore{VP: -1, MP: -55}, warning: true, rule: "FIBur-INT art. 20"},
		{name: "FIBur-INT art. 20/second warning 4 hands → −1 VP −105 MP", rulesets: fibur, hands: h4, edit: warningsBefore(1), reason: w, delta: domain.MatchScore{VP: -1, MP: -105}, warning: true, rule: "FIBur-INT art. 20"},
		{name: "FIBur-INT art. 20/second warning teams → −1 VP −155 MP", rulesets: fibur, hands: teams3, edit: warningsBefore(1), reason: w, delta: domain.MatchScore{VP: -1, MP: -155}, warning: true, rule: "FIBur-INT art. 20"},
	})
}

// FITAB art. 38, FIBur-INT art. 34: up to 10 minutes late, points on the
// sheet for the present line and a warning for the late one.
func TestAdjustmentLateShort(t *testing.T) {
	const (
		up5  = domain.ReasonLateUpTo5
		to10 = domain.ReasonLate5To10
	)
	in, off, both := domain.PartyInnocent, domain.PartyOffender, domain.PartyBoth
	runAdjustmentCases(t, []adjustmentCase{
		{name: "FITAB art. 38/up to 5 min/present line +100", rulesets: fitab, hands: h3, reason: up5, party: in, latePoints: 100, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/up to 5 min/late line warned (after 2 min)", rulesets: fitab, hands: h3, reason: up5, party: off, warning: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/up to 5 min/late line's second warning costs 1 VP", rulesets: fitab, hands: h4, edit: warningsBefore(1), reason: up5, party: off, warning: true, delta: domain.MatchScore{VP: -1, MP: -115}, rule: "FITAB art. 21"},
		{name: "FITAB art. 38/5 to 10 min/present line +100 +50", rulesets: fitab, hands: h2, reason: to10, party: in, latePoints: 150, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/5 to 10 min/late line warned", rulesets: fitab, hands: h2, reason: to10, party: off, warning: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/both late up to 5 min/each +100 and warned", rulesets: fitab, hands: h3, reason: up5, party: both, latePoints: 100, warning: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/teams 5 to 10 min/present team +150", rulesets: fitab, hands: teams4, reason: to10, party: in, latePoints: 150, rule: "FITAB art. 38"},
		{name: "FIBur-INT art. 34/up to 5 min/present line +100", rulesets: fibur, hands: h4, reason: up5, party: in, latePoints: 100, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/up to 5 min/late line not warned (warning after 5 min)", rulesets: fibur, hands: h4, reason: up5, party: off, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/5 to 10 min/present line +150", rulesets: fibur, hands: h3, reason: to10, party: in, latePoints: 150, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/5 to 10 min/late line warned", rulesets: fibur, hands: h3, reason: to10, party: off, warning: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/both late up to 5 min/each +100, no warning", rulesets: fibur, hands: h2, reason: up5, party: both, latePoints: 100, rule: "FIBur-INT art. 34"},
	})
}

// FITAB art. 38: after 10 minutes the match is awarded: 60% of 20 VP (70% in
// 3-hand rounds); the absent line 6 or 8 VP. FIBur-INT art. 34 swaps the
// percentages: 70%, 60% in 4-hand rounds.
func TestAdjustmentLateOver10(t *testing.T) {
	const r = domain.ReasonLateOver10
	in, off, both := domain.PartyInnocent, domain.PartyOffender, domain.PartyBoth
	advantage := func(c *domain.AdjustmentCase) { c.Advantage = true }
	runAdjustmentCases(t, []adjustmentCase{
		{name: "FITAB art. 38/2 hands/present line 60% → 12 VP 135 MP", rulesets: fitab, hands: h2, reason: r, party: in, result: score(12, 135), awarded: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/2 hands/absent line 6 VP −315 MP", rulesets: fitab, hands: h2, reason: r, party: off, result: score(6, -315), warning: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/3 hands/present line 70% → 14 VP 365 MP", rulesets: fitab, hands: h3, reason: r, party: in, result: score(14, 365), awarded: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/3 hands/absent line 6 VP −365 MP", rulesets: fitab, hands: h3, reason: r, party: off, result: score(6, -365), warning: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/4 hands/present line 60% → 12 VP 315 MP", rulesets: fitab, hands: h4, reason: r, party: in, result: score(12, 315), awarded: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/4 hands/absent line 8 VP −315 MP", rulesets: fitab, hands: h4, reason: r, party: off, result: score(8, -315), warning: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/teams 3 hands/present team 70% → 14 VP 805 MP (fibur-teams)", rulesets: fitab, hands: teams3, reason: r, party: in, result: score(14, 805), awarded: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/teams 4 hands/present team 60% → 12 VP 355 MP", rulesets: fitab, hands: teams4, reason: r, party: in, result: score(12, 355), awarded: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/teams/absent team 8 VP −355 MP [INTERP art. 37 team row]", rulesets: fitab, hands: teams3, reason: r, party: off, result: score(8, -355), warning: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/absent line with unfair advantage → 0", rulesets: fitab, hands: h3, edit: advantage, reason: r, party: off, result: score(0, 0), warning: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/both lines late → both 6 VP −365 MP", rulesets: fitab, hands: h3, reason: r, party: both, result: score(6, -365), warning: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/both lines late 4 hands → both 8 VP", rulesets: fitab, hands: h4, reason: r, party: both, result: score(8, -315), warning: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/absent line's second warning costs 1 VP on top", rulesets: fitab, hands: h2, edit: warningsBefore(1), reason: r, party: off, result: score(6, -315), delta: domain.MatchScore{VP: -1, MP: -55}, warning: true, rule: "FITAB art. 21"},
		{name: "FIBur-INT art. 34/2 hands/present line 70% → 14 VP 305 MP", rulesets: fibur, hands: h2, reason: r, party: in, result: score(14, 305), awarded: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/2 hands/absent line 6 VP −305 MP", rulesets: fibur, hands: h2, reason: r, party: off, result: score(6, -305), warning: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/3 hands/present line 70% → 14 VP 355 MP", rulesets: fibur, hands: h3, reason: r, party: in, result: score(14, 355), awarded: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/3 hands/absent line 6 VP −355 MP", rulesets: fibur, hands: h3, reason: r, party: off, result: score(6, -355), warning: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/4 hands/present line 60% → 12 VP 305 MP", rulesets: fibur, hands: h4, reason: r, party: in, result: score(12, 305), awarded: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/4 hands/absent line 8 VP −305 MP", rulesets: fibur, hands: h4, reason: r, party: off, result: score(8, -305), warning: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/teams 3 hands/present team 70% → 14 VP 805 MP", rulesets: fibur, hands: teams3, reason: r, party: in, result: score(14, 805), awarded: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/teams 4 hands/present team 60% → 12 VP 355 MP", rulesets: fibur, hands: teams4, reason: r, party: in, result: score(12, 355), awarded: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/teams/absent team 8 VP −355 MP", rulesets: fibur, hands: teams4, reason: r, party: off, result: score(8, -355), warning: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/both lines late 2 hands → both 6 VP −305 MP", rulesets: fibur, hands: h2, reason: r, party: both, result: score(6, -305), warning: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/both lines late with unfair advantage → 0", rulesets: fibur, hands: h2, edit: advantage, reason: r, party: both, result: score(0, 0), warning: true, rule: "FIBur-INT art. 34"},
	})
}

// FITAB art. 38, FIBur-INT art. 34: the rest score, as written in the codes.
func TestAdjustmentBye(t *testing.T) {
	const r = domain.ReasonBye
	second := func(c *domain.AdjustmentCase) { c.ByesBefore = 1 }
	runAdjustmentCases(t, []adjustmentCase{
		{name: "FITAB art. 38/2 hands → 14 VP 315 MP", rulesets: fitab, hands: h2, reason: r, result: score(14, 315), bye: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/3 hands → 14 VP 365 MP", rulesets: fitab, hands: h3, reason: r, result: score(14, 365), bye: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/4 hands → 12 VP 315 MP", rulesets: fitab, hands: h4, reason: r, result: score(12, 315), bye: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/teams → 12 VP 365 MP as written", rulesets: fitab, hands: teams3, reason: r, result: score(12, 365), bye: true, rule: "FITAB art. 38"},
		{name: "FITAB art. 38/second bye in the session → flagged", rulesets: fitab, hands: h3, edit: second, reason: r, result: score(14, 365), bye: true, flags: []domain.AdjustmentFlag{domain.FlagSecondBye}, rule: "FITAB art. 38"},
		{name: "FIBur-INT art. 34/2 hands → 14 VP 305 MP", rulesets: fibur, hands: h2, reason: r, result: score(14, 305), bye: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/3 hands → 14 VP 355 MP", rulesets: fibur, hands: h3, reason: r, result: score(14, 355), bye: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/4 hands → 12 VP 305 MP", rulesets: fibur, hands: h4, reason: r, result: score(12, 305), bye: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/teams → 12 VP 355 MP", rulesets: fibur, hands: teams4, reason: r, result: score(12, 355), bye: true, rule: "FIBur-INT art. 34"},
		{name: "FIBur-INT art. 34/second bye in the session → flagged", rulesets: fibur, hands: h4, edit: second, reason: r, result: score(12, 305), bye: true, flags: []domain.AdjustmentFlag{domain.FlagSecondBye}, rule: "FIBur-INT art. 34"},
	})
}

// The pair rows of the bye tables are the equivalent MP of RULES §7 (the
// rule book says they agree); only the team rows are fixed numbers.
func TestByeRowsAgreeWithEquivalentMP(t *testing.T) {
	for _, r := range domain.Rulesets {
		for _, h := range []int{2, 3, 4} {
			e, err := domain.AdjustmentCase{Reason: domain.ReasonBye, Ruleset: r, HandsPlanned: h}.Effect()
			if err != nil {
				t.Fatal(err)
			}
			want := domain.EquivalentMPTable(r, domain.KindPairs, h).EquivalentMP(e.Result.VP - 10)
			if e.Result.MP != want {
				t.Errorf("%s %d hands: bye MP %d, equivalent MP of %d VP is %d", r, h, e.Result.MP, e.Result.VP, want)
			}
		}
	}
}

// FITAB art. 37, FIBur-INT art. 33: abandonment.
func TestAdjustmentAbandon(t *testing.T) {
	const (
		tmp = domain.ReasonAbandonTemporary
		jus = domain.ReasonAbandonJustified
		unj = domain.ReasonAbandonUnjustified
	)
	in, off, both, later := domain.PartyInnocent, domain.PartyOffender, domain.PartyBoth, domain.PartyLaterOpponent
	advantage := func(c *domain.AdjustmentCase) { c.Advantage = true }
	interrupted := func(vp, mp int) func(*domain.AdjustmentCase) {
		return func(c *domain.AdjustmentCase) { c.AtInterruption = score(vp, mp) }
	}
	runAdjustmentCases(t, []adjustmentCase{
		// Temporary: the table of FITAB art. 37.
		{name: "FITAB art. 37/temporary 2 hands → 6 VP −315 MP", rulesets: fitab, hands: h2, reason: tmp, party: off, result: score(6, -315), rule: "FITAB art. 37"},
		{name: "FITAB art. 37/temporary 3 hands → 6 VP −365 MP", rulesets: fitab, hands: h3, reason: tmp, party: off, result: score(6, -365), rule: "FITAB art. 37"},
		{name: "FITAB art. 37/temporary 4 hands → 8 VP −315 MP", rulesets: fitab, hands: h4, reason: tmp, party: off, result: score(8, -315), rule: "FITAB art. 37"},
		{name: "FITAB art. 37/temporary teams → 8 VP −365 MP as written", rulesets: fitab, hands: teams3, reason: tmp, party: off, result: score(8, -365), rule: "FITAB art. 37"},
		{name: "FITAB art. 37/temporary bringing a prize → 0", rulesets: fitab, hands: h3, edit: advantage, reason: tmp, party: off, result: score(0, 0), rule: "FITAB art. 37"},
		{name: "FITAB art. 37/temporary, line left at the table → rest score, a win", rulesets: fitab, hands: h3, reason: tmp, party: in, result: score(14, 365), awarded: true, rule: "FITAB art. 37"},
		{name: "FITAB art. 37/both lines abandon → both 0", rulesets: fitab, hands: h4, reason: tmp, party: both, result: score(0, 0), rule: "FITAB art. 37"},
		{name: "FITAB art. 37/temporary, later opponent → rest score", rulesets: fitab, hands: h2, reason: tmp, party: later, result: score(14, 315), bye: true, rule: "FITAB art. 37"},
		// FIBur: VP of art. 33, MP by equivalence.
		{name: "FIBur-INT art. 33/temporary 2 hands → 6 VP −305 MP", rulesets: fibur, hands: h2, reason: tmp, party: off, result: score(6, -305), rule: "FIBur-INT art. 33"},
		{name: "FIBur-INT art. 33/temporary 3 hands → 6 VP −355 MP", rulesets: fibur, hands: h3, reason: tmp, party: off, result: score(6, -355), rule: "FIBur-INT art. 33"},
		{name: "FIBur-INT art. 33/temporary 4 hands → 8 VP −305 MP", rulesets: fibur, hands: h4, reason: tmp, party: off, result: score(8, -305), rule: "FIBur-INT art. 33"},
		{name: "FIBur-INT art. 33/temporary teams → 8 VP −355 MP", rulesets: fibur, hands: teams4, reason: tmp, party: off, result: score(8, -355), rule: "FIBur-INT art. 33"},
		{name: "FIBur-INT art. 33/temporary bringing a qualification → 0", rulesets: fibur, hands: h4, edit: advantage, reason: tmp, party: off, result: score(0, 0), rule: "FIBur-INT art. 33"},
		{name: "FIBur-INT art. 33/both lines abandon → both 0", rulesets: fibur, hands: h3, reason: tmp, party: both, result: score(0, 0), rule: "FIBur-INT art. 33"},
		{name: "FIBur-INT art. 33/temporary, line left at the table → rest score", rulesets: fibur, hands: h2, reason: tmp, party: in, result: score(14, 305), awarded: true, rule: "FIBur-INT art. 33"},
		// Justified.
		{name: "FITAB art. 37/justified, leaving line → rest score", rulesets: fitab, hands: h3, reason: jus, party: off, result: score(14, 365), bye: true, rule: "FITAB art. 37"},
		{name: "FITAB art. 37/justified teams, leaving team → rest score 12 VP 365 MP", rulesets: fitab, hands: teams3, reason: jus, party: off, result: score(12, 365), bye: true, rule: "FITAB art. 37"},
		{name: "FITAB art. 37/justified with an advantage → 0", rulesets: fitab, hands: h3, edit: advantage, reason: jus, party: off, result: score(0, 0), rule: "FITAB art. 37"},
		{name: "FITAB art. 37/justified, FIBur rest score for a FIBur ruleset", rulesets: fibur, hands: h4, reason: jus, party: off, result: score(12, 305), bye: true, rule: "FITAB art. 37"},
		// Unjustified.
		{name: "FITAB art. 37/unjustified, guilty line → 0 VP and minus the opponent's MP [INTERP]", rulesets: fitab, hands: h3, reason: unj, party: off, result: score(0, -365), rule: "FITAB art. 37"},
		{name: "FITAB art. 37/unjustified, guilty line when the opponent had more at the interruption", rulesets: fitab, hands: h3, edit: interrupted(17, 900), reason: unj, party: off, result: score(0, -900), rule: "FITAB art. 37"},
		{name: "FITAB art. 37/unjustified, innocent line → rest score", rulesets: fitab, hands: h4, reason: unj, party: in, result: score(12, 315), awarded: true, rule: "FITAB art. 37"},
		{name: "FITAB art. 37/unjustified, innocent line had more at the interruption → keeps it", rulesets: fitab, hands: h3, edit: interrupted(17, 900), reason: unj, party: in, result: score(17, 900), awarded: true, rule: "FITAB art. 37"},
		{name: "FITAB art. 37/unjustified, innocent line had less at the interruption → rest score", rulesets: fitab, hands: h3, edit: interrupted(12, 200), reason: unj, party: in, result: score(14, 365), awarded: true, rule: "FITAB art. 37"},
		{name: "FITAB art. 37/unjustified, later opponent → rest score", rulesets: fitab, hands: h3, reason: unj, party: later, result: score(14, 365), bye: true, rule: "FITAB art. 37"},
		{name: "FITAB art. 37/unjustified teams, innocent team → 12 VP 365 MP", rulesets: fitab, hands: teams4, reason: unj, party: in, result: score(12, 365), awarded: true, rule: "FITAB art. 37"},
		{name: "FIBur-INT art. 33/unjustified, guilty line 4 hands → 0 VP −305 MP", rulesets: fibur, hands: h4, reason: unj, party: off, result: score(0, -305), rule: "FIBur-INT art. 33"},
		{name: "FIBur-INT art. 33/unjustified, innocent line → rest score 14 VP 355 MP", rulesets: fibur, hands: h3, reason: unj, party: in, result: score(14, 355), awarded: true, rule: "FIBur-INT art. 33"},
		{name: "FIBur-INT art. 33/unjustified, later opponent teams → 12 VP 355 MP", rulesets: fibur, hands: teams3, reason: unj, party: later, result: score(12, 355), bye: true, rule: "FIBur-INT art. 33"},
	})
}

// FITAB art. 37/bis: a pair removed in the Mitchell phase; each innocent
// line gets max(its VP, 12) with the equivalent MP.
func TestAdjustmentForcedRemoval(t *testing.T) {
	const r = domain.ReasonForcedRemoval
	played := func(vp, mp int) func(*domain.AdjustmentCase) {
		return func(c *domain.AdjustmentCase) { c.Phase, c.Played = domain.PhaseMitchell, score(vp, mp) }
	}
	runAdjustmentCases(t, []adjustmentCase{
		{name: "FITAB art. 37/bis/lost with 7 VP 3 hands → 12 VP 165 MP", rulesets: fitab, hands: h3, edit: played(7, -300), reason: r, result: score(12, 165), awarded: true, rule: "FITAB art. 37/bis"},
		{name: "FITAB art. 37/bis/won with 11 VP 2 hands → 12 VP 135 MP", rulesets: fitab, hands: h2, edit: played(11, 100), reason: r, result: score(12, 135), awarded: true, rule: "FITAB art. 37/bis"},
		{name: "FITAB art. 37/bis/won with 15 VP → keeps 15 VP and its MP", rulesets: fitab, hands: h4, edit: played(15, 950), reason: r, result: score(15, 950), rule: "FITAB art. 37/bis"},
		{name: "FITAB art. 37/bis/won with exactly 12 VP → keeps its result", rulesets: fitab, hands: h4, edit: played(12, 400), reason: r, result: score(12, 400), rule: "FITAB art. 37/bis"},
		{name: "FITAB art. 37/bis/teams lost → 12 VP 355 MP (fibur-teams)", rulesets: fitab, hands: teams3, edit: played(4, -1400), reason: r, result: score(12, 355), awarded: true, rule: "FITAB art. 37/bis"},
		{name: "FITAB art. 37/bis/FIBur ruleset 2 hands lost → 12 VP 125 MP", rulesets: fibur, hands: h2, edit: played(10, 0), reason: r, result: score(12, 125), awarded: true, rule: "FITAB art. 37/bis"},
		{name: "FITAB art. 37/bis/FIBur ruleset 4 hands won with 18 → keeps it", rulesets: fibur, hands: h4, edit: played(18, 1600), reason: r, result: score(18, 1600), rule: "FITAB art. 37/bis"},
	})
}

// FITAB art. 38/bis: 8 VP for the first round missed, 2 fewer per further
// round (8 + 6 + 4 + 2), with their equivalent MP.
func TestAdjustmentLateStart(t *testing.T) {
	const r = domain.ReasonLateStart
	round := func(n int) func(*domain.AdjustmentCase) {
		return func(c *domain.AdjustmentCase) { c.LateRound = n }
	}
	runAdjustmentCases(t, []adjustmentCase{
		{name: "FITAB art. 38/bis/first round 3 hands → 8 VP −165 MP", rulesets: fitab, hands: h3, edit: round(1), reason: r, result: score(8, -165), rule: "FITAB art. 38/bis"},
		{name: "FITAB art. 38/bis/second round 3 hands → 6 VP −365 MP", rulesets: fitab, hands: h3, edit: round(2), reason: r, result: score(6, -365), rule: "FITAB art. 38/bis"},
		{name: "FITAB art. 38/bis/third round 3 hands → 4 VP −665 MP", rulesets: fitab, hands: h3, edit: round(3), reason: r, result: score(4, -665), rule: "FITAB art. 38/bis"},
		{name: "FITAB art. 38/bis/fourth round 3 hands → 2 VP −1015 MP", rulesets: fitab, hands: h3, edit: round(4), reason: r, result: score(2, -1015), rule: "FITAB art. 38/bis"},
		{name: "FITAB art. 38/bis/fifth round 3 hands → 0 VP −1515 MP", rulesets: fitab, hands: h3, edit: round(5), reason: r, result: score(0, -1515), rule: "FITAB art. 38/bis"},
		{name: "FITAB art. 38/bis/first round 2 hands → 8 VP −135 MP", rulesets: fitab, hands: h2, edit: round(1), reason: r, result: score(8, -135), rule: "FITAB art. 38/bis"},
		{name: "FITAB art. 38/bis/first round 4 hands → 8 VP −315 MP", rulesets: fitab, hands: h4, edit: round(1), reason: r, result: score(8, -315), rule: "FITAB art. 38/bis"},
		{name: "FITAB art. 38/bis/first round teams → 8 VP −355 MP", rulesets: fitab, hands: teams4, edit: round(1), reason: r, result: score(8, -355), rule: "FITAB art. 38/bis"},
		{name: "FITAB art. 38/bis/FIBur ruleset first round 4 hands → 8 VP −305 MP", rulesets: fibur, hands: h4, edit: round(1), reason: r, result: score(8, -305), rule: "FITAB art. 38/bis"},
		{name: "FITAB art. 38/bis/FIBur ruleset second round 2 hands → 6 VP −305 MP", rulesets: fibur, hands: h2, edit: round(2), reason: r, result: score(6, -305), rule: "FITAB art. 38/bis"},
	})
	t.Run("FITAB art. 38/bis/four rounds late total 20 VP", func(t *testing.T) {
		total := 0
		for n := 1; n <= 4; n++ {
			e, err := domain.AdjustmentCase{Reason: r, Ruleset: domain.FITAB2025, HandsPlanned: 3, LateRound: n}.Effect()
			if err != nil {
				t.Fatal(err)
			}
			total += e.Result.VP
		}
		if total != 20 {
			t.Errorf("8+6+4+2 = %d VP, want 20 (the article's example)", total)
		}
	})
}

// FITAB definitions, FIBur-INT art. 20, 32: any other referee score, with a
// mandatory reason; its VP and MP are added to the standings.
func TestAdjustmentRefereeScore(t *testing.T) {
	const r = domain.ReasonRefereeScore
	awarded := func(vp, mp int) func(*domain.AdjustmentCase) {
		return func(c *domain.AdjustmentCase) { c.Referee, c.Note = score(vp, mp), "lost count (FIBur-INT art. 32)" }
	}
	runAdjustmentCases(t, []adjustmentCase{
		{name: "FITAB punteggio arbitrale/+2 VP +50 MP", rulesets: fitab, hands: h3, edit: awarded(2, 50), reason: r, delta: domain.MatchScore{VP: 2, MP: 50}, rule: "FITAB definitions (punteggio arbitrale)"},
		{name: "FIBur-INT art. 20/−1 VP −100 MP", rulesets: fibur, hands: h2, edit: awarded(-1, -100), reason: r, delta: domain.MatchScore{VP: -1, MP: -100}, rule: "FIBur-INT art. 20"},
		{name: "FIBur-INT art. 20/no hands needed", rulesets: fibur, hands: hands{0, ""}, edit: awarded(0, 30), reason: r, delta: domain.MatchScore{VP: 0, MP: 30}, rule: "FIBur-INT art. 20"},
	})
}

func TestAdjustmentCaseInvalid(t *testing.T) {
	base := func() domain.AdjustmentCase {
		return domain.AdjustmentCase{Reason: domain.ReasonBye, Ruleset: domain.FITAB2025, Kind: domain.KindPairs, HandsPlanned: 3}
	}
	cases := []struct {
		name  string
		edit  func(*domain.AdjustmentCase)
		field string
	}{
		{"unknown reason", func(c *domain.AdjustmentCase) { c.Reason = "tardy" }, "reason"},
		{"unknown ruleset", func(c *domain.AdjustmentCase) { c.Ruleset = "fitab" }, "ruleset"},
		{"unknown kind", func(c *domain.AdjustmentCase) { c.Kind = "trios" }, "kind"},
		{"5 planned hands", func(c *domain.AdjustmentCase) { c.HandsPlanned = 5 }, "hands_planned"},
		{"no planned hands", func(c *domain.AdjustmentCase) { c.HandsPlanned = 0 }, "hands_planned"},
		{"negative byes", func(c *domain.AdjustmentCase) { c.ByesBefore = -1 }, "byes_before"},
		{"negative warnings", func(c *domain.AdjustmentCase) { c.Reason, c.WarningsBefore = domain.ReasonWarning, -2 }, "warnings_before"},
		{"party on a bye", func(c *domain.AdjustmentCase) { c.Party = domain.PartyOffender }, "party"},
		{"lateness without party", func(c *domain.AdjustmentCase) { c.Reason = domain.ReasonLateOver10 }, "party"},
		{"abandonment without party", func(c *domain.AdjustmentCase) { c.Reason = domain.ReasonAbandonUnjustified }, "party"},
		{"later opponent of a lateness", func(c *domain.AdjustmentCase) {
			c.Reason, c.Party = domain.ReasonLateUpTo5, domain.PartyLaterOpponent
		}, "party"},
		{"forced removal outside mitchell", func(c *domain.AdjustmentCase) {
			c.Reason, c.Phase, c.Played = domain.ReasonForcedRemoval, domain.PhaseDanese, score(7, -300)
		}, "phase"},
		{"forced removal without the played result", func(c *domain.AdjustmentCase) {
			c.Reason, c.Phase = domain.ReasonForcedRemoval, domain.PhaseMitchell
		}, "played"},
		{"forced removal of the offender", func(c *domain.AdjustmentCase) {
			c.Reason, c.Phase, c.Played, c.Party = domain.ReasonForcedRemoval, domain.PhaseMitchell, score(7, -300), domain.PartyOffender
		}, "party"},
		{"forced removal played VP over 20", func(c *domain.AdjustmentCase) {
			c.Reason, c.Phase, c.Played = domain.ReasonForcedRemoval, domain.PhaseMitchell, score(21, 3000)
		}, "played.vp"},
		{"late start round 0", func(c *domain.AdjustmentCase) { c.Reason = domain.ReasonLateStart }, "late_round"},
		{"referee score without a reason", func(c *domain.AdjustmentCase) {
			c.Reason, c.Referee, c.Note = domain.ReasonRefereeScore, score(1, 10), "  "
		}, "note"},
		{"referee score without a score", func(c *domain.AdjustmentCase) {
			c.Reason, c.Note = domain.ReasonRefereeScore, "compensation"
		}, "vp"},
		{"interruption score out of range", func(c *domain.AdjustmentCase) {
			c.Reason, c.Party, c.AtInterruption = domain.ReasonAbandonTemporary, domain.PartyInnocent, score(-1, 0)
		}, "at_interruption.vp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := base()
			c.edit(&in)
			_, err := in.Effect()
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("Effect() error = %v, want ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), c.field+":") {
				t.Errorf("error %q does not name the field %q", err, c.field)
			}
		})
	}
}

func TestParseAdjustmentReason(t *testing.T) {
	ids := []string{"warning", "late_up_to_5", "late_5_to_10", "late_over_10", "bye", "abandon_temporary",
		"abandon_justified", "abandon_unjustified", "forced_removal", "late_start", "referee_score"}
	for _, id := range ids {
		if got, err := domain.ParseAdjustmentReason(id); err != nil || string(got) != id {
			t.Errorf("ParseAdjustmentReason(%q) = %q, %v", id, got, err)
		}
	}
	if len(domain.AdjustmentReasons) != len(ids) {
		t.Errorf("%d reasons, RULES §7 lists %d", len(domain.AdjustmentReasons), len(ids))
	}
	for _, id := range []string{"", "Warning", "late", "late_over_5"} {
		if _, err := domain.ParseAdjustmentReason(id); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("ParseAdjustmentReason(%q) error = %v, want ErrInvalid", id, err)
		}
	}
}

func TestParseParty(t *testing.T) {
	for _, id := range []string{"", "offender", "innocent", "both", "later_opponent"} {
		if got, err := domain.ParseParty(id); err != nil || string(got) != id {
			t.Errorf("ParseParty(%q) = %q, %v", id, got, err)
		}
	}
	if _, err := domain.ParseParty("guilty"); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("ParseParty(guilty) error = %v, want ErrInvalid", err)
	}
}

func FuzzParseAdjustmentReason(f *testing.F) {
	for _, s := range []string{"warning", "bye", "late_over_10", "", "BYE", "referee_score\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		r, err := domain.ParseAdjustmentReason(id)
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if string(r) != id {
			t.Fatalf("ParseAdjustmentReason(%q) = %q", id, r)
		}
	})
}

func FuzzParseParty(f *testing.F) {
	for _, s := range []string{"", "offender", "innocent", "both", "later_opponent", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		p, err := domain.ParseParty(id)
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if string(p) != id {
			t.Fatalf("ParseParty(%q) = %q", id, p)
		}
	})
}

// FuzzAdjustmentEffect checks that any case either fails with ErrInvalid or
// gives a result within 0..20 VP, never a panic.
func FuzzAdjustmentEffect(f *testing.F) {
	f.Add("late_over_10", "innocent", "fitab-2025", "pairs", 3, 0, 0, 1, 7, false)
	f.Add("forced_removal", "", "fibur-int", "teams", 4, 1, 1, 0, 25, true)
	f.Add("late_start", "", "fibur-ita", "individual", 2, 0, 0, 9, 0, false)
	f.Fuzz(func(t *testing.T, reason, party, ruleset, kind string, hands, warnings, byes, lateRound, vp int, advantage bool) {
		c := domain.AdjustmentCase{
			Reason: domain.AdjustmentReason(reason), Party: domain.Party(party),
			Ruleset: domain.Ruleset(ruleset), Kind: domain.Kind(kind), HandsPlanned: hands,
			Phase: domain.PhaseMitchell, WarningsBefore: warnings, ByesBefore: byes,
			LateRound: lateRound, Played: score(vp, 10*vp), AtInterruption: score(vp, 5*vp),
			Advantage: advantage, Referee: score(vp, vp), Note: "fuzz",
		}
		e, err := c.Effect()
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if e.Result != nil && (e.Result.VP < 0 || e.Result.VP > domain.MaxVP) {
			t.Fatalf("result %+v outside 0..20 VP", *e.Result)
		}
		if e.Bye && e.Awarded {
			t.Fatal("a result cannot be both a bye and an awarded match")
		}
	})
}
