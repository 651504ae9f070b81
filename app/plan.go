package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"segnapunti/domain"
)

// The plan of a tournament (RULES §12.1, API §4.3) and the completeness
// its score-dependent rounds need (RULES §12.2).

// parsePlan checks a written plan against the tournament's ruleset, kind
// and rounds planned; each problem is named by its pointer under /plan.
func parsePlan(in domain.PlanInput, t domain.Tournament) (domain.Plan, []FieldError) {
	p, err := domain.ParsePlan(in, t.Ruleset, t.Kind, t.RoundsPlanned)
	var pe *domain.PlanError
	if errors.As(err, &pe) {
		errs := make([]FieldError, len(pe.Problems))
		for i, pr := range pe.Problems {
			errs[i] = uncoded("/plan"+pr.Pointer, pr.Detail)
		}
		return domain.Plan{}, errs
	}
	if err != nil {
		return domain.Plan{}, []FieldError{domainError("/plan", err)}
	}
	return p, nil
}

// planInputOf writes a stored plan back as an input (nil: none announced),
// so that a change to another field checks it again.
func planInputOf(p domain.Plan) *domain.PlanInput {
	if p.FirstRound == "" {
		return nil
	}
	in := &domain.PlanInput{FirstRound: string(p.FirstRound), Sessions: slices.Clone(p.Sessions)}
	for _, ph := range p.Phases {
		in.Phases = append(in.Phases, domain.PlanPhaseInput{FromRound: ph.FromRound, System: string(ph.System)})
	}
	return in
}

// IncompleteError is the 409 of RULES §12.2: round Round lacks a delivered
// sheet (or an adjustment replacing its result) at Tables.
type IncompleteError struct {
	Round  int
	Tables []int
}

// incomplete is the refusal carrying the round and the tables.
func incomplete(round int, tables []int, key string, a ...any) error {
	e := refusal(domain.ErrConflict, key, a...)
	e.Incomplete = &IncompleteError{Round: round, Tables: tables}
	return e
}

func tableList(tables []int) string {
	parts := make([]string, len(tables))
	for i, t := range tables {
		parts[i] = fmt.Sprint(t)
	}
	return strings.Join(parts, ", ")
}

// incompleteTables lists the tables of round r that have neither a
// delivered sheet nor an adjustment replacing their result (RULES §12.2,
// FITAB art. 19: the winners hand the sheet to the referee; art. 2 A: the
// Danish pairing reads the standings of every earlier round). A table has
// a delivered sheet when a sheet with at least one hand is stored and it
// is not waiting for the other line's confirmation at the table (one
// signature of two, UI.md §6); its result is replaced when every entrant
// seated there has an adjustment of that round that puts a result in place
// of the match (both lines abandoning, an awarded match: RULES §7).
func (a *App) incompleteTables(ctx context.Context, t domain.Tournament, r domain.Round) ([]int, error) {
	undelivered, err := a.undeliveredTables(ctx, t, r)
	if err != nil {
		return nil, err
	}
	adjs, err := a.db.ListAdjustments(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	replaced := map[string]bool{}
	for _, adj := range adjs {
		if adj.Round == r.Number && adj.Effect.Result != nil {
			replaced[adj.Entrant] = true
		}
	}
	var missing []int
	for _, tb := range r.Tables {
		if !undelivered[tb.Table] {
			continue
		}
		all := true
		for _, id := range tb.Seated() {
			all = all && replaced[id]
		}
		if !all {
			missing = append(missing, tb.Table)
		}
	}
	return missing, nil
}

// undeliveredTables is the set of round r's tables without a delivered
// sheet (see incompleteTables), adjustments not considered.
func (a *App) undeliveredTables(ctx context.Context, t domain.Tournament, r domain.Round) (map[int]bool, error) {
	sheets, err := a.db.RoundSheets(ctx, t.ID, r.Number)
	if err != nil {
		return nil, err
	}
	signed, err := a.db.RoundConfirmations(ctx, t.ID, r.Number)
	if err != nil {
		return nil, err
	}
	hands := make(map[int]int, len(sheets))
	for _, s := range sheets {
		hands[s.Table] = len(s.Sheet.Hands)
	}
	out := map[int]bool{}
	for _, tb := range r.Tables {
		if hands[tb.Table] == 0 || len(signed[tb.Table]) == 1 {
			out[tb.Table] = true
		}
	}
	return out, nil
}

// checkDelivered refuses sheets_delivered (or a later state) for round r
// while a table is incomplete (RULES §12.2).
func (a *App) checkDelivered(ctx context.Context, t domain.Tournament, r domain.Round) error {
	missing, err := a.incompleteTables(ctx, t, r)
	if err != nil || len(missing) == 0 {
		return err
	}
	return incomplete(r.Number, missing, "api.undelivered",
		r.Number, tableList(missing))
}

// checkCompleteStandings refuses to seat a score-dependent round n while
// an earlier round lacks a sheet (RULES §12.2, FITAB art. 2 A): it names
// the first such round and its tables.
func (a *App) checkCompleteStandings(ctx context.Context, t domain.Tournament, n int) error {
	rounds, err := a.db.ListRounds(ctx, t.ID)
	if err != nil {
		return err
	}
	for _, r := range rounds {
		if r.Number >= n {
			continue
		}
		missing, err := a.incompleteTables(ctx, t, r)
		if err != nil {
			return err
		}
		if len(missing) > 0 {
			return incomplete(r.Number, missing, "api.danish_incomplete",
				n, r.Number, tableList(missing))
		}
	}
	return nil
}
