package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// RULES §12.5, API §4.3 (migration 00019): a team round's tables keep their
// match number, proposed and published; a table's line-up is stored per
// line and replaced whole; a table the round lacks is ErrNotFound; the
// line-ups go with the round's seating. Both databases.
func TestTeamMatchesAndLineups(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db) // round 1: 1v2, 3v4, 5v6, 7v8 — no match numbers
		r1, err := db.GetRound(ctx, tid, 1)
		wantErr(t, err, nil)
		for _, tb := range r1.Tables {
			if tb.Match != 0 {
				t.Errorf("pairs round table %d has match %d", tb.Table, tb.Match)
			}
		}
		tables := []domain.TableAssignment{
			{Table: 1, Match: 1, NS: "1", EO: "2"}, {Table: 2, Match: 1, NS: "2", EO: "1"},
			{Table: 3, Match: 2, NS: "3", EO: "4"}, {Table: 4, Match: 2, NS: "4", EO: "3"},
		}
		r2 := domain.Round{Number: 2, HandsPlanned: 3, Phase: domain.PhaseDanese, State: domain.RoundProposed, System: domain.SystemDanese, Tables: tables}
		wantErr(t, db.ProposeRound(ctx, tid, r2), nil)
		prop, err := db.ProposedRound(ctx, tid, 2)
		wantErr(t, err, nil)
		if diff := cmp.Diff(tables, prop.Tables); diff != "" {
			t.Errorf("proposed tables (-want +got):\n%s", diff)
		}
		_, err = db.PublishRound(ctx, tid, 2)
		wantErr(t, err, nil)
		got, err := db.GetRound(ctx, tid, 2)
		wantErr(t, err, nil)
		if diff := cmp.Diff(tables, got.Tables); diff != "" {
			t.Errorf("published tables (-want +got):\n%s", diff)
		}

		l1 := domain.Lineup{Table: 1, NS: []string{"FT01", "FT02"}, EO: []string{"FT07", "FT08"}}
		wantErr(t, db.SetLineup(ctx, tid, 2, l1), nil)
		l3 := domain.Lineup{Table: 3, NS: []string{"FT21", "FT22"}, EO: []string{"FT31", "FT32"}}
		wantErr(t, db.SetLineup(ctx, tid, 2, l3), nil)
		// replaced whole: the second call's players only
		l1 = domain.Lineup{Table: 1, NS: []string{"FT03", "FT01"}, EO: []string{"FT08", "FT09"}}
		wantErr(t, db.SetLineup(ctx, tid, 2, l1), nil)
		lineups, err := db.ListLineups(ctx, tid, 2)
		wantErr(t, err, nil)
		if diff := cmp.Diff([]domain.Lineup{l1, l3}, lineups); diff != "" {
			t.Errorf("line-ups (-want +got):\n%s", diff)
		}
		if err := db.SetLineup(ctx, tid, 2, domain.Lineup{Table: 9, NS: []string{"A", "B"}, EO: []string{"C", "D"}}); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("line-up of a missing table: err = %v, want ErrNotFound", err)
		}
		if lineups, err := db.ListLineups(ctx, tid, 1); err != nil || len(lineups) != 0 {
			t.Errorf("round 1 line-ups: %v, %v", lineups, err)
		}
	})
}
