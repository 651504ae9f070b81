package store

import (
	"context"
	"errors"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// Substitutions (RULES §12.4; migration 00017): a player replaced from a
// round on, recorded with the reason.

type substitutionRow struct {
	TournamentID  string  `gorm:"column:tournament_id;primaryKey"`
	EntrantID     string  `gorm:"column:entrant_id;primaryKey"`
	FromRound     int     `gorm:"column:from_round;primaryKey;autoIncrement:false"`
	OutMembership string  `gorm:"column:out_membership;primaryKey"`
	InName        string  `gorm:"column:in_name"`
	InMembership  string  `gorm:"column:in_membership"`
	Reason        string  `gorm:"column:reason"`
	CreatedAt     instant `gorm:"column:created_at"`
}

func (substitutionRow) TableName() string { return "substitutions" }

// AddSubstitution records a substitution. An unknown entrant is
// ErrNotFound; the same player replaced twice from the same round is
// ErrConflict.
func (db *DB) AddSubstitution(ctx context.Context, tid string, s domain.Substitution) error {
	row := substitutionToRow(tid, s, instant(db.stamp()))
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := rowExists(tx, &entrantRow{}, "tournament_id = ? AND id = ?", tid, s.Entrant); errors.Is(err, domain.ErrNotFound) {
			return errorf(domain.ErrNotFound, "tournament %s has no entrant %q", tid, s.Entrant)
		} else if err != nil {
			return err
		}
		if err := tx.Create(&row).Error; err != nil {
			return translate(err, "record substitution")
		}
		return db.touchTournament(tx, tid)
	})
	db.facts.drop(tid)
	return err
}

// ListSubstitutions lists a tournament's substitutions by entrant and round.
func (db *DB) ListSubstitutions(ctx context.Context, tid string) ([]domain.Substitution, error) {
	var rows []substitutionRow
	if err := db.gorm.WithContext(ctx).Where("tournament_id = ?", tid).Order("entrant_id, from_round, out_membership").Find(&rows).Error; err != nil {
		return nil, translate(err, "list substitutions")
	}
	out := make([]domain.Substitution, len(rows))
	for i, r := range rows {
		out[i] = domain.Substitution{Entrant: r.EntrantID, FromRound: r.FromRound, Out: r.OutMembership,
			In: domain.Player{Name: r.InName, Membership: r.InMembership}, Reason: r.Reason}
	}
	return out, nil
}

func substitutionToRow(tid string, s domain.Substitution, at instant) substitutionRow {
	return substitutionRow{TournamentID: tid, EntrantID: s.Entrant, FromRound: s.FromRound, OutMembership: s.Out,
		InName: s.In.Name, InMembership: s.In.Membership, Reason: s.Reason, CreatedAt: at}
}
