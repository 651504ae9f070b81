package screening

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"segnapunti/domain"
)

// plant says which anomaly, if any, a generated tournament carries.
type planted struct {
	kind         string
	tournament   string
	round, table int
	entrant      string
}

// genSeason makes n honest tournaments of 8 to 16 pairs, 4 Danish rounds
// of 3 hands each, every sheet signed when stored, and plants perKind
// anomalies of each kind in distinct tournaments.
func genSeason(tb testing.TB, n, perKind int, seed uint64) ([]Tournament, []planted) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	ts := make([]Tournament, n)
	for i := range ts {
		ts[i] = genTournament(tb, rng, fmt.Sprintf("t_%04d", i))
	}
	var plants []planted
	next := 0
	picked := map[int]bool{}
	pick := func() *Tournament {
		i := next % n
		next += max(1, n/(perKind*len(Kinds))) // spread over the season, each planted in its own tournament
		picked[i] = true
		return &ts[i]
	}
	for range perKind {
		// changed after signature: stored 10 minutes after its signatures.
		t := pick()
		s := &t.Sheets[rng.IntN(len(t.Sheets))]
		s.ChangedAt = s.SignedAt.Add(10 * time.Minute)
		plants = append(plants, planted{kind: KindChangedAfterSignature, tournament: t.Tournament.ID, round: s.Round, table: s.Table})

		// a correction applied although the tournament was closed and the
		// codes reject it.
		t = pick()
		s = &t.Sheets[0]
		t.Corrections = append(t.Corrections, Correction{Round: s.Round, Table: s.Table, Ruling: domain.RulingApply, Applied: true, At: s.SignedAt.Add(time.Hour),
			Situation: domain.CorrectionSituation{Ruleset: domain.FITAB2025, Kind: domain.CorrectionSum, Level: domain.LevelRegional, Phase: domain.PhaseDanese,
				ErrorRound: 1, CurrentRound: 4, CurrentRoundStarted: true, TournamentClosed: true, StandingsPublished: true, PositionsPublished: true}})
		plants = append(plants, planted{kind: KindCorrectionOutsideRuling, tournament: t.Tournament.ID, round: s.Round, table: s.Table})

		// a score to re-add: a hand of 2,500 points.
		t = pick()
		s = &t.Sheets[rng.IntN(len(t.Sheets))]
		s.Sheet.Hands[1].Lines[domain.EO].Points = 2500
		plants = append(plants, planted{kind: KindScoreOutlier, tournament: t.Tournament.ID, round: s.Round, table: s.Table})

		// improbable margins: entrant 1 wins each match by about 2,000 MP,
		// with totals of the season's usual size.
		t = pick()
		for j := range t.Sheets {
			s := &t.Sheets[j]
			ta, _ := t.round(s.Round).Assignment(s.Table)
			l, ok := ta.LineOf("1")
			if !ok {
				continue
			}
			for h := range s.Sheet.Hands {
				s.Sheet.Hands[h].Lines[l] = domain.LineScore{Base: 400, Points: 5 * (40 + rng.IntN(10))}
				s.Sheet.Hands[h].Lines[l.Other()] = domain.LineScore{Base: 0, Points: -5 * (5 + rng.IntN(6))}
			}
		}
		plants = append(plants, planted{kind: KindImprobableMargins, tournament: t.Tournament.ID, entrant: "1"})

		// standings that do not re-derive: the last round's first table
		// writes 20 VP for the line that lost and 0 for the winner.
		t = pick()
		s = &t.Sheets[len(t.Sheets)-1]
		m := domain.OfficialResult(s.Sheet, domain.Validate(s.Sheet))
		winner := domain.NS
		if m.Lines[domain.EO].Computed.VP > m.Lines[domain.NS].Computed.VP {
			winner = domain.EO
		}
		s.Sheet.Written[winner].VP, s.Sheet.Written[winner.Other()].VP = domain.Int(0), domain.Int(20)
		plants = append(plants, planted{kind: KindStandingsNotDerivable, tournament: t.Tournament.ID})
	}
	for range perKind {
		// a copied sheet: the hands of a table of a tournament with no
		// other anomaly.
		t := pick()
		j := rng.IntN(n)
		for picked[j] {
			j = (j + 1) % n
		}
		from := &ts[j]
		s := &t.Sheets[rng.IntN(len(t.Sheets))]
		s.Sheet.Hands = append([]domain.Hand(nil), from.Sheets[rng.IntN(len(from.Sheets))].Sheet.Hands...)
		plants = append(plants, planted{kind: KindCopiedSheet, tournament: t.Tournament.ID, round: s.Round, table: s.Table})
	}
	return ts, plants
}

func (t *Tournament) round(n int) domain.Round {
	for _, r := range t.Rounds {
		if r.Number == n {
			return r
		}
	}
	return domain.Round{}
}

func genTournament(tb testing.TB, rng *rand.Rand, id string) Tournament {
	n := 8 + 2*rng.IntN(5)
	t := Tournament{Tournament: domain.Tournament{ID: id, Name: id, ClubID: "c1", Level: domain.LevelRegional, Ruleset: domain.FITAB2025,
		Kind: domain.KindPairs, RoundsPlanned: 4, HandsPerRound: 3, Date: time.Date(2026, time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)}}
	var ids []string
	for i := 1; i <= n; i++ {
		ids = append(ids, fmt.Sprint(i))
		t.Entrants = append(t.Entrants, domain.Entrant{ID: fmt.Sprint(i), Players: []domain.Player{{Name: "A"}, {Name: "B"}}})
	}
	signed := t.Tournament.Date.Add(20 * time.Hour)
	var previous []domain.PairedRound
	var results []domain.TableResult
	for number := 1; number <= 4; number++ {
		req := domain.PairingRequest{Ruleset: domain.FITAB2025, Kind: domain.KindPairs, System: domain.SystemDanese, Round: number, RoundsPlanned: 4,
			Entrants: ids, Previous: previous}
		if number == 1 {
			req.System = domain.SystemEntryOrder
		} else {
			st, err := domain.OfficialStandings(domain.OfficialStandingsInput{Tournament: t.Tournament, Entrants: t.Entrants, Rounds: t.Rounds, Results: results})
			if err != nil {
				tb.Fatal(err)
			}
			for _, r := range st.Rows {
				req.Standings = append(req.Standings, r.Entrant.ID)
			}
		}
		pr, err := domain.GeneratePairing(req)
		if err != nil {
			tb.Fatal(err)
		}
		r := domain.Round{Number: number, HandsPlanned: 3, Phase: domain.PhaseDanese, State: domain.RoundNextPairingPublished, System: pr.System}
		for _, pt := range pr.Tables {
			ta := domain.TableAssignment{Table: pt.Table}
			ta.SetLine(domain.NS, pt.NS)
			ta.SetLine(domain.EO, pt.EO)
			r.Tables = append(r.Tables, ta)
		}
		t.Rounds = append(t.Rounds, r)
		previous = append(previous, pr)
		for _, ta := range r.Tables {
			s := domain.Sheet{Ruleset: domain.FITAB2025, HandsPlanned: 3, Kind: domain.KindPairs, Round: number, Table: ta.Table,
				Sides: [2]domain.Side{{ID: ta.NS}, {ID: ta.EO}}}
			for range 3 {
				h := domain.Hand{End: domain.EndClosed}
				closer := rng.IntN(2)
				for l := range 2 {
					base := 100 * rng.IntN(4)
					if l == closer {
						base = 200 + 100*rng.IntN(3)
					}
					h.Lines[l] = domain.LineScore{Base: base, Points: 5 * (rng.IntN(60) - 10)}
				}
				s.Hands = append(s.Hands, h)
			}
			signed = signed.Add(time.Minute)
			t.Sheets = append(t.Sheets, Sheet{Round: number, Table: ta.Table, Sheet: s, SignedAt: signed, ChangedAt: signed.Add(-time.Second)})
			m := domain.OfficialResult(s, domain.Validate(s))
			results = append(results, domain.TableResult{Round: number, Table: ta.Table, NS: ta.NS, EO: ta.EO,
				Official: [2]domain.LineResult{m.Lines[0].Official, m.Lines[1].Official}, Computed: [2]domain.LineResult{m.Lines[0].Computed, m.Lines[1].Computed}})
		}
	}
	return t
}

// In a generated season of 200 tournaments with 10 planted
// anomalies of each kind, every planted one is found; the flags that are
// not planted are counted (docs/screening.md reports them).
func TestScreeningFindsEveryPlantedAnomaly(t *testing.T) {
	ts, plants := genSeason(t, 200, 10, 1)
	flags := Screen(ts)
	matches := func(p planted, f Flag) bool {
		if f.Kind != p.kind {
			return false
		}
		if p.kind == KindCopiedSheet {
			if same, ok := f.Data["same_as"].(map[string]any); ok && same["tournament"] == p.tournament && same["round"] == p.round && same["table"] == p.table {
				return true
			}
		}
		if f.Tournament != p.tournament {
			return false
		}
		switch p.kind {
		case KindImprobableMargins:
			return len(f.Entrants) == 1 && f.Entrants[0] == p.entrant
		case KindStandingsNotDerivable:
			return true
		case KindCopiedSheet:
			// either sheet of the pair may be the one flagged
			if f.Round == p.round && f.Table == p.table {
				return true
			}
		}
		return f.Round == p.round && f.Table == p.table
	}
	used := make([]bool, len(flags))
	for _, p := range plants {
		found := false
		for i, f := range flags {
			if matches(p, f) {
				found, used[i] = true, true
			}
		}
		if !found {
			t.Errorf("planted %s in %s (round %d, table %d, entrant %q) not flagged", p.kind, p.tournament, p.round, p.table, p.entrant)
		}
	}
	false_ := map[string]int{}
	for i, f := range flags {
		if !used[i] {
			false_[f.Kind]++
			t.Logf("not planted: %s %s r%d t%d %v score %.1f: %s", f.Kind, f.Tournament, f.Round, f.Table, f.Entrants, f.Score, f.Reason)
		}
	}
	for _, k := range Kinds {
		t.Logf("%-26s planted 10, flags %d, not planted %d", k, countKind(flags, k), false_[k])
	}
	for _, f := range flags {
		if f.Reason == "" || f.ReasonIT == "" || f.Data == nil || f.Score <= 0 {
			t.Errorf("flag without reason, data or score: %+v", f)
		}
	}
}

func countKind(flags []Flag, k string) int {
	n := 0
	for _, f := range flags {
		if f.Kind == k {
			n++
		}
	}
	return n
}

// An honest season gives no flag of the kinds that are rules rather than
// statistics (a signed sheet not changed, corrections as ruled, no two
// sheets alike, standings as the hands give).
func TestScreeningHonestSeasonHasNoRuleFlags(t *testing.T) {
	ts, _ := genSeason(t, 60, 0, 2)
	for _, f := range Screen(ts) {
		switch f.Kind {
		case KindChangedAfterSignature, KindCorrectionOutsideRuling, KindCopiedSheet, KindStandingsNotDerivable:
			t.Errorf("honest season flagged: %+v", f)
		}
	}
}

// BenchmarkScreenSeason5000 is the budget: screening a season of
// 5,000 tournaments ≤ 60 s (the in-memory screening; reading the season
// from the database is app's and measured apart).
func BenchmarkScreenSeason5000(b *testing.B) {
	ts, _ := genSeason(b, 5000, 10, 3)
	b.ResetTimer()
	for b.Loop() {
		if len(Screen(ts)) == 0 {
			b.Fatal("no flags")
		}
	}
}
