package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// Match results (migrations 00005, 00022): the official and computed
// result of every stored sheet, kept in the sheet's own row (the res_*
// columns, written by the statement or transaction that writes the sheet),
// so that the standings read narrow integers (MatchResults, through the
// view match_results) instead of every sheet.

// matchResultRow is the result of one sheet, as the view match_results
// names its columns.
type matchResultRow struct {
	SheetID         int64
	TournamentID    string
	RoundNo         int
	TableNo         int
	SheetVersion    int
	NSTotal         int
	NSMP            int
	NSVP            int
	EOTotal         int
	EOMP            int
	EOVP            int
	ComputedNSTotal int
	ComputedNSMP    int
	ComputedNSVP    int
	ComputedEOTotal int
	ComputedEOMP    int
	ComputedEOVP    int
	Differs         bool
	Kind            string
}

// resultColumns are the result's columns as the view match_results names
// them (and as appendResultRow writes them); the sheet row holds each as
// "res_" + name, and the sheet version it was computed from as
// res_version (the view's sheet_version).
var resultColumns = []string{
	"ns_total", "ns_mp", "ns_vp", "eo_total", "eo_mp", "eo_vp",
	"computed_ns_total", "computed_ns_mp", "computed_ns_vp",
	"computed_eo_total", "computed_eo_mp", "computed_eo_vp",
	"differs", "kind",
}

// sheetResultColumns are resultColumns as columns of the sheet row.
var sheetResultColumns = prefixedNames("res_", resultColumns)

func prefixedNames(prefix string, cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = prefix + c
	}
	return out
}

// values are the result's values in resultColumns order.
func (r *matchResultRow) values() []any {
	return []any{r.NSTotal, r.NSMP, r.NSVP, r.EOTotal, r.EOMP, r.EOVP,
		r.ComputedNSTotal, r.ComputedNSMP, r.ComputedNSVP, r.ComputedEOTotal, r.ComputedEOMP, r.ComputedEOVP,
		r.Differs, r.Kind}
}

// resultToRow computes the result of sheet s (version v of the sheet with
// id sheetID at key): domain.Validate, then domain.OfficialResult.
func resultToRow(sheetID int64, key sheetKey, version int, s domain.Sheet) matchResultRow {
	m := domain.OfficialResult(s, domain.Validate(s))
	ns, eo := &m.Lines[domain.NS], &m.Lines[domain.EO]
	return matchResultRow{
		SheetID: sheetID, TournamentID: key.tournament, RoundNo: key.round, TableNo: key.table, SheetVersion: version,
		NSTotal: ns.Official.Total, NSMP: ns.Official.MP, NSVP: ns.Official.VP,
		EOTotal: eo.Official.Total, EOMP: eo.Official.MP, EOVP: eo.Official.VP,
		ComputedNSTotal: ns.Computed.Total, ComputedNSMP: ns.Computed.MP, ComputedNSVP: ns.Computed.VP,
		ComputedEOTotal: eo.Computed.Total, ComputedEOMP: eo.Computed.MP, ComputedEOVP: eo.Computed.VP,
		Differs: m.Differs, Kind: string(m.Kind),
	}
}

// resultBatch bounds the rows of one multi-row update: 16 values × 1,000
// rows stays far below PostgreSQL's 65,535 parameters and SQLite's 32,766.
const resultBatch = 1000

// putResults writes results into their sheets' rows (by sheet id) in
// batches: one UPDATE … FROM (VALUES …) per batch, the same statement on
// both databases (their VALUES columns are column1, column2, …).
func putResults(tx *gorm.DB, rows []matchResultRow) error {
	for chunk := range slices.Chunk(rows, resultBatch) {
		args := make([]any, 0, len(chunk)*(2+len(resultColumns)))
		for i := range chunk {
			args = append(append(args, chunk[i].SheetID, chunk[i].SheetVersion), chunk[i].values()...)
		}
		if err := tx.Exec(updateResultsSQL(len(chunk)), args...).Error; err != nil {
			return translate(err, "store match results")
		}
	}
	return nil
}

// resultValueTypes are the SQL types of a VALUES row of updateResultsSQL:
// sheet id, sheet version, then resultColumns.
var resultValueTypes = []string{"bigint", "integer",
	"bigint", "bigint", "bigint", "bigint", "bigint", "bigint",
	"bigint", "bigint", "bigint", "bigint", "bigint", "bigint",
	"boolean", "text"}

// updateResultsSQL updates n sheets' results from n VALUES rows.
func updateResultsSQL(n int) string {
	row := make([]string, len(resultValueTypes))
	for i, t := range resultValueTypes {
		row[i] = "CAST(? AS " + t + ")"
	}
	set := make([]string, 0, 1+len(sheetResultColumns))
	set = append(set, "res_version = v.column2")
	for i, c := range sheetResultColumns {
		set = append(set, fmt.Sprintf("%s = v.column%d", c, i+3))
	}
	values := strings.TrimSuffix(strings.Repeat("("+strings.Join(row, ", ")+"), ", n), ", ")
	return `UPDATE sheets SET ` + strings.Join(set, ", ") + ` FROM (VALUES ` + values + `) AS v WHERE sheets.id = v.column1`
}

// putResult computes and stores the result of one sheet.
func putResult(tx *gorm.DB, sheetID int64, key sheetKey, version int, s domain.Sheet) error {
	return putResults(tx, []matchResultRow{resultToRow(sheetID, key, version, s)})
}

// MatchResults returns the stored result of every sheet of the tournament
// in rounds 1..afterRound (0: every round), by round and table, with the
// entrants the rounds seat at each line — one query over match_results and
// round_tables. An unknown tournament gives no results.
func (db *DB) MatchResults(ctx context.Context, tournamentID string, afterRound int) ([]domain.TableResult, error) {
	if afterRound < 0 {
		return nil, errorf(domain.ErrInvalid, "after_round: %d is negative", afterRound)
	}
	q := `SELECT m.round_no, m.table_no, t.ns_entrant, t.eo_entrant,
		COALESCE(t.ns2_entrant, ''), COALESCE(t.eo2_entrant, ''),
		m.ns_total, m.ns_mp, m.ns_vp, m.eo_total, m.eo_mp, m.eo_vp,
		m.computed_ns_total, m.computed_ns_mp, m.computed_ns_vp,
		m.computed_eo_total, m.computed_eo_mp, m.computed_eo_vp, m.kind
		FROM match_results m JOIN round_tables t
		ON t.tournament_id = m.tournament_id AND t.round_no = m.round_no AND t.table_no = m.table_no
		WHERE m.tournament_id = ?`
	args := []any{tournamentID}
	if afterRound > 0 {
		q += ` AND m.round_no <= ?`
		args = append(args, afterRound)
	}
	q += ` ORDER BY m.round_no, m.table_no`
	if db.dialect == DialectPostgres {
		return db.pgMatchResults(ctx, strings.ReplaceAll(strings.Replace(q, "?", "$1", 1), "?", "$2"), args)
	}
	rows, err := db.readDB(ctx).Raw(q, args...).Rows()
	if err != nil {
		return nil, translate(err, "match results")
	}
	defer rows.Close()
	var out []domain.TableResult
	for rows.Next() {
		var r domain.TableResult
		var kind string
		o, c := &r.Official, &r.Computed
		if err := rows.Scan(&r.Round, &r.Table, &r.NS, &r.EO, &r.NS2, &r.EO2,
			&o[0].Total, &o[0].MP, &o[0].VP, &o[1].Total, &o[1].MP, &o[1].VP,
			&c[0].Total, &c[0].MP, &c[0].VP, &c[1].Total, &c[1].MP, &c[1].VP, &kind); err != nil {
			return nil, translate(err, "read match results")
		}
		r.Kind = domain.CorrectionKind(kind)
		r.Differs = kind != ""
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err, "read match results")
	}
	return out, nil
}

// pgMatchResults is MatchResults on PostgreSQL, read through pgx without
// database/sql: the integers scan without reflection, and the entrant ids
// (a few hundred distinct strings over thousands of rows) are interned
// from the rows' raw bytes, one string per entrant (the
// database/sql scan was a third of a cold standings request).
func (db *DB) pgMatchResults(ctx context.Context, q string, args []any) ([]domain.TableResult, error) {
	var out []domain.TableResult
	err := db.withPgx(ctx, func(pc *pgx.Conn) error {
		rows, err := pc.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		ids := map[string]string{}
		intern := func(b []byte) string {
			if s, ok := ids[string(b)]; ok {
				return s
			}
			s := string(b)
			ids[s] = s
			return s
		}
		kinds := map[string]domain.CorrectionKind{}
		for rows.Next() {
			out = append(out, domain.TableResult{})
			r := &out[len(out)-1]
			o, c := &r.Official, &r.Computed
			if err := rows.Scan(&r.Round, &r.Table, nil, nil, nil, nil,
				&o[0].Total, &o[0].MP, &o[0].VP, &o[1].Total, &o[1].MP, &o[1].VP,
				&c[0].Total, &c[0].MP, &c[0].VP, &c[1].Total, &c[1].MP, &c[1].VP, nil); err != nil {
				return err
			}
			raw := rows.RawValues()
			r.NS, r.EO = intern(raw[2]), intern(raw[3])
			r.NS2, r.EO2 = intern(raw[4]), intern(raw[5]) // individual: the second players ("" otherwise)
			if len(raw[18]) > 0 {
				k, ok := kinds[string(raw[18])]
				if !ok {
					k = domain.CorrectionKind(raw[18])
					kinds[string(k)] = k
				}
				r.Kind, r.Differs = k, true
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, translate(err, "read match results")
	}
	return out, nil
}

// MatchResultsSeated is MatchResults with the entrants at each line taken
// from rounds (the tournament's rounds as ListRounds gives them, e.g. from
// a cache per tournament version) instead of a join with round_tables:
// one query over match_results alone, integers only. A result whose table
// the rounds do not seat is left out, as the join leaves it out.
func (db *DB) MatchResultsSeated(ctx context.Context, tournamentID string, afterRound int, rounds []domain.Round) ([]domain.TableResult, error) {
	if afterRound < 0 {
		return nil, errorf(domain.ErrInvalid, "after_round: %d is negative", afterRound)
	}
	seats := make(map[int][]domain.TableAssignment, len(rounds))
	n := 0 // at most one result per table: the slice is allocated once
	for _, r := range rounds {
		seats[r.Number] = r.Tables
		if afterRound == 0 || r.Number <= afterRound {
			n += len(r.Tables)
		}
	}
	seat := func(round, table int) (domain.TableAssignment, bool) {
		ts := seats[round]
		// The tables of a round are by number, usually 1..n.
		if table >= 1 && table <= len(ts) && ts[table-1].Table == table {
			return ts[table-1], true
		}
		i, ok := slices.BinarySearchFunc(ts, table, func(a domain.TableAssignment, t int) int { return a.Table - t })
		if !ok {
			return domain.TableAssignment{}, false
		}
		return ts[i], true
	}
	q := `SELECT m.round_no, m.table_no,
		m.ns_total, m.ns_mp, m.ns_vp, m.eo_total, m.eo_mp, m.eo_vp,
		m.computed_ns_total, m.computed_ns_mp, m.computed_ns_vp,
		m.computed_eo_total, m.computed_eo_mp, m.computed_eo_vp, m.kind
		FROM match_results m WHERE m.tournament_id = $1`
	args := []any{tournamentID}
	if afterRound > 0 {
		q += ` AND m.round_no <= $2`
		args = append(args, afterRound)
	}
	q += ` ORDER BY m.round_no, m.table_no`
	out := make([]domain.TableResult, 0, n)
	kinds := map[string]domain.CorrectionKind{}
	add := func(r *domain.TableResult, kind []byte) {
		tb, ok := seat(r.Round, r.Table)
		if !ok {
			return
		}
		r.NS, r.EO, r.NS2, r.EO2 = tb.NS, tb.EO, tb.NS2, tb.EO2
		if len(kind) > 0 {
			k, ok := kinds[string(kind)]
			if !ok {
				k = domain.CorrectionKind(kind)
				kinds[string(k)] = k
			}
			r.Kind, r.Differs = k, true
		}
		out = append(out, *r)
	}
	var err error
	if db.dialect == DialectPostgres {
		err = db.withPgx(ctx, func(pc *pgx.Conn) error {
			rows, err := pc.Query(ctx, q, args...)
			if err != nil {
				return err
			}
			defer rows.Close()
			var r domain.TableResult // scanned into again for each row (add copies it)
			o, c := &r.Official, &r.Computed
			dest := []any{&r.Round, &r.Table,
				&o[0].Total, &o[0].MP, &o[0].VP, &o[1].Total, &o[1].MP, &o[1].VP,
				&c[0].Total, &c[0].MP, &c[0].VP, &c[1].Total, &c[1].MP, &c[1].VP, nil}
			ints := [14]*int{&r.Round, &r.Table,
				&o[0].Total, &o[0].MP, &o[0].VP, &o[1].Total, &o[1].MP, &o[1].VP,
				&c[0].Total, &c[0].MP, &c[0].VP, &c[1].Total, &c[1].MP, &c[1].VP}
			// The 14 integer columns come as binary int4 (pgx asks for the
			// binary format of the types it knows): read them straight from
			// the row's bytes; anything else goes through Scan.
			fast := true
			for _, f := range rows.FieldDescriptions()[:14] {
				fast = fast && f.Format == pgx.BinaryFormatCode && f.DataTypeOID == pgtype.Int4OID
			}
			for rows.Next() {
				r = domain.TableResult{}
				raw := rows.RawValues()
				if fast && rawInt4s(raw[:14], ints[:]) {
					add(&r, raw[14])
					continue
				}
				if err := rows.Scan(dest...); err != nil {
					return err
				}
				add(&r, rows.RawValues()[14])
			}
			return rows.Err()
		})
	} else {
		q = strings.Replace(strings.Replace(q, "$1", "?", 1), "$2", "?", 1)
		rows, qerr := db.readDB(ctx).Raw(q, args...).Rows()
		if qerr != nil {
			return nil, translate(qerr, "match results")
		}
		defer rows.Close()
		for rows.Next() {
			var r domain.TableResult
			var kind string
			o, c := &r.Official, &r.Computed
			if err = rows.Scan(&r.Round, &r.Table,
				&o[0].Total, &o[0].MP, &o[0].VP, &o[1].Total, &o[1].MP, &o[1].VP,
				&c[0].Total, &c[0].MP, &c[0].VP, &c[1].Total, &c[1].MP, &c[1].VP, &kind); err != nil {
				break
			}
			add(&r, []byte(kind))
		}
		if err == nil {
			err = rows.Err()
		}
	}
	if err != nil {
		return nil, translate(err, "read match results")
	}
	return out, nil
}

// rawInt4s decodes binary int4 values into dst; false when one is NULL
// or not 4 bytes (the caller scans instead).
func rawInt4s(raw [][]byte, dst []*int) bool {
	for i, b := range raw {
		if len(b) != 4 {
			return false
		}
		*dst[i] = int(int32(binary.BigEndian.Uint32(b)))
	}
	return true
}

// backfillBatch is how many sheets one backfill step recomputes.
const backfillBatch = 500

// backfillResults computes the results of the sheets that have none, or
// one of an older sheet version (sheets written before migration 00005, or
// by a path that does not write results), in batches of backfillBatch
// sheets, each in its own transaction. It is idempotent: a second run finds
// nothing to do. It returns how many results it wrote.
func (db *DB) backfillResults(ctx context.Context) (int, error) {
	done := 0
	for {
		n, err := db.backfillStep(ctx)
		done += n
		if err != nil || n == 0 {
			return done, err
		}
	}
}

func (db *DB) backfillStep(ctx context.Context) (int, error) {
	n := 0
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var sheets []sheetRow
		err := tx.Raw(`SELECT s.* FROM sheets s
			WHERE s.res_version IS NULL OR s.res_version <> s.version ORDER BY s.id LIMIT ?`, backfillBatch).
			Scan(&sheets).Error
		if err != nil || len(sheets) == 0 {
			return translate(err, "find sheets without results")
		}
		ids := make([]int64, len(sheets))
		for i, s := range sheets {
			ids[i] = s.ID
		}
		var hands []handRow
		if err := tx.Where("sheet_id IN ?", ids).Order("sheet_id, position").Find(&hands).Error; err != nil {
			return translate(err, "read hands for results")
		}
		byID := make(map[int64][]handRow, len(sheets))
		for _, h := range hands {
			byID[h.SheetID] = append(byID[h.SheetID], h)
		}
		rows := make([]matchResultRow, 0, len(sheets))
		for _, s := range sheets {
			st, err := sheetToDomain(s, byID[s.ID])
			if err != nil {
				return err
			}
			rows = append(rows, resultToRow(s.ID, sheetKey{s.TournamentID, s.RoundNo, s.TableNo}, s.Version, st.Sheet))
		}
		n = len(rows)
		return putResults(tx, rows)
	})
	if err != nil {
		return 0, fmt.Errorf("backfill match results: %w", err)
	}
	return n, nil
}
