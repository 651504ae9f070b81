package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/gorm"

	"segnapunti/domain"
)

// The sheet write on PostgreSQL in two statements: one takes the
// advisory locks, one writes the sheet, its hands and its result in a
// single statement of data-modifying CTEs, the round-open condition (and,
// for a round being played, "not signed") in its own WHERE. No row lock on
// the busy rounds row. The two are sent as one pipeline, which PostgreSQL
// runs as one implicit transaction (pgPutSheet): one round trip. The
// hand-by-hand append has the same shape (appendhand_pg.go).
//
// Locks (transaction-scoped advisory locks, released at commit):
//
//   - the round lock (hashtext(tournament), −round): shared by every
//     single-sheet writer, exclusive for SetRoundState and imports. A state
//     change waits for the writes in flight; a write that comes later sees
//     the new state, because its write statement takes its snapshot after
//     the lock is granted (READ COMMITTED: one snapshot per statement).
//   - the sheet lock (hashtext(tournament/round), table): exclusive for
//     every single-sheet writer (put, append, correction), so the write
//     statement's snapshot sees the hands of the previous writer (the
//     DELETE of surplus hands reads that snapshot).
//
// Always round lock first, then sheet lock.

const pgLockSheetSQL = `SELECT pg_advisory_xact_lock_shared(hashtext($1), -$2::int), pg_advisory_xact_lock(hashtext($1::text || '/' || $2::int), $3::int)`

// pgLockSheet takes the round lock (shared) and the sheet lock (exclusive).
// The hot statements of this file go to the transaction's connection
// directly (conn), with PostgreSQL's own placeholders: gorm's statement
// building and callbacks were a tenth of a sheet write's Go time.
func pgLockSheet(tx *gorm.DB, key sheetKey) error {
	_, err := conn(tx).ExecContext(tx.Statement.Context, pgLockSheetSQL, key.tournament, key.round, key.table)
	return translate(err, "lock sheet of "+key.String())
}

// conn is the connection (the *sql.Tx inside a transaction) of tx.
func conn(tx *gorm.DB) gorm.ConnPool { return tx.Statement.ConnPool }

// pgLockRound takes the round lock exclusively: no single-sheet write of
// the round is in flight until the transaction ends.
func pgLockRound(tx *gorm.DB, tournamentID string, round int) error {
	err := tx.Exec(`SELECT pg_advisory_xact_lock(hashtext(?), -?::int)`, tournamentID, round).Error
	return translate(err, "lock round")
}

// lockSheet takes the sheet-write locks on PostgreSQL; SQLite's write
// transaction already holds the database.
func (db *DB) lockSheet(tx *gorm.DB, key sheetKey) error {
	if db.dialect != DialectPostgres {
		return nil
	}
	return pgLockSheet(tx, key)
}

// lockRound takes the round lock exclusively on PostgreSQL.
func (db *DB) lockRound(tx *gorm.DB, tournamentID string, round int) error {
	if db.dialect != DialectPostgres {
		return nil
	}
	return pgLockRound(tx, tournamentID, round)
}

// pgSheetWriteColumns are the sheet columns the write statement sets.
var pgSheetWriteColumns = append([]string{"tournament_id", "round_no", "table_no"}, append(sheetColumns, "created_at")...)

var pgHandColumns = []string{
	"position", "hand_end", "lost_count",
	"ns_base", "ns_points", "ns_total", "ns_running_total", "ns_burrachi", "ns_closed", "ns_pozzetto",
	"ns_table_points", "ns_hand_points", "ns_pozzetto_unplayed_points", "ns_penalty_points",
	"eo_base", "eo_points", "eo_total", "eo_running_total", "eo_burrachi", "eo_closed", "eo_pozzetto",
	"eo_table_points", "eo_hand_points", "eo_pozzetto_unplayed_points", "eo_penalty_points",
}

func prefixed(prefix string, cols []string) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = prefix + c
	}
	return strings.Join(out, ", ")
}

func assignments(cols []string, from string) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c + " = " + from + "." + c
	}
	return strings.Join(out, ", ")
}

// sheetJSONColumns are the sheet's json columns.
var sheetJSONColumns = map[string]bool{"ns_players": true, "eo_players": true, "cells": true, "report_json": true}

// sheetValue is the expression of a sheet column in the write statement.
func sheetValue(c string) string {
	if sheetJSONColumns[c] {
		return "(v.v_doc->>'" + c + "')::json"
	}
	return "v." + c
}

func sheetValues(cols []string) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = sheetValue(c)
	}
	return strings.Join(out, ", ")
}

func sheetAssignments(cols []string) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c + " = " + sheetValue(c)
	}
	return strings.Join(out, ", ")
}

// pgWriteSheetSQL builds the one write statement: $1 the sheet row as a
// JSON object, $2 the number of hands, $3 the hands as a JSON array, $4
// the result as a JSON object, $5–$7 the history note (source, actor,
// time), and for a compare-and-set $8 the expected version. It returns
// the sheet's id and new version, or no row when the round is not being
// played or the sheet is signed (open), or the version differs (cas).
//
// Its row writes (issue 26: at most four per stored sheet): the sheet row,
// which holds the result (migration 00022); a history row only when a
// version is replaced; the hands that are new or differ from the stored
// ones (pgHandsCTE); a DELETE of the hands beyond the new count.
func pgWriteSheetSQL(open, cas bool) string {
	var b strings.Builder
	// json columns travel as strings holding their JSON text, so a JSON
	// null (a sheet without players) is stored as the json value null,
	// exactly as the gorm path stores it, not as SQL NULL.
	b.WriteString(`WITH v AS (SELECT p.*, x.d AS v_doc FROM (SELECT $1::json AS d) x, json_populate_record(NULL::sheets, x.d) p), `)
	b.WriteString(pgResultCTE("$4") + `, `)
	if cas {
		b.WriteString(`s AS (UPDATE sheets SET ` + sheetAssignments(sheetColumns) + `, version = sheets.version + 1, ` + pgResultAssignments("m.") + ` FROM v, m
			WHERE sheets.tournament_id = v.tournament_id AND sheets.round_no = v.round_no AND sheets.table_no = v.table_no
			AND sheets.version = $8::int`)
		if open {
			b.WriteString(` AND ` + pgOpenCond)
		}
		b.WriteString(` RETURNING sheets.id, sheets.version), `)
	} else {
		b.WriteString(`s AS (INSERT INTO sheets (` + strings.Join(pgSheetWriteColumns, ", ") + `, version, res_version, ` + strings.Join(sheetResultColumns, ", ") + `)
			SELECT ` + sheetValues(pgSheetWriteColumns) + `, 1, 1, ` + prefixed("m.", resultColumns) + ` FROM v, m`)
		if open {
			b.WriteString(` WHERE ` + pgOpenCond)
		}
		b.WriteString(` ON CONFLICT (tournament_id, round_no, table_no) DO UPDATE SET ` + assignments(sheetColumns, "EXCLUDED") + `, version = sheets.version + 1, ` + pgResultAssignments("EXCLUDED.res_") + `
			RETURNING id, version), `)
	}
	// History (sheet_versions.go): the replaced row and its hands as the
	// statement's snapshot still sees them; none when s created the sheet
	// (the snapshot, taken before s, has no such row: TestRowWrites).
	// $5 the source, $6 who, $7 when.
	b.WriteString(`sv AS (INSERT INTO sheet_versions (tournament_id, round_no, table_no, version, sheet, source, import_id, actor, replaced_at)
		SELECT o.tournament_id, o.round_no, o.table_no, o.version, ` + pgVersionDoc + `, $5::text, NULL, $6::text, $7::timestamptz FROM sheets o JOIN s ON s.id = o.id), `)
	b.WriteString(`d AS (DELETE FROM sheet_hands WHERE sheet_id IN (SELECT id FROM s) AND position > $2::int), `)
	b.WriteString(pgHandsCTE("$3"))
	b.WriteString(` SELECT id, version FROM s`)
	return b.String()
}

// pgHandsCTE is the CTE "h" that upserts the hands of the sheet written by
// CTE "s" from the JSON array param: a hand whose columns all equal the
// stored hand's is not written again (a sheet sent again after one hand
// changed rewrites that hand only).
func pgHandsCTE(param string) string {
	return `h AS (INSERT INTO sheet_hands (sheet_id, ` + strings.Join(pgHandColumns, ", ") + `)
		SELECT s.id, ` + prefixed("j.", pgHandColumns) + ` FROM s, json_populate_recordset(NULL::sheet_hands, ` + param + `::json) j
		ON CONFLICT (sheet_id, position) DO UPDATE SET ` + assignments(pgHandColumns[1:], "EXCLUDED") + `
		WHERE ` + handChanged("sheet_hands", "EXCLUDED") + `)`
}

// handChanged is the condition "the proposed hand (new) differs from the
// stored one (old)" over every hand column but the key, the same SQL on
// both databases (row values, IS DISTINCT FROM: NULLs compare equal).
func handChanged(old, new string) string {
	cols := pgHandColumns[1:]
	return `(` + prefixed(old+".", cols) + `) IS DISTINCT FROM (` + prefixed(new+".", cols) + `)`
}

// pgOpenCond is the round-open condition and the signatures (table entry:
// a signed sheet changes only by a correction) of the sheet in "v", read
// in the write statement's snapshot, taken after the locks (pgLockSheet).
const pgOpenCond = `EXISTS (SELECT 1 FROM rounds r WHERE r.tournament_id = v.tournament_id AND r.number = v.round_no AND r.state = 'playing')
	AND NOT EXISTS (SELECT 1 FROM sheet_confirmations c WHERE c.tournament_id = v.tournament_id AND c.round_no = v.round_no AND c.table_no = v.table_no)`

// pgResultCTE is the CTE "m": the match result read from the JSON object
// param (the view match_results gives the record type), written into the
// sheet row by CTE "s" (pgResultAssignments).
func pgResultCTE(param string) string {
	return `m AS (SELECT * FROM json_populate_record(NULL::match_results, ` + param + `::json))`
}

// pgResultAssignments sets the sheet row's result from the columns of
// from (from+name for each of resultColumns) and res_version to the
// version the statement writes (one more than the stored one).
func pgResultAssignments(from string) string {
	out := make([]string, 0, 1+len(resultColumns))
	out = append(out, "res_version = sheets.version + 1")
	for i, c := range resultColumns {
		out = append(out, sheetResultColumns[i]+" = "+from+c)
	}
	return strings.Join(out, ", ")
}

// The four statements, built once.
var pgWriteSheet = map[[2]bool]string{
	{false, false}: pgWriteSheetSQL(false, false),
	{false, true}:  pgWriteSheetSQL(false, true),
	{true, false}:  pgWriteSheetSQL(true, false),
	{true, true}:   pgWriteSheetSQL(true, true),
}

// pgPutSheet is putSheet on PostgreSQL: the locks and the write
// statement, sent in one pipeline (one round trip) that PostgreSQL runs as
// one implicit transaction (the statements up to the pipeline's Sync; the
// xact locks are held to its end, and each statement takes its READ
// COMMITTED snapshot when it starts, so the write sees what the lock
// waited for). An error rolls the whole back. When the statement writes
// nothing, one more query says why (rare path).
func (db *DB) pgPutSheet(ctx context.Context, key sheetKey, row *sheetRow, hands []handRow, res *matchResultRow, ifVersion int, open bool, note Replacement) error {
	q, args := pgPutSheetStatement(row, hands, res, ifVersion, open, note)
	written, err := db.pgLockedWrite(ctx, key, q, args, &row.ID, &row.Version)
	switch {
	case err != nil:
		return pgWriteError(err)
	case !written:
		return whyNotWritten(db.gorm.WithContext(ctx), key, ifVersion, open)
	}
	return nil
}

// pgPutSheetStatement is the write statement of pgPutSheet and its
// arguments.
func pgPutSheetStatement(row *sheetRow, hands []handRow, res *matchResultRow, ifVersion int, open bool, note Replacement) (string, []any) {
	buf := make([]byte, 0, 2048+len(row.ReportJSON)+len(hands)*700)
	buf = appendSheetRow(buf, row)
	nSheet := len(buf)
	buf = appendHandRows(buf, hands)
	nHands := len(buf)
	buf = appendResultRow(buf, res)
	all := string(buf) // one copy for the three documents
	args := []any{all[:nSheet], len(hands), all[nSheet:nHands], all[nHands:], note.Source, note.By, row.Updated.time()}
	if ifVersion > 0 {
		args = append(args, ifVersion)
	}
	return pgWriteSheet[[2]bool{open, ifVersion > 0}], args
}

// withPgx runs fn on a pgx connection of the pool.
func (db *DB) withPgx(ctx context.Context, fn func(*pgx.Conn) error) error {
	c, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Raw(func(driverConn any) error {
		sc, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("driver connection is %T, not pgx", driverConn)
		}
		return fn(sc.Conn())
	})
}

// pgWriteError maps an error of a write statement: the sheet's only
// foreign key is its round table (sheetError).
func pgWriteError(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23503" && strings.HasPrefix(pgErr.ConstraintName, "sheets_") {
		return gorm.ErrForeignKeyViolated
	}
	return err
}

// whyNotWritten explains a write statement that wrote nothing: the sheet
// is signed (open), the round is unknown or closed, or (compare-and-set)
// the version differs — in that order, as the checks ran before the
// conditions moved into the statement.
func whyNotWritten(tx *gorm.DB, key sheetKey, ifVersion int, open bool) error {
	if open {
		if err := checkNotConfirmed(tx, key); err != nil {
			return err
		}
	}
	if open || ifVersion == 0 {
		var states []string
		if err := tx.Model(&roundRow{}).Where("tournament_id = ? AND number = ?", key.tournament, key.round).Pluck("state", &states).Error; err != nil {
			return translate(err, "check round state")
		}
		switch {
		case len(states) == 0:
			return errorf(domain.ErrNotFound, "round %d of tournament %s", key.round, key.tournament)
		case open && states[0] != string(domain.RoundPlaying):
			return fmt.Errorf("%w: round %d of tournament %s is %s", ErrRoundClosed, key.round, key.tournament, states[0])
		}
	}
	var stored []int
	if err := key.where(tx.Model(&sheetRow{})).Pluck("version", &stored).Error; err != nil {
		return err
	}
	if len(stored) == 0 {
		return errorf(domain.ErrConflict, "sheet of %s: version %d expected, but there is no sheet", key, ifVersion)
	}
	if ifVersion > 0 {
		return errorf(domain.ErrConflict, "sheet of %s: version %d expected, stored is %d", key, ifVersion, stored[0])
	}
	return errors.New("sheet write: nothing written for " + key.String())
}
