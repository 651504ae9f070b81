package store

import (
	"context"
	"errors"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// Line-ups (RULES §12.5, API §4.3; migration 00019): which players of each
// team sit at a table, by membership number.

type lineupRow struct {
	TournamentID string `gorm:"column:tournament_id;primaryKey"`
	RoundNo      int    `gorm:"column:round_no;primaryKey;autoIncrement:false"`
	TableNo      int    `gorm:"column:table_no;primaryKey;autoIncrement:false"`
	Line         string `gorm:"column:line;primaryKey"`
	Position     int    `gorm:"column:position;primaryKey;autoIncrement:false"`
	Membership   string `gorm:"column:membership"`
}

func (lineupRow) TableName() string { return "table_lineups" }

func lineName(l domain.Line) string {
	if l == domain.EO {
		return "eo"
	}
	return "ns"
}

// SetLineup replaces the line-up of one table, both lines in one
// transaction. A table the round does not have is ErrNotFound. The caller
// validates the line-up (domain.ValidateLineup).
func (db *DB) SetLineup(ctx context.Context, tid string, round int, l domain.Lineup) error {
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := rowExists(tx, &roundTableRow{}, "tournament_id = ? AND round_no = ? AND table_no = ?", tid, round, l.Table); errors.Is(err, domain.ErrNotFound) {
			return errorf(domain.ErrNotFound, "round %d of tournament %s has no table %d", round, tid, l.Table)
		} else if err != nil {
			return err
		}
		if err := tx.Where("tournament_id = ? AND round_no = ? AND table_no = ?", tid, round, l.Table).Delete(&lineupRow{}).Error; err != nil {
			return translate(err, "replace line-up")
		}
		rows := lineupRows(tid, round, l)
		if len(rows) > 0 {
			if err := tx.Create(&rows).Error; err != nil {
				return translate(err, "record line-up")
			}
		}
		return db.touchTournament(tx, tid)
	})
	db.facts.drop(tid)
	return err
}

// ListLineups lists the line-ups of a round's tables, by table number;
// tables without a line-up are left out.
func (db *DB) ListLineups(ctx context.Context, tid string, round int) ([]domain.Lineup, error) {
	var rows []lineupRow
	if err := db.gorm.WithContext(ctx).Where("tournament_id = ? AND round_no = ?", tid, round).
		Order("table_no, line DESC, position").Find(&rows).Error; err != nil {
		return nil, translate(err, "list line-ups")
	}
	var out []domain.Lineup
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].Table != r.TableNo {
			out = append(out, domain.Lineup{Table: r.TableNo})
		}
		cur := &out[len(out)-1]
		if r.Line == "eo" {
			cur.EO = append(cur.EO, r.Membership)
		} else {
			cur.NS = append(cur.NS, r.Membership)
		}
	}
	return out, nil
}

// lineupRows are a table's line-up as rows, NS line then EO line.
func lineupRows(tid string, round int, l domain.Lineup) []lineupRow {
	var rows []lineupRow
	for _, line := range domain.Lines {
		for i, m := range l.Line(line) {
			rows = append(rows, lineupRow{TournamentID: tid, RoundNo: round, TableNo: l.Table, Line: lineName(line), Position: i + 1, Membership: m})
		}
	}
	return rows
}
