package app

import (
	"context"

	"segnapunti/domain"
	"segnapunti/events"
	"segnapunti/store"
)

// TournamentPatch is a change to a tournament's fields (PATCH
// /v1/tournaments/{tid}): nil leaves a field as it is. The organising club
// is not changed here.
type TournamentPatch struct {
	Name          *string
	Date          *string
	Level         *string
	Ruleset       *string
	Kind          *string
	RoundsPlanned *int
	HandsPerRound *int
	VPTable       *string // "" unpins the VP table
	// Plan replaces the plan (RULES §12.1: until round 1 is published).
	Plan *domain.PlanInput
	// Public opens or closes the public pages. Alone it may change at any
	// time (PatchTournament); with the fields above it changes with them,
	// in the same transaction, or not at all.
	Public *bool
	// TimeZone sets the tournament's clock (any time, like Public; with
	// the fields above in the same transaction).
	TimeZone *string
}

// input is the tournament with the patch applied, as TournamentInput.
func (pt TournamentPatch) input(t domain.Tournament) TournamentInput {
	in := TournamentInput{Name: t.Name, Date: t.Date.Format(DateLayout), Level: string(t.Level), Ruleset: string(t.Ruleset),
		Kind: string(t.Kind), RoundsPlanned: t.RoundsPlanned, HandsPerRound: t.HandsPerRound}
	if !t.VPTable.IsZero() {
		v := t.VPTable.ID()
		in.VPTable = &v
	}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&in.Name, pt.Name)
	set(&in.Date, pt.Date)
	set(&in.Level, pt.Level)
	set(&in.Ruleset, pt.Ruleset)
	set(&in.Kind, pt.Kind)
	if pt.RoundsPlanned != nil {
		in.RoundsPlanned = *pt.RoundsPlanned
	}
	if pt.HandsPerRound != nil {
		in.HandsPerRound = *pt.HandsPerRound
	}
	if pt.VPTable != nil {
		in.VPTable = pt.VPTable
		if *pt.VPTable == "" {
			in.VPTable = nil
		}
	}
	in.Plan = planInputOf(t.Plan)
	if pt.Plan != nil {
		in.Plan = pt.Plan
	}
	return in
}

// EditTournament changes a tournament's fields while nothing is played
// (no sheet stored): the organising club or an admin. Its kind changes
// only while no entrant is entered, and it cannot plan fewer rounds than
// it has.
func (a *App) EditTournament(ctx context.Context, p Principal, tid string, pt TournamentPatch) (domain.Tournament, error) {
	cur, err := a.managed(ctx, p, tid, "changes the tournament")
	if err != nil {
		return domain.Tournament{}, err
	}
	t, errs := pt.input(cur).toDomain()
	if len(errs) > 0 {
		return domain.Tournament{}, invalid(errs)
	}
	t.ID, t.ClubID, t.Public, t.TimeZone = cur.ID, cur.ClubID, cur.Public, cur.TimeZone
	if pt.Public != nil {
		t.Public = *pt.Public
	}
	if pt.TimeZone != nil {
		if fe := checkTimeZone(*pt.TimeZone); fe != nil {
			return domain.Tournament{}, invalid([]FieldError{*fe})
		}
		t.TimeZone = *pt.TimeZone
	}
	updated, err := a.db.UpdateTournament(ctx, t, func(u store.TournamentUse) error {
		switch {
		case u.Sheets > 0:
			return conflict("api.edit_sheets", tid, u.Sheets)
		case t.Kind != cur.Kind && u.Entrants > 0:
			return conflict("api.edit_kind", tid)
		case int64(t.RoundsPlanned) < u.Rounds:
			return invalid([]FieldError{field("/rounds_planned", "field.rounds_fewer")})
		case pt.Plan != nil && u.Rounds > 0:
			// RULES §12.1, FITAB art. 2: the plan is announced before the
			// tournament starts and may change until round 1 is published.
			return conflict("api.plan_fixed", tid)
		}
		return nil
	})
	if err != nil {
		return domain.Tournament{}, err
	}
	if updated.Public != cur.Public || updated.Zone() != cur.Zone() {
		a.changed(ctx, updated.ID, events.Tournament, 0, 0)
	}
	return updated, nil
}

// DeleteTournament deletes a tournament while it is empty (no entrants, no
// rounds): the organising club or an admin.
func (a *App) DeleteTournament(ctx context.Context, p Principal, tid string) error {
	if _, err := a.managed(ctx, p, tid, "deletes the tournament"); err != nil {
		return err
	}
	return a.db.DeleteTournament(ctx, tid, func(u store.TournamentUse) error {
		if u.Entrants > 0 || u.Rounds > 0 || u.Sheets > 0 {
			return conflict("api.delete_nonempty", tid, u.Entrants, u.Rounds)
		}
		return nil
	})
}
