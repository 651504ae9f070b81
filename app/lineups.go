package app

import (
	"context"
	"errors"
	"strings"

	"segnapunti/domain"
)

// SetLineup records which players of each team sit at a table of a team
// match (RULES §12.5, API §4.3: PUT …/rounds/{n}/tables/{t}/lineup): each
// line two players of the team seated there, by membership number, nobody
// at both tables of the match (FITAB art. 2.2). Only before the match
// starts: once the table has a sheet it is a 409. A tournament that is not
// of teams is a 422; a round or table that does not exist a 404. Who may:
// the organising club or an admin, as for publishing rounds.
func (a *App) SetLineup(ctx context.Context, p Principal, tid string, round int, l domain.Lineup) (domain.Lineup, error) {
	t, err := a.managed(ctx, p, tid, "sets line-ups")
	if err != nil {
		return domain.Lineup{}, err
	}
	if t.Kind != domain.KindTeams {
		return domain.Lineup{}, invalid([]FieldError{field("/ns", "api.no_lineups", kindName(t.Kind))})
	}
	r, err := a.round(ctx, t, round)
	if err != nil {
		return domain.Lineup{}, err
	}
	table, ok := r.Assignment(l.Table)
	if !ok {
		return domain.Lineup{}, notFound("api.round_no_table", round, l.Table)
	}
	if _, err := a.db.GetSheet(ctx, t.ID, round, l.Table); err == nil {
		return domain.Lineup{}, conflict("api.match_started", l.Table, round)
	} else if !errors.Is(err, domain.ErrNotFound) {
		return domain.Lineup{}, err
	}
	ns, err := a.entrant(ctx, t.ID, table.NS)
	if err != nil {
		return domain.Lineup{}, err
	}
	eo, err := a.entrant(ctx, t.ID, table.EO)
	if err != nil {
		return domain.Lineup{}, err
	}
	// RULES §12.4: a substituted player no longer sits; the substitute may.
	subs, err := a.db.ListSubstitutions(ctx, t.ID)
	if err != nil {
		return domain.Lineup{}, err
	}
	ns.Players = domain.PlayersAt(ns, subs, round)
	eo.Players = domain.PlayersAt(eo, subs, round)
	lineups, err := a.db.ListLineups(ctx, t.ID, round)
	if err != nil {
		return domain.Lineup{}, err
	}
	var other *domain.Lineup
	for _, tb := range r.Tables {
		if tb.Match == table.Match && tb.Table != table.Table && table.Match != 0 {
			for i := range lineups {
				if lineups[i].Table == tb.Table {
					other = &lineups[i]
				}
			}
		}
	}
	for i := range l.NS {
		l.NS[i] = strings.TrimSpace(l.NS[i])
	}
	for i := range l.EO {
		l.EO[i] = strings.TrimSpace(l.EO[i])
	}
	if err := domain.ValidateLineup(t.Ruleset, table, ns, eo, l, other); err != nil {
		name, detail, _ := strings.Cut(domainDetail(err), ": ")
		ptr := "/" + strings.ReplaceAll(strings.ReplaceAll(name, "[", "/"), "]", "")
		var ref *domain.Refusal
		if errors.As(err, &ref) {
			ptr = "/" + strings.ReplaceAll(strings.ReplaceAll(ref.Field, "[", "/"), "]", "")
			return domain.Lineup{}, invalid([]FieldError{field(ptr, ref.Code, ref.Args...)})
		}
		return domain.Lineup{}, invalid([]FieldError{uncoded(ptr, detail)})
	}
	if err := a.db.SetLineup(ctx, t.ID, round, l); err != nil {
		return domain.Lineup{}, err
	}
	return l, nil
}

// Lineups lists the line-ups of a round's tables, for whoever may read the
// tournament.
func (a *App) Lineups(ctx context.Context, p Principal, tid string, round int) ([]domain.Lineup, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return nil, err
	}
	return a.db.ListLineups(ctx, t.ID, round)
}
