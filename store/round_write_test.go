package store_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// A round is written by one writer whichever way it comes (created,
// published from a proposal, redefined): its tables, byes, vacated
// entrants and groups read back as written. Redefining a playing round
// with no sheet (app.RedefineRound) replaces its tables, byes, hands,
// phase and vacated entrants, and keeps its state and groups.
func TestRoundWrittenByEveryPathReadsBack(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db) // round 1, tables 1..4, entrants 1..8
		created := domain.Round{
			Number: 2, HandsPlanned: 3, Phase: domain.PhaseGironi, State: domain.RoundPlaying,
			Tables:  []domain.TableAssignment{{Table: 1, NS: "1", EO: "3"}, {Table: 2, NS: "5", EO: "7"}},
			Byes:    []string{"8", "6"},
			Groups:  [][]string{{"1", "3"}, {"5", "7"}},
			Vacated: []string{"2"},
		}
		wantErr(t, db.CreateRound(ctx, tid, created), nil)
		got, err := db.GetRound(ctx, tid, 2)
		wantErr(t, err, nil)
		if diff := cmp.Diff(created, got); diff != "" {
			t.Errorf("created round (-want +got):\n%s", diff)
		}

		redefined := domain.Round{
			Number: 2, HandsPlanned: 4, Phase: domain.PhaseDanese,
			Tables:  []domain.TableAssignment{{Table: 1, NS: "1", EO: "5"}, {Table: 2, NS: "3", EO: "7"}, {Table: 3, NS: "6", EO: "8"}},
			Byes:    []string{"4"},
			Vacated: []string{"2", "4"},
		}
		wantErr(t, db.ReplaceRound(ctx, tid, redefined, func(store.RoundUse) error { return nil }), nil)
		got, err = db.GetRound(ctx, tid, 2)
		wantErr(t, err, nil)
		want := redefined
		want.State, want.Groups = domain.RoundPlaying, created.Groups
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("redefined round (-want +got):\n%s", diff)
		}
		bad := redefined
		bad.Byes = []string{"99"}
		wantErr(t, db.ReplaceRound(ctx, tid, bad, func(store.RoundUse) error { return nil }), domain.ErrInvalid)
		if got, _ := db.GetRound(ctx, tid, 2); len(got.Tables) != 3 || len(got.Byes) != 1 {
			t.Errorf("a refused redefinition changed the round: %+v", got)
		}

		proposed := domain.Round{
			Number: 3, HandsPlanned: 3, Phase: domain.PhaseMitchell, System: domain.PairingSystem("danese"),
			Tables:  []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}, {Table: 2, NS: "3", EO: "4"}, {Table: 3, NS: "5", EO: "6"}},
			Byes:    []string{"7", "8"},
			Vacated: []string{"8"},
		}
		wantErr(t, db.ProposeRound(ctx, tid, proposed), nil)
		published, err := db.PublishRound(ctx, tid, 3)
		wantErr(t, err, nil)
		got, err = db.GetRound(ctx, tid, 3)
		wantErr(t, err, nil)
		if diff := cmp.Diff(published, got); diff != "" {
			t.Errorf("published round as stored (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(proposed.Tables, got.Tables); diff != "" || !cmp.Equal(proposed.Byes, got.Byes) || !cmp.Equal(proposed.Vacated, got.Vacated) {
			t.Errorf("published round's seating (-want +got):\n%s\nbyes %v vacated %v", diff, got.Byes, got.Vacated)
		}
	})
}
