package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

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
//
// On PostgreSQL (the live standings' read after every write, issue 26)
// the query is shaped for the server's cost per row: no ORDER BY (the
// rows are put in round and table order here, by their seats: the sort
// spilled to disk at 40,000 rows), a computed figure only where it is
// not the official one (NULLIF: a NULL is sent without a send call) and
// the kind only when set, and the rows in text format (an int4 in binary
// costs the server a 1 kB buffer; text parses here in a few
// instructions). Together about half the server's CPU of the former read.
func (db *DB) MatchResultsSeated(ctx context.Context, tournamentID string, afterRound int, rounds []domain.Round) ([]domain.TableResult, error) {
	if afterRound < 0 {
		return nil, errorf(domain.ErrInvalid, "after_round: %d is negative", afterRound)
	}
	return db.matchResultsSeated(ctx, tournamentID, func(n int) bool { return afterRound == 0 || n <= afterRound }, afterRound, nil, rounds)
}

// MatchResultsSeatedIn is MatchResultsSeated for the rounds numbered
// numbers alone (a reader that keeps the results per round reads again
// those whose RoundStamp changed).
func (db *DB) MatchResultsSeatedIn(ctx context.Context, tournamentID string, numbers []int, rounds []domain.Round) ([]domain.TableResult, error) {
	if len(numbers) == 0 {
		return nil, nil
	}
	return db.matchResultsSeated(ctx, tournamentID, func(n int) bool { return slices.Contains(numbers, n) }, 0, numbers, rounds)
}

// matchResultsSeated reads the results of the rounds counted says are
// counted: those up to afterRound (0: every round), or those of numbers
// when it is not nil.
func (db *DB) matchResultsSeated(ctx context.Context, tournamentID string, counted func(int) bool, afterRound int, numbers []int, rounds []domain.Round) ([]domain.TableResult, error) {
	if db.dialect == DialectPostgres {
		return db.pgMatchResultsSeated(ctx, tournamentID, counted, afterRound, numbers, rounds)
	}
	seats := make(map[int][]domain.TableAssignment, len(rounds))
	n := 0 // at most one result per table: the slice is allocated once
	for _, r := range rounds {
		seats[r.Number] = r.Tables
		if counted(r.Number) {
			n += len(r.Tables)
		}
	}
	q := `SELECT m.round_no, m.table_no,
		m.ns_total, m.ns_mp, m.ns_vp, m.eo_total, m.eo_mp, m.eo_vp,
		m.computed_ns_total, m.computed_ns_mp, m.computed_ns_vp,
		m.computed_eo_total, m.computed_eo_mp, m.computed_eo_vp, m.kind
		FROM match_results m WHERE m.tournament_id = ?`
	args := []any{tournamentID}
	if numbers != nil {
		q += ` AND m.round_no IN ?`
		args = append(args, numbers)
	} else if afterRound > 0 {
		q += ` AND m.round_no <= ?`
		args = append(args, afterRound)
	}
	q += ` ORDER BY m.round_no, m.table_no`
	rows, err := db.readDB(ctx).Raw(q, args...).Rows()
	if err != nil {
		return nil, translate(err, "match results")
	}
	defer rows.Close()
	out := make([]domain.TableResult, 0, n)
	for rows.Next() {
		var r domain.TableResult
		var kind string
		o, c := &r.Official, &r.Computed
		if err := rows.Scan(&r.Round, &r.Table,
			&o[0].Total, &o[0].MP, &o[0].VP, &o[1].Total, &o[1].MP, &o[1].VP,
			&c[0].Total, &c[0].MP, &c[0].VP, &c[1].Total, &c[1].MP, &c[1].VP, &kind); err != nil {
			return nil, translate(err, "read match results")
		}
		tb, ok := seatOf(seats[r.Round], r.Table)
		if !ok {
			continue
		}
		r.NS, r.EO, r.NS2, r.EO2 = tb.NS, tb.EO, tb.NS2, tb.EO2
		r.Kind, r.Differs = domain.CorrectionKind(kind), kind != ""
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err, "read match results")
	}
	return out, nil
}

// seatOf is the table numbered table among a round's tables (by number,
// usually 1..n): its assignment and its index.
func seatOf(ts []domain.TableAssignment, table int) (domain.TableAssignment, bool) {
	i, ok := seatIndex(ts, table)
	if !ok {
		return domain.TableAssignment{}, false
	}
	return ts[i], true
}

func seatIndex(ts []domain.TableAssignment, table int) (int, bool) {
	if table >= 1 && table <= len(ts) && ts[table-1].Table == table {
		return table - 1, true
	}
	return slices.BinarySearchFunc(ts, table, func(a domain.TableAssignment, t int) int { return a.Table - t })
}

// seatedResultsQuery is MatchResultsSeated's PostgreSQL query (with
// " AND m.round_no <= $2" when a round is given): see there.
const seatedResultsQuery = `SELECT m.round_no, m.table_no,
	m.ns_total, m.ns_mp, m.ns_vp, m.eo_total, m.eo_mp, m.eo_vp,
	NULLIF(m.computed_ns_total, m.ns_total), NULLIF(m.computed_ns_mp, m.ns_mp), NULLIF(m.computed_ns_vp, m.ns_vp),
	NULLIF(m.computed_eo_total, m.eo_total), NULLIF(m.computed_eo_mp, m.eo_mp), NULLIF(m.computed_eo_vp, m.eo_vp),
	NULLIF(m.kind, '')
	FROM match_results m WHERE m.tournament_id = $1`

// pgMatchResultsSeated is MatchResultsSeated on PostgreSQL. Each row goes
// to its slot — the counted rounds by number, each round's tables in
// order — so the slice comes out in round and table order without a
// sort; a row with no slot of its own (two results of one table, which
// the sheets' unique key rules out) is kept aside and the whole sorted,
// as are rounds whose tables are not by number.
func (db *DB) pgMatchResultsSeated(ctx context.Context, tournamentID string, isCounted func(int) bool, afterRound int, numbers []int, rounds []domain.Round) ([]domain.TableResult, error) {
	counted := make([]*domain.Round, 0, len(rounds))
	for i := range rounds {
		if isCounted(rounds[i].Number) {
			counted = append(counted, &rounds[i])
		}
	}
	slices.SortStableFunc(counted, func(a, b *domain.Round) int { return cmp.Compare(a.Number, b.Number) })
	type roundSlots struct {
		tables []domain.TableAssignment
		first  int // the slot of its first table
	}
	slotsOf := make(map[int]roundSlots, len(counted))
	n := 0
	for _, r := range counted {
		if _, dup := slotsOf[r.Number]; !dup {
			slotsOf[r.Number] = roundSlots{r.Tables, n}
			n += len(r.Tables)
		}
	}
	q, args := seatedResultsQuery, []any{pgx.QueryResultFormats{pgx.TextFormatCode}, tournamentID}
	if numbers != nil {
		q += ` AND m.round_no = ANY($2)`
		args = append(args, numbers)
	} else if afterRound > 0 {
		q += ` AND m.round_no <= $2`
		args = append(args, afterRound)
	}
	slots := make([]domain.TableResult, n) // Round 0: no result
	var extra []domain.TableResult
	kinds := map[string]domain.CorrectionKind{}
	err := db.withPgx(ctx, func(pc *pgx.Conn) error {
		rows, err := pc.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		var ints [14]int
		for rows.Next() {
			raw := rows.RawValues()
			if len(raw) != 15 {
				return fmt.Errorf("match results: %d columns", len(raw))
			}
			for i, b := range raw[:14] {
				v, ok := textInt(b)
				if !ok && !(i >= 8 && b == nil) { // a NULL computed figure is the official one
					return fmt.Errorf("match results: column %d is %q, not an integer", i+1, b)
				}
				ints[i] = v
			}
			rs, ok := slotsOf[ints[0]]
			if !ok {
				continue
			}
			ti, ok := seatIndex(rs.tables, ints[1])
			if !ok {
				continue
			}
			tb := &rs.tables[ti]
			r := domain.TableResult{Round: ints[0], Table: ints[1], NS: tb.NS, EO: tb.EO, NS2: tb.NS2, EO2: tb.EO2}
			for l := range 2 {
				o := &r.Official[l]
				o.Total, o.MP, o.VP = ints[2+3*l], ints[3+3*l], ints[4+3*l]
				r.Computed[l] = *o
				c := &r.Computed[l]
				for k, f := range [3]*int{&c.Total, &c.MP, &c.VP} {
					if raw[8+3*l+k] != nil {
						*f = ints[8+3*l+k]
					}
				}
			}
			if kind := raw[14]; kind != nil {
				k, ok := kinds[string(kind)]
				if !ok {
					k = domain.CorrectionKind(kind)
					kinds[string(k)] = k
				}
				r.Kind, r.Differs = k, true
			}
			if s := &slots[rs.first+ti]; s.Round == 0 {
				*s = r
			} else {
				extra = append(extra, r)
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, translate(err, "read match results")
	}
	out := slots[:0]
	for i := range slots {
		if slots[i].Round != 0 {
			out = append(out, slots[i])
		}
	}
	out = append(out, extra...)
	byKey := func(a, b domain.TableResult) int {
		return cmp.Or(cmp.Compare(a.Round, b.Round), cmp.Compare(a.Table, b.Table))
	}
	if !slices.IsSortedFunc(out, byKey) { // rounds whose tables are not by number
		slices.SortStableFunc(out, byKey)
	}
	return out, nil
}

// textInt reads a PostgreSQL integer in text format (an optional minus
// and decimal digits); false for anything else, NULL included.
func textInt(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	neg := b[0] == '-'
	if neg {
		b = b[1:]
		if len(b) == 0 {
			return 0, false
		}
	}
	v := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
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
