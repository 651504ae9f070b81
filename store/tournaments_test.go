package store_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

func TestTournaments(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		club, err := db.CreateClub(ctx, domain.Club{ID: "c1", Name: "Circolo"})
		wantErr(t, err, nil)

		plain := tournament()
		pinned := tournament()
		pinned.ID = "t_coppa"
		pinned.ClubID = club.ID
		pinned.Name = "Coppa Primavera"
		pinned.Date = time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC)
		pinned.Level = domain.LevelNational
		pinned.Ruleset = domain.FIBurInt
		pinned.Kind = domain.KindInternational
		pinned.RoundsPlanned, pinned.HandsPerRound = 4, 4
		pinned.VPTable = mustVPTable(t, "fibur-4")

		gotPlain, err := db.CreateTournament(ctx, plain)
		wantErr(t, err, nil)
		if !regexp.MustCompile(`^t_[0-9a-f]{20}$`).MatchString(gotPlain.ID) {
			t.Errorf("generated id %q, want t_ + 20 hex digits", gotPlain.ID)
		}
		plain.ID = gotPlain.ID
		gotPinned, err := db.CreateTournament(ctx, pinned)
		wantErr(t, err, nil)

		for _, want := range []domain.Tournament{plain, pinned} {
			if diff := cmp.Diff(want, mustGetTournament(t, db, want.ID), cmpOpts...); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		}
		if diff := cmp.Diff(pinned, gotPinned, cmpOpts...); diff != "" {
			t.Errorf("CreateTournament result (-want +got):\n%s", diff)
		}

		all, err := db.ListTournaments(ctx, store.TournamentFilter{})
		wantErr(t, err, nil)
		if diff := cmp.Diff([]domain.Tournament{pinned, plain}, all, cmpOpts...); diff != "" {
			t.Errorf("ListTournaments by date (-want +got):\n%s", diff)
		}
		ofClub, err := db.ListTournaments(ctx, store.TournamentFilter{ClubID: "c1"})
		wantErr(t, err, nil)
		if len(ofClub) != 1 || ofClub[0].ID != pinned.ID {
			t.Errorf("tournaments of club c1: %+v", ofClub)
		}
		none, err := db.ListTournaments(ctx, store.TournamentFilter{ClubID: "c1", RefereeName: "nobody"})
		if err != nil || len(none) != 0 {
			t.Errorf("both filters: %+v, %v", none, err)
		}

		_, err = db.GetTournament(ctx, "t_nope")
		wantErr(t, err, domain.ErrNotFound)
	})
}

func mustGetTournament(t *testing.T, db *store.DB, id string) domain.Tournament {
	t.Helper()
	got, err := db.GetTournament(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Values outside RULES §2 and §10 are refused by the schema's CHECK
// constraints, on both databases, and the error names the constraint
// (gorm's CHECK sentinel keeps the driver's error beside it on both).
func TestCreateTournamentRefusesInvalidValues(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		existing, err := db.CreateTournament(ctx, tournament())
		wantErr(t, err, nil)
		for _, tc := range []struct {
			name   string
			change func(*domain.Tournament)
			want   error
		}{
			{"RULES §10 unknown level", func(t *domain.Tournament) { t.Level = "world" }, domain.ErrInvalid},
			{"RULES §2 unknown ruleset", func(t *domain.Tournament) { t.Ruleset = "fitab-2019" }, domain.ErrInvalid},
			{"RULES §10 unknown kind", func(t *domain.Tournament) { t.Kind = "" }, domain.ErrInvalid},
			{"no rounds planned", func(t *domain.Tournament) { t.RoundsPlanned = 0 }, domain.ErrInvalid},
			{"API §1 five hands per round", func(t *domain.Tournament) { t.HandsPerRound = 5 }, domain.ErrInvalid},
			{"no hands per round", func(t *domain.Tournament) { t.HandsPerRound = 0 }, domain.ErrInvalid},
			{"empty name", func(t *domain.Tournament) { t.Name = "" }, domain.ErrInvalid},
			{"unknown club", func(t *domain.Tournament) { t.ClubID = "nope" }, domain.ErrInvalid},
			{"id taken", func(t *domain.Tournament) { t.ID = existing.ID }, domain.ErrConflict},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tr := tournament()
				tc.change(&tr)
				_, err := db.CreateTournament(ctx, tr)
				wantErr(t, err, tc.want)
			})
		}
		bad := tournament()
		bad.Level = "world"
		if _, err := db.CreateTournament(ctx, bad); err == nil || !strings.Contains(err.Error(), "constraint tournaments_level_check failed") {
			t.Errorf("error %v does not name the constraint tournaments_level_check", err)
		}
		if all, _ := db.ListTournaments(ctx, store.TournamentFilter{}); len(all) != 1 {
			t.Errorf("%d tournaments stored, want only the valid one", len(all))
		}
	})
}

func TestEntrants(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tr, err := db.CreateTournament(ctx, tournament())
		wantErr(t, err, nil)
		first := []domain.Entrant{
			{ID: "12", Players: []domain.Player{{Name: "Rossi Anna", Membership: "FT123456"}, {Name: "Bianchi Luca", Membership: "FT654321"}}, Club: "Bologna"},
			{ID: "2", Players: []domain.Player{{Name: "Verdi Carla"}, {Name: "Neri Paolo"}}},
			{ID: "A", Players: []domain.Player{{Name: "Solo"}}, Team: "Squadra A"},
		}
		wantErr(t, db.AddEntrants(ctx, tr.ID, first), nil)
		wantErr(t, db.AddEntrants(ctx, tr.ID, []domain.Entrant{{ID: "10", Players: []domain.Player{{Name: "Gialli Eva"}}}}), nil)
		wantErr(t, db.AddEntrants(ctx, tr.ID, nil), nil)

		got, err := db.ListEntrants(ctx, tr.ID)
		wantErr(t, err, nil)
		// Numbers in numeric order (2 before 10), then other ids.
		want := []domain.Entrant{first[1], {ID: "10", Players: []domain.Player{{Name: "Gialli Eva"}}}, first[0], first[2]}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ListEntrants (-want +got):\n%s", diff)
		}

		for _, tc := range []struct {
			name       string
			tournament string
			entrants   []domain.Entrant
			want       error
		}{
			{"an id already entered, with a new one", tr.ID, []domain.Entrant{{ID: "99"}, {ID: "12"}}, domain.ErrConflict},
			{"an id given twice", tr.ID, []domain.Entrant{{ID: "98"}, {ID: "98"}}, domain.ErrInvalid},
			{"an empty id", tr.ID, []domain.Entrant{{ID: "97"}, {ID: ""}}, domain.ErrInvalid},
			{"a player without a name", tr.ID, []domain.Entrant{{ID: "96", Players: []domain.Player{{Name: ""}}}}, domain.ErrInvalid},
			{"unknown tournament", "t_nope", []domain.Entrant{{ID: "1"}}, domain.ErrNotFound},
			{"unknown tournament, no entrants", "t_nope", nil, domain.ErrNotFound},
		} {
			t.Run(tc.name, func(t *testing.T) {
				wantErr(t, db.AddEntrants(ctx, tc.tournament, tc.entrants), tc.want)
			})
		}
		// All or nothing: none of the refused batches left a row.
		after, err := db.ListEntrants(ctx, tr.ID)
		wantErr(t, err, nil)
		if diff := cmp.Diff(want, after); diff != "" {
			t.Errorf("entrants after refused batches (-want +got):\n%s", diff)
		}
		_, err = db.ListEntrants(ctx, "t_nope")
		wantErr(t, err, domain.ErrNotFound)

		// A large field in one call: more players than one INSERT's
		// parameters allow (PostgreSQL 65,535, SQLite 32,766).
		big, err := db.CreateTournament(ctx, tournament())
		wantErr(t, err, nil)
		many := make([]domain.Entrant, 10000)
		for i := range many {
			many[i] = domain.Entrant{ID: strconv.Itoa(i + 1), Players: []domain.Player{{Name: "Giocatore " + strconv.Itoa(i+1)}}}
		}
		wantErr(t, db.AddEntrants(ctx, big.ID, many), nil)
		got, err = db.ListEntrants(ctx, big.ID)
		wantErr(t, err, nil)
		if diff := cmp.Diff(many, got); diff != "" {
			t.Errorf("ListEntrants of 10,000 (-want +got):\n%s", diff)
		}
	})
}

func TestRounds(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db) // round 1, tables 1..4
		r2 := domain.Round{
			Number: 2, HandsPlanned: 4, Phase: domain.PhaseDanese, State: domain.RoundPlaying,
			Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "3"}, {Table: 2, NS: "5", EO: "7"}, {Table: 3, NS: "2", EO: "4"}},
			Byes:   []string{"8", "6"},
		}
		wantErr(t, db.CreateRound(ctx, tid, r2), nil)
		got, err := db.GetRound(ctx, tid, 2)
		wantErr(t, err, nil)
		if diff := cmp.Diff(r2, got); diff != "" {
			t.Errorf("GetRound (-want +got):\n%s", diff)
		}
		all, err := db.ListRounds(ctx, tid)
		wantErr(t, err, nil)
		if len(all) != 2 || all[0].Number != 1 || all[0].State != domain.RoundPlaying || len(all[0].Tables) != 4 || all[0].Byes != nil {
			t.Errorf("round 1 as listed: %+v", all[0])
		}
		if diff := cmp.Diff(r2, all[1]); diff != "" {
			t.Errorf("ListRounds round 2 (-want +got):\n%s", diff)
		}

		for _, tc := range []struct {
			name       string
			tournament string
			round      domain.Round
			want       error
		}{
			{"number already used", tid, domain.Round{Number: 1, HandsPlanned: 3, Phase: domain.PhaseMitchell}, domain.ErrConflict},
			{"unknown tournament", "t_nope", domain.Round{Number: 1, HandsPlanned: 3, Phase: domain.PhaseMitchell}, domain.ErrNotFound},
			{"entrant not entered", tid, domain.Round{Number: 3, HandsPlanned: 3, Phase: domain.PhaseMitchell,
				Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "99"}}}, domain.ErrInvalid},
			{"bye of an entrant not entered", tid, domain.Round{Number: 3, HandsPlanned: 3, Phase: domain.PhaseMitchell, Byes: []string{"99"}}, domain.ErrInvalid},
			{"a line against itself", tid, domain.Round{Number: 3, HandsPlanned: 3, Phase: domain.PhaseMitchell,
				Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "1"}}}, domain.ErrInvalid},
			{"table given twice", tid, domain.Round{Number: 3, HandsPlanned: 3, Phase: domain.PhaseMitchell,
				Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}, {Table: 1, NS: "3", EO: "4"}}}, domain.ErrInvalid},
			{"table 0", tid, domain.Round{Number: 3, HandsPlanned: 3, Phase: domain.PhaseMitchell,
				Tables: []domain.TableAssignment{{Table: 0, NS: "1", EO: "2"}}}, domain.ErrInvalid},
			{"RULES §10 unknown phase", tid, domain.Round{Number: 3, HandsPlanned: 3, Phase: "swiss"}, domain.ErrInvalid},
			{"RULES §10 unknown state", tid, domain.Round{Number: 3, HandsPlanned: 3, Phase: domain.PhaseMitchell, State: "closed"}, domain.ErrInvalid},
			{"API §1 five hands", tid, domain.Round{Number: 3, HandsPlanned: 5, Phase: domain.PhaseMitchell}, domain.ErrInvalid},
			{"round 0", tid, domain.Round{Number: 0, HandsPlanned: 3, Phase: domain.PhaseMitchell}, domain.ErrInvalid},
		} {
			t.Run(tc.name, func(t *testing.T) {
				wantErr(t, db.CreateRound(ctx, tc.tournament, tc.round), tc.want)
			})
		}
		// One transaction: a round refused for its tables left no round row.
		_, err = db.GetRound(ctx, tid, 3)
		wantErr(t, err, domain.ErrNotFound)
		_, err = db.GetRound(ctx, "t_nope", 1)
		wantErr(t, err, domain.ErrNotFound)
		_, err = db.ListRounds(ctx, "t_nope")
		wantErr(t, err, domain.ErrNotFound)
	})
}

// GetRoundTable is GetRound narrowed to one table, for the sheet path.
func TestGetRoundTable(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db) // round 1, tables 1..4
		full, err := db.GetRound(ctx, tid, 1)
		wantErr(t, err, nil)
		got, err := db.GetRoundTable(ctx, tid, 1, 3)
		wantErr(t, err, nil)
		want := full
		want.Tables, want.Byes = []domain.TableAssignment{full.Tables[2]}, nil
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("GetRoundTable (-want +got):\n%s", diff)
		}
		got, err = db.GetRoundTable(ctx, tid, 1, 99)
		wantErr(t, err, nil)
		if _, ok := got.Assignment(99); ok || got.Number != 1 {
			t.Errorf("table 99: %+v", got)
		}
		_, err = db.GetRoundTable(ctx, tid, 7, 1)
		wantErr(t, err, domain.ErrNotFound)
		_, err = db.GetRoundTable(ctx, "t_nope", 1, 1)
		wantErr(t, err, domain.ErrNotFound)
	})
}

// RULES §10: playing → sheets_delivered → standings_published →
// next_pairing_published, forward only; SetRoundState is a compare-and-set.
func TestSetRoundState(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		steps := []struct {
			name     string
			round    int
			from, to domain.RoundState
			want     error
		}{
			{"deliver the sheets", 1, domain.RoundPlaying, domain.RoundSheetsDelivered, nil},
			{"stale from: someone else already moved it", 1, domain.RoundPlaying, domain.RoundSheetsDelivered, domain.ErrConflict},
			{"stale from, further target", 1, domain.RoundPlaying, domain.RoundStandingsPublished, domain.ErrConflict},
			{"backwards", 1, domain.RoundSheetsDelivered, domain.RoundPlaying, domain.ErrInvalid},
			{"same state", 1, domain.RoundSheetsDelivered, domain.RoundSheetsDelivered, domain.ErrInvalid},
			{"unknown state", 1, domain.RoundSheetsDelivered, "archived", domain.ErrInvalid},
			{"publish the standings", 1, domain.RoundSheetsDelivered, domain.RoundStandingsPublished, nil},
			{"skip to the next pairing", 1, domain.RoundStandingsPublished, domain.RoundNextPairingPublished, nil},
			{"unknown round", 9, domain.RoundPlaying, domain.RoundSheetsDelivered, domain.ErrNotFound},
		}
		for _, s := range steps {
			t.Run(s.name, func(t *testing.T) {
				wantErr(t, db.SetRoundState(ctx, tid, s.round, s.from, s.to), s.want)
			})
		}
		r, err := db.GetRound(ctx, tid, 1)
		wantErr(t, err, nil)
		if r.State != domain.RoundNextPairingPublished {
			t.Errorf("state %s, want next_pairing_published", r.State)
		}
		wantErr(t, db.SetRoundState(ctx, "t_nope", 1, domain.RoundPlaying, domain.RoundSheetsDelivered), domain.ErrNotFound)
	})
}
