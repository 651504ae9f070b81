package store

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Sheet history: every write that replaces a stored sheet — a
// PUT, an import run with replace, an applied correction, the undo of an
// import — first copies the stored sheet into sheet_versions, in the same
// transaction. Hand-by-hand appends only add to a sheet and are not copied.
//
// The copy is the row and its hands as stored, {"row": {...}, "hands":
// [...]} with the column names as keys: on PostgreSQL the sheet write
// builds it in SQL (to_json of the rows, inside the write statement,
// sheetwrite_pg.go), elsewhere it is built here from the loaded rows; both
// read back through versionDoc.

// Sources of a replacement (sheet_versions.source).
const (
	SourcePut        = "put"
	SourceImport     = "import"
	SourceCorrection = "correction"
	SourceUndo       = "undo" // the undo of an import replaced or removed it
)

// Replacement says who or what replaces a stored sheet: the history row's
// source, import and actor.
type Replacement struct {
	Source   string
	ImportID int64 // for SourceImport and SourceUndo
	By       string
}

// SheetVersion is an earlier version of a sheet, replaced by a later write.
type SheetVersion struct {
	ID      int64
	Version int
	// Stored is the sheet as it was (its version, report and time).
	Stored     StoredSheet
	Source     string
	ImportID   int64 // 0: none
	By         string
	ReplacedAt time.Time
}

type sheetVersionRow struct {
	ID           int64   `gorm:"column:id;primaryKey"`
	TournamentID string  `gorm:"column:tournament_id"`
	RoundNo      int     `gorm:"column:round_no"`
	TableNo      int     `gorm:"column:table_no"`
	Version      int     `gorm:"column:version"`
	Sheet        string  `gorm:"column:sheet"`
	Source       string  `gorm:"column:source"`
	ImportID     *int64  `gorm:"column:import_id"`
	Actor        string  `gorm:"column:actor"`
	ReplacedAt   instant `gorm:"column:replaced_at"`
}

func (sheetVersionRow) TableName() string { return "sheet_versions" }

// versionDoc is the stored copy: what to_json makes of a sheets row and
// its sheet_hands rows (sheet_id is left out here and ignored there).
type versionDoc struct {
	Row   versionSheet  `json:"row"`
	Hands []versionHand `json:"hands"`
}

type versionSheet struct {
	ID               int64           `json:"id"`
	TournamentID     string          `json:"tournament_id"`
	RoundNo          int             `json:"round_no"`
	TableNo          int             `json:"table_no"`
	Version          int             `json:"version"`
	Ruleset          string          `json:"ruleset"`
	HandsPlanned     int             `json:"hands_planned"`
	Kind             string          `json:"kind"`
	VPTable          *string         `json:"vp_table"`
	HeaderTournament string          `json:"header_tournament"`
	HeaderRound      int             `json:"header_round"`
	HeaderTable      int             `json:"header_table"`
	NSID             string          `json:"ns_id"`
	NSPlayers        json.RawMessage `json:"ns_players"`
	EOID             string          `json:"eo_id"`
	EOPlayers        json.RawMessage `json:"eo_players"`
	FirstDealer      string          `json:"first_dealer"`
	LateNS           int             `json:"late_ns"`
	LateEO           int             `json:"late_eo"`
	WrittenNSTotal   *int            `json:"written_ns_total"`
	WrittenNSMP      *int            `json:"written_ns_mp"`
	WrittenNSVP      *int            `json:"written_ns_vp"`
	WrittenEOTotal   *int            `json:"written_eo_total"`
	WrittenEOMP      *int            `json:"written_eo_mp"`
	WrittenEOVP      *int            `json:"written_eo_vp"`
	Cells            json.RawMessage `json:"cells"`
	ReportJSON       json.RawMessage `json:"report_json"`
	Created          time.Time       `json:"created_at"`
	Updated          time.Time       `json:"updated_at"`
}

type versionHand struct {
	Position                 int     `json:"position"`
	End                      string  `json:"hand_end"`
	LostCount                bool    `json:"lost_count"`
	NSBase                   int     `json:"ns_base"`
	NSPoints                 int     `json:"ns_points"`
	NSTotal                  *int    `json:"ns_total"`
	NSRunningTotal           *int    `json:"ns_running_total"`
	NSBurrachi               *string `json:"ns_burrachi"`
	NSClosed                 *bool   `json:"ns_closed"`
	NSPozzetto               string  `json:"ns_pozzetto"`
	NSTablePoints            *int    `json:"ns_table_points"`
	NSHandPoints             *int    `json:"ns_hand_points"`
	NSPozzettoUnplayedPoints *int    `json:"ns_pozzetto_unplayed_points"`
	NSPenaltyPoints          *int    `json:"ns_penalty_points"`
	EOBase                   int     `json:"eo_base"`
	EOPoints                 int     `json:"eo_points"`
	EOTotal                  *int    `json:"eo_total"`
	EORunningTotal           *int    `json:"eo_running_total"`
	EOBurrachi               *string `json:"eo_burrachi"`
	EOClosed                 *bool   `json:"eo_closed"`
	EOPozzetto               string  `json:"eo_pozzetto"`
	EOTablePoints            *int    `json:"eo_table_points"`
	EOHandPoints             *int    `json:"eo_hand_points"`
	EOPozzettoUnplayedPoints *int    `json:"eo_pozzetto_unplayed_points"`
	EOPenaltyPoints          *int    `json:"eo_penalty_points"`
}

// rawOrNull is a json column's text as a JSON value (SQL NULL: null).
func rawOrNull(s *string) json.RawMessage {
	if s == nil {
		return json.RawMessage("null")
	}
	return json.RawMessage(*s)
}

// encodeVersion is the stored copy of a row and its hands.
func encodeVersion(r sheetRow, hands []handRow) ([]byte, error) {
	doc := versionDoc{Row: versionSheet{
		ID: r.ID, TournamentID: r.TournamentID, RoundNo: r.RoundNo, TableNo: r.TableNo, Version: r.Version,
		Ruleset: r.Ruleset, HandsPlanned: r.HandsPlanned, Kind: r.Kind, VPTable: r.VPTable,
		HeaderTournament: r.HeaderTournament, HeaderRound: r.HeaderRound, HeaderTable: r.HeaderTable,
		NSID: r.NSID, NSPlayers: json.RawMessage(r.NSPlayers), EOID: r.EOID, EOPlayers: json.RawMessage(r.EOPlayers),
		FirstDealer: r.FirstDealer, LateNS: r.LateNS, LateEO: r.LateEO,
		WrittenNSTotal: r.WrittenNSTotal, WrittenNSMP: r.WrittenNSMP, WrittenNSVP: r.WrittenNSVP,
		WrittenEOTotal: r.WrittenEOTotal, WrittenEOMP: r.WrittenEOMP, WrittenEOVP: r.WrittenEOVP,
		Cells: rawOrNull(r.Cells), ReportJSON: json.RawMessage(r.ReportJSON),
		Created: r.Created.time(), Updated: r.Updated.time(),
	}, Hands: make([]versionHand, len(hands))}
	for i, h := range hands {
		doc.Hands[i] = versionHand{Position: h.Position, End: h.End, LostCount: h.LostCount,
			NSBase: h.NS.Base, NSPoints: h.NS.Points, NSTotal: h.NS.Total, NSRunningTotal: h.NS.RunningTotal,
			NSBurrachi: h.NS.Burrachi, NSClosed: h.NS.Closed, NSPozzetto: h.NS.Pozzetto, NSTablePoints: h.NS.TablePoints,
			NSHandPoints: h.NS.HandPoints, NSPozzettoUnplayedPoints: h.NS.PozzettoUnplayedPoints, NSPenaltyPoints: h.NS.PenaltyPoints,
			EOBase: h.EO.Base, EOPoints: h.EO.Points, EOTotal: h.EO.Total, EORunningTotal: h.EO.RunningTotal,
			EOBurrachi: h.EO.Burrachi, EOClosed: h.EO.Closed, EOPozzetto: h.EO.Pozzetto, EOTablePoints: h.EO.TablePoints,
			EOHandPoints: h.EO.HandPoints, EOPozzettoUnplayedPoints: h.EO.PozzettoUnplayedPoints, EOPenaltyPoints: h.EO.PenaltyPoints}
	}
	return json.Marshal(doc)
}

// decodeVersion reads a stored copy back into its rows.
func decodeVersion(b []byte) (sheetRow, []handRow, error) {
	var doc versionDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		return sheetRow{}, nil, fmt.Errorf("stored sheet version: %w", err)
	}
	d := doc.Row
	jsonText := func(m json.RawMessage) string {
		if len(m) == 0 {
			return "null"
		}
		return string(m)
	}
	r := sheetRow{ID: d.ID, TournamentID: d.TournamentID, RoundNo: d.RoundNo, TableNo: d.TableNo, Version: d.Version,
		Ruleset: d.Ruleset, HandsPlanned: d.HandsPlanned, Kind: d.Kind, VPTable: d.VPTable,
		HeaderTournament: d.HeaderTournament, HeaderRound: d.HeaderRound, HeaderTable: d.HeaderTable,
		NSID: d.NSID, NSPlayers: jsonText(d.NSPlayers), EOID: d.EOID, EOPlayers: jsonText(d.EOPlayers),
		FirstDealer: d.FirstDealer, LateNS: d.LateNS, LateEO: d.LateEO,
		WrittenNSTotal: d.WrittenNSTotal, WrittenNSMP: d.WrittenNSMP, WrittenNSVP: d.WrittenNSVP,
		WrittenEOTotal: d.WrittenEOTotal, WrittenEOMP: d.WrittenEOMP, WrittenEOVP: d.WrittenEOVP,
		ReportJSON: jsonText(d.ReportJSON), Created: instant(d.Created.UTC()), Updated: instant(d.Updated.UTC())}
	if c := jsonText(d.Cells); c != "null" {
		r.Cells = &c
	}
	hands := make([]handRow, len(doc.Hands))
	for i, h := range doc.Hands {
		hands[i] = handRow{SheetID: d.ID, Position: h.Position, End: h.End, LostCount: h.LostCount,
			NS: lineColumns{Base: h.NSBase, Points: h.NSPoints, Total: h.NSTotal, RunningTotal: h.NSRunningTotal,
				Burrachi: h.NSBurrachi, Closed: h.NSClosed, Pozzetto: h.NSPozzetto, TablePoints: h.NSTablePoints,
				HandPoints: h.NSHandPoints, PozzettoUnplayedPoints: h.NSPozzettoUnplayedPoints, PenaltyPoints: h.NSPenaltyPoints},
			EO: lineColumns{Base: h.EOBase, Points: h.EOPoints, Total: h.EOTotal, RunningTotal: h.EORunningTotal,
				Burrachi: h.EOBurrachi, Closed: h.EOClosed, Pozzetto: h.EOPozzetto, TablePoints: h.EOTablePoints,
				HandPoints: h.EOHandPoints, PozzettoUnplayedPoints: h.EOPozzettoUnplayedPoints, PenaltyPoints: h.EOPenaltyPoints}}
	}
	slices.SortFunc(hands, func(a, b handRow) int { return a.Position - b.Position })
	return r, hands, nil
}

// pgVersionDoc is the stored copy built in SQL from the sheets row o.
const pgVersionDoc = `json_build_object('row', to_json(o), 'hands', coalesce((SELECT json_agg(hh ORDER BY hh.position) FROM sheet_hands hh WHERE hh.sheet_id = o.id), '[]'::json))`

// saveVersion copies the stored sheet of key, if there is one, into its
// history, before a write replaces it in the same transaction.
func (db *DB) saveVersion(tx *gorm.DB, key sheetKey, note Replacement, at instant) error {
	if db.dialect == DialectPostgres {
		err := tx.Exec(`INSERT INTO sheet_versions (tournament_id, round_no, table_no, version, sheet, source, import_id, actor, replaced_at)
			SELECT o.tournament_id, o.round_no, o.table_no, o.version, `+pgVersionDoc+`, ?, ?, ?, ?
			FROM sheets o WHERE o.tournament_id = ? AND o.round_no = ? AND o.table_no = ?`,
			note.Source, importRef(note.ImportID), note.By, at, key.tournament, key.round, key.table).Error
		return translate(err, "keep the replaced sheet of "+key.String())
	}
	// SQLite: the same one INSERT … SELECT, the copy built by SQLite's
	// JSON functions (no read into Go, no gorm scanning), kept prepared
	// (sqlite_stmts.go).
	atText, _ := at.Value()
	_, err := db.sqliteExec(tx, sqliteSaveVersionSQL,
		note.Source, importRef(note.ImportID), note.By, atText, key.tournament, key.round, key.table)
	return translate(err, "keep the replaced sheet of "+key.String())
}

// sqliteVersionDoc is the stored copy built in SQLite from the sheets row
// o: the keys and JSON types encodeVersion writes (json columns as JSON,
// the 0/1 integers of booleans as true/false), read back by decodeVersion.
var sqliteVersionDoc = func() string {
	text := func(c string) string { return "json(o." + c + ")" }
	var row []string
	for _, c := range []string{"id", "tournament_id", "round_no", "table_no", "version", "ruleset", "hands_planned", "kind", "vp_table",
		"header_tournament", "header_round", "header_table", "ns_id", "ns_players", "eo_id", "eo_players", "first_dealer", "late_ns", "late_eo",
		"written_ns_total", "written_ns_mp", "written_ns_vp", "written_eo_total", "written_eo_mp", "written_eo_vp",
		"cells", "report_json", "created_at", "updated_at"} {
		v := "o." + c
		if sheetJSONColumns[c] {
			v = text(c)
		}
		row = append(row, "'"+c+"', "+v)
	}
	var hand []string
	for _, c := range pgHandColumns {
		v := "h." + c
		switch c {
		case "lost_count", "ns_closed", "eo_closed":
			v = "CASE WHEN h." + c + " IS NULL THEN NULL WHEN h." + c + " THEN json('true') ELSE json('false') END"
		}
		hand = append(hand, "'"+c+"', "+v)
	}
	// json(…) around the subquery: since SQLite 3.54 a value leaves a
	// subquery without its JSON subtype, and json_object would store the
	// hands as one string.
	return `json_object('row', json_object(` + strings.Join(row, ", ") + `), 'hands', ` +
		`json((SELECT json_group_array(json_object(` + strings.Join(hand, ", ") + `)) FROM (SELECT * FROM sheet_hands WHERE sheet_id = o.id ORDER BY position) h)))`
}()

// sqliteSaveVersionSQL is saveVersion's statement on SQLite.
var sqliteSaveVersionSQL = `INSERT INTO sheet_versions (tournament_id, round_no, table_no, version, sheet, source, import_id, actor, replaced_at)
	SELECT o.tournament_id, o.round_no, o.table_no, o.version, ` + sqliteVersionDoc + `, ?, ?, ?, ?
	FROM sheets o WHERE o.tournament_id = ? AND o.round_no = ? AND o.table_no = ?`

func importRef(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// insertVersions copies loaded rows (and their hands) into the history.
func insertVersions(tx *gorm.DB, rows []sheetRow, hands [][]handRow, note Replacement, at instant) error {
	out := make([]sheetVersionRow, len(rows))
	for i, r := range rows {
		doc, err := encodeVersion(r, hands[i])
		if err != nil {
			return err
		}
		out[i] = sheetVersionRow{TournamentID: r.TournamentID, RoundNo: r.RoundNo, TableNo: r.TableNo, Version: r.Version,
			Sheet: string(doc), Source: note.Source, ImportID: importRef(note.ImportID), Actor: note.By, ReplacedAt: at}
	}
	for chunk := range slices.Chunk(out, importBatch) {
		if err := tx.Create(&chunk).Error; err != nil {
			return translate(err, "keep replaced sheets")
		}
	}
	return nil
}

// SheetHistory lists the earlier versions of a sheet, newest first. A
// table without history (or without a sheet) has none.
func (db *DB) SheetHistory(ctx context.Context, tournamentID string, round, table int) ([]SheetVersion, error) {
	var rows []sheetVersionRow
	err := db.readDB(ctx).Where("tournament_id = ? AND round_no = ? AND table_no = ?", tournamentID, round, table).
		Order("id DESC").Find(&rows).Error
	if err != nil {
		return nil, translate(err, "read sheet history")
	}
	out := make([]SheetVersion, len(rows))
	for i, r := range rows {
		v, err := r.toDomain()
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (r sheetVersionRow) toDomain() (SheetVersion, error) {
	row, hands, err := decodeVersion([]byte(r.Sheet))
	if err != nil {
		return SheetVersion{}, err
	}
	st, err := sheetToDomain(row, hands)
	if err != nil {
		return SheetVersion{}, err
	}
	v := SheetVersion{ID: r.ID, Version: r.Version, Stored: st, Source: r.Source, By: r.Actor, ReplacedAt: r.ReplacedAt.time()}
	if r.ImportID != nil {
		v.ImportID = *r.ImportID
	}
	return v, nil
}

// sameRows: a stored sheet (a, ah) and an uploaded one (b, bh, as
// sheetToRow makes them) say the same: every column but the key, the
// version, where the cells were read from, the report (computed from the
// rest), the times and the header fields, which name the tournament,
// round and table the key already names. The rows are compared, not the
// sheets: both were made by sheetToRow, so equal sheets have equal
// columns (the players' JSON text included), and a thousand-sheet import
// compares without converting back.
func sameRows(a sheetRow, ah []handRow, b sheetRow, bh []handRow) bool {
	strip := func(r sheetRow) sheetRow {
		r.ID, r.TournamentID, r.RoundNo, r.TableNo, r.Version = 0, "", 0, 0, 0
		r.HeaderTournament, r.HeaderRound, r.HeaderTable = "", 0, 0
		r.Cells, r.ReportJSON, r.Created, r.Updated = nil, "", instant{}, instant{}
		return r
	}
	if len(ah) != len(bh) || !reflect.DeepEqual(strip(a), strip(b)) {
		return false
	}
	for i := range ah {
		x, y := ah[i], bh[i]
		x.SheetID, y.SheetID = 0, 0
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// keepVersions copies loaded rows into the history: on PostgreSQL in one
// statement per batch that reads them again in the server (no JSON is
// built or sent from here); elsewhere from the loaded rows.
func (db *DB) keepVersions(tx *gorm.DB, rows []sheetRow, hands [][]handRow, note Replacement, at instant) error {
	if db.dialect != DialectPostgres {
		return insertVersions(tx, rows, hands, note, at)
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	for chunk := range slices.Chunk(ids, importBatch) {
		err := tx.Exec(`INSERT INTO sheet_versions (tournament_id, round_no, table_no, version, sheet, source, import_id, actor, replaced_at)
			SELECT o.tournament_id, o.round_no, o.table_no, o.version, `+pgVersionDoc+`, ?, ?, ?, ?
			FROM sheets o WHERE o.id IN ? ORDER BY o.round_no, o.table_no`,
			note.Source, importRef(note.ImportID), note.By, at, chunk).Error
		if err != nil {
			return translate(err, "keep replaced sheets")
		}
	}
	return nil
}
