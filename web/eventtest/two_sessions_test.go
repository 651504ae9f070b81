package eventtest

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/eventtest/steps"
	"segnapunti/web/webtest"
)

// A two-session event of 23 pairs with two withdrawals, run from the
// browser (RULES §12.1, §12.3), on PostgreSQL: the plan says round 1 by
// draw, then the Danish system, sessions of 2 and 2 rounds. Pair 5 leaves
// for good after the first session (withdrawn from round 3), pair 12 after
// round 3 (withdrawn from round 4), both from their entrant page.
//
// What the rules say, checked round by round: every pair still in the
// event is seated once or rests; a withdrawn pair is seated by no round
// from its withdrawal on; a pair rests at most once per session (FITAB
// art. 38); an odd field has exactly one rest. And at the end: the
// results a withdrawn pair earned before leaving stay ("restano
// confermati i risultati conseguiti", FITAB art. 37), every pair's VP and
// MP are the sum of what was typed — in every match the lower number wins
// by 100 MP (3 hands, FITAB art. 18: 11-9), a rest is 14 VP and 365 MP
// (FITAB art. 38) — and the standings are in VP, then MP order.
func TestBrowserTwoSessionsWithWithdrawals(t *testing.T) {
	t.Parallel()
	db := dbtest.Postgres(t)
	site := webtest.StartSite(t, db)
	ctx := steps.Secretary(t, site)
	tid, base := steps.CreateTournament(t, ctx, site, map[string]string{
		"name": "Due giorni di Burraco", "date": "2026-11-28", "level": "club", "ruleset": "fitab-2025", "kind": "pairs",
		"rounds_planned": "4", "hands_per_round": "3",
		"plan.first_round": "draw", "plan.phases.0.system": "danese", "plan.phases.0.from_round": "1", "plan.sessions": "2, 2",
	})

	const pairs = 23
	var rows []string
	for i := 1; i <= pairs; i++ {
		rows = append(rows, fmt.Sprintf("%d\tGiocatore %dA\tFT3000%02d\tGiocatore %dB\tFT3001%02d", i, i, i, i, i))
	}
	steps.PasteEntrants(t, ctx, base, rows)

	withdrawnFrom := map[string]int{"5": 3, "12": 4}
	withdraw := func(id string) {
		t.Helper()
		webtest.Run(t, ctx, chromedp.Navigate(base+"/entrants/"+id), chromedp.WaitVisible(chromedp.CSS(`[name="withdrawn_from_round"]`)))
		webtest.SetValue(t, ctx, `[name="withdrawn_from_round"]`, strconv.Itoa(withdrawnFrom[id]))
		webtest.SetValue(t, ctx, `[name="reason"]`, "rinuncia")
		webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="withdraw"]`)),
			chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`[data-withdrawn-from="%d"]`, withdrawnFrom[id]))))
	}

	vp, mp := map[string]int{}, map[string]int{}
	restsInSession := map[int]map[string]bool{} // session → pairs that rested in it
	session := func(round int) int { return (round + 1) / 2 }
	for n := 1; n <= 4; n++ {
		switch n {
		case 3:
			withdraw("5")
		case 4:
			withdraw("12")
		}
		r := steps.GenerateRound(t, ctx, db, tid, base, n, "")
		wantSystem := domain.SystemDanese
		if n == 1 {
			wantSystem = domain.SystemDraw
		}
		if r.System != wantSystem {
			t.Errorf("round %d seated by %q, want %q (the plan)", n, r.System, wantSystem)
		}
		// Who is still in the event this round.
		active := map[string]bool{}
		for i := 1; i <= pairs; i++ {
			id := strconv.Itoa(i)
			if from, ok := withdrawnFrom[id]; !ok || n < from {
				active[id] = true
			}
		}
		seen := map[string]int{}
		for _, tb := range r.Tables {
			seen[tb.NS]++
			seen[tb.EO]++
		}
		for _, id := range r.Byes {
			seen[id]++
		}
		for id, c := range seen {
			if !active[id] {
				t.Errorf("round %d seats pair %s, withdrawn from round %d", n, id, withdrawnFrom[id])
			}
			if c != 1 {
				t.Errorf("round %d seats pair %s %d times", n, id, c)
			}
		}
		for id := range active {
			if seen[id] == 0 {
				t.Errorf("round %d leaves pair %s out", n, id)
			}
		}
		if wantRests := len(active) % 2; len(r.Byes) != wantRests {
			t.Errorf("round %d: %d rests with %d pairs", n, len(r.Byes), len(active))
		}
		key := session(n)
		if restsInSession[key] == nil {
			restsInSession[key] = map[string]bool{}
		}
		for _, id := range r.Byes {
			if restsInSession[key][id] {
				t.Errorf("pair %s rests a second time in session %d (round %d)", id, session(n), n)
			}
			restsInSession[key][id] = true
			vp[id] += 14
			mp[id] += 365
		}
		for _, tb := range r.Tables {
			nsWins := steps.PairNumber(t, tb.NS) < steps.PairNumber(t, tb.EO)
			win, lose := tb.NS, tb.EO
			if !nsWins {
				win, lose = lose, win
			}
			vp[win] += 11
			mp[win] += 100
			vp[lose] += 9
			mp[lose] -= 100
			steps.TypeMatch(t, ctx, base, n, tb.Table, nsWins, 100)
		}
		webtest.DeliverAndPublish(t, ctx, base, n)
	}

	got := steps.StandingsShown(t, ctx, base, "two-sessions-standings")
	if len(got) != pairs {
		t.Fatalf("%d standings rows, want all %d pairs (a withdrawn pair keeps its row)", len(got), pairs)
	}
	prevVP, prevMP := 1<<30, 1<<30
	for _, g := range got {
		if want := [2]string{strconv.Itoa(vp[g.Entrant]), strconv.Itoa(mp[g.Entrant])}; [2]string{g.VP, g.MP} != want {
			t.Errorf("pair %s: VP/MP %s/%s, want %s/%s", g.Entrant, g.VP, g.MP, want[0], want[1])
		}
		if _, w := withdrawnFrom[g.Entrant]; w != (g.Withdrawn == "true") {
			t.Errorf("pair %s: data-withdrawn=%q", g.Entrant, g.Withdrawn)
		}
		v, m := vp[g.Entrant], mp[g.Entrant]
		if v > prevVP || (v == prevVP && m > prevMP) {
			t.Errorf("pair %s (%d VP, %d MP) ranks below a pair with fewer", g.Entrant, v, m)
		}
		prevVP, prevMP = v, m
	}
	// What the two withdrawn pairs earned before leaving stays: pair 5
	// played rounds 1-2, pair 12 rounds 1-3.
	for id, from := range withdrawnFrom {
		if vp[id] == 0 || vp[id] > 14*(from-1) {
			t.Errorf("pair %s (withdrawn from round %d) has %d VP: more than %d rounds' worth or none", id, from, vp[id], from-1)
		}
	}
}
