package store

import (
	"context"
	"database/sql"
	"fmt"

	"gorm.io/gorm"
)

// The embedded writer's statements, prepared once and kept. A statement
// prepared with modernc.org/sqlite keeps SQLite's compiled program and
// only binds, steps and resets it at each execution; an unprepared
// ExecContext or QueryContext compiles the text again every time (the
// former driver, glebarez/go-sqlite, compiled even prepared statements at
// every execution: 45% of the writer's CPU, docs/performance.md).
//
// The statements of the sheet write are prepared on the writer pool once
// the migrations are applied, and kept until Close. Inside a write
// transaction tx.StmtContext finds the statement already prepared on the
// transaction's connection and runs that; database/sql prepares it again
// only on a connection it has not seen yet (the pool's one connection was
// closed after connMaxIdleTime), once per connection.

// sqliteKeptSQL are the texts kept prepared: every statement of the sheet
// write (sheetwrite_sqlite.go, the history copy, the open-round check).
func sqliteKeptSQL() []string {
	out := []string{sqliteOpenUnsignedSQL, sqliteSaveVersionSQL, sqliteUpsertSheetSQL, sqliteReplaceSheetSQL,
		sqliteDeleteHandsSQL}
	return append(out, sqliteUpsertHandsSQL[1:]...)
}

// prepareSQLiteStmts prepares the kept statements on the writer pool.
func (db *DB) prepareSQLiteStmts(ctx context.Context) error {
	texts := sqliteKeptSQL()
	db.kept = make(map[string]*sql.Stmt, len(texts))
	for _, q := range texts {
		if _, ok := db.kept[q]; ok {
			continue
		}
		st, err := db.sql.PrepareContext(ctx, q)
		if err != nil {
			db.closeSQLiteStmts()
			return fmt.Errorf("prepare the sqlite writer's statements: %w", err)
		}
		db.kept[q] = st
	}
	return nil
}

func (db *DB) closeSQLiteStmts() {
	for _, st := range db.kept {
		st.Close()
	}
	db.kept = nil
}

// keptStmt is q's kept statement bound to tx's transaction, or nil when q
// is not kept (or tx is no transaction): the caller then runs the text.
func (db *DB) keptStmt(tx *gorm.DB, q string) *sql.Stmt {
	kept, ok := db.kept[q]
	if !ok {
		return nil
	}
	sqlTx, ok := tx.Statement.ConnPool.(*sql.Tx)
	if !ok {
		return nil
	}
	return sqlTx.StmtContext(tx.Statement.Context, kept)
}

// sqliteExec runs q with args in tx's transaction, through its kept
// statement when it has one.
func (db *DB) sqliteExec(tx *gorm.DB, q string, args ...any) (sql.Result, error) {
	if st := db.keptStmt(tx, q); st != nil {
		return st.ExecContext(tx.Statement.Context, args...)
	}
	return conn(tx).ExecContext(tx.Statement.Context, q, args...)
}

// sqliteQueryRow is sqliteExec for a statement returning one row.
func (db *DB) sqliteQueryRow(tx *gorm.DB, q string, args ...any) *sql.Row {
	if st := db.keptStmt(tx, q); st != nil {
		return st.QueryRowContext(tx.Statement.Context, args...)
	}
	return conn(tx).QueryRowContext(tx.Statement.Context, q, args...)
}
