package teamtest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/eventtest/steps"
	"segnapunti/web/webtest"
)

// A team championship of 8 teams × 5 matches run from the browser (RULES
// §12.5, FITAB art. 2.2), on the embedded database: the secretary creates
// it (round 1 by draw, then the Danish system), pastes the teams with
// their names and four players, generates and publishes each round, sets the
// line-ups of round 1's tables from the line-up pages, types both sheets
// of every match, closes and publishes each round; the team standings are
// then checked against the typed results.
//
// Results typed, by the rule of §12.5 (a team's total is the sum of its
// two lines' totals; the team VP come from the fibur-teams table on the
// difference; the tables' own VP do not count): in a match of teams a < b
// a's line wins both tables by 100 → a 2600, b 2400, difference 200 →
// 155-350 → 11-9; except when a + b is a multiple of 3: then each team's
// line wins the table where it sits NS → 2500 each → 10-10. The test
// checks that both kinds of match were played (a Danish system pairing
// neighbours in the standings must not leave one path untried).
func TestBrowserTeamChampionshipOfEightTeams(t *testing.T) {
	t.Parallel()
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	ctx := steps.Secretary(t, site)
	tid, base := steps.CreateTournament(t, ctx, site, map[string]string{
		"name": "Campionato a squadre", "date": "2026-11-28", "level": "club", "ruleset": "fitab-2025", "kind": "teams",
		"rounds_planned": "5", "hands_per_round": "3",
		"plan.first_round": "draw", "plan.phases.0.system": "danese", "plan.phases.0.from_round": "1",
	})

	const teams = 8
	member := func(team, player int) string { return fmt.Sprintf("FT4%02d%02d", team, player) }
	var rows []string
	for i := 1; i <= teams; i++ {
		row := []string{strconv.Itoa(i), fmt.Sprintf("Squadra %d", i)}
		for p := 1; p <= 4; p++ {
			row = append(row, fmt.Sprintf("Giocatore %d.%d", i, p), member(i, p))
		}
		rows = append(rows, strings.Join(row, "\t"))
	}
	steps.PasteEntrants(t, ctx, base, rows)

	vp, mp := map[string]int{}, map[string]int{}
	won, drawn := 0, 0
	for n := 1; n <= 5; n++ {
		r := steps.GenerateRound(t, ctx, db, tid, base, n, "")
		// Four matches of two tables: at one table a team NS, at the other EO.
		matches := map[int][]domain.TableAssignment{}
		for _, tb := range r.Tables {
			matches[tb.Match] = append(matches[tb.Match], tb)
		}
		if len(r.Tables) != 8 || len(matches) != 4 || len(r.Byes) != 0 {
			t.Fatalf("round %d: %d tables in %d matches, rests %v; want 8 tables in 4 matches", n, len(r.Tables), len(matches), r.Byes)
		}
		seen := map[string]int{}
		for m, tbs := range matches {
			if len(tbs) != 2 || tbs[0].NS != tbs[1].EO || tbs[0].EO != tbs[1].NS {
				t.Fatalf("round %d match %d is not two tables with the lines swapped: %+v", n, m, tbs)
			}
			seen[tbs[0].NS]++
			seen[tbs[0].EO]++
		}
		if len(seen) != teams {
			t.Errorf("round %d seats %d teams, want %d", n, len(seen), teams)
		}
		webtest.Run(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/rounds/%d", base, n)), chromedp.WaitVisible(chromedp.CSS(`tr[data-table]`)))
		if got := webtest.Count(t, ctx, `[data-match]`); got != 4 {
			t.Errorf("round %d page groups its tables in %d [data-match], want 4", n, got)
		}
		if n == 1 {
			webtest.Screenshot(t, ctx, "teams-round")
			// Line-ups before the matches start: at the table where a team
			// sits NS its players 1 and 2, where it sits EO 3 and 4.
			for _, tb := range r.Tables {
				team := func(id string) int { return steps.PairNumber(t, id) }
				webtest.Run(t, ctx, chromedp.Navigate(fmt.Sprintf("%s/rounds/1/tables/%d/lineup", base, tb.Table)), chromedp.WaitVisible(chromedp.CSS(`form[data-form="lineup"]`)))
				webtest.SetValue(t, ctx, `[name="ns.0"]`, member(team(tb.NS), 1))
				webtest.SetValue(t, ctx, `[name="ns.1"]`, member(team(tb.NS), 2))
				webtest.SetValue(t, ctx, `[name="eo.0"]`, member(team(tb.EO), 3))
				webtest.SetValue(t, ctx, `[name="eo.1"]`, member(team(tb.EO), 4))
				webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="save-lineup"]`)))
				webtest.WaitFor(t, ctx, `location.search.includes("saved=1")`, 10*time.Second, "the line-up saved")
			}
			ls, err := db.ListLineups(context.Background(), tid, 1)
			if err != nil || len(ls) != 8 {
				t.Fatalf("round 1 line-ups stored: %d (%v), want 8", len(ls), err)
			}
		}
		for _, tbs := range matches {
			a, b := tbs[0].NS, tbs[0].EO
			if steps.PairNumber(t, a) > steps.PairNumber(t, b) {
				a, b = b, a
			}
			if (steps.PairNumber(t, a)+steps.PairNumber(t, b))%3 != 0 {
				won++
				vp[a], mp[a], vp[b], mp[b] = vp[a]+11, mp[a]+200, vp[b]+9, mp[b]-200
				for _, tb := range tbs {
					steps.TypeMatch(t, ctx, base, n, tb.Table, tb.NS == a, 100)
				}
			} else {
				drawn++
				vp[a], vp[b] = vp[a]+10, vp[b]+10
				for _, tb := range tbs {
					steps.TypeMatch(t, ctx, base, n, tb.Table, true, 100)
				}
			}
		}
		webtest.DeliverAndPublish(t, ctx, base, n)
	}

	if won == 0 || drawn == 0 {
		t.Errorf("%d matches won and %d drawn: the test must try both", won, drawn)
	}
	got := steps.StandingsShown(t, ctx, base, "teams-standings")
	if len(got) != teams {
		t.Fatalf("%d team rows, want %d", len(got), teams)
	}
	total := 0
	prevVP, prevMP := 1<<30, 1<<30
	for _, g := range got {
		if want := [2]string{strconv.Itoa(vp[g.Entrant]), strconv.Itoa(mp[g.Entrant])}; [2]string{g.VP, g.MP} != want {
			t.Errorf("team %s: VP/MP %s/%s, want %s/%s", g.Entrant, g.VP, g.MP, want[0], want[1])
		}
		v, m := vp[g.Entrant], mp[g.Entrant]
		if v > prevVP || (v == prevVP && m > prevMP) {
			t.Errorf("team %s (%d VP, %d MP) ranks below a team with fewer", g.Entrant, v, m)
		}
		prevVP, prevMP = v, m
		total += v
	}
	// 4 matches a round, 20 VP each, 5 rounds: nothing lost, nothing made up.
	if total != 4*20*5 {
		t.Errorf("the teams' VP add up to %d, want %d", total, 4*20*5)
	}
}
