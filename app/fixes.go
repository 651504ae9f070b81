package app

import (
	"context"
	"errors"
	"strings"

	"segnapunti/domain"
	"segnapunti/events"
	"segnapunti/store"
)

// EntrantPatch is a change to one entrant (PATCH
// /v1/tournaments/{tid}/entrants/{id}): nil leaves a field as it is;
// Players replaces all the players; an empty Team or Club removes it.
type EntrantPatch struct {
	Players *[]domain.Player
	Team    *string
	Club    *string
}

// EditEntrant changes an entrant's players (names, membership numbers),
// team or club, checked as when it was entered (RULES §10): the organising
// club or an admin.
func (a *App) EditEntrant(ctx context.Context, p Principal, tid, id string, pt EntrantPatch) (domain.Entrant, error) {
	t, err := a.managed(ctx, p, tid, "changes entrants")
	if err != nil {
		return domain.Entrant{}, err
	}
	cur, err := a.entrant(ctx, t.ID, id)
	if err != nil {
		return domain.Entrant{}, err
	}
	in := EntrantInput{ID: cur.ID, Players: cur.Players}
	if cur.Team != "" {
		in.Team = &cur.Team
	}
	if cur.Club != "" {
		in.Club = &cur.Club
	}
	if pt.Players != nil {
		in.Players = *pt.Players
	}
	if pt.Team != nil {
		in.Team = pt.Team
		if *pt.Team == "" {
			in.Team = nil
		}
	}
	if pt.Club != nil {
		in.Club = pt.Club
		if *pt.Club == "" {
			in.Club = nil
		}
	}
	es, errs := entrantsToDomain([]EntrantInput{in}, t.Kind, nil)
	if len(errs) > 0 {
		for i := range errs { // one entrant: its fields are the body's
			errs[i].Pointer = strings.TrimPrefix(errs[i].Pointer, "/entrants/0")
		}
		return domain.Entrant{}, invalid(errs)
	}
	if err := a.db.UpdateEntrant(ctx, t.ID, es[0]); err != nil {
		return domain.Entrant{}, err
	}
	a.changed(ctx, t.ID, events.Standings, 0, 0)
	es[0].WithdrawnFromRound, es[0].WithdrawnReason = cur.WithdrawnFromRound, cur.WithdrawnReason
	return es[0], nil
}

// entrant is one entrant of tournament tid, or not found.
func (a *App) entrant(ctx context.Context, tid, id string) (domain.Entrant, error) {
	es, err := a.db.ListEntrants(ctx, tid)
	if err != nil {
		return domain.Entrant{}, err
	}
	for _, e := range es {
		if e.ID == id {
			return e, nil
		}
	}
	return domain.Entrant{}, notFound("api.no_entrant", tid, id)
}

// WithdrawEntrant removes an entrant entered by mistake, only while it is
// seated in no round (no table, no bye) and has no adjustment: the
// organising club or an admin.
func (a *App) WithdrawEntrant(ctx context.Context, p Principal, tid, id string) error {
	t, err := a.managed(ctx, p, tid, "withdraws entrants")
	if err != nil {
		return err
	}
	err = a.db.WithdrawEntrant(ctx, t.ID, id, func(u store.EntrantUse) error {
		switch {
		case u.Seated > 0:
			return conflict("api.withdraw_seated", id, u.Seated)
		case u.Adjustments > 0:
			return conflict("api.withdraw_adjusted", id, u.Adjustments)
		}
		return nil
	})
	if err != nil {
		return err
	}
	a.changed(ctx, t.ID, events.Standings, 0, 0)
	return nil
}

// RedefineRound replaces the tables and byes (and hands, phase) of round
// n while it is playing and no score sheet is entered in it, checked as
// when it was created: the organising club or an admin. in.Number 0 is n.
func (a *App) RedefineRound(ctx context.Context, p Principal, tid string, n int, in RoundInput) (domain.Round, error) {
	t, err := a.managed(ctx, p, tid, "redefines rounds")
	if err != nil {
		return domain.Round{}, err
	}
	if n < 1 || n > MaxRoundsPlanned {
		return domain.Round{}, paramError("n", "api.whole_range_n", "n", MaxRoundsPlanned, n)
	}
	if in.Number == 0 {
		in.Number = n
	} else if in.Number != n {
		return domain.Round{}, invalid([]FieldError{field("/number", "field.round_of_path", n, n)})
	}
	entered, err := a.enteredIDs(ctx, t.ID)
	if err != nil {
		return domain.Round{}, err
	}
	r, errs := in.toDomain(t, entered)
	if len(errs) > 0 {
		return domain.Round{}, invalid(errs)
	}
	if err := a.checkVacated(ctx, t, r); err != nil {
		return domain.Round{}, err
	}
	err = a.db.ReplaceRound(ctx, t.ID, r, func(u store.RoundUse) error {
		switch {
		case u.State != domain.RoundPlaying:
			return conflict("api.redefine_state", n, u.State)
		case u.Sheets > 0:
			return conflict("api.redefine_sheets", n, u.Sheets)
		}
		return nil
	})
	if err != nil {
		return domain.Round{}, err
	}
	a.changed(ctx, t.ID, events.Round, n, 0)
	return a.round(ctx, t, n)
}

// WithdrawFromRound records that entrant id leaves the tournament for good
// from round r (RULES §12.3, FITAB art. 37, FIBur-INT art. 33): the results
// it earned before r stay, no round generated from r on seats it, and in a
// fixed calendar its would-be opponents sit alone with the bye score. r 0
// takes a withdrawal back. Who may: Access.Judge (a referee of the
// tournament, an admin, the organising club at club level).
//
// A withdrawal during a round being played — round r published, the
// entrant seated at a table with no delivered sheet — is also an abandon
// of that round (RULES §12.3, §7; FITAB art. 37): abandon says whether it
// is "justified" or "unjustified" (required then, refused otherwise), and
// the withdrawal, the leaving entrant's abandon and its opponents' (the
// innocent line) are recorded in one transaction.
func (a *App) WithdrawFromRound(ctx context.Context, p Principal, tid, id string, r int, reason, abandon string) (domain.Entrant, error) {
	t, err := a.refereed(ctx, p, tid, "records withdrawals")
	if err != nil {
		return domain.Entrant{}, err
	}
	if r < 0 || r > t.RoundsPlanned {
		return domain.Entrant{}, invalid([]FieldError{field("/withdrawn_from_round", "field.withdrawn_round", t.RoundsPlanned)})
	}
	reason = strings.TrimSpace(reason)
	if len(reason) > MaxNameLength {
		return domain.Entrant{}, invalid([]FieldError{field("/reason", "api.at_most", MaxNameLength)})
	}
	if _, err := a.entrant(ctx, t.ID, id); err != nil {
		return domain.Entrant{}, err
	}
	adds, err := a.withdrawalAbandon(ctx, p, t, id, r, reason, abandon)
	if err != nil {
		return domain.Entrant{}, err
	}
	e, err := a.db.WithdrawWithAbandon(ctx, t.ID, id, r, reason, adds)
	if err != nil {
		return domain.Entrant{}, err
	}
	a.changed(ctx, t.ID, events.Standings, r, 0)
	return e, nil
}

// Abandon kinds of a withdrawal during a round (RULES §7).
const (
	AbandonJustified   = "justified"
	AbandonUnjustified = "unjustified"
)

// withdrawalAbandon is the abandon a withdrawal from round r adds when r is
// being played at the entrant's table (RULES §12.3): the leaving entrant
// is the offender of abandon_justified or abandon_unjustified, each entrant
// of the other line of its table(s) the innocent line — unless that entrant
// already has a result for the round (both lines abandoning: the referee
// rules). In an individual tournament the partner of the leaving player is
// left to the referee. Nil when the round is not being played there; a
// withdrawal already recorded with its abandon adds nothing again.
func (a *App) withdrawalAbandon(ctx context.Context, p Principal, t domain.Tournament, id string, r int, reason, abandon string) ([]store.PendingAdjustment, error) {
	kinds := map[string]domain.AdjustmentReason{AbandonJustified: domain.ReasonAbandonJustified, AbandonUnjustified: domain.ReasonAbandonUnjustified}
	kind, known := kinds[abandon]
	if abandon != "" && !known {
		return nil, invalid([]FieldError{field("/abandon", "field.abandon_kind", abandon)})
	}
	var tables []domain.TableAssignment
	var round domain.Round
	if r > 0 {
		rd, err := a.db.GetRound(ctx, t.ID, r)
		if err != nil && !errors.Is(err, domain.ErrNotFound) {
			return nil, err
		}
		if err == nil && rd.State == domain.RoundPlaying {
			round = rd
			undelivered, err := a.undeliveredTables(ctx, t, rd)
			if err != nil {
				return nil, err
			}
			for _, tb := range rd.Tables {
				if _, seated := tb.LineOf(id); seated && undelivered[tb.Table] {
					tables = append(tables, tb)
				}
			}
		}
	}
	if len(tables) == 0 {
		if abandon != "" {
			return nil, invalid([]FieldError{field("/abandon", "field.abandon_not_playing", id, r)})
		}
		return nil, nil
	}
	adjs, err := a.db.ListAdjustments(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	hasResult := map[string]bool{}
	for _, adj := range adjs {
		if adj.Round == r && adj.Effect.Result != nil {
			hasResult[adj.Entrant] = true
		}
	}
	if hasResult[id] {
		return nil, nil // recorded already (this withdrawal, or the referee's own ruling)
	}
	if !known {
		return nil, invalid([]FieldError{field("/abandon", "field.abandon_required", id, r)})
	}
	base := domain.AdjustmentCase{Ruleset: t.Ruleset, Kind: t.Kind, HandsPlanned: round.HandsPlanned, Phase: round.Phase, Reason: kind, Note: reason}
	offender := base
	offender.Party = domain.PartyOffender
	adds := []store.PendingAdjustment{{Entrant: id, Build: buildAdjustment(offender, r, id, p.Name)}}
	innocent := base
	innocent.Party = domain.PartyInnocent
	seen := map[string]bool{id: true}
	for _, tb := range tables {
		line, _ := tb.LineOf(id)
		for _, opp := range tb.Line(line.Other()) {
			if seen[opp] || hasResult[opp] {
				continue
			}
			seen[opp] = true
			adds = append(adds, store.PendingAdjustment{Entrant: opp, Build: buildAdjustment(innocent, r, opp, p.Name)})
		}
	}
	return adds, nil
}
