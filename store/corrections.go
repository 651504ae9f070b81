package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// Corrections (RULES §9): every correction request a referee makes on a
// delivered sheet is recorded with its ruling — applied or rejected — in an
// append-only trail (the tables refuse UPDATE and DELETE, 00002_audit.sql).

// Correction is one entry of a tournament's correction trail.
type Correction struct {
	ID    int64
	Round int
	Table int
	Kind  domain.CorrectionKind
	// Ruling, Rules and RulingReason are domain.Decide's answer.
	Ruling       domain.Ruling
	Rules        []string
	RulingReason string
	// Reason is the referee's own words (API §4.1 "reason").
	Reason string
	// Applied: the sheet was changed. A rejected request is recorded with
	// Applied false.
	Applied bool
	// Situation is what the ruling was made on.
	Situation domain.CorrectionSituation
	// Before and After are JSON documents holding the parts of the sheet
	// the request changes ({"written": ...} and/or {"hands": ...}): as
	// stored, and as corrected (for a rejected request, as it was asked).
	Before json.RawMessage
	After  json.RawMessage
	// SheetVersion is the sheet's version after an applied correction, or
	// the version the request was ruled on.
	SheetVersion int
	Author       string
	At           time.Time
}

// CorrectionOutcome is what the caller of CorrectSheet decided for the
// sheet it was shown.
type CorrectionOutcome struct {
	// Correction is the entry to record; ID, SheetVersion, Applied and At
	// are filled by CorrectSheet.
	Correction Correction
	// Sheet is the corrected sheet when the ruling applies it, nil when the
	// request is rejected; ReportJSON is its validation report.
	Sheet      *domain.Sheet
	ReportJSON []byte
}

// StaleSheetError is the answer to a correction (or any write) made with a
// version the sheet no longer has: someone else changed it first. It wraps
// domain.ErrConflict and says which version is stored now.
type StaleSheetError struct {
	What    string
	Want    int
	Current int
}

func (e *StaleSheetError) Error() string {
	return fmt.Sprintf("%s: %s: version %d expected, stored is %d", domain.ErrConflict, e.What, e.Want, e.Current)
}

func (e *StaleSheetError) Unwrap() error { return domain.ErrConflict }

// CorrectSheet rules on a correction request for the sheet of (round,
// table) and records it, in one transaction under the sheet's row lock:
// decide is shown the stored sheet and returns the entry to record and, when
// the ruling applies, the corrected sheet; the sheet is then replaced (its
// version + 1, the report stored with it) and the entry appended. Two
// referees correcting the same sheet at once are serialised by the lock:
// with ifVersion > 0 the second finds another version and gets a
// *StaleSheetError (nothing written), so no correction is ever lost. No
// sheet is ErrNotFound; an error from decide is returned as it is and
// nothing is written.
func (db *DB) CorrectSheet(ctx context.Context, tournamentID string, round, table, ifVersion int, decide func(StoredSheet) (CorrectionOutcome, error)) (Correction, error) {
	key := sheetKey{tournamentID, round, table}
	if ifVersion < 0 {
		return Correction{}, errorf(domain.ErrInvalid, "sheet of %s: version %d is negative", key, ifVersion)
	}
	var out Correction
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		st, sheetID, err := loadSheet(tx, key, true)
		if err != nil {
			return err
		}
		if ifVersion > 0 && st.Version != ifVersion {
			return &StaleSheetError{What: "sheet of " + key.String(), Want: ifVersion, Current: st.Version}
		}
		oc, err := decide(st)
		if err != nil {
			return err
		}
		c := oc.Correction
		c.Round, c.Table = round, table
		c.Applied = oc.Sheet != nil
		c.SheetVersion = st.Version
		c.At = db.stamp()
		if c.Applied != c.Ruling.Applies() {
			return fmt.Errorf("correct sheet of %s: ruling %s with applied=%t", key, c.Ruling, c.Applied)
		}
		if c.Applied {
			row, hands, err := sheetToRow(*oc.Sheet, oc.ReportJSON, instant(c.At))
			if err != nil {
				return fmt.Errorf("sheet of %s: %w", key, err)
			}
			if err := db.saveVersion(tx, key, Replacement{Source: SourceCorrection, By: c.Author}, instant(c.At)); err != nil {
				return err
			}
			// Under the row lock the version cannot have moved; the
			// compare-and-set stays as the last guard against a lost update.
			if err := replaceSheet(tx, key, &row, st.Version); err != nil {
				return err
			}
			if err := tx.Where("sheet_id = ?", sheetID).Delete(&handRow{}).Error; err != nil {
				return translate(err, "replace hands of sheet of "+key.String())
			}
			if err := insertHands(tx, key, sheetID, hands); err != nil {
				return err
			}
			// The corrected written figures are the new official result.
			if err := putResult(tx, sheetID, key, row.Version, *oc.Sheet); err != nil {
				return err
			}
			c.SheetVersion = row.Version
		}
		cr, err := correctionToRow(tournamentID, c)
		if err != nil {
			return err
		}
		if err := tx.Create(&cr).Error; err != nil {
			return translate(err, "record correction of "+key.String())
		}
		c.ID = cr.ID
		out = c
		return nil
	})
	if err != nil {
		var stale *StaleSheetError
		if errors.As(err, &stale) {
			return Correction{}, stale
		}
		return Correction{}, sheetError(err, key)
	}
	return out, nil
}

// CorrectionFilter narrows ListCorrections to one sheet; zero values do not
// filter.
type CorrectionFilter struct {
	Round int
	Table int
}

// ListCorrections returns the tournament's correction trail, oldest first.
// An unknown tournament is ErrNotFound.
func (db *DB) ListCorrections(ctx context.Context, tournamentID string, f CorrectionFilter) ([]Correction, error) {
	if err := tournamentExists(ctx, db.gorm, tournamentID); err != nil {
		return nil, err
	}
	q := db.gorm.WithContext(ctx).Where("tournament_id = ?", tournamentID)
	if f.Round > 0 {
		q = q.Where("round_no = ?", f.Round)
	}
	if f.Table > 0 {
		q = q.Where("table_no = ?", f.Table)
	}
	var rows []correctionRow
	if err := q.Order("id").Find(&rows).Error; err != nil {
		return nil, translate(err, "list corrections")
	}
	out := make([]Correction, 0, len(rows))
	for _, r := range rows {
		c, err := r.toDomain()
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// GetCorrection returns one entry of the tournament's trail; unknown is
// ErrNotFound.
func (db *DB) GetCorrection(ctx context.Context, tournamentID string, id int64) (Correction, error) {
	var row correctionRow
	err := db.gorm.WithContext(ctx).Where("tournament_id = ? AND id = ?", tournamentID, id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Correction{}, errorf(domain.ErrNotFound, "correction %d of tournament %s", id, tournamentID)
	}
	if err != nil {
		return Correction{}, translate(err, "get correction")
	}
	return row.toDomain()
}

// correctionRow mirrors the corrections table (00002_audit.sql,
// 00004_corrections_adjustments.sql).
type correctionRow struct {
	ID           int64   `gorm:"column:id;primaryKey"`
	TournamentID string  `gorm:"column:tournament_id"`
	RoundNo      int     `gorm:"column:round_no"`
	TableNo      int     `gorm:"column:table_no"`
	Kind         string  `gorm:"column:kind"`
	Ruling       string  `gorm:"column:ruling"`
	Rules        string  `gorm:"column:rules"`
	Reason       string  `gorm:"column:reason"`
	RulingReason string  `gorm:"column:ruling_reason"`
	Applied      bool    `gorm:"column:applied"`
	Situation    *string `gorm:"column:situation"`
	Before       *string `gorm:"column:before_json"`
	After        *string `gorm:"column:after_json"`
	SheetVersion *int    `gorm:"column:sheet_version"`
	Author       string  `gorm:"column:author"`
	Created      instant `gorm:"column:created_at"`
}

func (correctionRow) TableName() string { return "corrections" }

// situationJSON is the stored form of a domain.CorrectionSituation, with
// the field names of POST /v1/rulings (API §4).
type situationJSON struct {
	Ruleset              string `json:"ruleset"`
	Kind                 string `json:"kind"`
	Level                string `json:"level"`
	Phase                string `json:"phase"`
	ErrorRound           int    `json:"error_round"`
	CurrentRound         int    `json:"current_round"`
	CurrentRoundStarted  bool   `json:"current_round_started"`
	TournamentClosed     bool   `json:"tournament_closed"`
	StandingsPublished   bool   `json:"standings_published"`
	StandingsContested   bool   `json:"standings_contested"`
	PositionsPublished   bool   `json:"positions_published"`
	BothLinesAcknowledge bool   `json:"both_lines_acknowledge"`
	RefereeCountersigned bool   `json:"referee_countersigned"`
}

func correctionToRow(tournamentID string, c Correction) (correctionRow, error) {
	rules := c.Rules
	if rules == nil {
		rules = []string{}
	}
	rulesJSON, err := json.Marshal(rules)
	if err != nil {
		return correctionRow{}, err
	}
	s := c.Situation
	sit, err := json.Marshal(situationJSON{
		Ruleset: string(s.Ruleset), Kind: string(s.Kind), Level: string(s.Level), Phase: string(s.Phase),
		ErrorRound: s.ErrorRound, CurrentRound: s.CurrentRound, CurrentRoundStarted: s.CurrentRoundStarted,
		TournamentClosed: s.TournamentClosed, StandingsPublished: s.StandingsPublished, StandingsContested: s.StandingsContested,
		PositionsPublished: s.PositionsPublished, BothLinesAcknowledge: s.BothLinesAcknowledge, RefereeCountersigned: s.RefereeCountersigned,
	})
	if err != nil {
		return correctionRow{}, err
	}
	for _, doc := range []json.RawMessage{c.Before, c.After} {
		if len(doc) > 0 && !json.Valid(doc) {
			return correctionRow{}, errorf(domain.ErrInvalid, "correction: before/after is not JSON")
		}
	}
	return correctionRow{
		TournamentID: tournamentID,
		RoundNo:      c.Round,
		TableNo:      c.Table,
		Kind:         string(c.Kind),
		Ruling:       string(c.Ruling),
		Rules:        string(rulesJSON),
		Reason:       c.Reason,
		RulingReason: c.RulingReason,
		Applied:      c.Applied,
		Situation:    new(string(sit)),
		Before:       rawToColumn(c.Before),
		After:        rawToColumn(c.After),
		SheetVersion: new(c.SheetVersion),
		Author:       c.Author,
		Created:      instant(c.At),
	}, nil
}

func rawToColumn(doc json.RawMessage) *string {
	if len(doc) == 0 {
		return nil
	}
	return new(string(doc))
}

func columnToRaw(s *string) json.RawMessage {
	if s == nil {
		return nil
	}
	return json.RawMessage(*s)
}

func (r correctionRow) toDomain() (Correction, error) {
	fail := func(err error) (Correction, error) {
		return Correction{}, fmt.Errorf("stored correction %d of tournament %s: %w", r.ID, r.TournamentID, err)
	}
	c := Correction{
		ID: r.ID, Round: r.RoundNo, Table: r.TableNo,
		Kind: domain.CorrectionKind(r.Kind), Ruling: domain.Ruling(r.Ruling),
		Reason: r.Reason, RulingReason: r.RulingReason, Applied: r.Applied,
		Before: columnToRaw(r.Before), After: columnToRaw(r.After),
		Author: r.Author, At: r.Created.time(),
	}
	if err := json.Unmarshal([]byte(r.Rules), &c.Rules); err != nil {
		return fail(fmt.Errorf("rules: %w", err))
	}
	if r.SheetVersion != nil {
		c.SheetVersion = *r.SheetVersion
	}
	if r.Situation != nil {
		var s situationJSON
		if err := json.Unmarshal([]byte(*r.Situation), &s); err != nil {
			return fail(fmt.Errorf("situation: %w", err))
		}
		c.Situation = domain.CorrectionSituation{
			Ruleset: domain.Ruleset(s.Ruleset), Kind: domain.CorrectionKind(s.Kind), Level: domain.Level(s.Level), Phase: domain.Phase(s.Phase),
			ErrorRound: s.ErrorRound, CurrentRound: s.CurrentRound, CurrentRoundStarted: s.CurrentRoundStarted,
			TournamentClosed: s.TournamentClosed, StandingsPublished: s.StandingsPublished, StandingsContested: s.StandingsContested,
			PositionsPublished: s.PositionsPublished, BothLinesAcknowledge: s.BothLinesAcknowledge, RefereeCountersigned: s.RefereeCountersigned,
		}
	}
	return c, nil
}
