package store

import (
	"context"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"segnapunti/domain"
)

// The club player registry (migrations 00007): the players a club has
// entered before, with their membership numbers, offered when the next
// tournament's entrants are typed (UI.md §3).

// clubPlayerRow is one row of club_players.
type clubPlayerRow struct {
	ClubID     string `gorm:"column:club_id;primaryKey"`
	Name       string `gorm:"column:name;primaryKey"`
	Membership string `gorm:"column:membership;primaryKey"`
}

func (clubPlayerRow) TableName() string { return "club_players" }

// MaxClubPlayers bounds what ClubPlayers returns.
const MaxClubPlayers = 2000

// rememberPlayers records the players of es in the registry of the club
// organising tournamentID, inside the transaction that enters them. A
// tournament without a club remembers nothing.
func rememberPlayers(tx *gorm.DB, tournamentID string, es []domain.Entrant) error {
	var clubs []string
	if err := tx.Model(&tournamentRow{}).Where("id = ? AND club_id IS NOT NULL", tournamentID).Pluck("club_id", &clubs).Error; err != nil {
		return translate(err, "remember players")
	}
	if len(clubs) == 0 || clubs[0] == "" {
		return nil
	}
	club := &clubs[0]
	seen := map[clubPlayerRow]bool{}
	var rows []clubPlayerRow
	for _, e := range es {
		for _, p := range e.Players {
			r := clubPlayerRow{ClubID: *club, Name: p.Name, Membership: p.Membership}
			if r.Name == "" || seen[r] {
				continue
			}
			seen[r] = true
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	if err := tx.Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(&rows, 500).Error; err != nil {
		return translate(err, "remember players")
	}
	return nil
}

// ClubPlayers lists the players a club has entered, by name, at most
// MaxClubPlayers.
func (db *DB) ClubPlayers(ctx context.Context, clubID string) ([]domain.Player, error) {
	// Scanned without gorm: the entrants page reads it on every view.
	rows, err := db.readDB(ctx).Raw(`SELECT name, membership FROM club_players WHERE club_id = ?
		ORDER BY name, membership LIMIT ?`, clubID, MaxClubPlayers).Rows()
	if err != nil {
		return nil, translate(err, "list club players")
	}
	defer rows.Close()
	out := []domain.Player{}
	for rows.Next() {
		var p domain.Player
		if err := rows.Scan(&p.Name, &p.Membership); err != nil {
			return nil, translate(err, "read club players")
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err, "read club players")
	}
	return out, nil
}
