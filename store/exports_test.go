package store_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// sheetWithHands is fullSheet cut to n hands, headed with its table.
func sheetWithHands(t testing.TB, round, table, n int) domain.Sheet {
	s := fullSheet(t)
	s.Round, s.Table = round, table
	s.Hands = s.Hands[:n]
	return s
}

func TestEachSheet(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		r2 := domain.Round{Number: 2, HandsPlanned: 3, Phase: domain.PhaseMitchell}
		for table := 1; table <= 4; table++ {
			r2.Tables = append(r2.Tables, domain.TableAssignment{Table: table, NS: strconv.Itoa(table), EO: strconv.Itoa(table + 4)})
		}
		wantErr(t, db.CreateRound(ctx, tid, r2), nil)
		other := setup(t, db) // a second tournament: its sheets are not listed

		// Written out of order, some tables without a sheet, one sheet
		// replaced by a shorter one: the listing is by round then table
		// and holds each sheet's current hands.
		put := func(tid string, round, table, hands int) {
			t.Helper()
			s := sheetWithHands(t, round, table, hands)
			if _, err := db.PutSheet(ctx, tid, round, table, s, mustReport(t, s), 0); err != nil {
				t.Fatal(err)
			}
		}
		put(tid, 2, 3, 1)
		put(tid, 1, 4, 2)
		put(tid, 1, 1, 3)
		put(tid, 2, 1, 2)
		put(tid, 1, 2, 3)
		put(tid, 1, 2, 1) // version 2, one hand
		put(other, 1, 3, 3)

		var want []store.SheetAt
		for _, k := range [][2]int{{1, 1}, {1, 2}, {1, 4}, {2, 1}, {2, 3}} {
			st, err := db.GetSheet(ctx, tid, k[0], k[1])
			wantErr(t, err, nil)
			want = append(want, store.SheetAt{Round: k[0], Table: k[1], StoredSheet: st})
		}
		collect := func(pageSize int) []store.SheetAt {
			t.Helper()
			var got []store.SheetAt
			for s, err := range store.EachSheetPaged(ctx, db, tid, pageSize) {
				wantErr(t, err, nil)
				got = append(got, s)
			}
			return got
		}
		// Page sizes below, at and above the number of sheets, and one that
		// ends a page exactly at the end of round 1.
		for _, size := range []int{1, 2, 3, 5, 200} {
			t.Run(fmt.Sprintf("page %d", size), func(t *testing.T) {
				if diff := cmp.Diff(want, collect(size), cmpOpts...); diff != "" {
					t.Errorf("sheets (-want +got):\n%s", diff)
				}
			})
		}
		if got := collect(200)[1]; got.Version != 2 || len(got.Sheet.Hands) != 1 {
			t.Errorf("replaced sheet: version %d with %d hands, want version 2 with 1", got.Version, len(got.Sheet.Hands))
		}

		t.Run("the default page size", func(t *testing.T) {
			var got []store.SheetAt
			for s, err := range db.EachSheet(ctx, tid) {
				wantErr(t, err, nil)
				got = append(got, s)
			}
			if diff := cmp.Diff(want, got, cmpOpts...); diff != "" {
				t.Errorf("sheets (-want +got):\n%s", diff)
			}
		})
		t.Run("stopping early reads no further", func(t *testing.T) {
			n := 0
			for _, err := range store.EachSheetPaged(ctx, db, tid, 2) {
				wantErr(t, err, nil)
				if n++; n == 3 {
					break
				}
			}
			if n != 3 {
				t.Errorf("ranged %d sheets, want 3", n)
			}
		})
		t.Run("an unknown tournament has no sheets", func(t *testing.T) {
			for s, err := range db.EachSheet(ctx, "t_nobody") {
				t.Errorf("got %+v, %v", s, err)
			}
		})
		t.Run("a cancelled context ends with its error", func(t *testing.T) {
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			var errs []error
			for _, err := range db.EachSheet(cctx, tid) {
				errs = append(errs, err)
			}
			if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
				t.Errorf("errors %v, want one context.Canceled", errs)
			}
		})
	})
}

func TestSeasonTournaments(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, c := range []domain.Club{{ID: "c1", Name: "Uno"}, {ID: "c2", Name: "Due"}} {
			_, err := db.CreateClub(ctx, c)
			wantErr(t, err, nil)
		}
		day := func(s string) time.Time {
			d, err := time.Parse(time.DateOnly, s)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		for _, tc := range []struct {
			id, date, club string
			level          domain.Level
		}{
			{"t_before", "2025-08-31", "c1", domain.LevelClub}, // the last day of the previous season
			{"t_first", "2025-09-01", "c1", domain.LevelClub},
			{"t_c", "2026-03-14", "c2", domain.LevelRegional}, // three on one day: by id
			{"t_a", "2026-03-14", "c1", domain.LevelRegional},
			{"t_b", "2026-03-14", "c2", domain.LevelClub},
			{"t_last", "2026-08-31", "c2", domain.LevelNational},
			{"t_after", "2026-09-01", "c1", domain.LevelClub},
		} {
			tr := tournament()
			tr.ID, tr.Date, tr.ClubID, tr.Level = tc.id, day(tc.date), tc.club, tc.level
			_, err := db.CreateTournament(ctx, tr)
			wantErr(t, err, nil)
		}
		season := store.SeasonFilter{From: day("2025-09-01"), To: day("2026-08-31")}
		withClub := func(f store.SeasonFilter, club string) store.SeasonFilter { f.ClubID = club; return f }
		withLevel := func(f store.SeasonFilter, l domain.Level) store.SeasonFilter { f.Level = l; return f }
		for _, tc := range []struct {
			name string
			f    store.SeasonFilter
			want []string
		}{
			{"September to August, both ends included", season, []string{"t_first", "t_a", "t_b", "t_c", "t_last"}},
			{"one club", withClub(season, "c2"), []string{"t_b", "t_c", "t_last"}},
			{"one level", withLevel(season, domain.LevelClub), []string{"t_first", "t_b"}},
			{"club and level", withLevel(withClub(season, "c1"), domain.LevelRegional), []string{"t_a"}},
			{"an unknown club selects nothing", withClub(season, "c9"), nil},
			{"a single day", store.SeasonFilter{From: day("2026-03-14"), To: day("2026-03-14")}, []string{"t_a", "t_b", "t_c"}},
			{"a calendar year", store.SeasonFilter{From: day("2025-01-01"), To: day("2025-12-31")}, []string{"t_before", "t_first"}},
		} {
			for _, size := range []int{1, 2, 200} {
				t.Run(fmt.Sprintf("%s/page %d", tc.name, size), func(t *testing.T) {
					var got []string
					for tr, err := range store.SeasonTournamentsPaged(ctx, db, tc.f, size) {
						wantErr(t, err, nil)
						got = append(got, tr.ID)
					}
					if diff := cmp.Diff(tc.want, got); diff != "" {
						t.Errorf("tournaments (-want +got):\n%s", diff)
					}
				})
			}
		}
		t.Run("whole tournaments come back", func(t *testing.T) {
			for tr, err := range db.SeasonTournaments(ctx, withLevel(season, domain.LevelNational)) {
				wantErr(t, err, nil)
				if diff := cmp.Diff(mustGetTournament(t, db, "t_last"), tr, cmpOpts...); diff != "" {
					t.Errorf("tournament (-want +got):\n%s", diff)
				}
			}
		})
		t.Run("a season that ends before it starts is invalid", func(t *testing.T) {
			n := 0
			for _, err := range db.SeasonTournaments(ctx, store.SeasonFilter{From: day("2026-08-31"), To: day("2025-09-01")}) {
				n++
				wantErr(t, err, domain.ErrInvalid)
			}
			if n != 1 {
				t.Errorf("%d results, want one error", n)
			}
		})
	})
}
