package store

import (
	"context"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"segnapunti/domain"
)

// TournamentUse counts what a tournament holds: what decides whether it
// may still be changed or deleted.
type TournamentUse struct {
	Entrants, Rounds, Sheets int64
}

func tournamentUse(tx *gorm.DB, tid string) (TournamentUse, error) {
	var u TournamentUse
	for _, c := range []struct {
		table string
		n     *int64
	}{{"entrants", &u.Entrants}, {"rounds", &u.Rounds}, {"sheets", &u.Sheets}} {
		if err := tx.Table(c.table).Where("tournament_id = ?", tid).Count(c.n).Error; err != nil {
			return u, translate(err, "count "+c.table)
		}
	}
	return u, nil
}

// lockTournament takes the tournament's row lock (PostgreSQL; SQLite's
// transaction holds the write lock) so that no sheet, entrant or round is
// added while the change is decided.
func lockTournament(tx *gorm.DB, tid string) error {
	var ids []string
	err := tx.Model(&tournamentRow{}).Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", tid).Pluck("id", &ids).Error
	if err != nil {
		return translate(err, "lock tournament")
	}
	if len(ids) == 0 {
		return errorf(domain.ErrNotFound, "tournament %q", tid)
	}
	return nil
}

// UpdateTournament stores t's fields (not its id, club or creation) in
// one transaction, after allow has accepted what the tournament holds
// (read under the tournament's lock).
func (db *DB) UpdateTournament(ctx context.Context, t domain.Tournament, allow func(TournamentUse) error) (domain.Tournament, error) {
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockTournament(tx, t.ID); err != nil {
			return err
		}
		use, err := tournamentUse(tx, t.ID)
		if err != nil {
			return err
		}
		if err := allow(use); err != nil {
			return err
		}
		row := tournamentToRow(t, instant(db.stamp()))
		err = tx.Model(&tournamentRow{}).Where("id = ?", t.ID).Updates(map[string]any{
			"name": row.Name, "play_date": row.PlayDate, "level": row.Level, "ruleset": row.Ruleset,
			"kind": row.Kind, "rounds_planned": row.RoundsPlanned, "hands_per_round": row.HandsPerRound,
			"vp_table": row.VPTable, "plan": row.Plan, "public": row.Public, "time_zone": row.TimeZone,
		}).Error
		if err != nil {
			return translate(err, fmt.Sprintf("update tournament %s", t.ID))
		}
		return db.touchTournament(tx, t.ID)
	})
	db.facts.drop(t.ID)
	if err != nil {
		return domain.Tournament{}, err
	}
	return db.GetTournament(ctx, t.ID)
}

// DeleteTournament deletes a tournament after allow has accepted what it
// holds (read under the tournament's lock), in one transaction.
func (db *DB) DeleteTournament(ctx context.Context, tid string, allow func(TournamentUse) error) error {
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockTournament(tx, tid); err != nil {
			return err
		}
		use, err := tournamentUse(tx, tid)
		if err != nil {
			return err
		}
		if err := allow(use); err != nil {
			return err
		}
		return translate(tx.Where("id = ?", tid).Delete(&tournamentRow{}).Error, fmt.Sprintf("delete tournament %s", tid))
	})
	db.facts.drop(tid)
	return err
}
