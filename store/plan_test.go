package store_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// RULES §12.1: the plan is stored with the tournament and may change
// until round 1 is published; a gironi round stores its groups, which the
// later rounds read back. Both databases.
func TestTournamentPlanAndGironiGroups(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		plan, err := domain.ParsePlan(domain.PlanInput{FirstRound: "draw",
			Phases:   []domain.PlanPhaseInput{{FromRound: 1, System: "mitchell"}, {FromRound: 3, System: "gironi"}},
			Sessions: []int{2, 2}}, domain.FITAB2025, domain.KindPairs, 4)
		wantErr(t, err, nil)
		tr := tournament()
		tr.RoundsPlanned = 4
		tr.Plan = plan
		created, err := db.CreateTournament(ctx, tr)
		wantErr(t, err, nil)
		tr.ID = created.ID
		if diff := cmp.Diff(tr, mustGetTournament(t, db, tr.ID), cmpOpts...); diff != "" {
			t.Errorf("plan round trip (-want +got):\n%s", diff)
		}
		// No plan announced: NULL, read back as the zero plan (the default).
		tr.Plan = domain.Plan{}
		_, err = db.UpdateTournament(ctx, tr, func(store.TournamentUse) error { return nil })
		wantErr(t, err, nil)
		got := mustGetTournament(t, db, tr.ID)
		if got.Plan.FirstRound != "" {
			t.Errorf("plan after clearing: %+v", got.Plan)
		}
		if p := got.EffectivePlan(); p.FirstRound != domain.SystemEntryOrder || len(p.Sessions) != 1 || p.Sessions[0] != 4 {
			t.Errorf("default plan: %+v", p)
		}

		tid := setup(t, db) // round 1 published, entrants 1..8
		groups := [][]string{{"1", "4", "5", "8"}, {"2", "3", "6", "7"}}
		r2 := domain.Round{Number: 2, HandsPlanned: 3, Phase: domain.PhaseGironi, State: domain.RoundProposed,
			System: domain.SystemGironi, Groups: groups,
			Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "8"}, {Table: 2, NS: "4", EO: "5"}, {Table: 3, NS: "2", EO: "7"}, {Table: 4, NS: "3", EO: "6"}}}
		wantErr(t, db.ProposeRound(ctx, tid, r2), nil)
		prop, err := db.ProposedRound(ctx, tid, 2)
		wantErr(t, err, nil)
		if diff := cmp.Diff(groups, prop.Groups); diff != "" {
			t.Errorf("proposed groups (-want +got):\n%s", diff)
		}
		_, err = db.PublishRound(ctx, tid, 2)
		wantErr(t, err, nil)
		stored, err := db.GetRound(ctx, tid, 2)
		wantErr(t, err, nil)
		if diff := cmp.Diff(groups, stored.Groups); diff != "" {
			t.Errorf("published groups (-want +got):\n%s", diff)
		}
		r1, err := db.GetRound(ctx, tid, 1)
		wantErr(t, err, nil)
		if r1.Groups != nil {
			t.Errorf("round 1 has groups %v", r1.Groups)
		}
	})
}
