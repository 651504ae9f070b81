package store

import (
	"context"
	"fmt"
	"time"

	"segnapunti/domain"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"
)

// RestartSQLiteWriter starts the writer of an embedded database (file
// path) again, with a checkpoint at each of ticks and the writer held for
// it once the WAL passed pauseFrames.
func RestartSQLiteWriter(db *DB, path string, ticks <-chan time.Time, pauseFrames int) error {
	db.stopSQLiteWriter()
	return db.startSQLiteWriterWith(path, ticks, pauseFrames)
}

// WriterHolds counts the checkpoints run with the embedded writer held.
func WriterHolds(db *DB) int64 { return db.writer.holds.Load() }

// Exec runs a raw statement (with ? placeholders) for tests of the schema's
// own constraints, translating its error like every repository method.
func Exec(ctx context.Context, db *DB, query string, args ...any) error {
	return translate(db.gorm.WithContext(ctx).Exec(query, args...).Error, "exec")
}

// Scan runs a raw query into dest (a pointer to a slice of structs or of
// one column's values).
func Scan(ctx context.Context, db *DB, dest any, query string, args ...any) error {
	return translate(db.gorm.WithContext(ctx).Raw(query, args...).Scan(dest).Error, "scan")
}

// PipelineScan runs the statements as one pipeline (withPgx, as the sheet
// write does) and scans the first column of each one's single row.
func PipelineScan(ctx context.Context, db *DB, queries ...string) ([]int64, error) {
	out := make([]int64, len(queries))
	err := db.withPgx(ctx, func(pc *pgx.Conn) error {
		var b pgx.Batch
		for _, q := range queries {
			b.Queue(q)
		}
		br := pc.SendBatch(ctx, &b)
		for i := range queries {
			if err := br.QueryRow().Scan(&out[i]); err != nil {
				br.Close()
				return err
			}
		}
		return br.Close()
	})
	return out, err
}

// PGBenchScript is the pgbench script that replays the sheet write of
// PutOpenSheet (pgPutSheet, open, no If-Match) as one pipeline: the locks
// and the write statement. Variables: tid, nhands, k (0), and sheet, hands,
// result of each of two sheets, suffixed a and b, which a client writes
// in turn (pgbench -D; -M prepared sends them as parameters). The sheet
// and result documents take the table number with jsonb || (each client
// writes its own tables, as the service benchmark does).
func PGBenchScript() string { return pgbenchScript() }

// PGBenchDocs are the JSON documents of a sheet write (the -D values).
func PGBenchDocs(tid string, round, table int, s domain.Sheet, rep []byte) (sheet, hands, result string, err error) {
	key := sheetKey{tid, round, table}
	row, hr, err := sheetToRow(s, rep, instant(time.Now().UTC().Truncate(time.Microsecond)))
	if err != nil {
		return "", "", "", err
	}
	row.TournamentID, row.RoundNo, row.TableNo = tid, round, table
	res := resultToRow(0, key, 0, s)
	return string(appendSheetRow(nil, &row)), string(appendHandRows(nil, hr)), string(appendResultRow(nil, &res)), nil
}

// CloseIdle closes the pool's idle connections (before a pgbench run on
// the same server, which needs 32 of its own).
func CloseIdle(db *DB) {
	db.sql.SetMaxIdleConns(0)
	db.sql.SetMaxIdleConns(maxOpenConns)
}

// VersionCopies is the stored copy of the sheet of (tournament, round,
// table) as the SQLite statement builds it (sqliteVersionDoc) and as
// encodeVersion builds it from the loaded rows, each read back through
// decodeVersion and encoded again (times and JSON texts compared as
// values, not as spellings).
func VersionCopies(ctx context.Context, db *DB, tournamentID string, round, table int) (fromSQL, fromGo string, err error) {
	key := sheetKey{tournamentID, round, table}
	var docs []string
	if err := db.gorm.WithContext(ctx).Raw(`SELECT `+sqliteVersionDoc+` FROM sheets o WHERE o.tournament_id = ? AND o.round_no = ? AND o.table_no = ?`,
		tournamentID, round, table).Scan(&docs).Error; err != nil || len(docs) != 1 {
		return "", "", fmt.Errorf("sql copy: %v (%d rows)", err, len(docs))
	}
	var rows []sheetRow
	if err := key.where(db.gorm.WithContext(ctx)).Find(&rows).Error; err != nil || len(rows) != 1 {
		return "", "", fmt.Errorf("sheet: %v (%d rows)", err, len(rows))
	}
	var hands []handRow
	if err := db.gorm.WithContext(ctx).Where("sheet_id = ?", rows[0].ID).Order("position").Find(&hands).Error; err != nil {
		return "", "", err
	}
	goDoc, err := encodeVersion(rows[0], hands)
	if err != nil {
		return "", "", err
	}
	again := func(b []byte) (string, error) {
		r, h, err := decodeVersion(b)
		if err != nil {
			return "", err
		}
		out, err := encodeVersion(r, h)
		return string(out), err
	}
	if fromSQL, err = again([]byte(docs[0])); err != nil {
		return "", "", err
	}
	fromGo, err = again(goDoc)
	return fromSQL, fromGo, err
}

// OpenSQLiteWithDriver is Open for an SQLite file whose writer pool uses
// the database/sql driver registered as driverName (a wrapper of
// modernc.org/sqlite that counts what it is asked).
func OpenSQLiteWithDriver(ctx context.Context, path, driverName string) (*DB, error) {
	return open(ctx, path, nil, driverName)
}

// KeptSQL are the texts the SQLite writer keeps prepared.
func KeptSQL() []string { return sqliteKeptSQL() }

// PutSheetRowWrites is PutOpenSheet (no If-Match) counting the rows it
// writes, as the database counts them: on PostgreSQL the locks and the
// write statement of pgPutSheet in one transaction, and what
// pg_stat_xact_user_tables (inserted + updated + deleted tuples, per
// table) gained meanwhile, read before it commits; on SQLite the writer transaction of putSheet,
// then total_changes() of its connection (the total, under "").
func PutSheetRowWrites(ctx context.Context, db *DB, tournamentID string, round, table int, s domain.Sheet, reportJSON []byte) (map[string]int64, error) {
	key := sheetKey{tournamentID, round, table}
	row, hands, err := sheetToRow(s, reportJSON, instant(db.stamp()))
	if err != nil {
		return nil, err
	}
	row.TournamentID, row.RoundNo, row.TableNo = tournamentID, round, table
	res := resultToRow(0, key, 0, s)
	note := Replacement{Source: SourcePut}
	out := map[string]int64{}
	if db.dialect != DialectPostgres {
		err := db.sqliteWrite(ctx, func(tx *gorm.DB) error {
			changes := func() (n int64, err error) {
				err = conn(tx).QueryRowContext(ctx, "SELECT total_changes()").Scan(&n)
				return n, err
			}
			before, err := changes()
			if err != nil {
				return err
			}
			if err := db.sqlitePutSheet(tx, key, &row, hands, &res, 0, true, note); err != nil {
				return err
			}
			after, err := changes()
			out[""] = after - before
			return err
		})
		return out, err
	}
	q, args := pgPutSheetStatement(&row, hands, &res, 0, true, note)
	err = db.withPgx(ctx, func(pc *pgx.Conn) error {
		tx, err := pc.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx)
		// The counts also hold the connection's earlier transactions
		// not yet sent to the statistics: read them before and after.
		count := func(sign int64) error {
			rows, err := tx.Query(ctx, `SELECT relname, n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_xact_user_tables`)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var name string
				var n int64
				if err := rows.Scan(&name, &n); err != nil {
					return err
				}
				if out[name] += sign * n; out[name] == 0 {
					delete(out, name)
				}
			}
			return rows.Err()
		}
		if err := count(-1); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, pgLockSheetSQL, key.tournament, key.round, key.table); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, q, args...).Scan(&row.ID, &row.Version); err != nil {
			return err
		}
		if err := count(1); err != nil {
			return err
		}
		return tx.Commit(ctx)
	})
	return out, err
}
