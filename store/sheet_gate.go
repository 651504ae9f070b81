package store

import (
	"runtime"

	"golang.org/x/sync/semaphore"
)

// PostgreSQL sheet writes pass a gate of a few slots, taken in arrival
// order. Without it, 32 phones sending sheets at once are 32 backends
// that the kernel shares among the cores in no order, and an unlucky
// sheet waits many turns: the p99 was 3-5× the median
// (docs/performance.md, "A fair queue for the sheet writes"). A smaller
// connection pool does not help: database/sql hands a freed connection
// to a RANDOM waiter (connRequestSet.TakeRandom). With a FIFO gate each
// sheet waits for those that came before it (semaphore.Weighted serves
// its waiters in order), and only as many backends run as the cores can
// serve.

// defaultSheetWriters is the gate's width unless SetSheetWriters says
// otherwise: four per core of this process (the database on the same
// machine: the club's laptop or a small server), at least 8. Measured on
// two cores, 32 clients, A/B in one window: 4 slots cut the p99 most but
// lost 15% of the rate (a backend waiting on its commit's flush leaves a
// core idle); 8 kept the rate (0.97-1.04× the replay) with the p99 at
// 57-71 ms against 100-105 ms with no gate; 12 was between.
func defaultSheetWriters() int64 {
	return int64(max(8, 4*runtime.GOMAXPROCS(0)))
}

// SetSheetWriters sets how many sheet writes PostgreSQL runs at once (a
// database server on its own machine with more cores takes more); n < 1
// keeps the default. Call it before serving.
func (db *DB) SetSheetWriters(n int) {
	if n >= 1 {
		db.sheetWriters = semaphore.NewWeighted(int64(n))
	}
}
