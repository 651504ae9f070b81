package store

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// EntrantUse counts where an entrant appears: what decides whether it may
// still be withdrawn.
type EntrantUse struct {
	Seated      int64 // tables and byes of any round
	Adjustments int64
}

func entrantExists(tx *gorm.DB, tid, id string) error {
	var n int64
	if err := tx.Model(&entrantRow{}).Where("tournament_id = ? AND id = ?", tid, id).Count(&n).Error; err != nil {
		return translate(err, "find entrant")
	}
	if n == 0 {
		return errorf(domain.ErrNotFound, "entrant %q of tournament %s", id, tid)
	}
	return nil
}

// UpdateEntrant replaces an entrant's players, team and club in one
// transaction (its id and seatings stay). An unknown tournament or entrant
// is ErrNotFound.
func (db *DB) UpdateEntrant(ctx context.Context, tid string, e domain.Entrant) error {
	row, players := entrantToRows(tid, e)
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockTournament(tx, tid); err != nil {
			return err
		}
		if err := entrantExists(tx, tid, e.ID); err != nil {
			return err
		}
		what := fmt.Sprintf("update entrant %s of tournament %s", e.ID, tid)
		if err := tx.Model(&entrantRow{}).Where("tournament_id = ? AND id = ?", tid, e.ID).
			Updates(map[string]any{"team": row.Team, "club": row.Club}).Error; err != nil {
			return translate(err, what)
		}
		if err := tx.Where("tournament_id = ? AND entrant_id = ?", tid, e.ID).Delete(&entrantPlayerRow{}).Error; err != nil {
			return translate(err, what)
		}
		if len(players) > 0 {
			if err := tx.Create(&players).Error; err != nil {
				return translate(err, what)
			}
		}
		if err := rememberPlayers(tx, tid, []domain.Entrant{e}); err != nil {
			return err
		}
		return db.touchTournament(tx, tid)
	})
	db.facts.drop(tid)
	return err
}

// WithdrawEntrant deletes an entrant with its players after allow has
// accepted where it appears (read under the tournament's lock), in one
// transaction. An unknown tournament or entrant is ErrNotFound.
func (db *DB) WithdrawEntrant(ctx context.Context, tid, id string, allow func(EntrantUse) error) error {
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockTournament(tx, tid); err != nil {
			return err
		}
		if err := entrantExists(tx, tid, id); err != nil {
			return err
		}
		var u EntrantUse
		var n int64
		if err := tx.Model(&roundTableRow{}).Where("tournament_id = ? AND (ns_entrant = ? OR eo_entrant = ? OR ns2_entrant = ? OR eo2_entrant = ?)", tid, id, id, id, id).Count(&n).Error; err != nil {
			return translate(err, "count seatings")
		}
		u.Seated += n
		if err := tx.Model(&roundByeRow{}).Where("tournament_id = ? AND entrant_id = ?", tid, id).Count(&n).Error; err != nil {
			return translate(err, "count byes")
		}
		u.Seated += n
		if err := tx.Table("adjustments").Where("tournament_id = ? AND entrant_id = ?", tid, id).Count(&u.Adjustments).Error; err != nil {
			return translate(err, "count adjustments")
		}
		if err := allow(u); err != nil {
			return err
		}
		what := fmt.Sprintf("withdraw entrant %s of tournament %s", id, tid)
		if err := tx.Where("tournament_id = ? AND entrant_id = ?", tid, id).Delete(&entrantPlayerRow{}).Error; err != nil {
			return translate(err, what)
		}
		if err := tx.Where("tournament_id = ? AND id = ?", tid, id).Delete(&entrantRow{}).Error; err != nil {
			return translate(err, what)
		}
		return db.touchTournament(tx, tid)
	})
	db.facts.drop(tid)
	return err
}

// RoundUse is what decides whether a round may still be redefined.
type RoundUse struct {
	State  domain.RoundState
	Sheets int64
}

// ReplaceRound redefines round r.Number (hands, phase, tables, byes; not
// its state) after allow has accepted its state and sheets (read under the
// tournament's lock and the round's exclusive lock), in one transaction.
// An unknown tournament or round is ErrNotFound.
func (db *DB) ReplaceRound(ctx context.Context, tid string, r domain.Round, allow func(RoundUse) error) error {
	what := fmt.Sprintf("redefine round %d of tournament %s", r.Number, tid)
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockTournament(tx, tid); err != nil {
			return err
		}
		if err := db.lockRound(tx, tid, r.Number); err != nil {
			return err
		}
		var cur roundRow
		res := tx.Where("tournament_id = ? AND number = ?", tid, r.Number).Limit(1).Find(&cur)
		if res.Error != nil {
			return translate(res.Error, what)
		}
		if res.RowsAffected == 0 {
			return errorf(domain.ErrNotFound, "round %d of tournament %s", r.Number, tid)
		}
		u := RoundUse{State: domain.RoundState(cur.State)}
		if err := tx.Model(&sheetRow{}).Where("tournament_id = ? AND round_no = ?", tid, r.Number).Count(&u.Sheets).Error; err != nil {
			return translate(err, "count sheets")
		}
		if err := allow(u); err != nil {
			return err
		}
		if err := writeRound(tx, tid, r, true); err != nil {
			return err
		}
		return db.touchTournament(tx, tid)
	})
	db.facts.drop(tid)
	return err
}
