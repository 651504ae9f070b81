package app

import (
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
)

// countsOf reads the entrant's record: FITAB art. 21 counts every earlier
// warning, lateness included; FITAB art. 38 flags a second rest in the
// session, so only rests of earlier rounds count for a bye.
func TestCountsOf(t *testing.T) {
	warn := store.Adjustment{Round: 1, Case: domain.AdjustmentCase{Reason: domain.ReasonWarning}, Effect: domain.AdjustmentEffect{Warning: true}}
	lateWarned := store.Adjustment{Round: 2, Case: domain.AdjustmentCase{Reason: domain.ReasonLateUpTo5}, Effect: domain.AdjustmentEffect{Warning: true}}
	credit := store.Adjustment{Round: 2, Case: domain.AdjustmentCase{Reason: domain.ReasonLateUpTo5}, Effect: domain.AdjustmentEffect{LatePoints: 100}}
	byeAdj := func(r int) store.Adjustment {
		return store.Adjustment{Round: r, Case: domain.AdjustmentCase{Reason: domain.ReasonBye}, Effect: domain.AdjustmentEffect{Bye: true}}
	}
	for _, tc := range []struct {
		name           string
		reason         domain.AdjustmentReason
		round          int
		rec            store.EntrantRecord
		warnings, byes int
	}{
		{"FITAB art. 21 warnings and warned lateness count, a credit does not", domain.ReasonWarning, 3,
			store.EntrantRecord{Adjustments: []store.Adjustment{warn, lateWarned, credit}}, 2, 0},
		{"FITAB art. 38 a rest in an earlier round's byes list", domain.ReasonBye, 3, store.EntrantRecord{ByeRounds: []int{1}}, 0, 1},
		{"the same round's byes list is this bye, not an earlier one", domain.ReasonBye, 2, store.EntrantRecord{ByeRounds: []int{2}}, 0, 0},
		{"a later round's rest is not before this one", domain.ReasonBye, 1, store.EntrantRecord{ByeRounds: []int{2}}, 0, 0},
		{"a round rested by list and by adjustment counts once", domain.ReasonBye, 3,
			store.EntrantRecord{ByeRounds: []int{1}, Adjustments: []store.Adjustment{byeAdj(1), byeAdj(2)}}, 0, 2},
		{"byes are counted for a bye only", domain.ReasonWarning, 3, store.EntrantRecord{ByeRounds: []int{1}}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := countsOf(domain.AdjustmentCase{Reason: tc.reason}, tc.round, tc.rec)
			if c.WarningsBefore != tc.warnings || c.ByesBefore != tc.byes {
				t.Errorf("warnings %d, byes %d; want %d, %d", c.WarningsBefore, c.ByesBefore, tc.warnings, tc.byes)
			}
		})
	}
}
