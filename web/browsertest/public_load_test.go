//go:build loadtest

package browsertest

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"segnapunti/store/dbtest"
)

// TestLoadPublicEventStreams (go test -tags loadtest ./web -run
// TestLoadPublicEventStreams): 200 clients hold a public page's event
// stream open on loopback while sheets are written through the API; the
// delay from the end of each write to each client's "sheet" event is
// reported as p50/p99 (UI.md §1: within 2 s). Bounded: 20 writes.
func TestLoadPublicEventStreams(t *testing.T) {
	const clients, writes = 200, 20
	f := newPublicFixture(t, dbtest.Postgres(t))
	f.setPublic(t, true)
	f.storeSheet(t, 1)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tr := &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: clients}
	client := &http.Client{Transport: tr}
	arrivals := make([]chan time.Time, clients)
	var ready sync.WaitGroup
	for i := range clients {
		arrivals[i] = make(chan time.Time, writes*4)
		ready.Add(1)
		go func(i int) {
			req, _ := http.NewRequestWithContext(ctx, "GET", f.site.URL+"/p/"+f.tid+"/events", nil)
			res, err := client.Do(req)
			if err != nil {
				ready.Done()
				t.Errorf("client %d: %v", i, err)
				return
			}
			defer res.Body.Close()
			sc := bufio.NewScanner(res.Body)
			signalled := false
			for sc.Scan() {
				l := sc.Text()
				if !signalled && strings.HasPrefix(l, ": connected") {
					signalled = true
					ready.Done()
				}
				if l == "event: sheet" {
					arrivals[i] <- time.Now()
				}
			}
		}(i)
	}
	ready.Wait()
	time.Sleep(time.Second) // the listener's first resync has been delivered
	for _, ch := range arrivals {
		for len(ch) > 0 {
			<-ch
		}
	}

	var delays []time.Duration
	missed := 0
	for w := range writes {
		f.api(t, "PUT", fmt.Sprintf("/v1/tournaments/%s/rounds/1/tables/2/sheet", f.tid), sheetBody(w), map[bool]int{true: http.StatusCreated, false: http.StatusOK}[w == 0], nil)
		done := time.Now()
		for _, ch := range arrivals {
			select {
			case at := <-ch:
				delays = append(delays, max(at.Sub(done), 0))
			case <-time.After(5 * time.Second):
				missed++
			}
		}
	}
	slices.Sort(delays)
	pct := func(p float64) time.Duration { return delays[int(p*float64(len(delays)-1))] }
	t.Logf("%d clients × %d writes: %d deliveries, %d missed; delay p50 %v, p99 %v, max %v",
		clients, writes, len(delays), missed, pct(.5), pct(.99), delays[len(delays)-1])
	if missed > 0 || pct(.99) > 2*time.Second {
		t.Errorf("live updates over budget: %d missed, p99 %v (budget 2 s)", missed, pct(.99))
	}
}

// sheetBody is a correct three-hand sheet whose last hand varies with w,
// so every write is a change.
func sheetBody(w int) map[string]any {
	hand := func(nb, np, eb, ep int) map[string]any {
		return map[string]any{"end": "closed", "ns": map[string]any{"base": nb, "points": np}, "eo": map[string]any{"base": eb, "points": ep}}
	}
	return map[string]any{"hands": []any{hand(300, 235, 100, -120), hand(0, -55, 400, 180), hand(350, 120+5*w, 200, 65)}}
}
