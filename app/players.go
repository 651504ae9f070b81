package app

import (
	"context"

	"segnapunti/domain"
)

// ClubPlayers is the registry of players the organising club of tid has
// entered before (offered while typing entrants), for whoever manages the
// tournament.
func (a *App) ClubPlayers(ctx context.Context, p Principal, tid string) ([]domain.Player, error) {
	t, err := a.managed(ctx, p, tid, "reads the club's players")
	if err != nil {
		return nil, err
	}
	if t.ClubID == "" {
		return nil, nil
	}
	return a.db.ClubPlayers(ctx, t.ClubID)
}
