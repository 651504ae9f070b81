package browsertest

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"testing"
	"time"
)

// UI.md §1 budgets for the secretary pages on a 100-table tournament on
// the embedded database: server time p95 ≤ 20 ms, first load ≤ 150 KB
// gzip; every page of UI.md §3 and §4 with the data of a big evening
// (benchPages), the referee's read by a referee.
// Run: go test ./web/browsertest -run '^$' -bench SecretaryPages -benchtime 1x
func BenchmarkSecretaryPages(b *testing.B) {
	site, client, base := bigTournamentSite(b, 100)
	referee := refereeClient(b, site, base)
	secretary, refereePages := benchPages(site, base)
	type page struct {
		c *http.Client
		u string
	}
	var pages []page
	for _, u := range secretary {
		pages = append(pages, page{client, u})
	}
	for _, u := range refereePages {
		pages = append(pages, page{referee, u})
	}
	for b.Loop() {
		for _, pg := range pages {
			u := pg.u
			p95, size := measurePage(b, pg.c, u, 40)
			fmt.Printf("%-60s p95 %6.2f ms  first load %5.1f KB gzip\n", u[len(site.URL):], float64(p95.Microseconds())/1000, float64(size)/1024)
			if p95 > 20*time.Millisecond {
				b.Logf("OVER BUDGET %s: p95 %v > 20 ms", u, p95)
			}
			if size > 150<<10 {
				b.Logf("OVER BUDGET %s: first load %d bytes > 150 KB", u, size)
			}
		}
	}
}

var assetRefs = regexp.MustCompile(`(?:href|src)="(/static/[^"]+)"`)

// measurePage GETs u n times and returns the p95 time and the first
// load's gzip size (the page and its static files).
func measurePage(b testing.TB, c *http.Client, u string, n int) (time.Duration, int) {
	get := func(u string) ([]byte, int) {
		req, _ := http.NewRequest("GET", u, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := http.DefaultTransport.RoundTrip(withCookies(c, req))
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			b.Fatalf("GET %s: %d", u, resp.StatusCode)
		}
		if resp.Header.Get("Content-Encoding") != "gzip" {
			return raw, len(raw)
		}
		zr, err := gzip.NewReader(bytesReader(raw))
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(zr)
		return body, len(raw)
	}
	var times []time.Duration
	var page []byte
	var size int
	for range n {
		start := time.Now()
		page, size = get(u)
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	total := size
	origin := u[:len("http://")+len(hostOf(u))]
	for _, m := range assetRefs.FindAllSubmatch(page, -1) {
		_, s := get(origin + string(m[1]))
		total += s
	}
	return times[len(times)*95/100], total
}
