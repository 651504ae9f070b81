package browsertest

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// UI.md §1 budgets for the secretary pages on a 100-table tournament on
// the embedded database: server time p95 ≤ 20 ms, first load ≤ 150 KB
// gzip. Run: go test ./web/ -run '^$' -bench SecretaryPages -benchtime 1x
func BenchmarkSecretaryPages(b *testing.B) {
	db := dbtest.SQLite(b)
	site := startSite(b, db)
	pw := site.createPerson(b, domain.RoleClub, "segreteria", "bc-roma")
	tid := seedBigTournament(b, db, 100)
	client := signedInClient(b, site, "segreteria", pw)
	base := site.URL + "/tournaments/" + tid
	pages := []string{site.URL + "/", base, base + "/entrants", base + "/rounds/new", base + "/rounds/1", base + "/rounds/1/tables", base + "/rounds/1/tables/50", base + "/standings", base + "/export"}
	for b.Loop() {
		for _, u := range pages {
			p95, size := measurePage(b, client, u, 40)
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

// seedBigTournament makes a club tournament with 2×tables pairs, one
// round of tables seated and every sheet entered.
func seedBigTournament(b testing.TB, db *store.DB, tables int) string {
	ctx := context.Background()
	ops := app.New(db, nil, nil)
	p := store.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "bc-roma"}
	tr, err := ops.CreateTournament(ctx, p, app.TournamentInput{Name: "Grande", Date: "2026-11-26", Level: "club", Ruleset: "fitab-2025", Kind: "pairs", RoundsPlanned: 3, HandsPerRound: 3})
	if err != nil {
		b.Fatal(err)
	}
	var es []app.EntrantInput
	for i := 1; i <= 2*tables; i++ {
		es = append(es, app.EntrantInput{ID: strconv.Itoa(i), Players: []domain.Player{{Name: fmt.Sprintf("Giocatore %dA", i), Membership: fmt.Sprintf("FT%06d", 2*i)}, {Name: fmt.Sprintf("Giocatore %dB", i), Membership: fmt.Sprintf("FT%06d", 2*i+1)}}})
	}
	if _, err := ops.AddEntrants(ctx, p, tr.ID, es); err != nil {
		b.Fatal(err)
	}
	in := app.RoundInput{Number: 1, Phase: "mitchell"}
	for t := 1; t <= tables; t++ {
		in.Tables = append(in.Tables, domain.TableAssignment{Table: t, NS: strconv.Itoa(2*t - 1), EO: strconv.Itoa(2 * t)})
	}
	if _, err := ops.CreateRound(ctx, p, tr.ID, in); err != nil {
		b.Fatal(err)
	}
	for t := 1; t <= tables; t++ {
		hands := []domain.Hand{}
		for h := 0; h < 3; h++ {
			hands = append(hands, domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300 + 10*h, Points: 200}, {Base: 100 + t, Points: 150}}})
		}
		if _, err := ops.PutSheet(ctx, p, tr.ID, 1, t, sheetOf(hands, [2]domain.WrittenResult{}), 0); err != nil {
			b.Fatal(err)
		}
	}
	return tr.ID
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
