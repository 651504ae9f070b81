package browsertest

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// The heavy pages of a 100-table tournament on the embedded database, one
// GET per op: ns/op, B/op and allocs/op of client and server together (the
// allocations do not move with the machine's load, the times do; compare
// two builds side by side in the same window).
// Every page of benchPages (the site's home is named home, the
// tournament's page tournament). Run: go test ./web/browsertest -run '^$' -bench HeavyPages -benchtime 100x
func BenchmarkHeavyPages(b *testing.B) {
	site, client, base := bigTournamentSite(b, 100)
	referee := refereeClient(b, site, base)
	secretary, refereePages := benchPages(site, base)
	run := func(c *http.Client, u string) {
		name := strings.TrimPrefix(strings.TrimPrefix(u, base), "/")
		switch {
		case !strings.HasPrefix(u, base):
			name = "home"
		case name == "":
			name = "tournament"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req, _ := http.NewRequest("GET", u, nil)
				resp, err := http.DefaultTransport.RoundTrip(withCookies(c, req))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("GET %s: %d", u, resp.StatusCode)
				}
			}
		})
	}
	for _, u := range secretary {
		run(client, u)
	}
	for _, u := range refereePages {
		run(referee, u)
	}
}
