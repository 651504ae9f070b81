package browsertest

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// The manual seating page of a big evening (UI.md §1 budgets): a row per
// table, each with an NS and an EO choice among every entrant. Prints the
// server p95, the first load (gzip) and the page's elements.
// Run: go test ./web/ -run '^$' -bench RoundNewPage -benchtime 1x
func BenchmarkRoundNewPage(b *testing.B) {
	for _, tables := range []int{100, 200} {
		b.Run(fmt.Sprint(tables), func(b *testing.B) {
			db := dbtest.SQLite(b)
			site := webtest.StartSite(b, db)
			pw := site.CreatePerson(b, domain.RoleClub, "segreteria", "bc-roma")
			tid := webtest.SeedBigTournament(b, db, tables)
			client := webtest.SignedInClient(b, site, "segreteria", pw)
			u := site.URL + "/tournaments/" + tid + "/rounds/new"
			for b.Loop() {
				p95, size := measurePage(b, client, u, 20)
				req, _ := http.NewRequest("GET", u, nil)
				resp, err := http.DefaultTransport.RoundTrip(withCookies(client, req))
				if err != nil {
					b.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				fmt.Printf("rounds/new, %d tables: p95 %6.2f ms, first load %5.1f KB gzip, page %6.1f KB, %d <option>s, %d inputs/selects\n",
					tables, float64(p95.Microseconds())/1000, float64(size)/1024, float64(len(body))/1024,
					strings.Count(string(body), "<option"), strings.Count(string(body), "<input")+strings.Count(string(body), "<select"))
				if p95 > 20*time.Millisecond {
					b.Logf("OVER BUDGET: p95 %v > 20 ms", p95)
				}
			}
		})
	}
}
