package app

import (
	"context"
	"errors"

	"segnapunti/domain"
	"segnapunti/store"
)

// Score corrections after delivery (RULES §9) and referee adjustments
// (RULES §7, §8): reading the trails. Both are append-only.

// Corrections is the tournament's correction trail, oldest first.
func (a *App) Corrections(ctx context.Context, p Principal, tid string) ([]store.Correction, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return nil, err
	}
	return a.db.ListCorrections(ctx, t.ID, store.CorrectionFilter{})
}

// Correction is one recorded correction.
func (a *App) Correction(ctx context.Context, p Principal, tid string, id int64) (store.Correction, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return store.Correction{}, err
	}
	rec, err := a.db.GetCorrection(ctx, t.ID, id)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && id < 1) {
		return store.Correction{}, notFound("tournament %q has no correction %d", t.ID, id)
	}
	return rec, err
}

// Adjustments is the tournament's adjustments, oldest first.
func (a *App) Adjustments(ctx context.Context, p Principal, tid string) ([]store.Adjustment, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return nil, err
	}
	return a.db.ListAdjustments(ctx, t.ID)
}

// EnteredIDs is the set of the tournament's entrant ids.
func (a *App) EnteredIDs(ctx context.Context, tid string) (map[string]bool, error) {
	return a.enteredIDs(ctx, tid)
}
