package store

import (
	"context"
	"errors"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// A tournament's prize categories (migration 00020), kept in
// their order of value.

type prizeCategoryRow struct {
	TournamentID string `gorm:"column:tournament_id;primaryKey"`
	ID           string `gorm:"column:id;primaryKey"`
	Position     int    `gorm:"column:position"`
	Kind         string `gorm:"column:kind"`
	Label        string `gorm:"column:label"`
	Places       int    `gorm:"column:places"`
	BornBy       int    `gorm:"column:born_by"`
	Club         string `gorm:"column:club"`
	Attribute    string `gorm:"column:attribute"`
	Value        string `gorm:"column:value"`
	Cumulative   bool   `gorm:"column:cumulative"`
}

func (prizeCategoryRow) TableName() string { return "prize_categories" }

// SetPrizeCategories replaces a tournament's prize categories with cats,
// in one transaction; none removes them all. An unknown tournament is
// ErrNotFound. The caller validates cats (domain.ValidatePrizeCategories).
func (db *DB) SetPrizeCategories(ctx context.Context, tid string, cats []domain.PrizeCategory) error {
	return db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := rowExists(tx, &tournamentRow{}, "id = ?", tid); errors.Is(err, domain.ErrNotFound) {
			return errorf(domain.ErrNotFound, "no tournament %s", tid)
		} else if err != nil {
			return err
		}
		if err := tx.Where("tournament_id = ?", tid).Delete(&prizeCategoryRow{}).Error; err != nil {
			return translate(err, "remove prize categories")
		}
		// The public prize page is cached by the tournament's version.
		if err := db.touchTournament(tx, tid); err != nil {
			return err
		}
		if len(cats) == 0 {
			return nil
		}
		rows := prizeCategoryRows(tid, cats)
		return translate(tx.Create(&rows).Error, "store prize categories")
	})
}

// PrizeCategories lists a tournament's prize categories in their order of
// value; none defined is an empty list.
func (db *DB) PrizeCategories(ctx context.Context, tid string) ([]domain.PrizeCategory, error) {
	var rows []prizeCategoryRow
	if err := db.gorm.WithContext(ctx).Where("tournament_id = ?", tid).Order("position").Find(&rows).Error; err != nil {
		return nil, translate(err, "list prize categories")
	}
	out := make([]domain.PrizeCategory, len(rows))
	for i, r := range rows {
		out[i] = domain.PrizeCategory{ID: r.ID, Kind: domain.PrizeKind(r.Kind), Label: r.Label, Places: r.Places, BornBy: r.BornBy,
			Club: r.Club, Attribute: domain.PrizeAttribute(r.Attribute), Value: r.Value, Cumulative: r.Cumulative}
	}
	return out, nil
}

// prizeCategoryRows are cats as rows, in their order of value.
func prizeCategoryRows(tid string, cats []domain.PrizeCategory) []prizeCategoryRow {
	rows := make([]prizeCategoryRow, len(cats))
	for i, c := range cats {
		rows[i] = prizeCategoryRow{TournamentID: tid, ID: c.ID, Position: i + 1, Kind: string(c.Kind), Label: c.Label,
			Places: c.Places, BornBy: c.BornBy, Club: c.Club, Attribute: string(c.Attribute), Value: c.Value, Cumulative: c.Cumulative}
	}
	return rows
}
