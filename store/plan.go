package store

import (
	"context"
	"encoding/json"
	"fmt"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// The plan and the groups (RULES §12.1; migration 00017) are stored as
// JSON text: the plan is read and written whole, and a gironi round's
// groups are read back whole by the later rounds.

type planJSON struct {
	FirstRound string          `json:"first_round"`
	Phases     []planPhaseJSON `json:"phases"`
	Sessions   []int           `json:"sessions"`
}

type planPhaseJSON struct {
	FromRound int    `json:"from_round"`
	System    string `json:"system"`
}

// planText writes a plan; none announced (the zero Plan) is NULL.
func planText(p domain.Plan) *string {
	if p.FirstRound == "" {
		return nil
	}
	j := planJSON{FirstRound: string(p.FirstRound), Phases: make([]planPhaseJSON, len(p.Phases)), Sessions: p.Sessions}
	for i, ph := range p.Phases {
		j.Phases[i] = planPhaseJSON{FromRound: ph.FromRound, System: string(ph.System)}
	}
	b, err := json.Marshal(j)
	if err != nil {
		return nil // ints and strings always marshal
	}
	s := string(b)
	return &s
}

// planValue reads a stored plan.
func planValue(s *string) (domain.Plan, error) {
	if s == nil || *s == "" {
		return domain.Plan{}, nil
	}
	var j planJSON
	if err := json.Unmarshal([]byte(*s), &j); err != nil {
		return domain.Plan{}, fmt.Errorf("plan unreadable: %w", err)
	}
	p := domain.Plan{FirstRound: domain.PairingSystem(j.FirstRound), Sessions: j.Sessions}
	for _, ph := range j.Phases {
		p.Phases = append(p.Phases, domain.PlanPhase{FromRound: ph.FromRound, System: domain.PairingSystem(ph.System)})
	}
	return p, nil
}

// groupsText writes a gironi round's groups; none is NULL.
func groupsText(g [][]string) *string {
	if len(g) == 0 {
		return nil
	}
	b, err := json.Marshal(g)
	if err != nil {
		return nil
	}
	s := string(b)
	return &s
}

// groupsValue reads stored groups; the column is only written by
// groupsText, so unreadable text reads as none.
func groupsValue(s *string) [][]string {
	if s == nil {
		return nil
	}
	var g [][]string
	if err := json.Unmarshal([]byte(*s), &g); err != nil {
		return nil
	}
	return g
}

// SetInterruption records that a tournament was interrupted by force
// majeure after round k, with the referee's reason (FITAB art. 39;
// migration 00017). allow decides under the tournament's lock, on the
// tournament and its rounds as stored, whether it may be recorded.
func (db *DB) SetInterruption(ctx context.Context, tid string, k int, reason string, allow func(domain.Tournament, []domain.Round) error) (domain.Tournament, error) {
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockTournament(tx, tid); err != nil {
			return err
		}
		var row tournamentRow
		if err := tx.Where("id = ?", tid).Take(&row).Error; err != nil {
			return translate(err, "get tournament")
		}
		t, err := row.toDomain()
		if err != nil {
			return err
		}
		var rounds []roundRow
		if err := tx.Where("tournament_id = ?", tid).Order("number").Find(&rounds).Error; err != nil {
			return translate(err, "list rounds")
		}
		rs := make([]domain.Round, len(rounds))
		for i, r := range rounds {
			rs[i] = roundToDomain(r, nil, nil)
		}
		if err := allow(t, rs); err != nil {
			return err
		}
		err = tx.Model(&tournamentRow{}).Where("id = ?", tid).Updates(map[string]any{
			"interrupted_after_round": k, "interrupted_reason": reason,
		}).Error
		if err != nil {
			return translate(err, "interrupt tournament "+tid)
		}
		return db.touchTournament(tx, tid)
	})
	db.facts.drop(tid)
	if err != nil {
		return domain.Tournament{}, err
	}
	return db.GetTournament(ctx, tid)
}

// idsText writes a list of entrant ids (a round's vacated); none is NULL.
func idsText(ids []string) *string {
	if len(ids) == 0 {
		return nil
	}
	b, err := json.Marshal(ids)
	if err != nil {
		return nil
	}
	s := string(b)
	return &s
}

// idsValue reads a list written by idsText.
func idsValue(s *string) []string {
	if s == nil {
		return nil
	}
	var ids []string
	if err := json.Unmarshal([]byte(*s), &ids); err != nil {
		return nil
	}
	return ids
}

// SetWithdrawal records that entrant id withdrew from round r on, with the
// reason (RULES §12.3; migration 00017); r 0 clears it. An unknown entrant
// is ErrNotFound.
func (db *DB) SetWithdrawal(ctx context.Context, tid, id string, r int, reason string) (domain.Entrant, error) {
	return db.WithdrawWithAbandon(ctx, tid, id, r, reason, nil)
}

// PendingAdjustment is an adjustment of Entrant built, as AddAdjustment's,
// from the entrant's record read in the transaction.
type PendingAdjustment struct {
	Entrant string
	Build   func(EntrantRecord) (Adjustment, error)
}

// WithdrawWithAbandon is SetWithdrawal and, in the same transaction, the
// adjustments adds (RULES §12.3: a withdrawal during a round being played
// is also an abandon of that round, §7): all are written or none.
func (db *DB) WithdrawWithAbandon(ctx context.Context, tid, id string, r int, reason string, adds []PendingAdjustment) (domain.Entrant, error) {
	var from *int
	if r > 0 {
		from = &r
	}
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if len(adds) > 0 {
			if err := lockForAdjustments(tx, tid); err != nil {
				return err
			}
		}
		res := tx.Model(&entrantRow{}).Where("tournament_id = ? AND id = ?", tid, id).
			Updates(map[string]any{"withdrawn_from_round": from, "withdrawn_reason": reason})
		if res.Error != nil {
			return translate(res.Error, "withdraw entrant")
		}
		if res.RowsAffected == 0 {
			return errorf(domain.ErrNotFound, "tournament %s has no entrant %q", tid, id)
		}
		for _, p := range adds {
			if _, err := db.addAdjustmentTx(tx, tid, p.Entrant, p.Build); err != nil {
				return adjustmentError(err, p.Entrant, tid)
			}
		}
		return db.touchTournament(tx, tid)
	})
	db.facts.drop(tid)
	if err != nil {
		return domain.Entrant{}, err
	}
	entrants, err := db.ListEntrants(ctx, tid)
	if err != nil {
		return domain.Entrant{}, err
	}
	for _, e := range entrants {
		if e.ID == id {
			return e, nil
		}
	}
	return domain.Entrant{}, errorf(domain.ErrNotFound, "tournament %s has no entrant %q", tid, id)
}
