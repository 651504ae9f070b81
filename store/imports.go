package store

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"segnapunti/domain"
)

// Imports: one uploaded workbook (API §4 POST /v1/tournaments/{tid}/imports,
// §5) is written whole or not at all — every sheet it brings and the
// imports row that records it, in one transaction. The same file twice
// (the same SHA-256 of its bytes, in the same tournament) is stored once.

// Import is one workbook upload as recorded.
type Import struct {
	ID           int64
	TournamentID string
	SHA256       string // of the file's bytes, 64 lower-case hex digits
	Filename     string
	CreatedBy    string // who uploaded it: the token's name
	CreatedAt    time.Time
	ReportJSON   []byte // the import report, as the caller built it
	// Sheets are the sheets the import wrote (nil for an import recorded
	// before they were kept: it cannot be undone).
	Sheets []ImportSheetRecord
	// UndoneAt is when the import was undone (zero: in force), by UndoneBy.
	UndoneAt time.Time
	UndoneBy string
	// CountsJSON is the report's "counts" member (ListImports only).
	CountsJSON []byte
}

// ImportSheetRecord is one sheet an import wrote: created or replaced, and
// the version it left.
type ImportSheetRecord struct {
	Round   int    `json:"round"`
	Table   int    `json:"table"`
	Status  string `json:"status"`
	Version int    `json:"version"`
}

// What an import does with each of its sheets.
const (
	ImportCreated      = "created"       // the table had no sheet
	ImportReplaced     = "replaced"      // the stored sheet differed and replace was asked
	ImportUnchanged    = "unchanged"     // the stored sheet says the same: nothing written
	ImportWouldReplace = "would_replace" // the stored sheet differs and replace was not asked
)

// SheetOutcome is what an import did (or, refused, would do) at one table.
type SheetOutcome struct {
	Status string
	// Version is the sheet's version after the import (the stored one for
	// unchanged and would_replace).
	Version int
	// Stored is the sheet stored at the table (would_replace only).
	Stored *StoredSheet
}

// WouldReplaceError refuses an import that would replace stored sheets
// with different ones when replace was not asked: nothing was written.
// Outcomes are per sheet, as the import's sheets were given.
type WouldReplaceError struct {
	Outcomes []SheetOutcome
}

func (e *WouldReplaceError) Error() string {
	n := 0
	for _, o := range e.Outcomes {
		if o.Status == ImportWouldReplace {
			n++
		}
	}
	return fmt.Sprintf("%s: the import would replace %d stored sheets", domain.ErrConflict, n)
}

func (e *WouldReplaceError) Unwrap() error { return domain.ErrConflict }

// ImportedSheet is one sheet an import creates or replaces at its table,
// with the report JSON the caller computed for it (as PutSheet).
type ImportedSheet struct {
	Round, Table int
	Sheet        domain.Sheet
	ReportJSON   []byte
}

// ImportReport builds the import's report JSON once its sheets are written,
// inside the transaction: imp has its id and time, outcomes[i] is what
// became of sheets[i]. An error rolls everything back.
type ImportReport func(imp Import, outcomes []SheetOutcome) ([]byte, error)

// ErrRoundClosed: a sheet (of an import, or entered by hand) belongs to a round that no longer
// takes sheets (RULES §10; FITAB art. 20: a delivered sheet is final).
var ErrRoundClosed = fmt.Errorf("%w: the round no longer takes sheets", domain.ErrConflict)

// importBatch bounds the rows of one multi-row INSERT: PostgreSQL takes at
// most 65,535 parameters per statement and SQLite 32,766; a sheet row has
// about 30 columns, a hand row 26.
const importBatch = 500

type importRow struct {
	ID            int64    `gorm:"column:id;primaryKey"`
	TournamentID  string   `gorm:"column:tournament_id"`
	ContentSHA256 string   `gorm:"column:content_sha256"`
	Filename      string   `gorm:"column:filename"`
	ReportJSON    string   `gorm:"column:report_json"`
	Created       instant  `gorm:"column:created_at"`
	CreatedBy     string   `gorm:"column:created_by"`
	Sheets        *string  `gorm:"column:sheets"`
	UndoneAt      *instant `gorm:"column:undone_at"`
	UndoneBy      *string  `gorm:"column:undone_by"`
}

func (importRow) TableName() string { return "imports" }

func (r importRow) toDomain() Import {
	imp := Import{ID: r.ID, TournamentID: r.TournamentID, SHA256: r.ContentSHA256, Filename: r.Filename,
		CreatedBy: r.CreatedBy, CreatedAt: r.Created.time(), ReportJSON: []byte(r.ReportJSON)}
	if r.Sheets != nil {
		imp.Sheets = []ImportSheetRecord{}
		_ = json.Unmarshal([]byte(*r.Sheets), &imp.Sheets) // written by SaveImport; a broken list reads as none
	}
	if r.UndoneAt != nil {
		imp.UndoneAt = r.UndoneAt.time()
	}
	if r.UndoneBy != nil {
		imp.UndoneBy = *r.UndoneBy
	}
	return imp
}

// liveImports narrows a query to the imports still in force.
func liveImports(q *gorm.DB) *gorm.DB { return q.Where("undone_at IS NULL") }

// errImportExists: the file was recorded by a concurrent upload between
// this one's check and its insert.
var errImportExists = errors.New("the import is already recorded")

// SaveImport writes an import in one transaction: each sheet is created
// at its table, or — when the table holds a sheet that says something else
// and replace is true — replaces it (the version goes up by one, the sheet
// it replaces is kept in the history under the import); a sheet equal to
// the stored one is left alone (unchanged). With replace false, a sheet
// that differs from the stored one is a *WouldReplaceError and nothing is
// written. Then the imports row with the JSON report builds. Every sheet's
// round must still be playing, checked under the round's row lock so that
// a round delivered meanwhile cannot take a late sheet: otherwise
// ErrRoundClosed and nothing is written. When the tournament already has an
// import in force of the same content (imp.SHA256), nothing is written and
// that import comes back with replayed = true — also when a concurrent
// upload of the same file won the race. imp.ID and imp.CreatedAt are set
// here.
func (db *DB) SaveImport(ctx context.Context, imp Import, sheets []ImportedSheet, replace bool, report ImportReport) (Import, bool, error) {
	if !isSHA256Hex(imp.SHA256) {
		return Import{}, false, errorf(domain.ErrInvalid, "import: content hash %q is not 64 lower-case hex digits", imp.SHA256)
	}
	if report == nil {
		return Import{}, false, errors.New("import: no report function")
	}
	now := instant(db.stamp())
	seen := make(map[[2]int]bool, len(sheets))
	for _, s := range sheets {
		if seen[[2]int{s.Round, s.Table}] {
			return Import{}, false, errorf(domain.ErrInvalid, "import: two sheets for %s", sheetKey{imp.TournamentID, s.Round, s.Table})
		}
		seen[[2]int{s.Round, s.Table}] = true
	}
	// Sheet rows and their hands are built before the transaction: a sheet
	// the schema cannot hold fails without taking a lock.
	rows, hands, err := importRows(imp.TournamentID, sheets, now)
	if err != nil {
		return Import{}, false, err
	}

	var saved Import
	replayed := false
	err = db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		prior, err := findImport(tx, imp.TournamentID, imp.SHA256)
		if err == nil {
			saved, replayed = prior, true
			return nil
		}
		if !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		if err := lockOpenRounds(tx, imp.TournamentID, sheets); err != nil {
			return err
		}
		stored, err := loadImportTables(tx, imp.TournamentID, sheets)
		if err != nil {
			return err
		}
		outcomes := make([]SheetOutcome, len(sheets))
		refused := false
		var write []int // indexes in sheets, in (round, table) order
		var replacedRows []sheetRow
		var replacedHands [][]handRow
		for i, s := range sheets {
			old, ok := stored[[2]int{s.Round, s.Table}]
			switch {
			case !ok:
				outcomes[i].Status = ImportCreated
				write = append(write, i)
				continue
			case sameRows(old.row, old.hands, rows[i], hands[i]):
				outcomes[i] = SheetOutcome{Status: ImportUnchanged, Version: old.row.Version}
				continue
			}
			outcomes[i] = SheetOutcome{Status: ImportReplaced, Version: old.row.Version}
			if !replace {
				st, err := sheetToDomain(old.row, old.hands)
				if err != nil {
					return err
				}
				outcomes[i].Status, outcomes[i].Stored, refused = ImportWouldReplace, &st, true
				continue
			}
			write = append(write, i)
			replacedRows, replacedHands = append(replacedRows, old.row), append(replacedHands, old.hands)
		}
		if refused {
			return &WouldReplaceError{Outcomes: outcomes}
		}
		row := importRow{TournamentID: imp.TournamentID, ContentSHA256: imp.SHA256, Filename: imp.Filename,
			ReportJSON: "{}", Created: now, CreatedBy: imp.CreatedBy}
		if err := tx.Create(&row).Error; err != nil {
			if errors.Is(err, gorm.ErrDuplicatedKey) {
				return errImportExists
			}
			if errors.Is(err, gorm.ErrForeignKeyViolated) {
				return errorf(domain.ErrNotFound, "import: no tournament %s", imp.TournamentID)
			}
			return translate(err, "record import")
		}
		if err := db.keepVersions(tx, replacedRows, replacedHands, Replacement{Source: SourceImport, ImportID: row.ID, By: imp.CreatedBy}, now); err != nil {
			return err
		}
		// Rows are written, and so locked, in (round, table) order: two
		// imports touching the same tables queue instead of deadlocking.
		slices.SortFunc(write, func(a, b int) int {
			return cmp.Or(cmp.Compare(sheets[a].Round, sheets[b].Round), cmp.Compare(sheets[a].Table, sheets[b].Table))
		})
		versions, err := putImportSheets(tx, imp.TournamentID, sheets, write, rows, hands)
		if err != nil {
			return err
		}
		records := make([]ImportSheetRecord, 0, len(write))
		for _, i := range write {
			outcomes[i].Version = versions[i]
			records = append(records, ImportSheetRecord{Round: sheets[i].Round, Table: sheets[i].Table, Status: outcomes[i].Status, Version: versions[i]})
		}
		list, err := json.Marshal(records)
		if err != nil {
			return err
		}
		saved = row.toDomain()
		saved.Sheets = records
		b, err := report(saved, outcomes)
		if err != nil {
			return fmt.Errorf("import: report: %w", err)
		}
		if err := tx.Model(&importRow{}).Where("id = ?", row.ID).
			Updates(map[string]any{"report_json": string(b), "sheets": string(list)}).Error; err != nil {
			return translate(err, "record import report")
		}
		saved.ReportJSON = b
		return nil
	})
	if errors.Is(err, errImportExists) {
		// A concurrent upload of the same file committed first (PostgreSQL
		// makes the loser's insert wait for it): answer with its import.
		prior, ferr := db.FindImport(ctx, imp.TournamentID, imp.SHA256)
		if ferr != nil {
			return Import{}, false, ferr
		}
		return prior, true, nil
	}
	if err != nil {
		return Import{}, false, err
	}
	return saved, replayed, nil
}

// loadedSheet is a stored sheet's row and hands.
type loadedSheet struct {
	row   sheetRow
	hands []handRow
}

// loadImportTables reads the sheets stored at the tables of an import, by
// (round, table).
func loadImportTables(tx *gorm.DB, tournamentID string, sheets []ImportedSheet) (map[[2]int]loadedSheet, error) {
	var numbers []int
	want := make(map[[2]int]bool, len(sheets))
	for _, s := range sheets {
		if !slices.Contains(numbers, s.Round) {
			numbers = append(numbers, s.Round)
		}
		want[[2]int{s.Round, s.Table}] = true
	}
	out := map[[2]int]loadedSheet{}
	if len(numbers) == 0 {
		return out, nil
	}
	var rows []sheetRow
	if err := tx.Where("tournament_id = ? AND round_no IN ?", tournamentID, numbers).Find(&rows).Error; err != nil {
		return nil, translate(err, "read the sheets an import replaces")
	}
	byID := map[int64]int{}
	var ids []int64
	kept := rows[:0]
	for _, r := range rows {
		if want[[2]int{r.RoundNo, r.TableNo}] {
			byID[r.ID] = len(kept)
			ids = append(ids, r.ID)
			kept = append(kept, r)
		}
	}
	hands := make([][]handRow, len(kept))
	for chunk := range slices.Chunk(ids, importBatch) {
		var hs []handRow
		if err := tx.Where("sheet_id IN ?", chunk).Order("sheet_id, position").Find(&hs).Error; err != nil {
			return nil, translate(err, "read the hands an import replaces")
		}
		for _, h := range hs {
			i := byID[h.SheetID]
			hands[i] = append(hands[i], h)
		}
	}
	for i, r := range kept {
		out[[2]int{r.RoundNo, r.TableNo}] = loadedSheet{row: r, hands: hands[i]}
	}
	return out, nil
}

// importRows converts the sheets to their rows. A thousand sheets are
// spread over the processors: each conversion encodes the sheet's cells as
// JSON, and none depends on another.
func importRows(tournamentID string, sheets []ImportedSheet, now instant) ([]sheetRow, [][]handRow, error) {
	rows := make([]sheetRow, len(sheets))
	hands := make([][]handRow, len(sheets))
	errs := make([]error, len(sheets))
	convert := func(from, to int) {
		for i := from; i < to; i++ {
			s := sheets[i]
			row, hs, err := sheetToRow(s.Sheet, s.ReportJSON, now)
			if err != nil {
				errs[i] = fmt.Errorf("import: sheet of %s: %w", sheetKey{tournamentID, s.Round, s.Table}, err)
				continue
			}
			row.TournamentID, row.RoundNo, row.TableNo, row.Version = tournamentID, s.Round, s.Table, 1
			rows[i], hands[i] = row, hs
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(sheets)/importBatch+1)
	per := (len(sheets) + workers - 1) / max(workers, 1)
	var wg sync.WaitGroup
	for from := 0; from < len(sheets); from += per {
		wg.Go(func() { convert(from, min(from+per, len(sheets))) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return rows, hands, nil
}

// nullableHandColumns are the hand columns that may be NULL, per line.
var nullableHandColumns = []struct {
	column string
	null   func(lineColumns) bool
}{
	{"total", func(c lineColumns) bool { return c.Total == nil }},
	{"running_total", func(c lineColumns) bool { return c.RunningTotal == nil }},
	{"burrachi", func(c lineColumns) bool { return c.Burrachi == nil }},
	{"closed", func(c lineColumns) bool { return c.Closed == nil }},
	{"table_points", func(c lineColumns) bool { return c.TablePoints == nil }},
	{"hand_points", func(c lineColumns) bool { return c.HandPoints == nil }},
	{"pozzetto_unplayed_points", func(c lineColumns) bool { return c.PozzettoUnplayedPoints == nil }},
	{"penalty_points", func(c lineColumns) bool { return c.PenaltyPoints == nil }},
}

// nullHandColumns lists the nullable columns that are NULL in every hand:
// left out of the INSERT, they take their default, NULL. A sheet copied
// from paper gives base, points and total only, so this halves what a
// thousand-sheet import sends.
func nullHandColumns(hands []handRow) []string {
	var out []string
	for _, nc := range nullableHandColumns {
		for _, prefix := range []string{"ns_", "eo_"} {
			all := true
			for i := range hands {
				c := hands[i].NS
				if prefix == "eo_" {
					c = hands[i].EO
				}
				if !nc.null(c) {
					all = false
					break
				}
			}
			if all {
				out = append(out, prefix+nc.column)
			}
		}
	}
	return out
}

// RoundClosedError is ErrRoundClosed naming the round and its state.
type RoundClosedError struct {
	Tournament string
	Round      int
	State      string
}

func (e *RoundClosedError) Error() string {
	return fmt.Sprintf("%s: round %d of tournament %s is %s", ErrRoundClosed, e.Round, e.Tournament, e.State)
}

func (e *RoundClosedError) Unwrap() error { return ErrRoundClosed }

// lockOpenRounds locks the rounds the sheets belong to (in number order)
// and checks that each is still being played.
func lockOpenRounds(tx *gorm.DB, tournamentID string, sheets []ImportedSheet) error {
	var numbers []int
	for _, s := range sheets {
		if !slices.Contains(numbers, s.Round) {
			numbers = append(numbers, s.Round)
		}
	}
	if len(numbers) == 0 {
		return nil
	}
	slices.Sort(numbers)
	// Single-sheet writers hold the round lock shared (sheetwrite_pg.go):
	// the import waits for those in flight and keeps new ones out.
	if tx.Dialector.Name() == DialectPostgres {
		for _, n := range numbers {
			if err := pgLockRound(tx, tournamentID, n); err != nil {
				return err
			}
		}
	}
	var rounds []roundRow
	err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).
		Where("tournament_id = ? AND number IN ?", tournamentID, numbers).Order("number").Find(&rounds).Error
	if err != nil {
		return translate(err, "lock rounds of import")
	}
	state := make(map[int]string, len(rounds))
	for _, r := range rounds {
		state[r.Number] = r.State
	}
	for _, n := range numbers {
		st, ok := state[n]
		switch {
		case !ok:
			return errorf(domain.ErrNotFound, "import: no round %d in tournament %s", n, tournamentID)
		case st != string(domain.RoundPlaying):
			return &RoundClosedError{Tournament: tournamentID, Round: n, State: st}
		}
	}
	return nil
}

// putImportSheets upserts the sheet rows in batches, reads back their ids
// and versions, replaces the hands of those that existed, and inserts all
// hands in batches: a handful of statements for a thousand sheets.
func putImportSheets(tx *gorm.DB, tournamentID string, sheets []ImportedSheet, order []int, rows []sheetRow, hands [][]handRow) ([]int, error) {
	versions := make([]int, len(sheets))
	if len(order) == 0 {
		return versions, nil
	}
	updates := clause.AssignmentColumns(sheetColumns)
	updates = append(updates, clause.Assignment{Column: clause.Column{Name: "version"}, Value: gorm.Expr("sheets.version + 1")})
	upsert := clause.OnConflict{
		Columns:   []clause.Column{{Name: "tournament_id"}, {Name: "round_no"}, {Name: "table_no"}},
		DoUpdates: updates,
	}
	sorted := make([]sheetRow, len(order))
	for i, idx := range order {
		sorted[i] = rows[idx]
	}
	for chunk := range slices.Chunk(sorted, importBatch) {
		if err := tx.Clauses(upsert).Create(&chunk).Error; err != nil {
			return nil, importSheetError(err, tournamentID)
		}
	}
	// The ids and versions, by table: read back rather than trusting the
	// order of RETURNING rows of a multi-row upsert.
	type stored struct {
		ID      int64 `gorm:"column:id"`
		RoundNo int   `gorm:"column:round_no"`
		TableNo int   `gorm:"column:table_no"`
		Version int   `gorm:"column:version"`
	}
	var numbers []int
	for _, idx := range order {
		if s := sheets[idx]; !slices.Contains(numbers, s.Round) {
			numbers = append(numbers, s.Round)
		}
	}
	var got []stored
	if err := tx.Model(&sheetRow{}).Select("id, round_no, table_no, version").
		Where("tournament_id = ? AND round_no IN ?", tournamentID, numbers).Find(&got).Error; err != nil {
		return nil, translate(err, "read back imported sheets")
	}
	byKey := make(map[[2]int]stored, len(got))
	for _, g := range got {
		byKey[[2]int{g.RoundNo, g.TableNo}] = g
	}
	var replaced []int64
	var allHands []handRow
	results := make([]matchResultRow, 0, len(order))
	for _, idx := range order {
		s := sheets[idx]
		g, ok := byKey[[2]int{s.Round, s.Table}]
		if !ok { // cannot happen: the upsert just wrote it
			return nil, fmt.Errorf("import: sheet of round %d table %d not found after writing it", s.Round, s.Table)
		}
		versions[idx] = g.Version
		results = append(results, resultToRow(g.ID, sheetKey{tournamentID, s.Round, s.Table}, g.Version, s.Sheet))
		if g.Version > 1 {
			replaced = append(replaced, g.ID)
		}
		for _, h := range hands[idx] {
			h.SheetID = g.ID
			allHands = append(allHands, h)
		}
	}
	for ids := range slices.Chunk(replaced, importBatch) {
		if err := tx.Where("sheet_id IN ?", ids).Delete(&handRow{}).Error; err != nil {
			return nil, translate(err, "replace hands of imported sheets")
		}
	}
	for chunk := range slices.Chunk(allHands, importBatch) {
		q := tx
		if omit := nullHandColumns(chunk); len(omit) > 0 {
			q = tx.Omit(omit...)
		}
		if err := q.Create(&chunk).Error; err != nil {
			return nil, translate(err, "store hands of imported sheets")
		}
	}
	if err := putResults(tx, results); err != nil {
		return nil, err
	}
	return versions, nil
}

// importSheetError maps a failed sheet upsert: the only foreign key of a
// sheet is its round table.
func importSheetError(err error, tournamentID string) error {
	if errors.Is(err, gorm.ErrForeignKeyViolated) {
		return errorf(domain.ErrNotFound, "import: a sheet names a table that its round of tournament %s does not have", tournamentID)
	}
	return translate(err, "store imported sheets")
}

// GetImport returns the import with the given id; none is ErrNotFound.
func (db *DB) GetImport(ctx context.Context, id int64) (Import, error) {
	var row importRow
	err := db.gorm.WithContext(ctx).Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Import{}, errorf(domain.ErrNotFound, "no import %d", id)
	}
	if err != nil {
		return Import{}, translate(err, "get import")
	}
	return row.toDomain(), nil
}

// FindImport returns the tournament's import in force (not undone) of the
// content with the given SHA-256; none is ErrNotFound.
func (db *DB) FindImport(ctx context.Context, tournamentID, sha256 string) (Import, error) {
	return findImport(db.gorm.WithContext(ctx), tournamentID, sha256)
}

func findImport(q *gorm.DB, tournamentID, sha256 string) (Import, error) {
	var row importRow
	err := liveImports(q).Where("tournament_id = ? AND content_sha256 = ?", tournamentID, sha256).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Import{}, errorf(domain.ErrNotFound, "no import of content %s in tournament %s", sha256, tournamentID)
	}
	if err != nil {
		return Import{}, translate(err, "find import")
	}
	return row.toDomain(), nil
}

func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := range len(s) {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
