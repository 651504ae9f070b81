package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// ImportTournament writes a whole tournament in one transaction: all of
// it, or — when any part fails — nothing at all (API §4.4, "one
// transaction").
func TestImportTournamentIsOneTransaction(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.CreateClub(ctx, domain.Club{ID: "c1", Name: "Uno"}); err != nil {
			t.Fatal(err)
		}
		imp := store.TournamentImport{
			Tournament: domain.Tournament{Name: "Importato", Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), ClubID: "c1",
				Level: domain.LevelClub, Ruleset: domain.FITAB2025, Kind: domain.KindPairs, RoundsPlanned: 2, HandsPerRound: 2},
			Entrants: []domain.Entrant{{ID: "1", Players: []domain.Player{{Name: "A"}, {Name: "B"}}}, {ID: "2", Players: []domain.Player{{Name: "C"}, {Name: "D"}}}},
			Rounds: []domain.Round{{Number: 1, HandsPlanned: 2, Phase: domain.PhaseDanese, State: domain.RoundSheetsDelivered,
				Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}}}},
		}
		sheet := domain.Sheet{Ruleset: domain.FITAB2025, HandsPlanned: 2, Hands: []domain.Hand{
			{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 300, Points: 100}, {Base: 0, Points: -40}}}}}
		stored := time.Date(2026, 11, 21, 21, 0, 0, 0, time.UTC)
		imp.Sheets = []store.ImportedTournamentSheet{{Round: 1, Table: 1, Sheet: sheet, ReportJSON: []byte(`{}`), StoredAt: stored,
			Signatures: []store.Confirmation{{Line: domain.EO, Kind: store.SignConfirm, SignedBy: domain.EO, Entrant: "2", Via: "table", At: stored.Add(time.Minute)}}}}

		// A sheet of a table the round does not have fails the whole import.
		bad := imp
		bad.Sheets = append(append([]store.ImportedTournamentSheet(nil), imp.Sheets...), store.ImportedTournamentSheet{Round: 1, Table: 9, Sheet: sheet, ReportJSON: []byte(`{}`), StoredAt: stored})
		if _, err := db.ImportTournament(ctx, bad); err == nil {
			t.Fatal("an import with a sheet of a missing table succeeded")
		}
		if ts, err := db.ListTournaments(ctx, store.TournamentFilter{ClubID: "c1"}); err != nil || len(ts) != 0 {
			t.Fatalf("a failed import left %d tournaments (%v)", len(ts), err)
		}

		got, err := db.ImportTournament(ctx, imp)
		if err != nil {
			t.Fatal(err)
		}
		st, err := db.GetSheet(ctx, got.ID, 1, 1)
		if err != nil || !st.UpdatedAt.Equal(stored) {
			t.Errorf("sheet stored at %v (%v), want the file's %v", st.UpdatedAt, err, stored)
		}
		sig, err := db.SheetConfirmations(ctx, got.ID, 1, 1)
		if err != nil || len(sig) != 1 || !sig[0].At.Equal(stored.Add(time.Minute)) {
			t.Errorf("signatures %+v (%v)", sig, err)
		}
		r, err := db.GetRound(ctx, got.ID, 1)
		if err != nil || r.State != domain.RoundSheetsDelivered {
			t.Errorf("round %+v (%v)", r, err)
		}
		if _, err := db.ImportTournament(ctx, store.TournamentImport{Tournament: domain.Tournament{Name: "x", Date: stored, ClubID: "nobody",
			Level: domain.LevelClub, Ruleset: domain.FITAB2025, Kind: domain.KindPairs, RoundsPlanned: 1, HandsPerRound: 2}}); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("an unknown club: %v, want ErrInvalid", err)
		}
	})
}
