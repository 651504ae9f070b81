package store

import "context"

// Queries the operations layer (package app) needs beyond the sheet and
// tournament repositories.

// ListReferees is the names of the tournament's referees, sorted.
func (db *DB) ListReferees(ctx context.Context, tournamentID string) ([]string, error) {
	var names []string
	err := db.gorm.WithContext(ctx).Model(&refereeRow{}).
		Where("tournament_id = ?", tournamentID).Order("referee_name").Pluck("referee_name", &names).Error
	if err != nil {
		return nil, translate(err, "list referees")
	}
	if names == nil {
		names = []string{}
	}
	return names, nil
}
