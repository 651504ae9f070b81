package store

import (
	"context"
	"errors"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"segnapunti/domain"
)

// Undoing an import (DELETE /v1/tournaments/{tid}/imports/{id}):
// while every round it wrote to is still being played, the sheets it
// created are removed and the sheets it replaced are restored from their
// history, in one transaction; the import stays recorded, marked undone,
// and its file may be uploaded again. A sheet changed after the import (its
// version moved on) is not silently thrown away: the undo is refused.

// ErrImportUndone: the import was undone already.
var ErrImportUndone = fmt.Errorf("%w: the import was undone already", domain.ErrConflict)

// ErrImportNotUndoable: the import was recorded before imports kept the
// list of the sheets they wrote.
var ErrImportNotUndoable = fmt.Errorf("%w: the import was recorded before imports could be undone", domain.ErrConflict)

// SheetChangedError refuses an undo: a sheet the import wrote was changed
// after it (Now is its version, Left the version the import left; Now 0:
// the sheet is gone).
type SheetChangedError struct {
	Round, Table int
	Now, Left    int
}

func (e *SheetChangedError) Error() string {
	return fmt.Sprintf("%s: round %d table %d was changed after the import (version %d, the import left %d)", domain.ErrConflict, e.Round, e.Table, e.Now, e.Left)
}

func (e *SheetChangedError) Unwrap() error { return domain.ErrConflict }

// UndoImport undoes the tournament's import id for by and returns it as
// now recorded. An import of another tournament is ErrNotFound; a round it
// wrote to that is no longer being played is a *RoundClosedError.
func (db *DB) UndoImport(ctx context.Context, tournamentID string, id int64, by string) (Import, error) {
	now := instant(db.stamp())
	var out Import
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var row importRow
		q := tx.Where("id = ? AND tournament_id = ?", id, tournamentID)
		if db.dialect == DialectPostgres {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		if err := q.Take(&row).Error; err != nil {
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return errorf(domain.ErrNotFound, "no import %d in tournament %s", id, tournamentID)
			}
			return translate(err, "read import")
		}
		imp := row.toDomain()
		if !imp.UndoneAt.IsZero() {
			return ErrImportUndone
		}
		if imp.Sheets == nil {
			return ErrImportNotUndoable
		}
		tables := make([]ImportedSheet, len(imp.Sheets))
		for i, s := range imp.Sheets {
			tables[i] = ImportedSheet{Round: s.Round, Table: s.Table}
		}
		if err := lockOpenRounds(tx, tournamentID, tables); err != nil {
			return err
		}
		current, err := loadImportTables(tx, tournamentID, tables)
		if err != nil {
			return err
		}
		var curRows []sheetRow
		var curHands [][]handRow
		for _, s := range imp.Sheets {
			cur, ok := current[[2]int{s.Round, s.Table}]
			if !ok || cur.row.Version != s.Version {
				return &SheetChangedError{Round: s.Round, Table: s.Table, Now: cur.row.Version, Left: s.Version}
			}
			curRows, curHands = append(curRows, cur.row), append(curHands, cur.hands)
		}
		// What the import wrote stays readable in the history.
		if err := db.keepVersions(tx, curRows, curHands, Replacement{Source: SourceUndo, ImportID: id, By: by}, now); err != nil {
			return err
		}
		var olds []sheetVersionRow
		if err := tx.Where("import_id = ? AND source = ?", id, SourceImport).Find(&olds).Error; err != nil {
			return translate(err, "read the sheets the import replaced")
		}
		before := make(map[[2]int]sheetVersionRow, len(olds))
		for _, o := range olds {
			before[[2]int{o.RoundNo, o.TableNo}] = o
		}
		for _, s := range imp.Sheets {
			cur := current[[2]int{s.Round, s.Table}]
			key := sheetKey{tournamentID, s.Round, s.Table}
			if s.Status == ImportCreated {
				if err := tx.Delete(&sheetRow{}, cur.row.ID).Error; err != nil {
					return translate(err, "remove the sheet the import created at "+key.String())
				}
				continue
			}
			o, ok := before[[2]int{s.Round, s.Table}]
			if !ok {
				return fmt.Errorf("undo import %d: no kept version of %s", id, key)
			}
			if err := restoreVersion(tx, key, cur.row, o, now); err != nil {
				return err
			}
		}
		if err := db.touchTournament(tx, tournamentID); err != nil {
			return err
		}
		if err := tx.Model(&importRow{}).Where("id = ?", id).
			Updates(map[string]any{"undone_at": now, "undone_by": by}).Error; err != nil {
			return translate(err, "mark import undone")
		}
		out = imp
		out.UndoneAt, out.UndoneBy = now.time(), by
		return nil
	})
	db.facts.drop(tournamentID)
	if err != nil {
		return Import{}, err
	}
	return out, nil
}

// restoreVersion writes a kept version back over the sheet cur: its
// content, report and hands as they were, as a new version (versions only
// go up: a client's ETag of the replaced sheet never matches again).
func restoreVersion(tx *gorm.DB, key sheetKey, cur sheetRow, kept sheetVersionRow, now instant) error {
	old, hands, err := decodeVersion([]byte(kept.Sheet))
	if err != nil {
		return err
	}
	old.Updated = now
	set := make(map[string]any, len(sheetColumns)+1)
	for _, c := range sheetColumns {
		set[c] = sheetColumnValue(&old, c)
	}
	set["version"] = cur.Version + 1
	res := tx.Model(&sheetRow{}).Where("id = ? AND version = ?", cur.ID, cur.Version).Updates(set)
	if res.Error != nil {
		return translate(res.Error, "restore sheet of "+key.String())
	}
	if res.RowsAffected != 1 {
		return errorf(domain.ErrConflict, "sheet of %s changed while the import was undone", key)
	}
	if err := tx.Where("sheet_id = ?", cur.ID).Delete(&handRow{}).Error; err != nil {
		return translate(err, "restore hands of sheet of "+key.String())
	}
	if err := insertHands(tx, key, cur.ID, hands); err != nil {
		return err
	}
	st, err := sheetToDomain(old, hands)
	if err != nil {
		return err
	}
	return putResult(tx, cur.ID, key, cur.Version+1, st.Sheet)
}

// ListImports lists the tournament's imports, newest first, without their
// reports: CountsJSON holds the report's "counts" member.
func (db *DB) ListImports(ctx context.Context, tournamentID string) ([]Import, error) {
	counts := "json_extract(report_json, '$.counts')"
	if db.dialect == DialectPostgres {
		counts = "(report_json->'counts')::text"
	}
	// The counts come in report_json's place: the reports themselves may
	// be a megabyte each.
	var rows []importRow
	err := db.readDB(ctx).Model(&importRow{}).
		Select("id, tournament_id, content_sha256, filename, created_at, created_by, sheets, undone_at, undone_by, coalesce("+counts+", '{}') AS report_json").
		Where("tournament_id = ?", tournamentID).Order("id DESC").Find(&rows).Error
	if err != nil {
		return nil, translate(err, "list imports")
	}
	out := make([]Import, len(rows))
	for i, r := range rows {
		out[i] = r.toDomain()
		out[i].CountsJSON, out[i].ReportJSON = out[i].ReportJSON, nil
	}
	return out, nil
}
