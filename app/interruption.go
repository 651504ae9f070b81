package app

import (
	"context"
	"fmt"
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
		errs = append(errs, FieldError{Pointer: "/reason", Detail: "required: the force majeure that interrupts the tournament (FITAB art. 39)"})
	}
	if k < 0 || k > MaxRoundsPlanned {
		errs = append(errs, FieldError{Pointer: "/interrupted_after_round", Detail: fmt.Sprintf("the last completed round, 0 to %d", MaxRoundsPlanned)})
	}
	if len(errs) > 0 {
		return domain.Tournament{}, domain.Interruption{}, invalid(errs)
	}
	t, err := a.db.SetInterruption(ctx, tid, k, reason, func(t domain.Tournament, rounds []domain.Round) error {
		if t.InterruptedAfterRound != nil {
			return conflict("api.interrupted", t.ID, *t.InterruptedAfterRound)
		}
		if k > t.RoundsPlanned {
			return invalid([]FieldError{{Pointer: "/interrupted_after_round", Detail: fmt.Sprintf("%d is beyond the %d rounds planned", k, t.RoundsPlanned)}})
		}
		done := map[int]bool{}
		for _, r := range rounds {
			done[r.Number] = r.State.Order() >= domain.RoundSheetsDelivered.Order()
		}
		for n := 1; n <= k; n++ {
			if !done[n] {
				return invalid([]FieldError{{Pointer: "/interrupted_after_round", Detail: fmt.Sprintf("round %d is not completed (its sheets are not delivered): the tournament was interrupted before it", n)}})
			}
		}
		return nil
	})
	if err != nil {
		return domain.Tournament{}, domain.Interruption{}, err
	}
	ruling, _ := t.Interruption()
	a.changed(ctx, t.ID, events.Standings, 0, 0)
	return t, ruling, nil
}
