package app

import (
	"strconv"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
)

// BenchmarkComputeStandingsIndividual400x7: an individual
// tournament of 400 players × 7 rounds, seated by the individual schedule
// (100 tables a round, four players a table), ranked per player from its
// records (RULES §8: VP follow the player). Compare
// BenchmarkComputeStandings (400 pairs × 5 rounds).
func BenchmarkComputeStandingsIndividual400x7(b *testing.B) {
	const nPlayers, nRounds = 400, 7
	tour := domain.Tournament{ID: "t", Ruleset: domain.FITAB2025, Kind: domain.KindIndividual, RoundsPlanned: nRounds, HandsPerRound: 3}
	var entrants []domain.Entrant
	var ids []string
	for i := 1; i <= nPlayers; i++ {
		entrants = append(entrants, domain.Entrant{ID: strconv.Itoa(i)})
		ids = append(ids, strconv.Itoa(i))
	}
	var prev []domain.PairedRound
	var rounds []domain.Round
	var sheets []store.SheetAt
	for n := 1; n <= nRounds; n++ {
		seed := uint64(n)
		p, err := domain.GeneratePairing(domain.PairingRequest{Ruleset: tour.Ruleset, Kind: tour.Kind, System: domain.SystemDraw,
			Round: n, RoundsPlanned: nRounds, Entrants: ids, Previous: prev, Seed: &seed})
		if err != nil {
			b.Fatal(err)
		}
		prev = append(prev, p)
		r := domain.Round{Number: n, HandsPlanned: 3, Phase: domain.PhaseDanese, Byes: p.Byes}
		for _, t := range p.Tables {
			ta := domain.TableAssignment{Table: t.Table}
			ta.SetLine(domain.NS, t.NS)
			ta.SetLine(domain.EO, t.EO)
			r.Tables = append(r.Tables, ta)
			s := standingsSheet(5*((t.Table*n)%97), 5*((t.Table+n)%89))
			s.Hands = append(s.Hands, s.Hands[0], s.Hands[0])
			sheets = append(sheets, store.SheetAt{Round: n, Table: t.Table, StoredSheet: store.StoredSheet{Sheet: s}})
		}
		rounds = append(rounds, r)
	}
	results := resultsOf(rounds, sheets)
	st, err := computeStandings(tour, entrants, rounds, results, nil, 0)
	if err != nil || len(st.Rows) != nPlayers {
		b.Fatalf("%d rows, %v", len(st.Rows), err)
	}
	for b.Loop() {
		if _, err := computeStandings(tour, entrants, rounds, results, nil, 0); err != nil {
			b.Fatal(err)
		}
	}
}
