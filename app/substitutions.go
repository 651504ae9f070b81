package app

import (
	"context"
	"errors"
	"slices"
	"strings"

	"segnapunti/domain"
	"segnapunti/events"
)

// Substitute records that a player of entrant id is replaced from a round
// on (RULES §12.4): under fibur-* only until half the rounds planned are
// played (FIBur-INT art. 33), under fitab-* for force majeure confirmed by
// the referee (FITAB art. 37: the reason is required). The player replaced
// is named by membership number and must be one of the entrant's. Who may:
// Access.Judge. Refusals name the field and cite the article.
func (a *App) Substitute(ctx context.Context, p Principal, tid, id string, s domain.Substitution) (domain.Substitution, error) {
	t, err := a.refereed(ctx, p, tid, "records substitutions")
	if err != nil {
		return domain.Substitution{}, err
	}
	e, err := a.entrant(ctx, t.ID, id)
	if err != nil {
		return domain.Substitution{}, err
	}
	s.Entrant = e.ID
	s.Out, s.Reason = strings.TrimSpace(s.Out), strings.TrimSpace(s.Reason)
	s.In.Name, s.In.Membership = strings.TrimSpace(s.In.Name), strings.TrimSpace(s.In.Membership)
	var errs []FieldError
	if len(s.Reason) > MaxNameLength || len(s.In.Name) > MaxNameLength || len(s.In.Membership) > MaxNameLength {
		errs = append(errs, field("/reason", "field.substitution_length", MaxNameLength))
	}
	if err := domain.CheckSubstitution(t.Ruleset, t.RoundsPlanned, s); err != nil {
		field, detail, _ := strings.Cut(domainDetail(err), ": ")
		errs = append(errs, uncoded("/"+strings.ReplaceAll(field, ".", "/"), detail))
	} else if !slices.ContainsFunc(e.Players, func(pl domain.Player) bool { return pl.Membership != "" && pl.Membership == s.Out }) {
		errs = append(errs, field("/out", "field.no_such_player", e.ID, s.Out))
	}
	if len(errs) > 0 {
		return domain.Substitution{}, invalid(errs)
	}
	if err := a.db.AddSubstitution(ctx, t.ID, s); errors.Is(err, domain.ErrConflict) {
		return domain.Substitution{}, conflict("api.substituted", s.Out, e.ID, s.FromRound)
	} else if err != nil {
		return domain.Substitution{}, err
	}
	a.changed(ctx, t.ID, events.Standings, 0, 0)
	return s, nil
}

// Substitutions lists a tournament's substitutions, for whoever may read it.
func (a *App) Substitutions(ctx context.Context, p Principal, tid string) ([]domain.Substitution, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return nil, err
	}
	return a.db.ListSubstitutions(ctx, t.ID)
}
