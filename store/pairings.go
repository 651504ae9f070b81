package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// Generated rounds (RULES §11, API §4.2; migration 00010). A proposal lives
// in proposed_rounds until it is published: only then is it a round of the
// tournament, so nothing (sheets, imports, corrections) can reach it before.

type proposedRoundRow struct {
	TournamentID string  `gorm:"column:tournament_id;primaryKey"`
	Number       int     `gorm:"column:number;primaryKey;autoIncrement:false"`
	HandsPlanned int     `gorm:"column:hands_planned"`
	Phase        string  `gorm:"column:phase"`
	System       string  `gorm:"column:system"`
	Seed         *string `gorm:"column:seed"`
	Seating      string  `gorm:"column:seating"`
	CreatedAt    instant `gorm:"column:created_at"`
	Groups       *string `gorm:"column:groups"`
	Vacated      *string `gorm:"column:vacated"`
}

func (proposedRoundRow) TableName() string { return "proposed_rounds" }

type seatingJSON struct {
	Tables []tableJSON `json:"tables"`
	Byes   []string    `json:"byes"`
}

type tableJSON struct {
	Table int    `json:"table"`
	NS    string `json:"ns"`
	EO    string `json:"eo"`
	// NS2 and EO2: an individual line's second player.
	NS2 string `json:"ns2,omitempty"`
	EO2 string `json:"eo2,omitempty"`
	// Match: a team table's match (RULES §12.5).
	Match int `json:"match,omitempty"`
}

// seedText writes a draw seed as decimal text (PostgreSQL has no unsigned
// 64-bit integer).
func seedText(s *uint64) *string {
	if s == nil {
		return nil
	}
	v := strconv.FormatUint(*s, 10)
	return &v
}

func seedValue(s *string) *uint64 {
	if s == nil {
		return nil
	}
	v, err := strconv.ParseUint(*s, 10, 64)
	if err != nil {
		return nil // the column is only written by seedText
	}
	return &v
}

func proposedToDomain(r proposedRoundRow) (domain.Round, error) {
	var s seatingJSON
	if err := json.Unmarshal([]byte(r.Seating), &s); err != nil {
		return domain.Round{}, fmt.Errorf("proposed round %d of tournament %s: seating unreadable: %w", r.Number, r.TournamentID, err)
	}
	out := domain.Round{Number: r.Number, HandsPlanned: r.HandsPlanned, Phase: domain.Phase(r.Phase), State: domain.RoundProposed,
		System: domain.PairingSystem(r.System), Seed: seedValue(r.Seed), Byes: s.Byes, Groups: groupsValue(r.Groups), Vacated: idsValue(r.Vacated)}
	for _, t := range s.Tables {
		out.Tables = append(out.Tables, domain.TableAssignment{Table: t.Table, NS: t.NS, EO: t.EO, NS2: t.NS2, EO2: t.EO2, Match: t.Match})
	}
	return out, nil
}

// ProposeRound stores a generated round that is not yet published,
// replacing an earlier proposal for the same number. A round with that
// number already published is ErrConflict (a published round is never
// changed silently); an unknown tournament is ErrNotFound; an entrant not
// entered is ErrInvalid.
func (db *DB) ProposeRound(ctx context.Context, tournamentID string, r domain.Round) error {
	s := seatingJSON{Tables: make([]tableJSON, len(r.Tables)), Byes: r.Byes}
	for i, t := range r.Tables {
		s.Tables[i] = tableJSON{Table: t.Table, NS: t.NS, EO: t.EO, NS2: t.NS2, EO2: t.EO2, Match: t.Match}
	}
	if s.Byes == nil {
		s.Byes = []string{}
	}
	body, err := json.Marshal(s)
	if err != nil {
		return errorf(domain.ErrInvalid, "round %d: %v", r.Number, err)
	}
	row := proposedRoundRow{TournamentID: tournamentID, Number: r.Number, HandsPlanned: r.HandsPlanned, Phase: string(r.Phase),
		System: string(r.System), Seed: seedText(r.Seed), Seating: string(body), CreatedAt: instant(db.stamp()), Groups: groupsText(r.Groups), Vacated: idsText(r.Vacated)}
	return db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tournamentExists(ctx, tx, tournamentID); err != nil {
			return err
		}
		if err := db.lockRound(tx, tournamentID, r.Number); err != nil {
			return err
		}
		if err := rowExists(tx, &roundRow{}, "tournament_id = ? AND number = ?", tournamentID, r.Number); err == nil {
			return errorf(domain.ErrConflict, "round %d of tournament %s is already published", r.Number, tournamentID)
		} else if !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		if err := entrantsEntered(tx, tournamentID, r); err != nil {
			return err
		}
		if err := tx.Where("tournament_id = ? AND number = ?", tournamentID, r.Number).Delete(&proposedRoundRow{}).Error; err != nil {
			return translate(err, "replace proposed round")
		}
		return translate(tx.Create(&row).Error, "store proposed round")
	})
}

// ProposedRound returns the proposal for round n (State proposed); none is
// ErrNotFound.
func (db *DB) ProposedRound(ctx context.Context, tournamentID string, n int) (domain.Round, error) {
	var row proposedRoundRow
	err := db.gorm.WithContext(ctx).Where("tournament_id = ? AND number = ?", tournamentID, n).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return domain.Round{}, errorf(domain.ErrNotFound, "no proposed round %d in tournament %s", n, tournamentID)
	}
	if err != nil {
		return domain.Round{}, translate(err, "get proposed round")
	}
	return proposedToDomain(row)
}

// ListProposedRounds returns the tournament's proposals by number.
func (db *DB) ListProposedRounds(ctx context.Context, tournamentID string) ([]domain.Round, error) {
	var rows []proposedRoundRow
	if err := db.gorm.WithContext(ctx).Where("tournament_id = ?", tournamentID).Order("number").Find(&rows).Error; err != nil {
		return nil, translate(err, "list proposed rounds")
	}
	out := make([]domain.Round, 0, len(rows))
	for _, r := range rows {
		d, err := proposedToDomain(r)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// PublishRound makes proposed round n a round of the tournament, state
// playing, in one transaction (RULES §10, §11): no proposal is
// ErrNotFound; a round n already published is ErrConflict.
func (db *DB) PublishRound(ctx context.Context, tournamentID string, n int) (domain.Round, error) {
	var out domain.Round
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := db.lockRound(tx, tournamentID, n); err != nil {
			return err
		}
		if err := rowExists(tx, &roundRow{}, "tournament_id = ? AND number = ?", tournamentID, n); err == nil {
			return errorf(domain.ErrConflict, "round %d of tournament %s is already published", n, tournamentID)
		} else if !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		var row proposedRoundRow
		err := tx.Where("tournament_id = ? AND number = ?", tournamentID, n).Take(&row).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return errorf(domain.ErrNotFound, "no proposed round %d in tournament %s", n, tournamentID)
		}
		if err != nil {
			return translate(err, "get proposed round")
		}
		if out, err = proposedToDomain(row); err != nil {
			return err
		}
		out.State = domain.RoundPlaying
		if err := writeRound(tx, tournamentID, out, false); err != nil {
			return err
		}
		what := "publish round " + strconv.Itoa(n)
		if err := tx.Where("tournament_id = ? AND number = ?", tournamentID, n).Delete(&proposedRoundRow{}).Error; err != nil {
			return translate(err, what)
		}
		return db.touchTournament(tx, tournamentID)
	})
	db.facts.drop(tournamentID)
	return out, err
}
