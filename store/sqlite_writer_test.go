package store_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// The checkpoints run beside the embedded writer, and a writer that never
// pauses would keep the WAL from starting over: past the pause threshold
// the checkpoint holds the writer and the WAL starts again from its
// beginning. Eight writers write without pause, once with the hold at
// 64 frames and once with no hold: the WAL file held stays several times
// smaller, and every write is stored (versions counted).
func TestCheckpointsBesideTheWriter(t *testing.T) {
	t.Parallel()
	held := walHighWater(t, 64)
	free := walHighWater(t, math.MaxInt)
	t.Logf("WAL high water: %d KiB with the hold at 64 frames, %d KiB without", held>>10, free>>10)
	if held*3 > free {
		t.Errorf("WAL high water %d B with the hold, %d B without: want the hold to keep it under a third", held, free)
	}
}

// walHighWater writes sheets from 8 goroutines for 600 ms on a fresh
// embedded database checkpointed every 10 ms with the writer held past
// pauseFrames, and returns the largest size of its WAL file seen.
func walHighWater(t *testing.T, pauseFrames int) int64 {
	t.Helper()
	path := filepath.Join(t.TempDir(), "segnapunti.db")
	db := dbtest.SQLiteAt(t, path)
	if err := store.RestartSQLiteWriter(db, path, 10*time.Millisecond, pauseFrames); err != nil {
		t.Fatal(err)
	}
	const tables = 64
	tr, _ := seatTables(t, db, tables, 1)
	sheets, reps := benchSheets(t)
	ctx := context.Background()
	stop := time.Now().Add(600 * time.Millisecond)
	var written atomic.Int64
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Go(func() {
			for i := c; time.Now().Before(stop); i += 8 {
				v := (i / tables) % 2
				if _, err := db.PutOpenSheet(ctx, tr.ID, 1, i%tables+1, sheets[v], reps[v], 0); err != nil {
					t.Error(err)
					return
				}
				written.Add(1)
			}
		})
	}
	var high int64
	for done := false; !done; {
		done = time.Now().After(stop)
		if fi, err := os.Stat(path + "-wal"); err == nil {
			high = max(high, fi.Size())
		}
		time.Sleep(5 * time.Millisecond)
	}
	wg.Wait()
	var versions []int64
	if err := store.Scan(ctx, db, &versions, "SELECT coalesce(sum(version), 0) FROM sheets WHERE tournament_id = ?", tr.ID); err != nil {
		t.Fatal(err)
	}
	if versions[0] != written.Load() {
		t.Errorf("%d writes answered, %d versions stored", written.Load(), versions[0])
	}
	return high
}
