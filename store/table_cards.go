package store

import (
	"context"
	"errors"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// Table cards (UI.md §9): one code per physical table for the
// whole tournament, printed once and left on the table; /table/{code}
// opens that table's current round. Like entry links: a long code for the
// QR, a short typed one, looked up by their hashes and kept for printing.

// TableCard is a table's live card.
type TableCard struct {
	ID           string
	TournamentID string
	Table        int
	Code, Short  string
	Revoked      bool
}

type tableCardRow struct {
	ID           string   `gorm:"column:id;primaryKey"`
	TournamentID string   `gorm:"column:tournament_id"`
	TableNo      int      `gorm:"column:table_no"`
	CodeHash     string   `gorm:"column:code_hash"`
	ShortHash    string   `gorm:"column:short_hash"`
	Code         string   `gorm:"column:code"`
	Short        string   `gorm:"column:short"`
	IssuedBy     string   `gorm:"column:issued_by"`
	Created      instant  `gorm:"column:created_at"`
	Revoked      *instant `gorm:"column:revoked_at"`
}

func (tableCardRow) TableName() string { return "table_cards" }

func (r tableCardRow) toDomain() TableCard {
	return TableCard{ID: r.ID, TournamentID: r.TournamentID, Table: r.TableNo, Code: r.Code, Short: r.Short, Revoked: r.Revoked != nil}
}

// TableCards returns the live card of each listed table, issuing one for a
// table that has none (nothing is revoked: a card printed once stays
// good). An unknown tournament is ErrNotFound.
func (db *DB) TableCards(ctx context.Context, tournamentID string, tables []int, issuedBy string) (map[int]TableCard, error) {
	for attempt := 1; ; attempt++ {
		out := make(map[int]TableCard, len(tables))
		err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			var rows []tableCardRow
			if err := tx.Where("tournament_id = ? AND revoked_at IS NULL AND table_no IN ?", tournamentID, tables).Find(&rows).Error; err != nil {
				return translate(err, "read table cards")
			}
			for _, r := range rows {
				out[r.TableNo] = r.toDomain()
			}
			now := instant(db.stamp())
			for _, t := range tables {
				if _, ok := out[t]; ok {
					continue
				}
				code, short := newEntryCode(), newShortCode()
				row := tableCardRow{ID: newID("k_"), TournamentID: tournamentID, TableNo: t, CodeHash: tokenHash(code), ShortHash: tokenHash(short),
					Code: code, Short: short, IssuedBy: issuedBy, Created: now}
				if err := tx.Create(&row).Error; err != nil {
					if errors.Is(err, gorm.ErrForeignKeyViolated) {
						return errorf(domain.ErrNotFound, "no tournament %s", tournamentID)
					}
					return translate(err, "issue table card")
				}
				out[t] = row.toDomain()
			}
			return nil
		})
		if errors.Is(err, domain.ErrConflict) && attempt < issueAttempts {
			continue // another request issued the card meanwhile, or a code collided: read again
		}
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

// TableCardByCode finds the card of a long code, or of a short typed code
// (short = true); unknown codes are ErrNotFound.
func (db *DB) TableCardByCode(ctx context.Context, code string, short bool) (TableCard, error) {
	col := "code_hash"
	if short {
		col = "short_hash"
	}
	var rows []tableCardRow
	if err := db.readDB(ctx).Where(col+" = ?", tokenHash(code)).Order("created_at DESC").Limit(1).Find(&rows).Error; err != nil {
		return TableCard{}, translate(err, "find table card")
	}
	if len(rows) == 0 {
		return TableCard{}, errorf(domain.ErrNotFound, "no such table card") // never echo the code
	}
	return rows[0].toDomain(), nil
}
