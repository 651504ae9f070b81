package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"segnapunti/domain"
)

// The sheet write on PostgreSQL in two statements (issue 11): one takes the
// advisory locks, one writes the sheet, its hands and its result in a
// single statement of data-modifying CTEs, the round-open condition in its
// own WHERE. No row lock on the busy rounds row.
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

const pgLockSheetSQL = `SELECT pg_advisory_xact_lock_shared(hashtext(?), -?::int), pg_advisory_xact_lock(hashtext(?::text || '/' || ?::int), ?::int)`

// pgLockSheet takes the round lock (shared) and the sheet lock (exclusive).
func pgLockSheet(tx *gorm.DB, key sheetKey) error {
	err := tx.Exec(pgLockSheetSQL, key.tournament, key.round, key.tournament, key.round, key.table).Error
	return translate(err, "lock sheet of "+key.String())
}

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
// JSON object, $2 the hands as a JSON array, $3 the result as a JSON
// object, then the number of hands, and for a compare-and-set the expected
// version. It returns the sheet's id and new version, or no row when the
// round is not being played (open) or the version differs (ifVersion).
func pgWriteSheetSQL(open, cas bool) string {
	var b strings.Builder
	// json columns travel as strings holding their JSON text, so a JSON
	// null (a sheet without players) is stored as the json value null,
	// exactly as the gorm path stores it, not as SQL NULL.
	b.WriteString(`WITH v AS (SELECT p.*, x.d AS v_doc FROM (SELECT ?::json AS d) x, json_populate_record(NULL::sheets, x.d) p), `)
	openCond := `EXISTS (SELECT 1 FROM rounds r WHERE r.tournament_id = v.tournament_id AND r.number = v.round_no AND r.state = 'playing')`
	if cas {
		b.WriteString(`s AS (UPDATE sheets SET ` + sheetAssignments(sheetColumns) + `, version = sheets.version + 1 FROM v
			WHERE sheets.tournament_id = v.tournament_id AND sheets.round_no = v.round_no AND sheets.table_no = v.table_no
			AND sheets.version = ?::int`)
		if open {
			b.WriteString(` AND ` + openCond)
		}
		b.WriteString(` RETURNING sheets.id, sheets.version), `)
	} else {
		b.WriteString(`s AS (INSERT INTO sheets (` + strings.Join(pgSheetWriteColumns, ", ") + `, version)
			SELECT ` + sheetValues(pgSheetWriteColumns) + `, 1 FROM v`)
		if open {
			b.WriteString(` WHERE ` + openCond)
		}
		b.WriteString(` ON CONFLICT (tournament_id, round_no, table_no) DO UPDATE SET ` + assignments(sheetColumns, "EXCLUDED") + `, version = sheets.version + 1
			RETURNING id, version), `)
	}
	// History (sheet_versions.go): the replaced row and its hands as the
	// statement's snapshot still sees them; none when s created the sheet.
	b.WriteString(`sv AS (INSERT INTO sheet_versions (tournament_id, round_no, table_no, version, sheet, source, import_id, actor, replaced_at)
		SELECT o.tournament_id, o.round_no, o.table_no, o.version, ` + pgVersionDoc + `, ?::text, NULL, ?::text, ?::timestamptz FROM sheets o JOIN s ON s.id = o.id), `)
	b.WriteString(`d AS (DELETE FROM sheet_hands WHERE sheet_id IN (SELECT id FROM s) AND position > ?::int), `)
	b.WriteString(`h AS (INSERT INTO sheet_hands (sheet_id, ` + strings.Join(pgHandColumns, ", ") + `)
		SELECT s.id, ` + prefixed("j.", pgHandColumns) + ` FROM s, json_populate_recordset(NULL::sheet_hands, ?::json) j
		ON CONFLICT (sheet_id, position) DO UPDATE SET ` + assignments(pgHandColumns[1:], "EXCLUDED") + `), `)
	resultCols := matchResultColumns[:0:0]
	for _, c := range matchResultColumns {
		if c != "sheet_version" {
			resultCols = append(resultCols, c)
		}
	}
	b.WriteString(`r AS (INSERT INTO match_results (sheet_id, sheet_version, ` + strings.Join(resultCols, ", ") + `)
		SELECT s.id, s.version, ` + prefixed("m.", resultCols) + ` FROM s, json_populate_record(NULL::match_results, ?::json) m
		ON CONFLICT (sheet_id) DO UPDATE SET ` + assignments(matchResultColumns, "EXCLUDED") + `) `)
	b.WriteString(`SELECT id, version FROM s`)
	return b.String()
}

// The four statements, built once.
var pgWriteSheet = map[[2]bool]string{
	{false, false}: pgWriteSheetSQL(false, false),
	{false, true}:  pgWriteSheetSQL(false, true),
	{true, false}:  pgWriteSheetSQL(true, false),
	{true, true}:   pgWriteSheetSQL(true, true),
}

// sheetRowJSON is the sheet row as json_populate_record reads it.
func sheetRowJSON(r *sheetRow) ([]byte, error) {
	m := make(map[string]any, len(pgSheetWriteColumns))
	m["tournament_id"], m["round_no"], m["table_no"] = r.TournamentID, r.RoundNo, r.TableNo
	for _, c := range sheetColumns {
		m[c] = sheetColumnValue(r, c)
	}
	m["created_at"], m["updated_at"] = r.Created.time(), r.Updated.time()
	// json columns go in as strings holding their JSON (sheetValue).
	m["ns_players"], m["eo_players"], m["report_json"], m["cells"] = r.NSPlayers, r.EOPlayers, r.ReportJSON, r.Cells
	return json.Marshal(m)
}

func lineJSON(m map[string]any, prefix string, l *lineColumns) {
	m[prefix+"base"], m[prefix+"points"], m[prefix+"total"], m[prefix+"running_total"] = l.Base, l.Points, l.Total, l.RunningTotal
	m[prefix+"burrachi"], m[prefix+"closed"], m[prefix+"pozzetto"] = l.Burrachi, l.Closed, l.Pozzetto
	m[prefix+"table_points"], m[prefix+"hand_points"] = l.TablePoints, l.HandPoints
	m[prefix+"pozzetto_unplayed_points"], m[prefix+"penalty_points"] = l.PozzettoUnplayedPoints, l.PenaltyPoints
}

// handRowsJSON is the hands as json_populate_recordset reads them.
func handRowsJSON(hands []handRow) ([]byte, error) {
	out := make([]map[string]any, len(hands))
	for i := range hands {
		h := &hands[i]
		m := make(map[string]any, len(pgHandColumns))
		m["position"], m["hand_end"], m["lost_count"] = h.Position, h.End, h.LostCount
		lineJSON(m, "ns_", &h.NS)
		lineJSON(m, "eo_", &h.EO)
		out[i] = m
	}
	return json.Marshal(out)
}

func resultRowJSON(r *matchResultRow) ([]byte, error) {
	return json.Marshal(map[string]any{
		"tournament_id": r.TournamentID, "round_no": r.RoundNo, "table_no": r.TableNo,
		"ns_total": r.NSTotal, "ns_mp": r.NSMP, "ns_vp": r.NSVP, "eo_total": r.EOTotal, "eo_mp": r.EOMP, "eo_vp": r.EOVP,
		"computed_ns_total": r.ComputedNSTotal, "computed_ns_mp": r.ComputedNSMP, "computed_ns_vp": r.ComputedNSVP,
		"computed_eo_total": r.ComputedEOTotal, "computed_eo_mp": r.ComputedEOMP, "computed_eo_vp": r.ComputedEOVP,
		"differs": r.Differs, "kind": r.Kind,
	})
}

// pgPutSheet is putSheet on PostgreSQL: in one transaction the locks and
// the write statement (two round trips besides BEGIN and COMMIT). When the
// statement writes nothing, one more query says why (rare path).
func (db *DB) pgPutSheet(tx *gorm.DB, key sheetKey, row *sheetRow, hands []handRow, res *matchResultRow, ifVersion int, open bool, note Replacement) error {
	sheetJSON, err := sheetRowJSON(row)
	if err != nil {
		return err
	}
	handsJSON, err := handRowsJSON(hands)
	if err != nil {
		return err
	}
	resJSON, err := resultRowJSON(res)
	if err != nil {
		return err
	}
	if err := pgLockSheet(tx, key); err != nil {
		return err
	}
	args := []any{string(sheetJSON)}
	if ifVersion > 0 {
		args = append(args, ifVersion)
	}
	args = append(args, note.Source, note.By, row.Updated)
	args = append(args, len(hands), string(handsJSON), string(resJSON))
	var got []struct {
		ID      int64 `gorm:"column:id"`
		Version int   `gorm:"column:version"`
	}
	if err := tx.Raw(pgWriteSheet[[2]bool{open, ifVersion > 0}], args...).Scan(&got).Error; err != nil {
		// The sheet's only foreign key is its round table (sheetError).
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23503" && strings.HasPrefix(pgErr.ConstraintName, "sheets_") {
			return gorm.ErrForeignKeyViolated
		}
		return err
	}
	if len(got) == 1 {
		row.ID, row.Version = got[0].ID, got[0].Version
		return nil
	}
	return whyNotWritten(tx, key, ifVersion, open)
}

// whyNotWritten explains a write statement that wrote nothing: the round
// is unknown or closed, or (compare-and-set) the version differs.
func whyNotWritten(tx *gorm.DB, key sheetKey, ifVersion int, open bool) error {
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
