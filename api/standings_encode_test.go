package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
)

// oddStrings are names and ids the encoder must escape as encoding/json
// does: quotes, backslashes, control characters, HTML characters (not
// escaped by marshalJSON), U+2028/U+2029, invalid UTF-8, DEL, emoji.
var oddStrings = []string{"", "plain", `say "hi"`, `back\slash`, "tab\tnew\nline\r", "\x00\x01\x1f\x7f", "<a href='x'>&amp;</a>",
	"line\u2028para\u2029", "bad \xff\xfe utf-8", "half \xe2\x82", "Niccolò ∑ 🂡", "\u00e9\u0301"}

func TestEncodedStringAgrees(t *testing.T) {
	for _, s := range oddStrings {
		checkEncodedString(t, s)
	}
}

func FuzzEncodedString(f *testing.F) {
	for _, s := range oddStrings {
		f.Add(s)
	}
	f.Fuzz(checkEncodedString)
}

func checkEncodedString(t *testing.T, s string) {
	want, err := marshalJSON(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendEncodedString(nil, s); !bytes.Equal(got, want) {
		t.Errorf("%q: appendEncodedString = %s, encoding/json = %s", s, got, want)
	}
}

// appendStandings writes, byte for byte, what the library encoding of the
// response structs writes (marshalJSON(toStandingsResponse)), for tables
// of every shape: pairs with ties (tie-break notes shared by a run),
// adjustments, discrepancies, withdrawals; teams with their matches; an
// interrupted tournament, valid or void; no rows; odd strings everywhere.
func TestStandingsEncodingAgrees(t *testing.T) {
	covered := map[string]bool{}
	for name, st := range generatedStandingsTables(t) {
		want, err := marshalJSON(toStandingsResponse(st))
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendStandings(nil, st)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s:\nappendStandings %s\nencoding/json   %s", name, got, want)
		}
		if !json.Valid(got) {
			t.Errorf("%s: not JSON", name)
		}
		for _, part := range []string{`"tiebreak":"`, `"matches":[`, `"adjustments":[{`, `"discrepancies":[{`, `"withdrawn_from_round":1`, `"void":true`, `"void":false`, `\ufffd`, `\u2028`} {
			covered[part] = covered[part] || bytes.Contains(got, []byte(part))
		}
	}
	for part, ok := range covered {
		if !ok {
			t.Errorf("no table has %s: the case is not covered", part)
		}
	}
}

func generatedStandingsTables(t *testing.T) map[string]app.StandingsTable {
	t.Helper()
	out := map[string]app.StandingsTable{"no rows": {}, "no rows, interrupted, void": {InterruptedAfterRound: new(0), Void: true}}
	for seed := range 6 {
		odd := func(i int) string { return oddStrings[(i+seed)%len(oddStrings)] }
		n := 12 + seed
		var es []domain.Entrant
		for i := 1; i <= n; i++ {
			e := domain.Entrant{ID: strconv.Itoa(i), Players: []domain.Player{{Name: odd(i), Membership: "FT" + odd(i+1)}, {Name: fmt.Sprint("Giocatore ", i)}}, Team: odd(i + 2)}
			if i%5 == seed%5 {
				e.WithdrawnFromRound = new(1 + i%3)
			}
			if seed == 5 && i == n {
				e.ID = odd(3) + "x" // a non-numeric id, odd characters
			}
			es = append(es, e)
		}
		// Results that leave runs of entrants level (the tie-break notes of
		// RULES §8 shared by a run), one a round each.
		var results []domain.MatchResult
		for r := 1; r <= 3; r++ {
			for k := 0; k+1 < n; k += 2 {
				a, b := es[(k+r)%n].ID, es[(k+1+2*r)%n].ID
				if a == b {
					continue
				}
				mp := 100 * ((k + seed) % 3)
				results = append(results, domain.MatchResult{Round: r, Entrant: a, Opponent: b, VP: 10 + mp/100, MP: mp},
					domain.MatchResult{Round: r, Entrant: b, Opponent: a, VP: 10 - mp/100, MP: -mp})
			}
		}
		rows, err := domain.Standings(domain.StandingsInput{Entrants: es, Results: uniqueRounds(results)})
		if err != nil {
			t.Fatal(err)
		}
		st := app.StandingsTable{AfterRound: 3, Rows: rows, Adjustments: map[string][]store.Adjustment{}, Discrepancies: map[string][]app.Discrepancy{}}
		for i, e := range es {
			if i%4 == 1 {
				st.Adjustments[e.ID] = append(st.Adjustments[e.ID], store.Adjustment{ID: int64(i), Entrant: e.ID, Round: i % 3,
					Case:   domain.AdjustmentCase{Reason: domain.ReasonRefereeScore, Note: odd(i)},
					Effect: domain.AdjustmentEffect{Delta: domain.MatchScore{VP: -1, MP: -65}, Rules: []string{"RULES §7", odd(i)}},
					Author: odd(i + 1), At: time.Date(2026, 11, 21, 10, i, 0, 123, time.FixedZone("CET", 3600))})
			}
			if i%3 == 2 {
				st.Discrepancies[e.ID] = append(st.Discrepancies[e.ID], app.Discrepancy{Round: 1 + i%3, Table: i, Line: domain.Line(i % 2),
					Official: domain.LineResult{Total: 745, MP: 10, VP: 11}, Computed: domain.LineResult{Total: 735, MP: -5, VP: 10},
					Kind: domain.CorrectionSum, Correctable: domain.RulingApply})
			}
		}
		out[fmt.Sprint("pairs ", seed)] = st
		teams := st
		teams.Teams = true
		for r := 1; r <= 2; r++ {
			for k := 0; k+1 < n; k += 2 {
				teams.TeamMatches = append(teams.TeamMatches, domain.TeamMatchResult{Round: 3 - r, Match: k/2 + 1, Tables: [2]int{k + 1, k + 2},
					Teams: [2]string{es[(k+r)%n].ID, es[(k+1+r)%n].ID}, Totals: [2]int{1200 + k, 900 - k}, MP: [2]int{300 + 2*k, -300 - 2*k}, VP: [2]int{15, 5}})
			}
		}
		out[fmt.Sprint("teams ", seed)] = teams
		interrupted := st
		interrupted.InterruptedAfterRound, interrupted.Void = new(seed%3), seed%2 == 0
		out[fmt.Sprint("interrupted ", seed)] = interrupted
	}
	return out
}

// uniqueRounds keeps the first result of each entrant in each round.
func uniqueRounds(rs []domain.MatchResult) []domain.MatchResult {
	seen := map[[2]string]bool{}
	var out []domain.MatchResult
	for _, r := range rs {
		k, o := [2]string{r.Entrant, strconv.Itoa(r.Round)}, [2]string{r.Opponent, strconv.Itoa(r.Round)}
		if seen[k] || seen[o] {
			continue
		}
		out = append(out, r)
		seen[k] = true
		for _, m := range rs {
			if m.Round == r.Round && m.Entrant == r.Opponent && m.Opponent == r.Entrant {
				out = append(out, m)
				seen[o] = true
				break
			}
		}
	}
	return out
}
