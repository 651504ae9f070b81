package store_test

import (
	"context"
	"regexp"
	"testing"

	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// The standings stamp reads "version/results/sum of versions/adjustments/
// highest adjustment id" on both databases, and a sheet write changes it.
func TestStandingsStampShape(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		before, err := db.StandingsStamp(ctx, tid)
		wantErr(t, err, nil)
		if !regexp.MustCompile(`^[0-9]+/0/0/0/0$`).MatchString(string(before)) {
			t.Errorf("stamp %q", before)
		}
		_, err = db.PutSheet(ctx, tid, 1, 1, minimalSheet(), mustReport(t, minimalSheet()), 0)
		wantErr(t, err, nil)
		after, err := db.StandingsStamp(ctx, tid)
		wantErr(t, err, nil)
		if after.TournamentPart() != before.TournamentPart() || !regexp.MustCompile(`^[0-9]+/1/1/0/0$`).MatchString(string(after)) {
			t.Errorf("after a sheet: %q (before %q)", after, before)
		}
		if _, err := db.StandingsStamp(ctx, "nope"); err == nil {
			t.Error("unknown tournament: no error")
		}
	})
}
