package browsertest

import (
	"io"
	"net/http"
	"testing"
)

// The heavy pages of a 100-table tournament on the embedded database, one
// GET per op: ns/op, B/op and allocs/op of client and server together (the
// allocations do not move with the machine's load, the times do; compare
// two builds side by side in the same window).
// Run: go test ./web/browsertest -run '^$' -bench HeavyPages -benchtime 100x
func BenchmarkHeavyPages(b *testing.B) {
	_, client, base := bigTournamentSite(b, 100)
	for _, page := range []string{"review", "rounds/1", "rounds/1/tables", "standings", "entrants"} {
		u := base + "/" + page
		b.Run(page, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req, _ := http.NewRequest("GET", u, nil)
				resp, err := http.DefaultTransport.RoundTrip(withCookies(client, req))
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
}
