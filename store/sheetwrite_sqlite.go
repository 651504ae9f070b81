package store

import (
	"database/sql"
	"errors"
	"slices"
	"strings"

	"gorm.io/gorm"
)

// The sheet write on the embedded database: the statements of
// putSheet sent to the writer transaction's connection directly, with
// their arguments in column order — no gorm statement building, callbacks,
// reflection or scanning on the embedded writer's hot path (they were a
// fifth of its CPU). The statements are built once and kept prepared
// (sqlite_stmts.go); a history copy is one INSERT … SELECT
// (sqliteSaveVersionSQL).

// sqliteSheetInsertColumns are the columns of a new sheet row: its key,
// version 1, the sheet's columns, and its result (res_version 1).
var sqliteSheetInsertColumns = append(append([]string{"tournament_id", "round_no", "table_no", "version", "created_at"}, sheetColumns...),
	append([]string{"res_version"}, sheetResultColumns...)...)

// sqliteUpsertSheetSQL inserts the sheet (with its result) as version 1
// or overwrites the stored one and adds one to its version; it returns id
// and version.
var sqliteUpsertSheetSQL = `INSERT INTO sheets (` + strings.Join(sqliteSheetInsertColumns, ", ") + `) VALUES (` +
	placeholders(len(sqliteSheetInsertColumns)) + `) ON CONFLICT (tournament_id, round_no, table_no) DO UPDATE SET ` +
	assignments(sheetColumns, "excluded") + `, version = sheets.version + 1, ` + pgResultAssignments("excluded.res_") + ` RETURNING id, version`

// sqliteReplaceSheetSQL overwrites the sheet and its result if its
// version is the last argument (compare-and-set); it returns id and
// version, or no row.
var sqliteReplaceSheetSQL = `UPDATE sheets SET ` + strings.Join(setters(append(slices.Clone(sheetColumns), sheetResultColumns...)), ", ") +
	`, res_version = version + 1, version = version + 1 WHERE tournament_id = ? AND round_no = ? AND table_no = ? AND version = ? RETURNING id, version`

// sqliteDeleteHandsSQL deletes the hands beyond the new count.
const sqliteDeleteHandsSQL = `DELETE FROM sheet_hands WHERE sheet_id = ? AND position > ?`

// sqliteUpsertHandsSQL[n] upserts n hands, built once for up to 4 (the
// schema's bound; more are built when asked, for the CHECK to refuse): a
// hand equal to the stored one is not written again (handChanged, the
// condition of the PostgreSQL statement).
var sqliteUpsertHandsSQL = func() (out [5]string) {
	for n := 1; n < len(out); n++ {
		out[n] = buildUpsertHandsSQL(n)
	}
	return out
}()

func buildUpsertHandsSQL(n int) string {
	row := "(" + placeholders(1+len(pgHandColumns)) + ")"
	return `INSERT INTO sheet_hands (sheet_id, ` + strings.Join(pgHandColumns, ", ") + `) VALUES ` +
		strings.TrimSuffix(strings.Repeat(row+", ", n), ", ") +
		` ON CONFLICT (sheet_id, position) DO UPDATE SET ` + assignments(pgHandColumns[1:], "excluded") +
		` WHERE ` + handChanged("sheet_hands", "excluded")
}

func upsertHandsSQL(n int) string {
	if n < len(sqliteUpsertHandsSQL) {
		return sqliteUpsertHandsSQL[n]
	}
	return buildUpsertHandsSQL(n)
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

func setters(cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c + " = ?"
	}
	return out
}

// sqliteWriteSheet is putSheet's write on SQLite inside the writer's
// savepoint (the history already kept): the sheet row with its result
// (upsert, or compare-and-set when ifVersion > 0), the hands that are new
// or changed, and a DELETE of the hands beyond the new count — the row
// writes of the PostgreSQL statement (pgWriteSheetSQL).
func (db *DB) sqliteWriteSheet(tx *gorm.DB, key sheetKey, row *sheetRow, hands []handRow, res *matchResultRow, ifVersion int) error {
	args := make([]any, 0, len(sqliteSheetInsertColumns)+4)
	var q string
	if ifVersion > 0 {
		for _, col := range sheetColumns {
			args = append(args, sheetColumnValue(row, col))
		}
		args = append(append(args, res.values()...), key.tournament, key.round, key.table, ifVersion)
		q = sqliteReplaceSheetSQL
	} else {
		args = append(args, row.TournamentID, row.RoundNo, row.TableNo, 1, row.Created)
		for _, col := range sheetColumns {
			args = append(args, sheetColumnValue(row, col))
		}
		args = append(append(args, 1), res.values()...)
		q = sqliteUpsertSheetSQL
	}
	err := db.sqliteQueryRow(tx, q, args...).Scan(&row.ID, &row.Version)
	switch {
	case errors.Is(err, sql.ErrNoRows) && ifVersion > 0:
		return casConflict(tx, key, ifVersion)
	case err != nil:
		return db.sqliteError(err)
	}
	res.SheetID, res.SheetVersion = row.ID, row.Version
	if row.Version > 1 {
		if _, err := db.sqliteExec(tx, sqliteDeleteHandsSQL, row.ID, len(hands)); err != nil {
			return translate(db.sqliteError(err), "replace hands of sheet of "+key.String())
		}
	}
	if n := len(hands); n > 0 {
		args = args[:0]
		for i := range hands {
			h := &hands[i]
			h.SheetID = row.ID
			args = append(args, h.SheetID, h.Position, h.End, h.LostCount)
			args = appendLineArgs(args, &h.NS)
			args = appendLineArgs(args, &h.EO)
		}
		if _, err := db.sqliteExec(tx, upsertHandsSQL(n), args...); err != nil {
			return translate(db.sqliteError(err), "store hands of sheet of "+key.String())
		}
	}
	return nil
}

// appendLineArgs appends a line's hand columns in pgHandColumns order.
func appendLineArgs(args []any, l *lineColumns) []any {
	return append(args, l.Base, l.Points, l.Total, l.RunningTotal, l.Burrachi, l.Closed, l.Pozzetto,
		l.TablePoints, l.HandPoints, l.PozzettoUnplayedPoints, l.PenaltyPoints)
}

// sqliteError is a driver error as gorm's SQLite dialector translates it
// (unique and foreign-key violations as gorm's sentinels), so the
// mapping of the gorm path (sheetError, translate) applies unchanged.
func (db *DB) sqliteError(err error) error {
	if t, ok := db.gorm.Dialector.(gorm.ErrorTranslator); ok && err != nil {
		return t.Translate(err)
	}
	return err
}
