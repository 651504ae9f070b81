package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pressly/goose/v3"

	"segnapunti/domain"
	"segnapunti/migrations"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// setupIndividual creates an individual tournament with players "1".."10"
// (one player an entrant) and no round.
func setupIndividual(t testing.TB, db *store.DB) string {
	t.Helper()
	ctx := context.Background()
	tr := tournament()
	tr.Kind = domain.KindIndividual
	created, err := db.CreateTournament(ctx, tr)
	if err != nil {
		t.Fatal(err)
	}
	var es []domain.Entrant
	for i := 1; i <= 10; i++ {
		es = append(es, domain.Entrant{ID: strconv.Itoa(i), Players: []domain.Player{{Name: fmt.Sprintf("Giocatore %d", i)}}})
	}
	if err := db.AddEntrants(ctx, created.ID, es); err != nil {
		t.Fatal(err)
	}
	return created.ID
}

// Migration 00013: a line of an individual tournament is two players; the
// round, its proposal, the sheet's ids and the results all keep them.
func TestIndividualLinesRoundTrip(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setupIndividual(t, db)
		r := domain.Round{Number: 1, HandsPlanned: 3, Phase: domain.PhaseDanese, State: domain.RoundPlaying,
			Tables: []domain.TableAssignment{
				{Table: 1, NS: "3", NS2: "10", EO: "7", EO2: "2"},
				{Table: 2, NS: "1", NS2: "4", EO: "5", EO2: "6"},
			},
			Byes: []string{"8", "9"}}
		wantErr(t, db.CreateRound(ctx, tid, r), nil)
		got, err := db.GetRound(ctx, tid, 1)
		wantErr(t, err, nil)
		if diff := cmp.Diff(r, got); diff != "" {
			t.Errorf("GetRound (-want +got):\n%s", diff)
		}
		one, err := db.GetRoundTable(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if tb, _ := one.Assignment(1); tb != r.Tables[0] {
			t.Errorf("GetRoundTable = %+v, want %+v", tb, r.Tables[0])
		}

		sh := fullSheet(t)
		sh.Kind = domain.KindIndividual
		sh.Sides = [2]domain.Side{{IDs: []string{"3", "10"}}, {IDs: []string{"7", "2"}, Players: []string{"Verdi", "Neri"}}}
		_, err = db.PutSheet(ctx, tid, 1, 1, sh, mustReport(t, sh), 0)
		wantErr(t, err, nil)
		st, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if diff := cmp.Diff(sh, st.Sheet, cmpOpts...); diff != "" {
			t.Errorf("GetSheet (-want +got):\n%s", diff)
		}
		res, err := db.MatchResults(ctx, tid, 0)
		wantErr(t, err, nil)
		if len(res) != 1 || res[0].NS != "3" || res[0].NS2 != "10" || res[0].EO != "7" || res[0].EO2 != "2" {
			t.Errorf("MatchResults = %+v, want the four players of table 1", res)
		}

		p := domain.Round{Number: 2, HandsPlanned: 3, Phase: domain.PhaseDanese, System: domain.SystemDraw, Seed: new(uint64(7)),
			Tables: []domain.TableAssignment{{Table: 1, NS: "1", NS2: "2", EO: "3", EO2: "4"}}, Byes: []string{"5"}}
		wantErr(t, db.ProposeRound(ctx, tid, p), nil)
		pr, err := db.ProposedRound(ctx, tid, 2)
		wantErr(t, err, nil)
		if pr.Tables[0] != p.Tables[0] {
			t.Errorf("proposed table = %+v, want %+v", pr.Tables[0], p.Tables[0])
		}
		pub, err := db.PublishRound(ctx, tid, 2)
		wantErr(t, err, nil)
		if pub.Tables[0] != p.Tables[0] {
			t.Errorf("published table = %+v, want %+v", pub.Tables[0], p.Tables[0])
		}

		// A second player seated is an entrant that cannot be withdrawn.
		err = db.WithdrawEntrant(ctx, tid, "10", func(u store.EntrantUse) error {
			if u.Seated == 0 {
				t.Errorf("player 10 seated as a second player counts as seated")
			}
			return domain.ErrConflict
		})
		wantErr(t, err, domain.ErrConflict)
	})
}

// The database refuses what the app refuses first: a second player not
// entered, one line with a second player and the other without, a player
// twice at one table.
func TestIndividualLinesRefused(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setupIndividual(t, db)
		for _, tc := range []struct {
			name string
			tb   domain.TableAssignment
		}{
			{"second player not entered", domain.TableAssignment{Table: 1, NS: "1", NS2: "99", EO: "3", EO2: "4"}},
			{"one line without its second player", domain.TableAssignment{Table: 1, NS: "1", NS2: "2", EO: "3"}},
			{"a player twice at the table", domain.TableAssignment{Table: 1, NS: "1", NS2: "3", EO: "3", EO2: "4"}},
			{"partners the same player", domain.TableAssignment{Table: 1, NS: "1", NS2: "1", EO: "3", EO2: "4"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				err := db.CreateRound(ctx, tid, domain.Round{Number: 1, HandsPlanned: 3, Phase: domain.PhaseDanese, Tables: []domain.TableAssignment{tc.tb}})
				if err == nil {
					t.Fatal("stored")
				}
			})
		}
		if _, err := db.GetRound(ctx, tid, 1); err == nil {
			t.Error("a refused round left a row")
		}
	})
}

// Migration 00013 keeps every existing tournament readable: an individual
// tournament stored before it (one player a line, a sheet naming its line
// by id) reads back as it was after migrating up, with no second players,
// and its results and standings still count.
func TestIndividualMigrationKeepsOldRoundsReadable(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		dsn := emptyDSN(t, dialect)
		db := open(t, dsn)
		tid := setupIndividual(t, db)
		old := domain.Round{Number: 1, HandsPlanned: 3, Phase: domain.PhaseDanese, State: domain.RoundPlaying,
			Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}}}
		wantErr(t, db.CreateRound(ctx, tid, old), nil)
		sh := minimalSheet()
		sh.Kind = domain.KindIndividual
		sh.Sides = [2]domain.Side{{ID: "1"}, {ID: "2"}}
		_, err := db.PutSheet(ctx, tid, 1, 1, sh, mustReport(t, sh), 0)
		wantErr(t, err, nil)
		db.Close()

		// Back to the schema before 00013, then up again as a start does.
		driver, gooseDialect, raw := "pgx", goose.DialectPostgres, dsn
		if dialect == store.DialectSQLite {
			driver, gooseDialect, raw = "sqlite", goose.DialectSQLite3, dsn+"?_pragma=foreign_keys(1)"
		}
		sqlDB, err := sql.Open(driver, raw)
		if err != nil {
			t.Fatal(err)
		}
		defer sqlDB.Close()
		dir, _ := migrations.Dir(dialect)
		p, err := goose.NewProvider(gooseDialect, sqlDB, dir, goose.WithDisableGlobalRegistry(true))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.DownTo(ctx, 12); err != nil {
			t.Fatalf("down to 12: %v", err)
		}
		if v, err := p.GetDBVersion(ctx); err != nil || v >= 13 {
			t.Fatalf("version %d after down (%v)", v, err)
		}
		sqlDB.Close()

		db = open(t, dsn)
		got, err := db.GetRound(ctx, tid, 1)
		wantErr(t, err, nil)
		if diff := cmp.Diff(old, got); diff != "" {
			t.Errorf("old round after migrating (-want +got):\n%s", diff)
		}
		st, err := db.GetSheet(ctx, tid, 1, 1)
		wantErr(t, err, nil)
		if st.Sheet.Sides[domain.NS].ID != "1" || st.Sheet.Sides[domain.NS].IDs != nil {
			t.Errorf("old sheet sides %+v", st.Sheet.Sides)
		}
		res, err := db.MatchResults(ctx, tid, 0)
		wantErr(t, err, nil)
		if len(res) != 1 || res[0].NS != "1" || res[0].NS2 != "" || res[0].EO != "2" || res[0].EO2 != "" {
			t.Errorf("old results %+v", res)
		}
	})
}
