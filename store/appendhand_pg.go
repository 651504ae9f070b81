package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"

	"segnapunti/domain"
)

// Hand-by-hand entry on PostgreSQL: the sheet is read outside
// any transaction, the new hand, report and result computed, and the write
// is the sheet write's shape — the locks and ONE statement, sent as one
// pipeline in one implicit transaction (pgPutSheet) — with the conditions
// in the statement's own WHERE: the round being played, the sheet not
// signed, and the sheet still at the version that was read (or, for a
// first hand, no sheet yet). A statement that writes nothing because
// another writer came first is started over from the read; one refused by
// the round or a signature says so.

// pgAppendSQL adds one hand to an existing sheet: $1 the sheet's id, $2
// its version as read, $3 the new report JSON, $4 updated_at, $5 the hand
// as a one-element JSON array, $6 the result as a JSON object, $7 the
// idempotency key ("" for none), $8 the new hand's position, $9 the
// request hash, $10 tournament, $11 round, $12 table.
var pgAppendSQL = `WITH ` + pgResultCTE("$6") + `, ` +
	`s AS (UPDATE sheets SET version = sheets.version + 1, report_json = $3::json, updated_at = $4::timestamptz, ` + pgResultAssignments("m.") + `
		FROM m WHERE sheets.id = $1::bigint AND sheets.version = $2::int AND ` + pgKeyOpenCond + `
		RETURNING sheets.id, sheets.version), ` +
	`h AS (INSERT INTO sheet_hands (sheet_id, ` + strings.Join(pgHandColumns, ", ") + `)
		SELECT s.id, ` + prefixed("j.", pgHandColumns) + ` FROM s, json_populate_recordset(NULL::sheet_hands, $5::json) j), ` +
	`k AS (INSERT INTO idempotency_keys (sheet_id, idem_key, hand_position, created_at, request_hash)
		SELECT s.id, $7::text, $8::int, $4::timestamptz, $9::text FROM s WHERE $7::text <> '') ` +
	`SELECT id, version FROM s`

// pgCreateWithHandSQL creates the sheet with its first hand: $1 the sheet
// row, $2 the hands, $3 the result, $4 the idempotency key, $5 the request
// hash, $6 created_at. ON CONFLICT DO NOTHING: a sheet created meanwhile
// is never overwritten (the append starts over and adds to it).
var pgCreateWithHandSQL = `WITH v AS (SELECT p.*, x.d AS v_doc FROM (SELECT $1::json AS d) x, json_populate_record(NULL::sheets, x.d) p), ` +
	pgResultCTE("$3") + `, ` +
	`s AS (INSERT INTO sheets (` + strings.Join(pgSheetWriteColumns, ", ") + `, version, res_version, ` + strings.Join(sheetResultColumns, ", ") + `)
		SELECT ` + sheetValues(pgSheetWriteColumns) + `, 1, 1, ` + prefixed("m.", resultColumns) + ` FROM v, m WHERE ` + pgOpenCond + `
		ON CONFLICT (tournament_id, round_no, table_no) DO NOTHING RETURNING id, version), ` +
	`h AS (INSERT INTO sheet_hands (sheet_id, ` + strings.Join(pgHandColumns, ", ") + `)
		SELECT s.id, ` + prefixed("j.", pgHandColumns) + ` FROM s, json_populate_recordset(NULL::sheet_hands, $2::json) j), ` +
	`k AS (INSERT INTO idempotency_keys (sheet_id, idem_key, hand_position, created_at, request_hash)
		SELECT s.id, $4::text, 1, $6::timestamptz, $5::text FROM s WHERE $4::text <> '') ` +
	`SELECT id, version FROM s`

// pgKeyOpenCond is pgOpenCond for a statement that names the sheet by
// parameters ($10 tournament, $11 round, $12 table).
const pgKeyOpenCond = `EXISTS (SELECT 1 FROM rounds r WHERE r.tournament_id = $10::text AND r.number = $11::int AND r.state = 'playing')
	AND NOT EXISTS (SELECT 1 FROM sheet_confirmations c WHERE c.tournament_id = $10::text AND c.round_no = $11::int AND c.table_no = $12::int)`

// pgAppendAttempts bounds how often an append starts over after another
// writer changed (or created) the sheet between its read and its write.
const pgAppendAttempts = 8

func (db *DB) pgAppendHand(ctx context.Context, key sheetKey, empty domain.Sheet, h domain.Hand, idemKey string, report func(domain.Sheet) ([]byte, error)) (StoredSheet, bool, error) {
	read := db.gorm.WithContext(ctx)
	for range pgAppendAttempts {
		st, id, err := loadSheet(read, key, false)
		switch {
		case errors.Is(err, domain.ErrNotFound):
			out, done, err := db.pgCreateWithHand(ctx, key, empty, h, idemKey, report)
			if done || err != nil {
				return out, false, err
			}
			continue // created meanwhile: append to it
		case err != nil:
			return StoredSheet{}, false, err
		}
		if idemKey != "" {
			var seen []idempotencyRow
			if err := read.Where("sheet_id = ? AND idem_key = ?", id, idemKey).Limit(1).Find(&seen).Error; err != nil {
				return StoredSheet{}, false, translate(err, "check idempotency key")
			}
			if len(seen) > 0 {
				// As before the write moved into one statement: a closed
				// round or a signed sheet refuses a replay too.
				if err := appendRefusal(read, key); err != nil {
					return StoredSheet{}, false, err
				}
				if seen[0].RequestHash != nil && *seen[0].RequestHash != handHash(h) {
					return StoredSheet{}, false, fmt.Errorf("%w (sheet of %s)", ErrIdempotencyReused, key)
				}
				return st, true, nil
			}
		}
		out, done, err := db.pgAppendTo(ctx, key, st, id, h, idemKey, report)
		if done || err != nil {
			return out, false, err
		}
	}
	return StoredSheet{}, false, errorf(domain.ErrConflict, "sheet of %s: other writers kept changing it", key)
}

// pgAppendTo writes hand h after the hands of st (the sheet with id id as
// read). done=false: the sheet changed since it was read; start over.
func (db *DB) pgAppendTo(ctx context.Context, key sheetKey, st StoredSheet, id int64, h domain.Hand, idemKey string, report func(domain.Sheet) ([]byte, error)) (StoredSheet, bool, error) {
	now := instant(db.stamp())
	hr, err := handToRow(len(st.Sheet.Hands)+1, h)
	if err != nil {
		return StoredSheet{}, false, err
	}
	stored, err := handToDomain(hr) // the hand as it will read back
	if err != nil {
		return StoredSheet{}, false, err
	}
	s := st.Sheet
	s.Hands = append(s.Hands[:len(s.Hands):len(s.Hands)], stored)
	reportJSON, err := callReport(report, s)
	if err != nil {
		return StoredSheet{}, false, refusalFirst(db.gorm.WithContext(ctx), key, err)
	}
	res := resultToRow(id, key, st.Version+1, s)
	hands := string(appendHandRows(nil, []handRow{hr}))
	result := string(appendResultRow(nil, &res))
	hash := handHash(h)
	var newID int64
	var version int
	written, err := db.pgLockedWrite(ctx, key, pgAppendSQL, []any{id, st.Version, string(reportJSON), now.time(), hands, result,
		idemKey, hr.Position, hash, key.tournament, key.round, key.table}, &newID, &version)
	if err != nil {
		return StoredSheet{}, false, pgWriteError(err)
	}
	if !written {
		return StoredSheet{}, false, appendRefusal(db.gorm.WithContext(ctx), key)
	}
	return StoredSheet{Sheet: s, Version: version, ReportJSON: reportJSON, UpdatedAt: now.time()}, true, nil
}

// pgCreateWithHand creates the sheet from empty with h as hand 1.
// done=false: another writer created the sheet first; start over.
func (db *DB) pgCreateWithHand(ctx context.Context, key sheetKey, empty domain.Sheet, h domain.Hand, idemKey string, report func(domain.Sheet) ([]byte, error)) (StoredSheet, bool, error) {
	now := instant(db.stamp())
	s := empty
	s.Hands = []domain.Hand{h}
	reportJSON, err := callReport(report, s)
	if err != nil {
		return StoredSheet{}, false, refusalFirst(db.gorm.WithContext(ctx), key, err)
	}
	row, hands, err := sheetToRow(s, reportJSON, now)
	if err != nil {
		return StoredSheet{}, false, err
	}
	row.TournamentID, row.RoundNo, row.TableNo, row.Version = key.tournament, key.round, key.table, 1
	res := resultToRow(0, key, 1, s)
	args := []any{string(appendSheetRow(nil, &row)), string(appendHandRows(nil, hands)), string(appendResultRow(nil, &res)),
		idemKey, handHash(h), now.time()}
	written, err := db.pgLockedWrite(ctx, key, pgCreateWithHandSQL, args, &row.ID, &row.Version)
	if err != nil {
		return StoredSheet{}, false, pgWriteError(err)
	}
	if !written {
		return StoredSheet{}, false, appendRefusal(db.gorm.WithContext(ctx), key)
	}
	// What was stored, as GetSheet reads it back.
	st, err := sheetToDomain(row, hands)
	return st, err == nil, err
}

// pgLockedWrite sends the sheet locks and one write statement returning
// (id, version) as one pipeline (one implicit transaction, as pgPutSheet).
// written=false: the statement wrote nothing.
func (db *DB) pgLockedWrite(ctx context.Context, key sheetKey, q string, args []any, id *int64, version *int) (written bool, err error) {
	if err := db.sheetWriters.Acquire(ctx, 1); err != nil {
		return false, err
	}
	defer db.sheetWriters.Release(1)
	err = db.withPgx(ctx, func(pc *pgx.Conn) error {
		var b pgx.Batch
		b.Queue(pgLockSheetSQL, key.tournament, key.round, key.table)
		b.Queue(q, args...)
		br := pc.SendBatch(ctx, &b)
		_, err := br.Exec()
		if err == nil {
			err = br.QueryRow().Scan(id, version)
			written = err == nil
			if errors.Is(err, pgx.ErrNoRows) {
				err = nil
			}
		}
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		return err
	})
	return written, err
}

// appendRefusal says why an append may not write: the round unknown or
// not being played, or the sheet signed (in the order the transaction of
// the former append checked them); nil when neither (another writer came
// first: start over).
func appendRefusal(q *gorm.DB, key sheetKey) error {
	var states []string
	if err := q.Model(&roundRow{}).Where("tournament_id = ? AND number = ?", key.tournament, key.round).Pluck("state", &states).Error; err != nil {
		return translate(err, "check round state")
	}
	switch {
	case len(states) == 0:
		return errorf(domain.ErrNotFound, "round %d of tournament %s", key.round, key.tournament)
	case states[0] != string(domain.RoundPlaying):
		return fmt.Errorf("%w: round %d of tournament %s is %s", ErrRoundClosed, key.round, key.tournament, states[0])
	}
	return checkNotConfirmed(q, key)
}

// refusalFirst is err (the report's refusal of the new sheet, e.g. a fifth
// hand), unless the round or a signature refuses the append anyway: the
// former transaction checked those before computing the report.
func refusalFirst(q *gorm.DB, key sheetKey, err error) error {
	if rerr := appendRefusal(q, key); rerr != nil {
		return rerr
	}
	return err
}
