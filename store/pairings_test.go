package store_test

import (
	"context"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// Proposed rounds (migration 00010): stored, replaced, published into
// rounds with their system and seed (the largest uint64 survives: it is
// kept as text), never over a published round.
func TestProposeAndPublishRound(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db) // round 1 published, entrants 1..8
		seed := uint64(math.MaxUint64)
		r2 := domain.Round{Number: 2, HandsPlanned: 3, Phase: domain.PhaseDanese, State: domain.RoundProposed,
			System: domain.SystemDraw, Seed: &seed,
			Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "3"}, {Table: 2, NS: "5", EO: "7"}, {Table: 3, NS: "2", EO: "4"}},
			Byes:   []string{"8", "6"}}

		// Over a published round: conflict; with an unknown entrant: invalid.
		pub := r2
		pub.Number = 1
		wantErr(t, db.ProposeRound(ctx, tid, pub), domain.ErrConflict)
		bad := r2
		bad.Byes = []string{"8", "99"}
		wantErr(t, db.ProposeRound(ctx, tid, bad), domain.ErrInvalid)

		first := r2
		first.HandsPlanned = 4
		wantErr(t, db.ProposeRound(ctx, tid, first), nil)
		wantErr(t, db.ProposeRound(ctx, tid, r2), nil) // replaces
		got, err := db.ProposedRound(ctx, tid, 2)
		wantErr(t, err, nil)
		if diff := cmp.Diff(r2, got); diff != "" {
			t.Errorf("ProposedRound (-want +got):\n%s", diff)
		}
		list, err := db.ListProposedRounds(ctx, tid)
		wantErr(t, err, nil)
		if len(list) != 1 {
			t.Errorf("%d proposals, want 1 (replaced)", len(list))
		}
		// Not a round of the tournament yet.
		_, err = db.GetRound(ctx, tid, 2)
		wantErr(t, err, domain.ErrNotFound)

		published, err := db.PublishRound(ctx, tid, 2)
		wantErr(t, err, nil)
		want := r2
		want.State = domain.RoundPlaying
		if diff := cmp.Diff(want, published); diff != "" {
			t.Errorf("PublishRound (-want +got):\n%s", diff)
		}
		stored, err := db.GetRound(ctx, tid, 2)
		wantErr(t, err, nil)
		if diff := cmp.Diff(want, stored); diff != "" {
			t.Errorf("GetRound after publishing (-want +got):\n%s", diff)
		}
		_, err = db.ProposedRound(ctx, tid, 2)
		wantErr(t, err, domain.ErrNotFound)
		_, err = db.PublishRound(ctx, tid, 2)
		wantErr(t, err, domain.ErrConflict)
		_, err = db.PublishRound(ctx, tid, 3)
		wantErr(t, err, domain.ErrNotFound)
		wantErr(t, db.ProposeRound(ctx, tid, r2), domain.ErrConflict)
		// A round entered by hand has no system and no seed.
		r1, err := db.GetRound(ctx, tid, 1)
		wantErr(t, err, nil)
		if r1.System != "" || r1.Seed != nil {
			t.Errorf("round 1 entered by hand: system %q seed %v", r1.System, r1.Seed)
		}
	})
}
