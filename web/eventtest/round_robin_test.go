package eventtest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/store/dbtest"
	"segnapunti/web/eventtest/steps"
	"segnapunti/web/webtest"
)

// A 7-pair round robin run from the browser start to finish (RULES §12.1:
// `italiana` from round 1; §11: with an odd number every pair rests once
// and gets the bye score of §7), on the embedded database: the secretary
// creates the tournament with its plan, pastes the pairs, generates and
// publishes each of the 7 rounds, types the 21 sheets, closes and publishes
// each round, and the final standings equal a table made by hand from the
// rules, not from the program.
//
// Results typed: in every match the pair with the lower number wins by 100
// MP (3 hands, FITAB art. 18: 65-160 → 11-9), except pair 7, which beats
// pair 1 by 600 (515-660 → 15-5). The rest (FITAB art. 38, 3 hands): 14 VP
// and 365 MP. So, by hand:
//
//	pair  won           lost          VP                MP
//	1     2,3,4,5,6     7             5×11+5+14 = 74    500−600+365 = 265
//	2     3,4,5,6,7     1             5×11+9+14 = 78    500−100+365 = 765
//	3     4,5,6,7       1,2           4×11+2×9+14 = 76  400−200+365 = 565
//	4     5,6,7         1,2,3         3×11+3×9+14 = 74  300−300+365 = 365
//	5     6,7           1,2,3,4       2×11+4×9+14 = 72  200−400+365 = 165
//	6     7             1,…,5         11+5×9+14 = 70    100−500+365 = −35
//	7     1             2,…,6         15+5×9+14 = 74    600−500+365 = 465
//
// Standings (VP, then MP — FITAB art. 18): 2, 3, 7, 4, 1, 5, 6.
func TestBrowserRoundRobinOfSevenPairs(t *testing.T) {
	t.Parallel()
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	ctx := steps.Secretary(t, site)
	// The tournament and its plan: a round robin from round 1.
	tid, base := steps.CreateTournament(t, ctx, site, map[string]string{
		"name": "Girone all'italiana", "date": "2026-11-28", "level": "club", "ruleset": "fitab-2025", "kind": "pairs",
		"rounds_planned": "7", "hands_per_round": "3",
		"plan.first_round": "entry_order", "plan.phases.0.system": "italiana", "plan.phases.0.from_round": "1",
	})

	names := []string{"Rossi", "Bianchi", "Greco", "De Luca", "Longo", "Fontana", "Conti", "Marino", "Ricci", "Gallo", "Costa", "Bruno", "Rizzo", "Moretti"}
	var rows []string
	for i := range 7 {
		rows = append(rows, fmt.Sprintf("%d\t%s Anna\tFT2000%02d\t%s Luca\tFT2001%02d", i+1, names[2*i], i, names[2*i+1], i))
	}
	steps.PasteEntrants(t, ctx, base, rows)

	met := map[[2]string]int{}
	rested := map[string]int{}
	for n := 1; n <= 7; n++ {
		r := steps.GenerateRound(t, ctx, db, tid, base, n, "italiana")
		if n == 1 {
			webtest.Screenshot(t, ctx, "round-robin-published")
		}
		if len(r.Tables) != 3 || len(r.Byes) != 1 {
			t.Fatalf("round %d: %d tables and rests %v, want 3 tables and one rest", n, len(r.Tables), r.Byes)
		}
		rested[r.Byes[0]]++
		for _, tb := range r.Tables {
			a, b := tb.NS, tb.EO
			if steps.PairNumber(t, a) > steps.PairNumber(t, b) {
				a, b = b, a
			}
			met[[2]string{a, b}]++
			nsWins := steps.PairNumber(t, tb.NS) < steps.PairNumber(t, tb.EO)
			margin := 100
			if a == "1" && b == "7" {
				nsWins, margin = tb.NS == "7", 600
			}
			steps.TypeMatch(t, ctx, base, n, tb.Table, nsWins, margin)
		}
		webtest.DeliverAndPublish(t, ctx, base, n)
	}
	// The calendar itself: every two pairs met exactly once, each rested once.
	for i := 1; i <= 7; i++ {
		if rested[strconv.Itoa(i)] != 1 {
			t.Errorf("pair %d rested %d times, want once", i, rested[strconv.Itoa(i)])
		}
		for j := i + 1; j <= 7; j++ {
			if c := met[[2]string{strconv.Itoa(i), strconv.Itoa(j)}]; c != 1 {
				t.Errorf("pairs %d and %d met %d times, want once", i, j, c)
			}
		}
	}

	webtest.Run(t, ctx, chromedp.Navigate(base+"/standings"), chromedp.WaitVisible(chromedp.CSS(`table[data-standings]`)))
	webtest.Screenshot(t, ctx, "round-robin-standings")
	want := []struct {
		entrant string
		vp, mp  int
	}{{"2", 78, 765}, {"3", 76, 565}, {"7", 74, 465}, {"4", 74, 365}, {"1", 74, 265}, {"5", 72, 165}, {"6", 70, -35}}
	for rank, w := range want {
		row := `table[data-standings] tr[data-entrant="` + w.entrant + `"] `
		got := [3]string{webtest.Text(t, ctx, row+`[data-col="rank"]`), webtest.Text(t, ctx, row+`[data-col="vp"]`), webtest.Text(t, ctx, row+`[data-col="mp"]`)}
		if exp := [3]string{strconv.Itoa(rank + 1), strconv.Itoa(w.vp), strconv.Itoa(w.mp)}; got != exp {
			t.Errorf("pair %s: rank/VP/MP %v, want %v", w.entrant, got, exp)
		}
	}
	order, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('table[data-standings] tr[data-entrant]')].map(r => r.dataset.entrant)`))
	if err != nil || strings.Join(order, ",") != "2,3,7,4,1,5,6" {
		t.Errorf("standings order %v (%v), want 2,3,7,4,1,5,6", order, err)
	}
}
