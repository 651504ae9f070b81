package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
)

// cmpOpts compares domain values exactly: nil and empty differ, the VP
// table's id is compared.
var cmpOpts = []cmp.Option{cmp.AllowUnexported(domain.VPTable{})}

func mustVPTable(t testing.TB, id string) domain.VPTable {
	t.Helper()
	vp, err := domain.ParseVPTable(id)
	if err != nil {
		t.Fatal(err)
	}
	return vp
}

// tournament is a pairs tournament under fitab-2025 (no club).
func tournament() domain.Tournament {
	return domain.Tournament{
		Name:          "Coppa Autunno",
		Date:          time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC),
		Level:         domain.LevelClub,
		Ruleset:       domain.FITAB2025,
		Kind:          domain.KindPairs,
		RoundsPlanned: 4,
		HandsPerRound: 3,
	}
}

// setup creates a tournament with entrants "1".."8" and round 1 played
// Mitchell at tables 1..4 (1 v 2, 3 v 4, ...).
func setup(t testing.TB, db *store.DB) string {
	t.Helper()
	ctx := context.Background()
	tr, err := db.CreateTournament(ctx, tournament())
	if err != nil {
		t.Fatal(err)
	}
	var es []domain.Entrant
	for i := 1; i <= 8; i++ {
		es = append(es, domain.Entrant{ID: strconv.Itoa(i), Players: []domain.Player{{Name: fmt.Sprintf("Player %dA", i)}, {Name: fmt.Sprintf("Player %dB", i)}}})
	}
	if err := db.AddEntrants(ctx, tr.ID, es); err != nil {
		t.Fatal(err)
	}
	r := domain.Round{Number: 1, HandsPlanned: 3, Phase: domain.PhaseMitchell}
	for table := 1; table <= 4; table++ {
		r.Tables = append(r.Tables, domain.TableAssignment{Table: table, NS: strconv.Itoa(2*table - 1), EO: strconv.Itoa(2 * table)})
	}
	if err := db.CreateRound(ctx, tr.ID, r); err != nil {
		t.Fatal(err)
	}
	return tr.ID
}

// fullSheet gives every optional field of API §1 a value, so a round trip
// that drops one is caught.
func fullSheet(t testing.TB) domain.Sheet {
	return domain.Sheet{
		Ruleset:      domain.FITAB2025,
		HandsPlanned: 3,
		Kind:         domain.KindPairs,
		VPTable:      mustVPTable(t, "fitab-3"),
		Tournament:   "Coppa Autunno",
		Round:        1,
		Table:        1,
		Sides: [2]domain.Side{
			{ID: "1", Players: []string{"Rossi Anna", "Bianchi Luca"}},
			{ID: "2", Players: []string{"Verdi Carla", "Neri Paolo"}},
		},
		FirstDealer: "n",
		LatePoints:  [2]int{100, 0},
		Hands: []domain.Hand{
			{
				End: domain.EndClosed,
				Lines: [2]domain.LineScore{
					{Base: 300, Points: 235, Total: domain.Int(535), RunningTotal: domain.Int(535),
						Burrachi: map[domain.BurracoType]int{domain.Pulito: 1}, Closed: domain.Bool(true), Pozzetto: domain.PozzettoTaken,
						TablePoints: domain.Int(255), HandPoints: domain.Int(20), PozzettoUnplayedPoints: domain.Int(0), PenaltyPoints: domain.Int(0)},
					{Base: 100, Points: -120, Total: domain.Int(-20), RunningTotal: domain.Int(-20),
						Burrachi: map[domain.BurracoType]int{domain.Sporco: 1}, Closed: domain.Bool(false), Pozzetto: domain.PozzettoTakenUnplay,
						TablePoints: domain.Int(40), HandPoints: domain.Int(0), PozzettoUnplayedPoints: domain.Int(60), PenaltyPoints: domain.Int(100)},
				},
			},
			{
				End:       domain.EndStockExhausted,
				LostCount: true,
				Lines: [2]domain.LineScore{
					// An empty breakdown (given: no burrachi) differs from none.
					{Base: 0, Points: 85, Total: domain.Int(85), Burrachi: map[domain.BurracoType]int{}, Pozzetto: domain.PozzettoNotTaken},
					{Base: 450, Points: 180, Total: domain.Int(630),
						Burrachi: map[domain.BurracoType]int{domain.Reale: 1, domain.Semipulito: 2, domain.Sporco: 0}},
				},
			},
			{
				End: domain.EndUnknown,
				Lines: [2]domain.LineScore{
					{Base: 200, Points: 15},
					{Base: 200, Points: 10},
				},
			},
		},
		Written: [2]domain.WrittenResult{
			{Total: domain.Int(1450), MP: domain.Int(300), VP: domain.Int(13)},
			{Total: domain.Int(1150), MP: domain.Int(-300), VP: domain.Int(7)},
		},
		Cells: map[string]string{"/hands/0/ns/total": "Smazzate!K12", "/written/eo/vp": "Smazzate!M20"},
	}
}

// minimalSheet is what a sheet copied from paper usually has (API §1): base
// and points, nothing optional.
func minimalSheet() domain.Sheet {
	return domain.Sheet{
		Ruleset:      domain.FIBurInt,
		HandsPlanned: 2,
		Hands:        []domain.Hand{{Lines: [2]domain.LineScore{{Base: 100, Points: 20}, {Base: 0, Points: -40}}}},
	}
}

// report stands in for the validator's report: JSON naming the hand count.
func report(s domain.Sheet) ([]byte, error) {
	return json.Marshal(map[string]any{"ok": true, "hands": len(s.Hands), "ruleset": s.Ruleset})
}

func mustReport(t testing.TB, s domain.Sheet) []byte {
	t.Helper()
	b, err := report(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantErr fails unless err wraps want (nil: no error).
func wantErr(t testing.TB, err, want error) {
	t.Helper()
	switch {
	case want == nil && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != nil && !errors.Is(err, want):
		t.Fatalf("error = %v, want one wrapping %v", err, want)
	}
}
