package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// The standings as StandingsOf reads them (store.MatchResultsSeated: on
// PostgreSQL no ORDER BY, computed figures only where they differ, text
// format — issue 26) are the standings computed from the join
// (store.MatchResults, the read before), after every round, on a
// generated tournament with byes, a withdrawal (a vacated seat), sheets
// with written errors, one rewritten, a correction applied, and
// adjustments (a penalty, an awarded match, a late start).
func TestStandingsReadAgreesWithTheJoin(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tr, err := db.CreateTournament(ctx, domain.Tournament{Name: "Generato", Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC),
			Level: domain.LevelClub, Ruleset: domain.FITAB2025, Kind: domain.KindPairs, RoundsPlanned: 3, HandsPerRound: 3})
		if err != nil {
			t.Fatal(err)
		}
		const n = 15 // odd: a bye every round
		var es []domain.Entrant
		for i := 1; i <= n; i++ {
			e := domain.Entrant{ID: strconv.Itoa(i), Players: []domain.Player{{Name: fmt.Sprintf("Giocatore \"%d\" <%d>", i, i)}}}
			if i == n {
				e.WithdrawnFromRound = new(3)
			}
			es = append(es, e)
		}
		if err := db.AddEntrants(ctx, tr.ID, es); err != nil {
			t.Fatal(err)
		}
		for r := 1; r <= 3; r++ {
			order := make([]string, 0, n)
			for i := range n {
				order = append(order, strconv.Itoa(1+(i*(r+1)+r)%n))
			}
			round := domain.Round{Number: r, HandsPlanned: 3, Phase: domain.PhaseMitchell}
			rest := order[1:]
			if r < 3 {
				round.Byes = []string{order[0]}
			} else { // n withdrew: its would-be opponent is alone (RULES §12.3)
				rest = nil
				for _, id := range order {
					if id != strconv.Itoa(n) {
						rest = append(rest, id)
					}
				}
				round.Vacated, rest = []string{rest[0]}, rest[1:]
			}
			for k := 0; k+1 < len(rest); k += 2 {
				round.Tables = append(round.Tables, domain.TableAssignment{Table: k/2 + 1, NS: rest[k], EO: rest[k+1]})
			}
			if err := db.CreateRound(ctx, tr.ID, round); err != nil {
				t.Fatal(err)
			}
			for _, tb := range round.Tables {
				s := standingsSheet(100*((tb.Table+r)%5), 50*((tb.Table*r)%4))
				if (tb.Table+r)%3 == 0 { // a written total the hands do not give
					s.Written[domain.NS].Total = domain.Int(999)
				}
				if _, err := db.PutSheet(ctx, tr.ID, r, tb.Table, s, []byte(`{}`), 0); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := db.PutSheet(ctx, tr.ID, 1, 2, standingsSheet(400, 0), []byte(`{}`), 0); err != nil {
			t.Fatal(err)
		}
		_, err = db.CorrectSheet(ctx, tr.ID, 2, 1, 0, func(st store.StoredSheet) (store.CorrectionOutcome, error) {
			s := st.Sheet
			s.Written[domain.NS].Total = domain.Int(1234)
			return store.CorrectionOutcome{Correction: store.Correction{Kind: domain.CorrectionSum, Ruling: domain.RulingApply,
				Situation: domain.CorrectionSituation{Ruleset: domain.FITAB2025, Kind: domain.CorrectionSum, Level: domain.LevelClub, Phase: domain.PhaseMitchell, ErrorRound: 2, CurrentRound: 3},
				Before:    json.RawMessage(`{}`), After: json.RawMessage(`{}`), Author: "Arbitro"}, Sheet: &s, ReportJSON: []byte(`{}`)}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range []store.Adjustment{
			{Entrant: "3", Round: 2, Case: domain.AdjustmentCase{Reason: domain.ReasonRefereeScore, Note: "x"}, Effect: domain.AdjustmentEffect{Delta: domain.MatchScore{VP: -2, MP: -130}}},
			{Entrant: "4", Round: 1, Case: domain.AdjustmentCase{Reason: domain.ReasonLateOver10}, Effect: domain.AdjustmentEffect{Result: &domain.MatchScore{VP: 14, MP: 365}, Awarded: true}},
			{Entrant: "6", Round: 3, Case: domain.AdjustmentCase{Reason: domain.ReasonLateStart}, Effect: domain.AdjustmentEffect{Result: &domain.MatchScore{VP: 8, MP: -130}}},
		} {
			if _, err := db.AddAdjustment(ctx, tr.ID, a.Entrant, func(store.EntrantRecord) (store.Adjustment, error) { a.Author = "Arbitro"; return a, nil }); err != nil {
				t.Fatal(err)
			}
		}

		a := New(db, nil, slog.New(slog.DiscardHandler))
		tour, err := db.GetTournament(ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		differing := 0
		// check compares, after every round, the standings StandingsOf
		// gives (its caches kept from one check to the next: after a
		// change only the changed rounds are read again) with those of
		// the join read afresh.
		check := func(when string) {
			t.Helper()
			entrants, err := db.ListEntrants(ctx, tr.ID)
			if err != nil {
				t.Fatal(err)
			}
			rounds, err := db.ListRounds(ctx, tr.ID)
			if err != nil {
				t.Fatal(err)
			}
			adjustments, err := db.ListAdjustments(ctx, tr.ID)
			if err != nil {
				t.Fatal(err)
			}
			for after := range 4 {
				joined, err := db.MatchResults(ctx, tr.ID, after)
				if err != nil {
					t.Fatal(err)
				}
				want, err := computeStandings(tour, entrants, rounds, joined, adjustments, after)
				if err != nil {
					t.Fatal(err)
				}
				got, err := a.StandingsOf(ctx, tour, after)
				if err != nil {
					t.Fatal(err)
				}
				got.Stamp = ""
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("%s, after round %d: StandingsOf differs from the join's standings (-join +read):\n%s", when, after, d)
				}
				differing += len(got.Discrepancies)
			}
		}
		check("generated")
		if got, err := a.StandingsOf(ctx, tour, 0); err != nil || len(got.Adjustments) != 3 || len(got.Rows) != n {
			t.Errorf("the case is not covered: %d adjusted, %d rows, %v", len(got.Adjustments), len(got.Rows), err)
		}
		// Changes this App does not hear of (as another process's): each
		// is seen at the next read, its round read again, the others kept.
		if _, err := db.PutSheet(ctx, tr.ID, 2, 3, standingsSheet(700, 0), []byte(`{}`), 0); err != nil {
			t.Fatal(err)
		}
		check("a sheet of round 2 rewritten")
		_, err = db.CorrectSheet(ctx, tr.ID, 3, 2, 0, func(st store.StoredSheet) (store.CorrectionOutcome, error) {
			s := st.Sheet
			s.Written[domain.EO].Total = domain.Int(-50)
			return store.CorrectionOutcome{Correction: store.Correction{Kind: domain.CorrectionSum, Ruling: domain.RulingApply,
				Situation: domain.CorrectionSituation{Ruleset: domain.FITAB2025, Kind: domain.CorrectionSum, Level: domain.LevelClub, Phase: domain.PhaseMitchell, ErrorRound: 3, CurrentRound: 3},
				Before:    json.RawMessage(`{}`), After: json.RawMessage(`{}`), Author: "Arbitro"}, Sheet: &s, ReportJSON: []byte(`{}`)}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		check("a sheet of round 3 corrected")
		if _, err := db.AddAdjustment(ctx, tr.ID, "7", func(store.EntrantRecord) (store.Adjustment, error) {
			return store.Adjustment{Entrant: "7", Round: 1, Case: domain.AdjustmentCase{Reason: domain.ReasonRefereeScore, Note: "y"},
				Effect: domain.AdjustmentEffect{Delta: domain.MatchScore{VP: -1, MP: -65}}, Author: "Arbitro"}, nil
		}); err != nil {
			t.Fatal(err)
		}
		check("an adjustment")
		if err := db.AddEntrants(ctx, tr.ID, []domain.Entrant{{ID: "16", Players: []domain.Player{{Name: "Ultimo"}}}}); err != nil {
			t.Fatal(err)
		}
		if tour, err = db.GetTournament(ctx, tr.ID); err != nil { // a new version
			t.Fatal(err)
		}
		check("an entrant added")
		if differing == 0 {
			t.Error("no discrepancy: the case is not covered")
		}
	})
}
