package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// API §1: a sheet is stored as entered, so it must read back exactly: every
// optional field, nil apart from empty (no breakdown vs. an empty one, no
// cells vs. none mapped), the pinned VP table, the header fields.
func TestSheetRoundTrip(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		empty := domain.Sheet{Ruleset: domain.FIBurIta, Cells: map[string]string{}, Sides: [2]domain.Side{{Players: []string{}}, {}},
			Hands: []domain.Hand{{Lines: [2]domain.LineScore{{Burrachi: map[domain.BurracoType]int{}}, {}}}}}
		for i, s := range []domain.Sheet{fullSheet(t), minimalSheet(), empty} {
			table := i + 1
			before := time.Now().Add(-time.Second)
			v, err := db.PutSheet(ctx, tid, 1, table, s, mustReport(t, s), 0)
			wantErr(t, err, nil)
			if v != 1 {
				t.Errorf("table %d: version %d, want 1 for a new sheet", table, v)
			}
			got, err := db.GetSheet(ctx, tid, 1, table)
			wantErr(t, err, nil)
			if diff := cmp.Diff(s, got.Sheet, cmpOpts...); diff != "" {
				t.Errorf("table %d round trip (-put +got):\n%s", table, diff)
			}
			if got.Version != 1 || string(got.ReportJSON) != string(mustReport(t, s)) {
				t.Errorf("table %d: version %d, report %s", table, got.Version, got.ReportJSON)
			}
			if got.UpdatedAt.Before(before) || got.UpdatedAt.After(time.Now().Add(time.Second)) || got.UpdatedAt.Location() != time.UTC {
				t.Errorf("table %d: updated at %v", table, got.UpdatedAt)
			}
		}
	})
}

// The report JSON is kept byte for byte (PostgreSQL json, not jsonb, which
// would reorder keys and drop spaces).
func TestSheetReportJSONIsKeptVerbatim(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		report := []byte(`{"zeta": 1,  "alpha": [true, null], "nested": {"b": 2, "a": "é"}}`)
		_, err := db.PutSheet(ctx, tid, 1, 1, minimalSheet(), report, 0)
		wantErr(t, err, nil)
		got, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if string(got.ReportJSON) != string(report) {
			t.Errorf("report %s, want %s", got.ReportJSON, report)
		}
	})
}

// API §4.1: PUT replaces the whole sheet; If-Match (ifVersion) makes it a
// compare-and-set.
func TestPutSheetVersions(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		full, short := fullSheet(t), minimalSheet()

		steps := []struct {
			name        string
			sheet       domain.Sheet
			ifVersion   int
			wantVersion int
			wantErr     error
		}{
			{"If-Match on a sheet that does not exist", full, 1, 0, domain.ErrConflict},
			{"create", full, 0, 1, nil},
			{"replace unconditionally", short, 0, 2, nil},
			{"replace with the current version", full, 2, 3, nil},
			{"stale version", short, 2, 0, domain.ErrConflict},
			{"future version", short, 9, 0, domain.ErrConflict},
			{"negative version", short, -1, 0, domain.ErrInvalid},
		}
		for _, s := range steps {
			t.Run(s.name, func(t *testing.T) {
				v, err := db.PutSheet(ctx, tid, 1, 1, s.sheet, mustReport(t, s.sheet), s.ifVersion)
				wantErr(t, err, s.wantErr)
				if v != s.wantVersion {
					t.Errorf("version %d, want %d", v, s.wantVersion)
				}
			})
		}
		// The refused writes changed nothing: version 3 is the full sheet.
		got, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if got.Version != 3 {
			t.Errorf("stored version %d, want 3", got.Version)
		}
		if diff := cmp.Diff(full, got.Sheet, cmpOpts...); diff != "" {
			t.Errorf("stored sheet (-want +got):\n%s", diff)
		}
		// Replacing 3 hands by 1 leaves 1: hands are replaced, not merged.
		_, err = db.PutSheet(ctx, tid, 1, 1, short, mustReport(t, short), 3)
		wantErr(t, err, nil)
		got, _ = db.GetSheet(ctx, tid, 1, 1)
		if diff := cmp.Diff(short, got.Sheet, cmpOpts...); diff != "" {
			t.Errorf("after shrinking (-want +got):\n%s", diff)
		}
	})
}

func TestPutSheetRefusesInvalidSheets(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		fiveHands := minimalSheet()
		for len(fiveHands.Hands) < 5 {
			fiveHands.Hands = append(fiveHands.Hands, fiveHands.Hands[0])
		}
		badType := minimalSheet()
		badType.Hands = []domain.Hand{{Lines: [2]domain.LineScore{{Burrachi: map[domain.BurracoType]int{"Pulito:1": 1}}, {}}}}
		negative := minimalSheet()
		negative.Hands = []domain.Hand{{Lines: [2]domain.LineScore{{Burrachi: map[domain.BurracoType]int{domain.Pulito: -1}}, {}}}}
		for _, tc := range []struct {
			name   string
			round  int
			table  int
			change func(*domain.Sheet)
			sheet  *domain.Sheet
			report []byte
			want   error
		}{
			{name: "API §1 more than 4 hands", table: 1, sheet: &fiveHands, want: domain.ErrInvalid},
			{name: "RULES §2 unknown ruleset", table: 1, change: func(s *domain.Sheet) { s.Ruleset = "burraco" }, want: domain.ErrInvalid},
			{name: "RULES §5 unknown hand end", table: 1, change: func(s *domain.Sheet) { s.Hands[0].End = "abandoned" }, want: domain.ErrInvalid},
			{name: "unknown pozzetto state", table: 1, change: func(s *domain.Sheet) { s.Hands[0].Lines[domain.EO].Pozzetto = "lost" }, want: domain.ErrInvalid},
			{name: "API §1 unknown first dealer", table: 1, change: func(s *domain.Sheet) { s.FirstDealer = "x" }, want: domain.ErrInvalid},
			{name: "RULES §7 negative late points", table: 1, change: func(s *domain.Sheet) { s.LatePoints[domain.NS] = -100 }, want: domain.ErrInvalid},
			{name: "unknown kind", table: 1, change: func(s *domain.Sheet) { s.Kind = "quartets" }, want: domain.ErrInvalid},
			{name: "burraco type that cannot be stored", table: 1, sheet: &badType, want: domain.ErrInvalid},
			{name: "negative burraco count", table: 1, sheet: &negative, want: domain.ErrInvalid},
			{name: "report that is not JSON", table: 1, report: []byte(`{"ok": tru`), want: domain.ErrInvalid},
			{name: "empty report", table: 1, report: []byte{}, want: domain.ErrInvalid},
			{name: "table not in the round", table: 9, want: domain.ErrNotFound},
			{name: "round that does not exist", round: 2, table: 1, want: domain.ErrNotFound},
		} {
			t.Run(tc.name, func(t *testing.T) {
				s := minimalSheet()
				if tc.sheet != nil {
					s = *tc.sheet
				}
				if tc.change != nil {
					tc.change(&s)
				}
				report := tc.report
				if report == nil {
					report = mustReport(t, s)
				}
				round := tc.round
				if round == 0 {
					round = 1
				}
				_, err := db.PutSheet(ctx, tid, round, tc.table, s, report, 0)
				wantErr(t, err, tc.want)
				// Nothing half-written: no sheet appeared.
				_, err = db.GetSheet(ctx, tid, round, tc.table)
				wantErr(t, err, domain.ErrNotFound)
			})
		}
		_, err := db.PutSheet(ctx, "t_nope", 1, 1, minimalSheet(), mustReport(t, minimalSheet()), 0)
		wantErr(t, err, domain.ErrNotFound)
	})
}

// API §4.1 POST .../sheet/hands with Idempotency-Key.
func TestAppendHand(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		empty := domain.Sheet{Ruleset: domain.FITAB2025, HandsPlanned: 3, Kind: domain.KindPairs, Round: 1, Table: 2,
			Sides: [2]domain.Side{{ID: "3"}, {ID: "4"}}}
		full := fullSheet(t)
		var seen []int // hand counts the report function was given
		rep := func(s domain.Sheet) ([]byte, error) {
			seen = append(seen, len(s.Hands))
			return report(s)
		}

		st, replay, err := db.AppendHand(ctx, tid, 1, 2, empty, full.Hands[0], "k1", rep)
		wantErr(t, err, nil)
		want := empty
		want.Hands = full.Hands[:1]
		if replay || st.Version != 1 {
			t.Errorf("first hand: replay %v, version %d", replay, st.Version)
		}
		if diff := cmp.Diff(want, st.Sheet, cmpOpts...); diff != "" {
			t.Errorf("new sheet from empty (-want +got):\n%s", diff)
		}

		// The same key with the same hand: nothing written, the stored
		// sheet replayed.
		st, replay, err = db.AppendHand(ctx, tid, 1, 2, empty, full.Hands[0], "k1", rep)
		wantErr(t, err, nil)
		if !replay || st.Version != 1 || len(st.Sheet.Hands) != 1 {
			t.Errorf("replayed key: replay %v, version %d, %d hands", replay, st.Version, len(st.Sheet.Hands))
		}
		// The same key with another hand: refused, nothing written.
		_, _, err = db.AppendHand(ctx, tid, 1, 2, empty, full.Hands[1], "k1", rep)
		if !errors.Is(err, store.ErrIdempotencyReused) || !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("key reused with another hand: %v", err)
		}

		for i, key := range []string{"k2", ""} { // a new key, then no key
			st, replay, err = db.AppendHand(ctx, tid, 1, 2, domain.Sheet{Ruleset: "ignored once the sheet exists"}, full.Hands[i+1], key, rep)
			wantErr(t, err, nil)
			if replay || st.Version != i+2 {
				t.Errorf("hand %d: replay %v, version %d", i+2, replay, st.Version)
			}
		}
		want.Hands = full.Hands
		if diff := cmp.Diff(want, st.Sheet, cmpOpts...); diff != "" {
			t.Errorf("after three hands (-want +got):\n%s", diff)
		}
		stored, err := db.GetSheet(ctx, tid, 1, 2)
		wantErr(t, err, nil)
		if diff := cmp.Diff(st, stored, cmpOpts...); diff != "" {
			t.Errorf("AppendHand's result differs from GetSheet (-append +get):\n%s", diff)
		}
		var r struct{ Hands int }
		if err := json.Unmarshal(stored.ReportJSON, &r); err != nil || r.Hands != 3 {
			t.Errorf("stored report %s: want the report of 3 hands", stored.ReportJSON)
		}
		if want := []int{1, 2, 3}; !cmp.Equal(seen, want) {
			t.Errorf("report called with %v hands, want %v (not for the replay)", seen, want)
		}

		// A failing report writes nothing.
		boom := errors.New("validator exploded")
		_, _, err = db.AppendHand(ctx, tid, 1, 2, empty, full.Hands[0], "k3", func(domain.Sheet) ([]byte, error) { return nil, boom })
		if !errors.Is(err, boom) {
			t.Errorf("error %v, want the report's", err)
		}
		_, _, err = db.AppendHand(ctx, tid, 1, 3, empty, full.Hands[0], "", func(domain.Sheet) ([]byte, error) { return nil, boom })
		if !errors.Is(err, boom) {
			t.Errorf("error %v, want the report's", err)
		}
		_, err = db.GetSheet(ctx, tid, 1, 3)
		wantErr(t, err, domain.ErrNotFound)
		// The key of the failed append was not consumed.
		st, replay, err = db.AppendHand(ctx, tid, 1, 2, empty, full.Hands[0], "k3", report)
		wantErr(t, err, nil)
		if replay || len(st.Sheet.Hands) != 4 || st.Version != 4 {
			t.Errorf("k3 after a failure: replay %v, %d hands, version %d", replay, len(st.Sheet.Hands), st.Version)
		}
		// API §1: at most 4 hands.
		_, _, err = db.AppendHand(ctx, tid, 1, 2, empty, full.Hands[0], "k5", report)
		wantErr(t, err, domain.ErrInvalid)

		_, _, err = db.AppendHand(ctx, tid, 1, 9, empty, full.Hands[0], "", report)
		wantErr(t, err, domain.ErrNotFound)
		_, err = db.GetSheet(ctx, tid, 1, 9)
		wantErr(t, err, domain.ErrNotFound)
	})
}

// A key belongs to one sheet: the same key on another table appends there.
func TestIdempotencyKeyIsPerSheet(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		h := minimalSheet().Hands[0]
		for table := 1; table <= 2; table++ {
			st, replay, err := db.AppendHand(ctx, tid, 1, table, minimalSheet(), h, "same-key", report)
			wantErr(t, err, nil)
			if replay || len(st.Sheet.Hands) != 1 {
				t.Errorf("table %d: replay %v, %d hands", table, replay, len(st.Sheet.Hands))
			}
		}
	})
}

// RULES §10, FITAB art. 20: once a round's sheets are delivered, hand entry
// and PutOpenSheet are refused inside their own transaction (no race with the
// state change), while PutSheet — the correction path — still writes.
func TestOpenRoundWrites(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		s := minimalSheet()
		v, err := db.PutOpenSheet(ctx, tid, 1, 1, s, mustReport(t, s), 0)
		wantErr(t, err, nil)
		if v != 1 {
			t.Fatalf("version %d, want 1", v)
		}
		_, err = db.PutOpenSheet(ctx, tid, 9, 1, s, mustReport(t, s), 0)
		wantErr(t, err, domain.ErrNotFound)

		wantErr(t, db.SetRoundState(ctx, tid, 1, domain.RoundPlaying, domain.RoundSheetsDelivered), nil)
		_, err = db.PutOpenSheet(ctx, tid, 1, 1, s, mustReport(t, s), 0)
		if !errors.Is(err, store.ErrRoundClosed) || !errors.Is(err, domain.ErrConflict) {
			t.Errorf("PutOpenSheet on a delivered round: %v, want ErrRoundClosed", err)
		}
		_, _, err = db.AppendHand(ctx, tid, 1, 2, s, s.Hands[0], "", func(sh domain.Sheet) ([]byte, error) { return mustReport(t, sh), nil })
		if !errors.Is(err, store.ErrRoundClosed) {
			t.Errorf("AppendHand on a delivered round: %v, want ErrRoundClosed", err)
		}
		v, err = db.PutSheet(ctx, tid, 1, 1, s, mustReport(t, s), 1)
		wantErr(t, err, nil)
		if v != 2 {
			t.Errorf("correction write: version %d, want 2", v)
		}
	})
}
