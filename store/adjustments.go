package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"segnapunti/domain"
)

// Referee adjustments (RULES §7): what a referee sets outside the hands the
// players wrote — warnings, byes, lateness, abandonments, referee scores.
// Each records who made it, when and why, with the inputs its effect was
// computed from and the effect itself.

// Adjustment is one stored referee adjustment.
type Adjustment struct {
	ID      int64
	Entrant string
	Round   int // 0: not tied to a round
	// Case is what the effect was computed from (reason, party, ruleset,
	// hands, the warnings and byes the entrant had before, ...).
	Case domain.AdjustmentCase
	// Effect is Case.Effect() as computed when the adjustment was made.
	Effect domain.AdjustmentEffect
	Author string
	At     time.Time
}

// Score is the VP and MP the adjustment adds to the entrant's standings —
// the result it puts in place of a match plus any penalty — and whether it
// adds anything at all.
func (a Adjustment) Score() (domain.MatchScore, bool) {
	var s domain.MatchScore
	has := false
	if r := a.Effect.Result; r != nil {
		s.VP += r.VP
		s.MP += r.MP
		has = true
	}
	if d := a.Effect.Delta; d != (domain.MatchScore{}) {
		s.VP += d.VP
		s.MP += d.MP
		has = true
	}
	return s, has
}

// EntrantRecord is what the service knows of an entrant before a new
// adjustment: its earlier adjustments (oldest first) and the rounds whose
// byes list it.
type EntrantRecord struct {
	Adjustments []Adjustment
	ByeRounds   []int
}

// AddAdjustment records an adjustment for an entrant of the tournament. In
// one transaction, holding the tournament's row lock (so two adjustments of
// the same tournament are made one after the other and each sees the
// other's warnings), it reads the entrant's record and calls build, which
// returns the adjustment to store (its ID and At are filled here). An
// unknown tournament is ErrNotFound; an error from build is returned as it
// is and nothing is written.
func (db *DB) AddAdjustment(ctx context.Context, tournamentID, entrant string, build func(EntrantRecord) (Adjustment, error)) (Adjustment, error) {
	var out Adjustment
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockForAdjustments(tx, tournamentID); err != nil {
			return err
		}
		var err error
		out, err = db.addAdjustmentTx(tx, tournamentID, entrant, build)
		return err
	})
	if err != nil {
		return Adjustment{}, adjustmentError(err, entrant, tournamentID)
	}
	return out, nil
}

// lockForAdjustments serialises adjustment writers of one tournament.
// FOR NO KEY UPDATE: without blocking the foreign-key checks of other
// writers (SQLite: the immediate transaction already holds the database).
func lockForAdjustments(tx *gorm.DB, tournamentID string) error {
	var ids []string
	if err := tx.Model(&tournamentRow{}).Clauses(clause.Locking{Strength: "NO KEY UPDATE"}).
		Where("id = ?", tournamentID).Pluck("id", &ids).Error; err != nil {
		return translate(err, "lock tournament")
	}
	if len(ids) == 0 {
		return errorf(domain.ErrNotFound, "tournament %q", tournamentID)
	}
	return nil
}

func adjustmentError(err error, entrant, tournamentID string) error {
	if errors.Is(err, gorm.ErrForeignKeyViolated) {
		return errorf(domain.ErrInvalid, "adjustment of entrant %q: no such entrant or round in tournament %s", entrant, tournamentID)
	}
	return translate(err, "add adjustment")
}

// addAdjustmentTx is AddAdjustment inside tx, the tournament locked.
func (db *DB) addAdjustmentTx(tx *gorm.DB, tournamentID, entrant string, build func(EntrantRecord) (Adjustment, error)) (Adjustment, error) {
	// The entrant and round keys are checked only at commit (see the
	// migration), and an SQLite commit refused by a deferred key leaves
	// the transaction open on its connection: check them here.
	if err := rowExists(tx, &entrantRow{}, "tournament_id = ? AND id = ?", tournamentID, entrant); errors.Is(err, domain.ErrNotFound) {
		return Adjustment{}, errorf(domain.ErrInvalid, "entrant %q is not entered in tournament %s", entrant, tournamentID)
	} else if err != nil {
		return Adjustment{}, err
	}
	rec, err := entrantRecord(tx, tournamentID, entrant)
	if err != nil {
		return Adjustment{}, err
	}
	a, err := build(rec)
	if err != nil {
		return Adjustment{}, err
	}
	if a.Round > 0 {
		if err := rowExists(tx, &roundRow{}, "tournament_id = ? AND number = ?", tournamentID, a.Round); errors.Is(err, domain.ErrNotFound) {
			return Adjustment{}, errorf(domain.ErrInvalid, "tournament %s has no round %d", tournamentID, a.Round)
		} else if err != nil {
			return Adjustment{}, err
		}
	}
	a.Entrant = entrant
	a.At = db.stamp()
	row, err := adjustmentToRow(tournamentID, a)
	if err != nil {
		return Adjustment{}, err
	}
	if err := tx.Create(&row).Error; err != nil {
		return Adjustment{}, translate(err, "record adjustment")
	}
	a.ID = row.ID
	return a, nil
}

// rowExists fails with ErrNotFound when no row of model matches.
func rowExists(tx *gorm.DB, model any, where string, args ...any) error {
	var n int64
	if err := tx.Model(model).Where(where, args...).Count(&n).Error; err != nil {
		return translate(err, "find row")
	}
	if n == 0 {
		return domain.ErrNotFound
	}
	return nil
}

func entrantRecord(tx *gorm.DB, tournamentID, entrant string) (EntrantRecord, error) {
	var rows []adjustmentRow
	if err := tx.Where("tournament_id = ? AND entrant_id = ?", tournamentID, entrant).Order("id").Find(&rows).Error; err != nil {
		return EntrantRecord{}, translate(err, "list adjustments of entrant")
	}
	rec := EntrantRecord{Adjustments: make([]Adjustment, 0, len(rows))}
	for _, r := range rows {
		a, err := r.toDomain()
		if err != nil {
			return EntrantRecord{}, err
		}
		rec.Adjustments = append(rec.Adjustments, a)
	}
	if err := tx.Model(&roundByeRow{}).Where("tournament_id = ? AND entrant_id = ?", tournamentID, entrant).
		Order("round_no").Pluck("round_no", &rec.ByeRounds).Error; err != nil {
		return EntrantRecord{}, translate(err, "list byes of entrant")
	}
	return rec, nil
}

// ListAdjustments returns the tournament's adjustments, oldest first. An
// unknown tournament is ErrNotFound.
func (db *DB) ListAdjustments(ctx context.Context, tournamentID string) ([]Adjustment, error) {
	if err := tournamentExists(ctx, db.gorm, tournamentID); err != nil {
		return nil, err
	}
	var rows []adjustmentRow
	if err := db.gorm.WithContext(ctx).Where("tournament_id = ?", tournamentID).Order("id").Find(&rows).Error; err != nil {
		return nil, translate(err, "list adjustments")
	}
	out := make([]Adjustment, 0, len(rows))
	for _, r := range rows {
		a, err := r.toDomain()
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// adjustmentRow mirrors the adjustments table (00002_audit.sql,
// 00004_corrections_adjustments.sql).
type adjustmentRow struct {
	ID           int64   `gorm:"column:id;primaryKey"`
	TournamentID string  `gorm:"column:tournament_id"`
	EntrantID    string  `gorm:"column:entrant_id"`
	RoundNo      *int    `gorm:"column:round_no"`
	Reason       string  `gorm:"column:reason"`
	Party        string  `gorm:"column:party"`
	VP           *int    `gorm:"column:vp"`
	MP           *int    `gorm:"column:mp"`
	Note         string  `gorm:"column:note"`
	Details      *string `gorm:"column:details"`
	Author       string  `gorm:"column:author"`
	Created      instant `gorm:"column:created_at"`
}

func (adjustmentRow) TableName() string { return "adjustments" }

// scoreJSON is a domain.MatchScore as stored.
type scoreJSON struct {
	VP int `json:"vp"`
	MP int `json:"mp"`
}

func scoreToJSON(s *domain.MatchScore) *scoreJSON {
	if s == nil {
		return nil
	}
	return &scoreJSON{VP: s.VP, MP: s.MP}
}

func (s *scoreJSON) toDomain() *domain.MatchScore {
	if s == nil {
		return nil
	}
	return &domain.MatchScore{VP: s.VP, MP: s.MP}
}

// adjustmentDetails is the details column: the inputs of the case that
// are not columns of their own, and the effect.
type adjustmentDetails struct {
	Ruleset        string     `json:"ruleset"`
	Kind           string     `json:"kind"`
	HandsPlanned   int        `json:"hands_planned"`
	Phase          string     `json:"phase,omitempty"`
	WarningsBefore int        `json:"warnings_before"`
	ByesBefore     int        `json:"byes_before"`
	LateRound      int        `json:"late_round,omitempty"`
	Played         *scoreJSON `json:"played,omitempty"`
	AtInterruption *scoreJSON `json:"at_interruption,omitempty"`
	Advantage      bool       `json:"advantage,omitempty"`
	Referee        *scoreJSON `json:"referee,omitempty"`
	Effect         effectJSON `json:"effect"`
}

type effectJSON struct {
	Result     *scoreJSON `json:"result,omitempty"`
	Bye        bool       `json:"bye,omitempty"`
	Awarded    bool       `json:"awarded,omitempty"`
	Delta      scoreJSON  `json:"delta"`
	LatePoints int        `json:"late_points,omitempty"`
	Warning    bool       `json:"warning,omitempty"`
	Flags      []string   `json:"flags,omitempty"`
	Rules      []string   `json:"rules"`
	Reason     string     `json:"reason"`
}

func adjustmentToRow(tournamentID string, a Adjustment) (adjustmentRow, error) {
	c, e := a.Case, a.Effect
	d := adjustmentDetails{
		Ruleset: string(c.Ruleset), Kind: string(c.Kind), HandsPlanned: c.HandsPlanned, Phase: string(c.Phase),
		WarningsBefore: c.WarningsBefore, ByesBefore: c.ByesBefore, LateRound: c.LateRound,
		Played: scoreToJSON(c.Played), AtInterruption: scoreToJSON(c.AtInterruption), Advantage: c.Advantage,
		Referee: scoreToJSON(c.Referee),
		Effect: effectJSON{
			Result: scoreToJSON(e.Result), Bye: e.Bye, Awarded: e.Awarded,
			Delta:      scoreJSON{VP: e.Delta.VP, MP: e.Delta.MP},
			LatePoints: e.LatePoints, Warning: e.Warning, Rules: e.Rules, Reason: e.Reason,
		},
	}
	if d.Effect.Rules == nil {
		d.Effect.Rules = []string{}
	}
	for _, f := range e.Flags {
		d.Effect.Flags = append(d.Effect.Flags, string(f))
	}
	details, err := json.Marshal(d)
	if err != nil {
		return adjustmentRow{}, err
	}
	row := adjustmentRow{
		TournamentID: tournamentID,
		EntrantID:    a.Entrant,
		Reason:       string(c.Reason),
		Party:        string(c.Party),
		Note:         c.Note,
		Details:      new(string(details)),
		Author:       a.Author,
		Created:      instant(a.At),
	}
	if a.Round > 0 {
		row.RoundNo = new(a.Round)
	}
	if s, ok := a.Score(); ok {
		row.VP, row.MP = new(s.VP), new(s.MP)
	}
	return row, nil
}

func (r adjustmentRow) toDomain() (Adjustment, error) {
	a := Adjustment{ID: r.ID, Entrant: r.EntrantID, Author: r.Author, At: r.Created.time()}
	if r.RoundNo != nil {
		a.Round = *r.RoundNo
	}
	a.Case = domain.AdjustmentCase{Reason: domain.AdjustmentReason(r.Reason), Party: domain.Party(r.Party), Note: r.Note}
	if r.Details == nil {
		// Written without details (by hand, or before 00004): the stored
		// VP and MP are all there is; they count as a penalty.
		if r.VP != nil && r.MP != nil {
			a.Effect.Delta = domain.MatchScore{VP: *r.VP, MP: *r.MP}
		}
		return a, nil
	}
	var d adjustmentDetails
	if err := json.Unmarshal([]byte(*r.Details), &d); err != nil {
		return Adjustment{}, fmt.Errorf("stored adjustment %d of tournament %s: details: %w", r.ID, r.TournamentID, err)
	}
	a.Case.Ruleset, a.Case.Kind, a.Case.HandsPlanned, a.Case.Phase = domain.Ruleset(d.Ruleset), domain.Kind(d.Kind), d.HandsPlanned, domain.Phase(d.Phase)
	a.Case.WarningsBefore, a.Case.ByesBefore, a.Case.LateRound = d.WarningsBefore, d.ByesBefore, d.LateRound
	a.Case.Played, a.Case.AtInterruption, a.Case.Advantage = d.Played.toDomain(), d.AtInterruption.toDomain(), d.Advantage
	a.Case.Referee = d.Referee.toDomain()
	e := d.Effect
	a.Effect = domain.AdjustmentEffect{
		Result: e.Result.toDomain(), Bye: e.Bye, Awarded: e.Awarded,
		Delta:      domain.MatchScore{VP: e.Delta.VP, MP: e.Delta.MP},
		LatePoints: e.LatePoints, Warning: e.Warning, Rules: e.Rules, Reason: e.Reason,
	}
	for _, f := range e.Flags {
		a.Effect.Flags = append(a.Effect.Flags, domain.AdjustmentFlag(f))
	}
	return a, nil
}
