package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// situation is a FITAB club-level Mitchell situation of round 1.
func situation(kind domain.CorrectionKind) domain.CorrectionSituation {
	return domain.CorrectionSituation{
		Ruleset: domain.FITAB2025, Kind: kind, Level: domain.LevelClub, Phase: domain.PhaseMitchell,
		ErrorRound: 1, CurrentRound: 2, StandingsPublished: true, BothLinesAcknowledge: true,
	}
}

// decideWith returns a decide callback that records the ruling and, when it
// applies, sets the NS written total to total.
func decideWith(ruling domain.Ruling, total int) func(store.StoredSheet) (store.CorrectionOutcome, error) {
	return func(st store.StoredSheet) (store.CorrectionOutcome, error) {
		oc := store.CorrectionOutcome{Correction: store.Correction{
			Kind: domain.CorrectionSum, Ruling: ruling, Rules: []string{"FITAB art. 20", "RULES §9.1 rule 5"},
			RulingReason: "score-independent phase", Reason: "NS total re-added", Situation: situation(domain.CorrectionSum),
			Before: json.RawMessage(`{"written":{"ns":{"total":1400}}}`), After: json.RawMessage(`{"written":{"ns":{"total":1450}}}`),
			Author: "Arbitro Uno",
		}}
		if ruling.Applies() {
			s := st.Sheet
			s.Written[domain.NS].Total = domain.Int(total)
			oc.Sheet = &s
			oc.ReportJSON = []byte(`{"ok":true}`)
		}
		return oc, nil
	}
}

// RULES §9: an applied correction changes the sheet (a new version) and is
// recorded with who, when, before, after and the ruling; a rejected one is
// recorded too and leaves the sheet as delivered.
func TestCorrectSheetRecordsEveryRuling(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		_, err := db.PutSheet(ctx, tid, 1, 1, fullSheet(t), mustReport(t, fullSheet(t)), 0)
		wantErr(t, err, nil)

		applied, err := db.CorrectSheet(ctx, tid, 1, 1, 1, decideWith(domain.RulingApply, 1450))
		wantErr(t, err, nil)
		if !applied.Applied || applied.SheetVersion != 2 || applied.ID == 0 || applied.At.IsZero() {
			t.Errorf("applied correction = %+v, want applied at version 2 with an id and a time", applied)
		}
		st, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if st.Version != 2 || *st.Sheet.Written[domain.NS].Total != 1450 || string(st.ReportJSON) != `{"ok":true}` {
			t.Errorf("sheet after the correction: version %d, NS total %d, report %s", st.Version, *st.Sheet.Written[domain.NS].Total, st.ReportJSON)
		}
		want := fullSheet(t)
		want.Written[domain.NS].Total = domain.Int(1450)
		if d := cmp.Diff(want, st.Sheet, cmpOpts...); d != "" {
			t.Errorf("the correction changed more than the written total (-want +got):\n%s", d)
		}

		rejected, err := db.CorrectSheet(ctx, tid, 1, 1, 0, decideWith(domain.RulingReject, 9999))
		wantErr(t, err, nil)
		if rejected.Applied || rejected.SheetVersion != 2 {
			t.Errorf("rejected correction = %+v, want not applied, ruled on version 2", rejected)
		}
		st, _ = db.GetSheet(ctx, tid, 1, 1)
		if st.Version != 2 || *st.Sheet.Written[domain.NS].Total != 1450 {
			t.Errorf("a rejected correction changed the sheet: version %d, NS total %d", st.Version, *st.Sheet.Written[domain.NS].Total)
		}

		trail, err := db.ListCorrections(ctx, tid, store.CorrectionFilter{})
		wantErr(t, err, nil)
		if len(trail) != 2 || trail[0].ID != applied.ID || trail[1].ID != rejected.ID {
			t.Fatalf("trail = %+v, want the two corrections oldest first", trail)
		}
		if d := cmp.Diff(applied, trail[0]); d != "" {
			t.Errorf("stored correction differs from the one returned (-returned +stored):\n%s", d)
		}
		if trail[1].Ruling != domain.RulingReject || trail[1].Author != "Arbitro Uno" || trail[1].Situation != situation(domain.CorrectionSum) {
			t.Errorf("rejected entry = %+v", trail[1])
		}
		got, err := db.GetCorrection(ctx, tid, rejected.ID)
		wantErr(t, err, nil)
		if d := cmp.Diff(trail[1], got); d != "" {
			t.Errorf("GetCorrection (-list +get):\n%s", d)
		}
		_, err = db.GetCorrection(ctx, tid, rejected.ID+100)
		wantErr(t, err, domain.ErrNotFound)
		other, err := db.ListCorrections(ctx, tid, store.CorrectionFilter{Round: 1, Table: 2})
		wantErr(t, err, nil)
		if len(other) != 0 {
			t.Errorf("table 2 has %d corrections, want none", len(other))
		}
		// RULES §9: the trail is append-only, also for the new columns.
		wantErr(t, store.Exec(ctx, db, "UPDATE corrections SET applied = false WHERE tournament_id = ?", tid), domain.ErrInvalid)
	})
}

// A correction made on a version the sheet no longer has is refused with the
// version stored now, and nothing is written; so is one on a missing sheet,
// and one whose decide fails.
func TestCorrectSheetRefusals(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		_, err := db.PutSheet(ctx, tid, 1, 1, minimalSheet(), mustReport(t, minimalSheet()), 0)
		wantErr(t, err, nil)
		_, err = db.PutSheet(ctx, tid, 1, 1, minimalSheet(), mustReport(t, minimalSheet()), 1)
		wantErr(t, err, nil)

		_, err = db.CorrectSheet(ctx, tid, 1, 1, 1, decideWith(domain.RulingApply, 100))
		var stale *store.StaleSheetError
		if !errors.As(err, &stale) || stale.Current != 2 || stale.Want != 1 || !errors.Is(err, domain.ErrConflict) {
			t.Errorf("stale version: %v, want a StaleSheetError 1 → 2 wrapping ErrConflict", err)
		}
		_, err = db.CorrectSheet(ctx, tid, 1, 2, 0, decideWith(domain.RulingApply, 100))
		wantErr(t, err, domain.ErrNotFound)
		boom := errors.New("boom")
		_, err = db.CorrectSheet(ctx, tid, 1, 1, 0, func(store.StoredSheet) (store.CorrectionOutcome, error) { return store.CorrectionOutcome{}, boom })
		if !errors.Is(err, boom) {
			t.Errorf("decide's error: %v, want it returned", err)
		}
		// An applying ruling without a sheet is a programming error, not a
		// silent "applied" entry.
		_, err = db.CorrectSheet(ctx, tid, 1, 1, 0, func(st store.StoredSheet) (store.CorrectionOutcome, error) {
			oc, _ := decideWith(domain.RulingReject, 0)(st)
			oc.Correction.Ruling = domain.RulingApply
			return oc, nil
		})
		if err == nil {
			t.Error("an applying ruling without a corrected sheet was recorded")
		}
		if n := count(t, db, "corrections", tid); n != 0 {
			t.Errorf("%d corrections recorded by refused requests, want 0", n)
		}
		st, _ := db.GetSheet(ctx, tid, 1, 1)
		if st.Version != 2 {
			t.Errorf("sheet at version %d, want 2 (untouched)", st.Version)
		}
	})
}

// Two referees correcting the same sheet at once with the same version:
// exactly one correction is applied and recorded; the other learns the
// version that won. Repeated to give the race a chance to show.
func TestConcurrentCorrectSheet(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		_, err := db.PutSheet(ctx, tid, 1, 1, fullSheet(t), mustReport(t, fullSheet(t)), 0)
		wantErr(t, err, nil)
		const rounds, writers = 5, 4
		for i := range rounds {
			version := i + 1
			var wg sync.WaitGroup
			start := make(chan struct{})
			errs := make([]error, writers)
			for w := range writers {
				wg.Go(func() {
					<-start
					_, errs[w] = db.CorrectSheet(ctx, tid, 1, 1, version, decideWith(domain.RulingApply, 1000+10*i+w))
				})
			}
			close(start)
			wg.Wait()
			ok := 0
			for _, err := range errs {
				var stale *store.StaleSheetError
				switch {
				case err == nil:
					ok++
				case errors.As(err, &stale):
					if stale.Current != version+1 {
						t.Errorf("attempt %d: loser told version %d, want %d", i, stale.Current, version+1)
					}
				default:
					t.Errorf("attempt %d: %v", i, err)
				}
			}
			if ok != 1 {
				t.Fatalf("attempt %d: %d writers succeeded, want exactly 1", i, ok)
			}
		}
		trail, err := db.ListCorrections(ctx, tid, store.CorrectionFilter{})
		wantErr(t, err, nil)
		st, _ := db.GetSheet(ctx, tid, 1, 1)
		if len(trail) != rounds || st.Version != rounds+1 || trail[rounds-1].SheetVersion != st.Version {
			t.Errorf("%d corrections, sheet version %d; want %d and %d", len(trail), st.Version, rounds, rounds+1)
		}
	})
}
