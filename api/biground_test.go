package api

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"segnapunti/store"
)

// A national championship: 4,000 pairs, one round of 2,000 tables, over
// HTTP end to end — enter the pairs (two bulk requests), create the round,
// PUT every sheet, read the standings.
func TestTwoThousandTableRound(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("2,000 sheets over HTTP: not in -short")
	}
	const tables = 2000
	eachBackend(t, func(t *testing.T, b backend) {
		// On the embedded database the same run takes minutes on a shared
		// 2-core machine (one writer): PostgreSQL only.
		if b.db.Dialect() != store.DialectPostgres {
			t.Skip("2,000 sheets over HTTP: PostgreSQL only")
		}
		w := newWorld(t, b)
		tid := w.createTournament(w.club1, tournamentBody("Campionato Nazionale", "national"))
		ids := make([]string, 2*tables)
		for i := range ids {
			ids[i] = strconv.Itoa(i + 1)
		}
		w.enterPairs(w.club1, tid, ids[:tables]...)
		w.enterPairs(w.club1, tid, ids[tables:]...)
		seats := make([][2]string, tables)
		for i := range seats {
			seats[i] = [2]string{ids[2*i], ids[2*i+1]}
		}
		w.addRound(tid, 1, "mitchell", seats)
		// The tables' phones send at once, eight at a time (one by one the
		// test waited 2,000 commits in a row: 41 s of the package's 95).
		var next atomic.Int64
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for tb := int(next.Add(1)); tb <= tables && !t.Failed(); tb = int(next.Add(1)) {
					sheet := sheetOfHands(hC, hCm) // a draw, 10-10
					if tb%2 == 1 {
						sheet = sheetOfHands(hA, hB, hC) // NS +125, 11-9
					}
					path := fmt.Sprintf("/v1/tournaments/%s/rounds/1/tables/%d/sheet", tid, tb)
					if r := w.do(request{method: "PUT", path: path, token: w.club1, body: sheet}); r.status != http.StatusCreated {
						t.Errorf("sheet of table %d: status %d: %s", tb, r.status, r.body)
					}
				}
			}()
		}
		wg.Wait()
		if t.Failed() {
			return
		}
		after, st := w.standingsAfter(tid, 0, w.club1)
		if after != 1 || len(st) != 2*tables {
			t.Fatalf("after_round %d, %d rows; want 1, %d", after, len(st), 2*tables)
		}
		count := map[[2]int]int{}
		for _, s := range st {
			count[[2]int{s.VP, s.MP}]++
		}
		want := map[[2]int]int{{11, 125}: tables / 2, {10, 0}: tables, {9, -125}: tables / 2}
		for k, n := range want {
			if count[k] != n {
				t.Errorf("%d entrants at %d VP %+d MP, want %d (all: %v)", count[k], k[0], k[1], n, count)
			}
		}
		if st[0].VP != 11 || st[len(st)-1].VP != 9 {
			t.Errorf("first %+v, last %+v: want the winners first", st[0], st[len(st)-1])
		}
	})
}
