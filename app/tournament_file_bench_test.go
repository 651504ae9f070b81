package app_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
	"segnapunti/tournamentfile"
	"segnapunti/tournamentfile/filetest"

	"golang.org/x/sync/errgroup"
)

// BenchmarkImportTournamentFile1000Pairs8Rounds: importing a national
// event's file (1,000 pairs, 8 rounds, 4,000 sheets) on the embedded
// database, in its one transaction.
func BenchmarkImportTournamentFile1000Pairs8Rounds(b *testing.B) {
	systems := []domain.PairingSystem{domain.SystemEntryOrder}
	for range 7 {
		systems = append(systems, domain.SystemDanese)
	}
	data, err := tournamentfile.Marshal(filetest.Generate(b, 1000, systems, 5))
	if err != nil {
		b.Fatal(err)
	}
	db := dbtest.SQLite(b)
	if _, err := db.CreateClub(context.Background(), domain.Club{ID: "c1", Name: "Uno"}); err != nil {
		b.Fatal(err)
	}
	a := app.New(db, nil, nil)
	fed := app.Principal{Role: domain.RoleFederation, Name: "FITAB"}
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.ImportTournamentFile(context.Background(), fed, data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScreenSeasonFromDatabase200: the season screening of 200
// stored tournaments (12 pairs, 4 rounds) on the embedded database,
// reading included.
func BenchmarkScreenSeasonFromDatabase200(b *testing.B) {
	benchScreenStored(b, dbtest.SQLite(b), 200, 1)
}

// BenchmarkScreenSeason5000FromPostgres: the season screening of 5,000
// tournaments (12 pairs, 4 rounds: 120,000 sheets) stored in PostgreSQL,
// reading included (docs/screening.md). SCREEN_TOURNAMENTS changes the
// count for a shorter run.
func BenchmarkScreenSeason5000FromPostgres(b *testing.B) {
	n := 5000
	if v, err := strconv.Atoi(os.Getenv("SCREEN_TOURNAMENTS")); err == nil && v > 0 {
		n = v
	}
	benchScreenStored(b, dbtest.Postgres(b), n, 4)
}

// benchScreenStored imports n generated tournaments into db, workers at a
// time (not timed), and times the season screening over them.
func benchScreenStored(b *testing.B, db *store.DB, n, workers int) {
	a, fed := importGenerated(b, db, n, workers)
	b.ResetTimer()
	for b.Loop() {
		s, err := a.ScreenSeason(context.Background(), fed, "2026", "")
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(s.Flags)), "flags")
	}
}

// BenchmarkSeasonVerificationsPage: the federation's list of verification
// statuses at its bound (app.MaxSeasonVerifications tournaments of 12
// pairs and 4 rounds, each one's file written and verified) on the
// embedded database.
func BenchmarkSeasonVerificationsPage(b *testing.B) {
	a, fed := importGenerated(b, dbtest.SQLite(b), app.MaxSeasonVerifications, 1)
	b.ResetTimer()
	for b.Loop() {
		list, _, err := a.SeasonVerifications(context.Background(), fed, "2026", "", domain.Italian)
		if err != nil || len(list) != app.MaxSeasonVerifications {
			b.Fatal(len(list), err)
		}
	}
}

// importGenerated imports n generated tournaments into db, workers at a
// time, and returns the operations and a federation principal.
func importGenerated(b *testing.B, db *store.DB, n, workers int) (*app.App, app.Principal) {
	ctx := context.Background()
	if _, err := db.CreateClub(ctx, domain.Club{ID: "c1", Name: "Uno"}); err != nil {
		b.Fatal(err)
	}
	a := app.New(db, nil, nil)
	fed := app.Principal{Role: domain.RoleFederation, Name: "FITAB"}
	systems := []domain.PairingSystem{domain.SystemEntryOrder, domain.SystemDanese, domain.SystemDanese, domain.SystemDanese}
	start := time.Now()
	var g errgroup.Group
	g.SetLimit(workers)
	for i := range n {
		g.Go(func() error {
			data, err := tournamentfile.Marshal(filetest.Generate(b, 12, systems, uint64(i)))
			if err != nil {
				return err
			}
			_, err = a.ImportTournamentFile(ctx, fed, data)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d tournaments imported in %v", n, time.Since(start))
	return a, fed
}
