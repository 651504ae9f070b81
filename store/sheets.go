package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"segnapunti/domain"
)

// StoredSheet is a sheet as stored: the sheet exactly as entered, its
// version (1 for a new sheet, +1 each write; the ETag of API §4.1), the
// report JSON computed when it was written, and when that was.
type StoredSheet struct {
	Sheet      domain.Sheet
	Version    int
	ReportJSON []byte
	UpdatedAt  time.Time
}

// sheetKey names the sheet of one table in one round.
type sheetKey struct {
	tournament   string
	round, table int
}

func (k sheetKey) String() string {
	return fmt.Sprintf("tournament %s, round %d, table %d", k.tournament, k.round, k.table)
}

func (k sheetKey) where(q *gorm.DB) *gorm.DB {
	return q.Where("tournament_id = ? AND round_no = ? AND table_no = ?", k.tournament, k.round, k.table)
}

// appendRetries bounds how often AppendHand starts over after losing the
// race to create a new sheet.
const appendRetries = 3

// PutSheet stores the whole sheet, replacing its hands, with the report JSON
// the caller computed. ifVersion 0 creates or replaces unconditionally;
// ifVersion > 0 replaces only if the stored version equals it, else
// ErrConflict (API §4.1 If-Match → 412). It returns the new version. A round
// or table that does not exist is ErrNotFound; a value the schema refuses
// (an unknown ruleset, more than 4 hands) is ErrInvalid.
func (db *DB) PutSheet(ctx context.Context, tournamentID string, round, table int, s domain.Sheet, reportJSON []byte, ifVersion int) (int, error) {
	return db.putSheet(ctx, tournamentID, round, table, s, reportJSON, ifVersion, false, Replacement{Source: SourcePut})
}

// PutOpenSheet is PutSheet for a round that must still be being played:
// the round's state is read under a share lock in the same transaction, so
// a sheet cannot land in a round a referee has just marked delivered (the
// state change waits for the write, or the write sees the new state and is
// ErrRoundClosed). Corrections, which change delivered sheets, use PutSheet.
func (db *DB) PutOpenSheet(ctx context.Context, tournamentID string, round, table int, s domain.Sheet, reportJSON []byte, ifVersion int) (int, error) {
	return db.putSheet(ctx, tournamentID, round, table, s, reportJSON, ifVersion, true, Replacement{Source: SourcePut})
}

// PutOpenSheetBy is PutOpenSheet saying who writes: a sheet it replaces is
// kept in the sheet's history under that name (sheet_versions.go).
func (db *DB) PutOpenSheetBy(ctx context.Context, tournamentID string, round, table int, s domain.Sheet, reportJSON []byte, ifVersion int, by string) (int, error) {
	return db.putSheet(ctx, tournamentID, round, table, s, reportJSON, ifVersion, true, Replacement{Source: SourcePut, By: by})
}

func (db *DB) putSheet(ctx context.Context, tournamentID string, round, table int, s domain.Sheet, reportJSON []byte, ifVersion int, open bool, note Replacement) (int, error) {
	key := sheetKey{tournamentID, round, table}
	if ifVersion < 0 {
		return 0, errorf(domain.ErrInvalid, "sheet of %s: version %d is negative", key, ifVersion)
	}
	row, hands, err := sheetToRow(s, reportJSON, instant(db.stamp()))
	if err != nil {
		return 0, fmt.Errorf("sheet of %s: %w", key, err)
	}
	row.TournamentID, row.RoundNo, row.TableNo = tournamentID, round, table
	// The result is computed before the write (on SQLite, outside the one
	// writer's turn); its sheet id and version are the write's.
	res := resultToRow(0, key, 0, s)
	if db.dialect == DialectPostgres {
		// open: the round-open condition and the signatures (a signed
		// sheet changes only by a correction) are in the write's WHERE.
		if err := db.pgPutSheet(ctx, key, &row, hands, &res, ifVersion, open, note); err != nil {
			return 0, sheetError(err, key)
		}
		return row.Version, nil
	}
	err = db.sqliteWrite(ctx, func(tx *gorm.DB) error {
		return db.sqlitePutSheet(tx, key, &row, hands, &res, ifVersion, open, note)
	})
	if err != nil {
		return 0, sheetError(err, key)
	}
	return row.Version, nil
}

// sqlitePutSheet is putSheet's transaction on SQLite: the round and
// signature checks (open), the history copy, the write.
func (db *DB) sqlitePutSheet(tx *gorm.DB, key sheetKey, row *sheetRow, hands []handRow, res *matchResultRow, ifVersion int, open bool, note Replacement) error {
	stored := true // unknown: the history statement finds out
	if open {
		var err error
		if stored, err = db.checkOpenUnsigned(tx, key); err != nil {
			return err
		}
	}
	if stored {
		if err := db.saveVersion(tx, key, note, row.Updated); err != nil {
			return err
		}
	}
	return db.sqliteWriteSheet(tx, key, row, hands, res, ifVersion)
}

// replaceSheet overwrites the sheet if its version is ifVersion
// (compare-and-set in the WHERE clause: a writer that waited for the row
// lock re-reads the version and fails instead of overwriting).
func replaceSheet(tx *gorm.DB, key sheetKey, row *sheetRow, ifVersion int) error {
	set := make(map[string]any, len(sheetColumns)+1)
	for _, c := range sheetColumns {
		set[c] = sheetColumnValue(row, c)
	}
	set["version"] = gorm.Expr("version + 1")
	var got sheetRow
	res := key.where(tx.Model(&got).Clauses(clause.Returning{Columns: []clause.Column{{Name: "id"}, {Name: "version"}}})).
		Where("version = ?", ifVersion).Updates(set)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return casConflict(tx, key, ifVersion)
	}
	row.ID, row.Version = got.ID, got.Version
	return nil
}

// casConflict is the error of a compare-and-set that found another
// version (or no sheet).
func casConflict(tx *gorm.DB, key sheetKey, ifVersion int) error {
	var stored []int
	if err := key.where(tx.Model(&sheetRow{})).Pluck("version", &stored).Error; err != nil {
		return err
	}
	if len(stored) == 0 {
		return errorf(domain.ErrConflict, "sheet of %s: version %d expected, but there is no sheet", key, ifVersion)
	}
	return errorf(domain.ErrConflict, "sheet of %s: version %d expected, stored is %d", key, ifVersion, stored[0])
}

// sheetColumnValue is the value of one of sheetColumns in row.
func sheetColumnValue(r *sheetRow, column string) any {
	switch column {
	case "ruleset":
		return r.Ruleset
	case "hands_planned":
		return r.HandsPlanned
	case "kind":
		return r.Kind
	case "vp_table":
		return r.VPTable
	case "header_tournament":
		return r.HeaderTournament
	case "header_round":
		return r.HeaderRound
	case "header_table":
		return r.HeaderTable
	case "ns_id":
		return r.NSID
	case "ns_ids":
		return r.NSIDs
	case "eo_ids":
		return r.EOIDs
	case "ns_players":
		return r.NSPlayers
	case "eo_id":
		return r.EOID
	case "eo_players":
		return r.EOPlayers
	case "first_dealer":
		return r.FirstDealer
	case "late_ns":
		return r.LateNS
	case "late_eo":
		return r.LateEO
	case "written_ns_total":
		return r.WrittenNSTotal
	case "written_ns_mp":
		return r.WrittenNSMP
	case "written_ns_vp":
		return r.WrittenNSVP
	case "written_eo_total":
		return r.WrittenEOTotal
	case "written_eo_mp":
		return r.WrittenEOMP
	case "written_eo_vp":
		return r.WrittenEOVP
	case "cells":
		return r.Cells
	case "report_json":
		return r.ReportJSON
	case "updated_at":
		return r.Updated
	}
	panic("store: unknown sheet column " + column) // sheetColumns and this switch are edited together
}

func insertHands(tx *gorm.DB, key sheetKey, sheetID int64, hands []handRow) error {
	if len(hands) == 0 {
		return nil
	}
	for i := range hands {
		hands[i].SheetID = sheetID
	}
	if err := tx.Create(&hands).Error; err != nil {
		return translate(err, "store hands of sheet of "+key.String())
	}
	return nil
}

// sheetError maps what a sheet write can fail with. The only foreign key of
// a sheet is its round table, so a violation means there is no such table.
func sheetError(err error, key sheetKey) error {
	if errors.Is(err, gorm.ErrForeignKeyViolated) {
		return errorf(domain.ErrNotFound, "no table %d in round %d of tournament %s", key.table, key.round, key.tournament)
	}
	return translate(err, "sheet of "+key.String())
}

// GetSheet returns the stored sheet; none is ErrNotFound. The sheet and its
// hands are read in one snapshot, so they belong to the same version.
func (db *DB) GetSheet(ctx context.Context, tournamentID string, round, table int) (StoredSheet, error) {
	key := sheetKey{tournamentID, round, table}
	var st StoredSheet
	err := db.readDB(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		st, _, err = loadSheet(tx, key, false)
		return err
	}, db.snapshot())
	if err != nil {
		return StoredSheet{}, sheetError(err, key)
	}
	return st, nil
}

// snapshot are the options of a read-only transaction that sees one
// snapshot: REPEATABLE READ on PostgreSQL; on SQLite a read transaction
// (the driver begins it DEFERRED) sees one snapshot of the WAL.
func (db *DB) snapshot() *sql.TxOptions {
	if db.dialect == DialectPostgres {
		return &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}
	}
	return &sql.TxOptions{ReadOnly: true}
}

// loadSheet reads a sheet and its hands; forUpdate locks the sheet row
// (PostgreSQL; an SQLite write transaction already holds the database).
func loadSheet(tx *gorm.DB, key sheetKey, forUpdate bool) (StoredSheet, int64, error) {
	var row sheetRow
	q := key.where(tx)
	if forUpdate {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	if err := q.Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return StoredSheet{}, 0, errorf(domain.ErrNotFound, "no sheet for %s", key)
		}
		return StoredSheet{}, 0, translate(err, "get sheet of "+key.String())
	}
	var hands []handRow
	if err := tx.Where("sheet_id = ?", row.ID).Order("position").Find(&hands).Error; err != nil {
		return StoredSheet{}, 0, translate(err, "get hands of sheet of "+key.String())
	}
	st, err := sheetToDomain(row, hands)
	if err != nil {
		return StoredSheet{}, 0, err
	}
	return st, row.ID, nil
}

// AppendHand adds h as the next hand of the sheet in one transaction, under
// the sheet's row lock. With an idempotencyKey already used for this sheet
// nothing is written and the stored sheet comes back with replay=true (a
// client retrying after a lost answer does not add the hand twice). A sheet
// that does not exist yet is created from empty with h as hand 1. report
// computes the report JSON of the new sheet, inside the transaction.
func (db *DB) AppendHand(ctx context.Context, tournamentID string, round, table int, empty domain.Sheet, h domain.Hand, idempotencyKey string, report func(domain.Sheet) ([]byte, error)) (StoredSheet, bool, error) {
	key := sheetKey{tournamentID, round, table}
	if db.dialect == DialectPostgres {
		st, replay, err := db.pgAppendHand(ctx, key, empty, h, idempotencyKey, report)
		if err != nil {
			return StoredSheet{}, false, sheetError(err, key)
		}
		return st, replay, nil
	}
	for attempt := 1; ; attempt++ {
		var st StoredSheet
		var replay bool
		err := db.sqliteWrite(ctx, func(tx *gorm.DB) error {
			if err := checkRoundOpen(tx, key); err != nil {
				return err
			}
			// table entry: a signed sheet takes no more hands; the sheet
			// lock orders this check after a signature being written.
			if err := db.lockSheet(tx, key); err != nil {
				return err
			}
			if err := checkNotConfirmed(tx, key); err != nil {
				return err
			}
			var err error
			st, replay, err = db.appendHand(tx, key, empty, h, idempotencyKey, report)
			return err
		})
		// Two first hands of a new sheet: the loser's insert hits the
		// unique key; on the next attempt it finds the sheet and appends to
		// it (or replays it).
		if errors.Is(err, errNewSheetRace) && attempt < appendRetries {
			continue
		}
		if err != nil {
			return StoredSheet{}, false, sheetError(err, key)
		}
		return st, replay, nil
	}
}

var errNewSheetRace = errors.New("another writer created the sheet first")

// checkRoundOpen reads the round's state under a share lock (it blocks a
// concurrent state change until the transaction ends, and does not conflict
// with foreign-key checks) and refuses a round no longer being played
// (RULES §10; FITAB art. 20, FIBur-INT art. 19: a delivered sheet is final).
// On SQLite the transaction already holds the database's write lock.
func checkRoundOpen(tx *gorm.DB, key sheetKey) error {
	var states []string
	err := tx.Model(&roundRow{}).Clauses(clause.Locking{Strength: "SHARE"}).
		Where("tournament_id = ? AND number = ?", key.tournament, key.round).Pluck("state", &states).Error
	switch {
	case err != nil:
		return translate(err, "check round state")
	case len(states) == 0:
		return errorf(domain.ErrNotFound, "round %d of tournament %s", key.round, key.tournament)
	case states[0] != string(domain.RoundPlaying):
		return fmt.Errorf("%w: round %d of tournament %s is %s", ErrRoundClosed, key.round, key.tournament, states[0])
	}
	return nil
}

// checkOpenUnsigned is checkRoundOpen then checkNotConfirmed (table
// entry: a signed sheet changes only by a correction) in one query, for
// the SQLite writer, whose transaction already holds the database. stored
// says whether the table has a sheet (none: there is nothing to keep in
// the history).
func (db *DB) checkOpenUnsigned(tx *gorm.DB, key sheetKey) (stored bool, err error) {
	// Kept prepared, with SQLite's placeholders (the embedded writer's
	// hot path: no gorm scanning).
	var state string
	var signed, sheets int64
	err = db.sqliteQueryRow(tx, sqliteOpenUnsignedSQL, key.table, key.tournament, key.round).Scan(&state, &signed, &sheets)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, errorf(domain.ErrNotFound, "round %d of tournament %s", key.round, key.tournament)
	case err != nil:
		return false, translate(err, "check round state")
	case state != string(domain.RoundPlaying):
		return false, fmt.Errorf("%w: round %d of tournament %s is %s", ErrRoundClosed, key.round, key.tournament, state)
	case signed > 0:
		return false, fmt.Errorf("%w: sheet of %s", ErrSheetConfirmed, key)
	}
	return sheets > 0, nil
}

// sqliteOpenUnsignedSQL is checkOpenUnsigned's query: ?1 table, ?2
// tournament, ?3 round.
const sqliteOpenUnsignedSQL = `SELECT r.state, (SELECT count(*) FROM sheet_confirmations c
		WHERE c.tournament_id = r.tournament_id AND c.round_no = r.number AND c.table_no = ?1) AS signed,
		(SELECT count(*) FROM sheets s WHERE s.tournament_id = r.tournament_id AND s.round_no = r.number AND s.table_no = ?1) AS stored
		FROM rounds r WHERE r.tournament_id = ?2 AND r.number = ?3`

func (db *DB) appendHand(tx *gorm.DB, key sheetKey, empty domain.Sheet, h domain.Hand, idemKey string, report func(domain.Sheet) ([]byte, error)) (StoredSheet, bool, error) {
	now := instant(db.stamp())
	st, id, err := loadSheet(tx, key, true)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return db.createWithHand(tx, key, empty, h, idemKey, report, now)
	case err != nil:
		return StoredSheet{}, false, err
	}
	if idemKey != "" {
		var seen []idempotencyRow
		if err := tx.Where("sheet_id = ? AND idem_key = ?", id, idemKey).Limit(1).Find(&seen).Error; err != nil {
			return StoredSheet{}, false, translate(err, "check idempotency key")
		}
		if len(seen) > 0 {
			// A key first used before request hashes were kept (NULL) replays.
			if seen[0].RequestHash != nil && *seen[0].RequestHash != handHash(h) {
				return StoredSheet{}, false, fmt.Errorf("%w (sheet of %s)", ErrIdempotencyReused, key)
			}
			return st, true, nil
		}
	}
	hr, err := handToRow(len(st.Sheet.Hands)+1, h)
	if err != nil {
		return StoredSheet{}, false, err
	}
	// The hand as it will read back (copies, not the caller's pointers).
	stored, err := handToDomain(hr)
	if err != nil {
		return StoredSheet{}, false, err
	}
	s := st.Sheet
	s.Hands = append(s.Hands, stored)
	reportJSON, err := callReport(report, s)
	if err != nil {
		return StoredSheet{}, false, err
	}
	res := tx.Model(&sheetRow{}).Where("id = ? AND version = ?", id, st.Version).Updates(map[string]any{
		"version":     gorm.Expr("version + 1"),
		"report_json": string(reportJSON),
		"updated_at":  now,
	})
	if res.Error != nil {
		return StoredSheet{}, false, translate(res.Error, "append hand")
	}
	if res.RowsAffected != 1 { // cannot happen under the row lock; never overwrite blindly
		return StoredSheet{}, false, errorf(domain.ErrConflict, "sheet of %s changed while appending", key)
	}
	if err := insertHands(tx, key, id, []handRow{hr}); err != nil {
		return StoredSheet{}, false, err
	}
	if err := putResult(tx, id, key, st.Version+1, s); err != nil {
		return StoredSheet{}, false, err
	}
	if err := rememberKey(tx, id, idemKey, h, len(s.Hands), now); err != nil {
		return StoredSheet{}, false, err
	}
	return StoredSheet{Sheet: s, Version: st.Version + 1, ReportJSON: reportJSON, UpdatedAt: now.time()}, false, nil
}

func (db *DB) createWithHand(tx *gorm.DB, key sheetKey, empty domain.Sheet, h domain.Hand, idemKey string, report func(domain.Sheet) ([]byte, error), now instant) (StoredSheet, bool, error) {
	s := empty
	s.Hands = []domain.Hand{h}
	reportJSON, err := callReport(report, s)
	if err != nil {
		return StoredSheet{}, false, err
	}
	row, hands, err := sheetToRow(s, reportJSON, now)
	if err != nil {
		return StoredSheet{}, false, err
	}
	row.TournamentID, row.RoundNo, row.TableNo, row.Version = key.tournament, key.round, key.table, 1
	if err := tx.Create(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return StoredSheet{}, false, errNewSheetRace
		}
		return StoredSheet{}, false, err
	}
	if err := insertHands(tx, key, row.ID, hands); err != nil {
		return StoredSheet{}, false, err
	}
	if err := putResult(tx, row.ID, key, row.Version, s); err != nil {
		return StoredSheet{}, false, err
	}
	if err := rememberKey(tx, row.ID, idemKey, h, 1, now); err != nil {
		return StoredSheet{}, false, err
	}
	// Read back what was stored: the caller gets exactly what GetSheet gives.
	st, err := sheetToDomain(row, hands)
	if err != nil {
		return StoredSheet{}, false, err
	}
	return st, false, nil
}

func callReport(report func(domain.Sheet) ([]byte, error), s domain.Sheet) ([]byte, error) {
	if report == nil {
		return nil, errors.New("append hand: no report function")
	}
	b, err := report(s)
	if err != nil {
		return nil, fmt.Errorf("append hand: report: %w", err)
	}
	return b, nil
}

// ErrIdempotencyReused: an Idempotency-Key already used on the sheet came
// with a different hand (IETF draft-ietf-httpapi-idempotency-key-header
// §2.7: a key reused with another request is refused, not replayed).
var ErrIdempotencyReused = fmt.Errorf("%w: Idempotency-Key already used with a different hand", domain.ErrInvalid)

// handHash is the SHA-256 (hex) of a hand as decoded: the same hand sent
// with other spacing or member order hashes the same.
func handHash(h domain.Hand) string {
	b, err := json.Marshal(h)
	if err != nil { // a plain data struct: cannot happen
		b = []byte(fmt.Sprintf("%#v", h))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func rememberKey(tx *gorm.DB, sheetID int64, idemKey string, h domain.Hand, position int, now instant) error {
	if idemKey == "" {
		return nil
	}
	hash := handHash(h)
	row := idempotencyRow{SheetID: sheetID, Key: idemKey, HandPosition: position, Created: now, RequestHash: &hash}
	if err := tx.Create(&row).Error; err != nil {
		return translate(err, "store idempotency key")
	}
	return nil
}
