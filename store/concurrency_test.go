package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

const writers = 16

// 16 clients append to one sheet at once, four of them with each of four
// Idempotency-Keys (a client retrying on a lost answer): the row lock
// serialises them, so the sheet ends with exactly four hands, version 4,
// and twelve calls are replays.
func TestConcurrentAppendHand(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		var wg sync.WaitGroup
		var mu sync.Mutex
		replays := 0
		errs := make(chan error, writers)
		for i := range writers {
			key := fmt.Sprintf("key-%d", i%4)
			h := domain.Hand{Lines: [2]domain.LineScore{{Base: 100 * (i % 4), Points: 5}, {Base: 0, Points: 10}}}
			wg.Go(func() {
				_, replay, err := db.AppendHand(ctx, tid, 1, 1, minimalSheet(), h, key, report)
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				defer mu.Unlock()
				if replay {
					replays++
				}
			})
		}
		reportAll(t, &wg, errs)
		st, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if len(st.Sheet.Hands) != 4 || st.Version != 4 || replays != writers-4 {
			t.Fatalf("%d hands, version %d, %d replays; want 4, 4, %d", len(st.Sheet.Hands), st.Version, replays, writers-4)
		}
		bases := map[int]bool{}
		for _, h := range st.Sheet.Hands {
			bases[h.Lines[domain.NS].Base] = true
		}
		if len(bases) != 4 {
			t.Errorf("hands %v: want one per key", st.Sheet.Hands)
		}
	})
}

// 16 clients do read-modify-write with If-Match, retrying on 412: no update
// is lost, so the counter each adds one to ends at 16 and the version at 17.
func TestConcurrentPutSheetCompareAndSet(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		compareAndSetCounter(t, db)
	})
}

// The same through a gate of one slot for the sheet writes (sheet_gate.go):
// 16 writers, one running at a time in arrival order, none stuck and no
// update lost; and 16 appends to one sheet, each waiting on the sheet's
// lock held by the one slot's writer, all done (four keys: four hands).
func TestConcurrentWritesThroughOneSlot(t *testing.T) {
	t.Parallel()
	db := dbtest.Postgres(t)
	db.SetSheetWriters(1)
	compareAndSetCounter(t, db)
	ctx := context.Background()
	tid := setup(t, db)
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		h := domain.Hand{Lines: [2]domain.LineScore{{Base: 100 * (i % 4), Points: 5}, {Base: 0, Points: 10}}}
		wg.Go(func() {
			if _, _, err := db.AppendHand(ctx, tid, 1, 2, minimalSheet(), h, fmt.Sprintf("k%d", i%4), report); err != nil {
				errs <- err
			}
		})
	}
	reportAll(t, &wg, errs)
	st, err := db.GetSheet(ctx, tid, 1, 2)
	wantErr(t, err, nil)
	if len(st.Sheet.Hands) != 4 || st.Version != 4 {
		t.Errorf("%d hands, version %d; want 4, 4 (one per key)", len(st.Sheet.Hands), st.Version)
	}
}

// compareAndSetCounter: 16 clients each add one to a counter of table 1's
// sheet by read-modify-write with If-Match.
func compareAndSetCounter(t *testing.T, db *store.DB) {
	t.Helper()
	ctx := context.Background()
	tid := setup(t, db)
	s := minimalSheet()
	s.LatePoints = [2]int{0, 0}
	if _, err := db.PutSheet(ctx, tid, 1, 1, s, mustReport(t, s), 0); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for range writers {
		wg.Go(func() {
			for {
				st, err := db.GetSheet(ctx, tid, 1, 1)
				if err != nil {
					errs <- err
					return
				}
				next := st.Sheet
				next.LatePoints[domain.NS]++
				_, err = db.PutSheet(ctx, tid, 1, 1, next, mustReport(t, next), st.Version)
				if errors.Is(err, domain.ErrConflict) {
					continue // someone else wrote first: read again
				}
				if err != nil {
					errs <- err
				}
				return
			}
		})
	}
	reportAll(t, &wg, errs)
	st, err := db.GetSheet(ctx, tid, 1, 1)
	wantErr(t, err, nil)
	if st.Sheet.LatePoints[domain.NS] != writers || st.Version != writers+1 {
		t.Fatalf("counter %d, version %d; want %d, %d", st.Sheet.LatePoints[domain.NS], st.Version, writers, writers+1)
	}
}

// 16 unconditional writers: each write is whole — the stored sheet is one
// writer's sheet, never hands of one mixed with another's — and every write
// counts (version 16). Readers in between always see a whole sheet.
func TestConcurrentPutSheetIsAtomic(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		var wg sync.WaitGroup
		errs := make(chan error, 2*writers)
		for i := range writers {
			s := minimalSheet()
			s.Hands = nil
			for range 1 + i%4 {
				s.Hands = append(s.Hands, domain.Hand{Lines: [2]domain.LineScore{{Base: i, Points: i}, {Base: i, Points: i}}})
			}
			s.Written[domain.NS].Total = domain.Int(i)
			wg.Go(func() {
				if _, err := db.PutSheet(ctx, tid, 1, 1, s, mustReport(t, s), 0); err != nil {
					errs <- err
				}
			})
			wg.Go(func() {
				st, err := db.GetSheet(ctx, tid, 1, 1)
				if errors.Is(err, domain.ErrNotFound) {
					return
				}
				if err == nil {
					err = wholeSheet(st)
				}
				if err != nil {
					errs <- err
				}
			})
		}
		reportAll(t, &wg, errs)
		st, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if st.Version != writers {
			t.Errorf("version %d, want %d", st.Version, writers)
		}
		if err := wholeSheet(st); err != nil {
			t.Error(err)
		}
	})
}

// wholeSheet checks that every hand and the report belong to the writer
// whose number is in the written total.
func wholeSheet(st store.StoredSheet) error {
	w := *st.Sheet.Written[domain.NS].Total
	if len(st.Sheet.Hands) != 1+w%4 {
		return fmt.Errorf("writer %d's sheet has %d hands, want %d", w, len(st.Sheet.Hands), 1+w%4)
	}
	for _, h := range st.Sheet.Hands {
		if h.Lines[domain.NS].Base != w {
			return fmt.Errorf("writer %d's sheet holds a hand of writer %d", w, h.Lines[domain.NS].Base)
		}
	}
	if want, _ := report(st.Sheet); string(want) != string(st.ReportJSON) {
		return fmt.Errorf("writer %d's sheet has report %s", w, st.ReportJSON)
	}
	return nil
}

// reportAll waits for the writers of wg and reports every error they sent
// on errs.
func reportAll(t *testing.T, wg *sync.WaitGroup, errs chan error) {
	t.Helper()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
