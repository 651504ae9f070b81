package store

import (
	"errors"
	"fmt"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// writeRound is the one writer of a round's seating: it writes round r of
// tournament tid — its row (with its vacated entrants and groups), its
// tables and its byes — in the caller's transaction tx. A new round's row
// is inserted (a number already used is ErrConflict); with redefine, the
// round's row exists and keeps its state, system, seed and groups, its
// hands, phase and vacated change, and its tables and byes replace the old
// ones (app.RedefineRound: a playing round with no sheet yet). The
// entrants seated are checked to be entered first, naming those that are
// not (the foreign keys are checked only at commit, see the migration).
func writeRound(tx *gorm.DB, tid string, r domain.Round, redefine bool) error {
	if err := entrantsEntered(tx, tid, r); err != nil {
		return err
	}
	round, tableRows, byeRows := roundToRows(tid, r)
	if redefine {
		what := fmt.Sprintf("redefine round %d of tournament %s", r.Number, tid)
		if err := tx.Where("tournament_id = ? AND round_no = ?", tid, r.Number).Delete(&roundByeRow{}).Error; err != nil {
			return translate(err, what)
		}
		if err := tx.Where("tournament_id = ? AND round_no = ?", tid, r.Number).Delete(&roundTableRow{}).Error; err != nil {
			return translate(err, what)
		}
		if err := tx.Model(&roundRow{}).Where("tournament_id = ? AND number = ?", tid, r.Number).
			Updates(map[string]any{"hands_planned": r.HandsPlanned, "phase": string(r.Phase), "vacated": idsText(r.Vacated)}).Error; err != nil {
			return translate(err, what)
		}
		return writeSeating(tx, tableRows, byeRows, what)
	}
	what := fmt.Sprintf("create round %d of tournament %s", r.Number, tid)
	if err := tx.Create(&round).Error; err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return errorf(domain.ErrConflict, "round %d of tournament %s already exists", r.Number, tid)
		}
		return translate(err, what)
	}
	return writeSeating(tx, tableRows, byeRows, what)
}

// writeSeating inserts a round's table and bye rows, in batches (a round
// of a big event has hundreds of tables).
func writeSeating(tx *gorm.DB, tables []roundTableRow, byes []roundByeRow, what string) error {
	if len(tables) > 0 {
		if err := tx.CreateInBatches(&tables, 500).Error; err != nil {
			return translate(err, what)
		}
	}
	if len(byes) > 0 {
		if err := tx.CreateInBatches(&byes, 500).Error; err != nil {
			return translate(err, what)
		}
	}
	return nil
}
