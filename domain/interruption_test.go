package domain

import (
	"errors"
	"testing"
)

func TestInterruptionFITABArt39(t *testing.T) {
	cases := []struct {
		name       string
		rs         Ruleset
		planned, k int
		valid      bool
	}{
		{"FITAB art. 39: 6 rounds, the third-to-last (4) completed", FITAB2025, 6, 4, true},
		{"FITAB art. 39: 6 rounds, only 3 completed: void", FITAB2025, 6, 3, false},
		{"FITAB art. 39: 5 rounds, round 3 completed", FITAB2025, 5, 3, true},
		{"FITAB art. 39: 5 rounds, round 2 completed: void", FITAB2025, 5, 2, false},
		{"FITAB art. 39: 4 rounds need the third", FITAB2025, 4, 3, true},
		{"FITAB art. 39: 4 rounds, two completed: void (the article's exception)", FITAB2025, 4, 2, false},
		{"FITAB art. 39: 3 rounds, round 1 completed", FITABInt, 3, 1, true},
		{"FITAB art. 39: 3 rounds, none completed: void", FITABInt, 3, 0, false},
		{"RULES §12.6 [INTERP]: 2 rounds, one completed", FITAB2025, 2, 1, true},
		{"RULES §12.6 [INTERP]: 2 rounds, none completed: void", FITAB2025, 2, 0, false},
		{"RULES §12.6 [INTERP] FIBur: the same rule, 6 rounds after 4", FIBurIta, 6, 4, true},
		{"RULES §12.6 [INTERP] FIBur: 6 rounds after 3, void", FIBurInt, 6, 3, false},
		{"FITAB art. 39: every round completed", FITAB2025, 6, 6, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := RuleInterruption(c.rs, c.planned, c.k)
			if err != nil {
				t.Fatal(err)
			}
			if got.Valid != c.valid || got.Rule != "FITAB art. 39" || got.AfterRound != c.k || got.Reason == "" || got.ReasonIT == "" {
				t.Errorf("got %+v, want valid %v", got, c.valid)
			}
		})
	}
	for _, k := range []int{-1, 7} {
		if _, err := RuleInterruption(FITAB2025, 6, k); !errors.Is(err, ErrInvalid) {
			t.Errorf("k=%d: err %v, want ErrInvalid", k, err)
		}
	}
}
