package store_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// BenchmarkStandingsIndividual400x7: the standings of an
// individual tournament of 400 players × 7 rounds (100 tables a round,
// seated by the individual schedule), read as GET standings reads them —
// MatchResults (one query joining round_tables for both players of each
// line) + domain.OfficialStandings (a result per player). The baseline is
// BenchmarkStandingsPairs400x7: 400 pairs × 7 rounds, 200 tables a round,
// the same code path.
func BenchmarkStandingsIndividual400x7(b *testing.B) {
	benchStandingsKind(b, dbtest.Postgres(b), domain.KindIndividual, 400, 7)
}

func BenchmarkStandingsPairs400x7(b *testing.B) {
	benchStandingsKind(b, dbtest.Postgres(b), domain.KindPairs, 400, 7)
}

func benchStandingsKind(b *testing.B, db *store.DB, kind domain.Kind, entrants, rounds int) {
	ctx := context.Background()
	tr := tournament()
	tr.Kind, tr.RoundsPlanned = kind, rounds
	tr, err := db.CreateTournament(ctx, tr)
	if err != nil {
		b.Fatal(err)
	}
	var es []domain.Entrant
	var ids []string
	for i := 1; i <= entrants; i++ {
		es = append(es, domain.Entrant{ID: strconv.Itoa(i), Players: []domain.Player{{Name: fmt.Sprint("Player ", i)}}})
		ids = append(ids, strconv.Itoa(i))
	}
	if err := db.AddEntrants(ctx, tr.ID, es); err != nil {
		b.Fatal(err)
	}
	var prev []domain.PairedRound
	var rs []domain.Round
	var imported []store.ImportedSheet
	s := fullSheet(b)
	s.Kind = kind
	for n := 1; n <= rounds; n++ {
		seed := uint64(n)
		system := domain.SystemDraw
		if kind != domain.KindIndividual && n > 1 {
			system = domain.SystemMitchell
		}
		p, err := domain.GeneratePairing(domain.PairingRequest{Ruleset: tr.Ruleset, Kind: kind, System: system, Round: n, RoundsPlanned: rounds,
			Entrants: ids, Previous: prev, Seed: &seed})
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
			imported = append(imported, store.ImportedSheet{Round: n, Table: t.Table, Sheet: s, ReportJSON: mustReport(b, s)})
		}
		if err := db.CreateRound(ctx, tr.ID, r); err != nil {
			b.Fatal(err)
		}
		rs = append(rs, r)
	}
	for chunk := range slices.Chunk(imported, 4000) {
		if _, _, err := db.SaveImport(ctx, store.Import{TournamentID: tr.ID, Filename: "bench.json", CreatedBy: "bench", SHA256: fmt.Sprintf("%064d", chunk[0].Round*100000+chunk[0].Table)}, chunk, true, benchImportReport); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		results, err := db.MatchResults(ctx, tr.ID, 0)
		if err != nil {
			b.Fatal(err)
		}
		if len(results) != len(imported) {
			b.Fatalf("%d results, want %d", len(results), len(imported))
		}
		st, err := domain.OfficialStandings(domain.OfficialStandingsInput{Tournament: tr, Entrants: es, Rounds: rs, Results: results})
		if err != nil {
			b.Fatal(err)
		}
		if len(st.Rows) != entrants {
			b.Fatalf("%d rows", len(st.Rows))
		}
	}
}
