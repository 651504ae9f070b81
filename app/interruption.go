package app

import (
	"context"
	"strings"

	"segnapunti/domain"
	"segnapunti/events"
)

// InterruptTournament records that a tournament was interrupted by force
// majeure after its k-th completed round and rules on it (RULES §12.6,
// FITAB art. 39): valid, with the standings after round k, or void. Who
// may: Access.Judge (a referee of the tournament, an admin, the organising
// club at club level). Round k must be completed — rounds 1..k stored and
// their sheets delivered — and the reason given; a tournament already
// interrupted is a conflict.
func (a *App) InterruptTournament(ctx context.Context, p Principal, tid string, k int, reason string) (domain.Tournament, domain.Interruption, error) {
	if _, err := a.refereed(ctx, p, tid, "interrupts the tournament"); err != nil {
		return domain.Tournament{}, domain.Interruption{}, err
	}
	reason = strings.TrimSpace(reason)
	var errs []FieldError
	if reason == "" {
		errs = append(errs, field("/reason", "field.interrupt_reason"))
	}
	if k < 0 || k > MaxRoundsPlanned {
		errs = append(errs, field("/interrupted_after_round", "field.interrupt_after", MaxRoundsPlanned))
	}
	if len(errs) > 0 {
		return domain.Tournament{}, domain.Interruption{}, invalid(errs)
	}
	t, err := a.db.SetInterruption(ctx, tid, k, reason, func(t domain.Tournament, rounds []domain.Round) error {
		if t.InterruptedAfterRound != nil {
			return conflict("api.interrupted", t.ID, *t.InterruptedAfterRound)
		}
		if k > t.RoundsPlanned {
			return invalid([]FieldError{field("/interrupted_after_round", "field.interrupt_beyond", k, t.RoundsPlanned)})
		}
		done := deliveredRounds(rounds)
		return uncompleted(done, k)
	})
	if err != nil {
		return domain.Tournament{}, domain.Interruption{}, err
	}
	ruling, _ := t.Interruption()
	a.changed(ctx, t.ID, events.Standings, 0, 0)
	return t, ruling, nil
}

// PreviewInterruption is the ruling InterruptTournament would give now
// (RULES §12.6, FITAB art. 39), nothing written: the referee sees whether
// the tournament stays valid or is void before applying it. Same checks
// and refusals as InterruptTournament.
func (a *App) PreviewInterruption(ctx context.Context, p Principal, tid string, k int, reason string) (domain.Interruption, error) {
	t, err := a.refereed(ctx, p, tid, "interrupts the tournament")
	if err != nil {
		return domain.Interruption{}, err
	}
	var errs []FieldError
	if strings.TrimSpace(reason) == "" {
		errs = append(errs, field("/reason", "field.interrupt_reason"))
	}
	if k < 0 || k > t.RoundsPlanned {
		errs = append(errs, field("/interrupted_after_round", "field.interrupt_not_round", k, t.RoundsPlanned, t.RoundsPlanned))
	}
	if len(errs) > 0 {
		return domain.Interruption{}, invalid(errs)
	}
	if t.InterruptedAfterRound != nil {
		return domain.Interruption{}, conflict("api.interrupted", t.ID, *t.InterruptedAfterRound)
	}
	rounds, err := a.db.ListRounds(ctx, t.ID)
	if err != nil {
		return domain.Interruption{}, err
	}
	done := deliveredRounds(rounds)
	if err := uncompleted(done, k); err != nil {
		return domain.Interruption{}, err
	}
	ruling, err := domain.RuleInterruption(t.Ruleset, t.RoundsPlanned, k)
	if err != nil {
		return domain.Interruption{}, invalid([]FieldError{domainError("/interrupted_after_round", err)})
	}
	return ruling, nil
}

// CompletedRounds is how many rounds of the tournament are completed in a
// row from round 1 (sheets delivered or later): the round an interruption
// now would come after (the interruption form's default).
func (a *App) CompletedRounds(ctx context.Context, p Principal, tid string) (int, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return 0, err
	}
	rounds, err := a.db.ListRounds(ctx, t.ID)
	if err != nil {
		return 0, err
	}
	done := deliveredRounds(rounds)
	k := 0
	for done[k+1] {
		k++
	}
	return k, nil
}

// deliveredRounds marks the rounds whose sheets are delivered (or later):
// the completed rounds of FITAB art. 39.
func deliveredRounds(rounds []domain.Round) map[int]bool {
	done := map[int]bool{}
	for _, r := range rounds {
		done[r.Number] = r.State.Order() >= domain.RoundSheetsDelivered.Order()
	}
	return done
}

// uncompleted refuses an interruption after round k while a round up to k
// is not completed (FITAB art. 39 counts completed rounds).
func uncompleted(done map[int]bool, k int) error {
	for n := 1; n <= k; n++ {
		if !done[n] {
			return invalid([]FieldError{field("/interrupted_after_round", "field.interrupt_not_completed", n)})
		}
	}
	return nil
}
