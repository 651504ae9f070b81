package store_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// warningOf builds a warning for the entrant's record, as the API does.
func warningOf(rec store.EntrantRecord) (store.Adjustment, error) {
	c := domain.AdjustmentCase{Reason: domain.ReasonWarning, Ruleset: domain.FITAB2025, Kind: domain.KindPairs, HandsPlanned: 3}
	for _, a := range rec.Adjustments {
		if a.Effect.Warning {
			c.WarningsBefore++
		}
	}
	e, err := c.Effect()
	return store.Adjustment{Round: 1, Case: c, Effect: e, Author: "Arbitro Uno"}, err
}

// RULES §7: an adjustment records who, when, why, its inputs and its effect,
// and reads back as written.
func TestAdjustmentRoundTrip(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		cases := []domain.AdjustmentCase{
			{Reason: domain.ReasonAbandonUnjustified, Party: domain.PartyInnocent, Ruleset: domain.FITAB2025, Kind: domain.KindPairs,
				HandsPlanned: 3, AtInterruption: &domain.MatchScore{VP: 15, MP: 520}, Note: "lite al tavolo 2"},
			{Reason: domain.ReasonForcedRemoval, Party: domain.PartyInnocent, Ruleset: domain.FITAB2025, Kind: domain.KindPairs,
				HandsPlanned: 3, Phase: domain.PhaseMitchell, Played: &domain.MatchScore{VP: 8, MP: -200}},
			{Reason: domain.ReasonRefereeScore, Ruleset: domain.FIBurInt, Referee: &domain.MatchScore{VP: -2, MP: -110}, Note: "conteggio perso"},
			{Reason: domain.ReasonBye, Ruleset: domain.FITAB2025, Kind: domain.KindPairs, HandsPlanned: 3, ByesBefore: 1},
			{Reason: domain.ReasonLateUpTo5, Party: domain.PartyInnocent, Ruleset: domain.FITAB2025, HandsPlanned: 3, WarningsBefore: 2},
		}
		var made []store.Adjustment
		for i, c := range cases {
			e, err := c.Effect()
			wantErr(t, err, nil)
			a, err := db.AddAdjustment(ctx, tid, "3", func(rec store.EntrantRecord) (store.Adjustment, error) {
				if len(rec.Adjustments) != i {
					t.Errorf("adjustment %d: the record shows %d earlier ones", i, len(rec.Adjustments))
				}
				return store.Adjustment{Round: i % 2, Case: c, Effect: e, Author: "Arbitro Uno"}, nil
			})
			wantErr(t, err, nil)
			if a.ID == 0 || a.Entrant != "3" || a.At.IsZero() {
				t.Errorf("adjustment %d = %+v, want id, entrant and time filled", i, a)
			}
			made = append(made, a)
		}
		got, err := db.ListAdjustments(ctx, tid)
		wantErr(t, err, nil)
		if d := cmp.Diff(made, got, cmpOpts...); d != "" {
			t.Errorf("adjustments read back (-made +stored):\n%s", d)
		}
		// vp/mp columns: what the adjustment adds, NULL when nothing.
		var vps []struct{ VP *int }
		if err := store.Scan(ctx, db, &vps, "SELECT vp FROM adjustments WHERE tournament_id = ? ORDER BY id", tid); err != nil {
			t.Fatal(err)
		}
		if len(vps) != len(cases) || vps[0].VP == nil || *vps[0].VP != 15 || vps[2].VP == nil || *vps[2].VP != -2 || vps[4].VP != nil {
			t.Errorf("stored vp column = %+v, want 15 (at interruption), -2 (referee score), NULL (a lateness credit)", vps)
		}
	})
}

// AddAdjustment reads the entrant's record (earlier adjustments and the
// rounds it rested in) and refuses, writing nothing, what cannot be stored.
func TestAddAdjustmentRecordAndRefusals(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		r2 := domain.Round{Number: 2, HandsPlanned: 3, Phase: domain.PhaseDanese, Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}}, Byes: []string{"5"}}
		wantErr(t, db.CreateRound(ctx, tid, r2), nil)
		_, err := db.AddAdjustment(ctx, tid, "5", func(rec store.EntrantRecord) (store.Adjustment, error) {
			if !slices.Equal(rec.ByeRounds, []int{2}) || len(rec.Adjustments) != 0 {
				t.Errorf("record of entrant 5 = %+v, want a bye in round 2 and no adjustments", rec)
			}
			return warningOf(rec)
		})
		wantErr(t, err, nil)

		boom := errors.New("boom")
		_, err = db.AddAdjustment(ctx, tid, "5", func(store.EntrantRecord) (store.Adjustment, error) { return store.Adjustment{}, boom })
		if !errors.Is(err, boom) {
			t.Errorf("build's error: %v", err)
		}
		_, err = db.AddAdjustment(ctx, tid, "99", warningOf)
		wantErr(t, err, domain.ErrInvalid)
		_, err = db.AddAdjustment(ctx, "t_nope", "1", warningOf)
		wantErr(t, err, domain.ErrNotFound)
		if n := count(t, db, "adjustments", tid); n != 1 {
			t.Errorf("%d adjustments stored, want 1", n)
		}
	})
}

// RULES §7 "every second warning": warnings given at the same moment are
// counted one after the other, never both as the first.
func TestConcurrentWarningsAreCountedInTurn(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		const n = 6
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				<-start
				_, errs[i] = db.AddAdjustment(ctx, tid, "1", warningOf)
			})
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			wantErr(t, err, nil)
		}
		got, err := db.ListAdjustments(ctx, tid)
		wantErr(t, err, nil)
		var before []int
		costly := 0
		for _, a := range got {
			before = append(before, a.Case.WarningsBefore)
			if a.Effect.Delta.VP == -1 {
				costly++
			}
		}
		slices.Sort(before)
		if !slices.Equal(before, []int{0, 1, 2, 3, 4, 5}) || costly != n/2 {
			t.Errorf("warnings counted %v with %d costing a VP; want 0..5 and %d", before, costly, n/2)
		}
	})
}
