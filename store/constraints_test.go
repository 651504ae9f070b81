package store_test

import (
	"context"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// count returns the rows of a table for the tournament.
func count(t *testing.T, db *store.DB, table, tournamentID string) int {
	t.Helper()
	var n []int
	q := "SELECT count(*) FROM " + table + " WHERE tournament_id = ?"
	if table == "sheet_hands" || table == "idempotency_keys" {
		q = "SELECT count(*) FROM " + table + " WHERE sheet_id IN (SELECT id FROM sheets WHERE tournament_id = ?)"
	}
	if err := store.Scan(context.Background(), db, &n, q, tournamentID); err != nil {
		t.Fatal(err)
	}
	return n[0]
}

// The ON DELETE rules of the schema: a tournament takes everything of its
// own with it; an entrant who sat at a table, a club with tournaments and a
// tournament with corrections cannot be deleted.
func TestDeleteRules(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		wantErr(t, db.AssignReferee(ctx, tid, "Mario Rossi"), nil)
		if _, _, err := db.AppendHand(ctx, tid, 1, 1, minimalSheet(), minimalSheet().Hands[0], "k", report); err != nil {
			t.Fatal(err)
		}
		owned := []string{"referee_assignments", "entrants", "entrant_players", "rounds", "round_tables", "sheets", "sheet_hands", "idempotency_keys"}
		for _, table := range owned {
			if count(t, db, table, tid) == 0 {
				t.Fatalf("setup left %s empty", table)
			}
		}
		// NO ACTION: the entrant at table 1 cannot go on its own.
		wantErr(t, store.Exec(ctx, db, "DELETE FROM entrants WHERE tournament_id = ? AND id = '1'", tid), domain.ErrInvalid)

		wantErr(t, store.Exec(ctx, db, "DELETE FROM tournaments WHERE id = ?", tid), nil)
		for _, table := range owned {
			if n := count(t, db, table, tid); n != 0 {
				t.Errorf("%s: %d rows left after deleting the tournament (want CASCADE)", table, n)
			}
		}

		club, err := db.CreateClub(ctx, domain.Club{ID: "c1", Name: "Circolo"})
		wantErr(t, err, nil)
		withClub := tournament()
		withClub.ClubID = club.ID
		_, err = db.CreateTournament(ctx, withClub)
		wantErr(t, err, nil)
		wantErr(t, store.Exec(ctx, db, "DELETE FROM clubs WHERE id = 'c1'"), domain.ErrInvalid)
	})
}

// RULES §9: the correction trail is append-only; imports are recognised by
// their hash (API §4); RULES §7 referee_score needs a reason. These tables
// (migration 00002) have no repository yet: raw SQL checks their rules.
func TestAuditTables(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		tid := setup(t, db)
		now := "2026-11-21T10:00:00Z"
		insertCorrection := `INSERT INTO corrections (tournament_id, round_no, table_no, kind, ruling, rules, reason, before_json, after_json, author, created_at)
			VALUES (?, 1, 1, ?, ?, '["FITAB art. 20"]', 'NS total re-added', '{}', NULL, 'Mario Rossi', ?)`
		wantErr(t, store.Exec(ctx, db, insertCorrection, tid, "sum", "apply", now), nil)
		for _, tc := range []struct{ name, kind, ruling string }{
			{"RULES §9 unknown kind", "arithmetic", "apply"},
			{"RULES §9 unknown ruling", "sum", "maybe"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				wantErr(t, store.Exec(ctx, db, insertCorrection, tid, tc.kind, tc.ruling, now), domain.ErrInvalid)
			})
		}
		for _, stmt := range []string{
			"UPDATE corrections SET ruling = 'reject' WHERE tournament_id = ?",
			"DELETE FROM corrections WHERE tournament_id = ?",
			"DELETE FROM tournaments WHERE id = ?",
		} {
			err := store.Exec(ctx, db, stmt, tid)
			wantErr(t, err, domain.ErrInvalid)
			if strings.HasPrefix(stmt, "DELETE FROM tournaments") {
				continue
			}
			if !strings.Contains(err.Error(), "append-only") {
				t.Errorf("%s: %v, want the trigger's append-only message", stmt, err)
			}
		}
		if count(t, db, "corrections", tid) != 1 {
			t.Error("the correction was changed or lost")
		}

		insertImport := `INSERT INTO imports (tournament_id, content_sha256, filename, report_json, created_at, created_by) VALUES (?, ?, 'round1.xlsx', '{}', ?, 'club')`
		hash := strings.Repeat("ab", 32)
		wantErr(t, store.Exec(ctx, db, insertImport, tid, hash, now), nil)
		wantErr(t, store.Exec(ctx, db, insertImport, tid, hash, now), domain.ErrConflict)
		wantErr(t, store.Exec(ctx, db, insertImport, tid, "abc", now), domain.ErrInvalid)

		insertAdjustment := `INSERT INTO adjustments (tournament_id, entrant_id, round_no, reason, vp, mp, note, author, created_at) VALUES (?, ?, ?, ?, NULL, NULL, ?, 'Mario Rossi', ?)`
		for _, tc := range []struct {
			name, entrant string
			round         any
			reason, note  string
			want          error
		}{
			{"RULES §7 warning", "1", 1, "warning", "", nil},
			{"tournament-wide adjustment", "1", nil, "warning", "", nil},
			{"RULES §7 referee_score with its reason", "2", 1, "referee_score", "FITAB art. 33 lost count", nil},
			{"RULES §7 referee_score without a reason", "2", 1, "referee_score", "", domain.ErrInvalid},
			{"RULES §7 unknown reason", "2", 1, "bribe", "", domain.ErrInvalid},
			{"entrant not entered", "99", 1, "warning", "", domain.ErrInvalid},
			{"round that does not exist", "1", 7, "warning", "", domain.ErrInvalid},
		} {
			t.Run(tc.name, func(t *testing.T) {
				wantErr(t, store.Exec(ctx, db, insertAdjustment, tid, tc.entrant, tc.round, tc.reason, tc.note, now), tc.want)
			})
		}
	})
}
