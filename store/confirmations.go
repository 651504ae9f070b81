package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// The signatures of a sheet (FITAB art. 19, FIBur-INT art. 18: the sheet is
// signed by both lines; UI.md §6) and the players' call for the referee.

// ErrSheetConfirmed: a line has signed (ended) the sheet; it no longer takes
// hands or a new sheet from the club or the table (a referee's correction
// still changes it, RULES §9).
var ErrSheetConfirmed = fmt.Errorf("%w: the sheet has been signed", domain.ErrConflict)

// ErrOwnLine: the line that ended (scored) the sheet tries to confirm it;
// only the other line confirms (FITAB art. 19). A kind of ErrConflict.
var ErrOwnLine = fmt.Errorf("%w: the line that ended the sheet cannot confirm it", domain.ErrConflict)

// ErrNotEnded: a confirmation that does not say which line scored needs
// the scoring line's own signature (the end) first. A kind of ErrConflict.
var ErrNotEnded = fmt.Errorf("%w: the scoring line has not ended the sheet", domain.ErrConflict)

// Confirmation is one line's signature of a sheet.
type Confirmation struct {
	Line domain.Line
	// Kind: SignEnd for the scorer's line, which ended the sheet,
	// SignConfirm for the other line's confirmation, which delivered it.
	Kind SignatureKind
	// SignedBy is the line whose own act stored this signature: Line when
	// that line signed at At, the other line when its confirmation alone
	// ended and delivered the sheet (then Line has no time of its own).
	SignedBy domain.Line
	Entrant  string
	Via      string // "table" (the table's entry link) or the signed-in name
	At       time.Time
}

// SignatureKind says which of a sheet's two signatures a Confirmation is.
type SignatureKind string

const (
	SignEnd     SignatureKind = "end"
	SignConfirm SignatureKind = "confirm"
)

// Signed reports whether the line signed itself, at At; false for the
// scorer's line of a sheet that the other line's confirmation alone ended
// and delivered (UI.md §6: no separate end), whose only time is that of
// the confirmation.
func (c Confirmation) Signed() bool { return c.SignedBy == c.Line }

type confirmationRow struct {
	TournamentID string  `gorm:"column:tournament_id;primaryKey"`
	RoundNo      int     `gorm:"column:round_no;primaryKey"`
	TableNo      int     `gorm:"column:table_no;primaryKey"`
	Line         string  `gorm:"column:line;primaryKey"`
	Entrant      string  `gorm:"column:entrant"`
	Via          string  `gorm:"column:via"`
	At           instant `gorm:"column:confirmed_at"`
	Kind         string  `gorm:"column:kind"`
	SignedBy     string  `gorm:"column:signed_by"`
}

func (confirmationRow) TableName() string { return "sheet_confirmations" }

func (r confirmationRow) toDomain() Confirmation {
	line := func(s string) domain.Line {
		if s == domain.EO.String() {
			return domain.EO
		}
		return domain.NS
	}
	return Confirmation{Line: line(r.Line), Kind: SignatureKind(r.Kind), SignedBy: line(r.SignedBy), Entrant: r.Entrant, Via: r.Via, At: r.At.time()}
}

func toConfirmationRow(key sheetKey, c Confirmation, at instant) confirmationRow {
	return confirmationRow{TournamentID: key.tournament, RoundNo: key.round, TableNo: key.table, Line: c.Line.String(),
		Entrant: c.Entrant, Via: c.Via, At: at, Kind: string(c.Kind), SignedBy: c.SignedBy.String()}
}

// signatureOrder lists a sheet's signatures oldest first, the end before
// the confirmation stored with it.
const signatureOrder = "confirmed_at, CASE kind WHEN 'end' THEN 0 ELSE 1 END, line"

// checkNotConfirmed refuses a write to a signed sheet.
func checkNotConfirmed(tx *gorm.DB, key sheetKey) error {
	var n int64
	if err := tx.Model(&confirmationRow{}).Where("tournament_id = ? AND round_no = ? AND table_no = ?", key.tournament, key.round, key.table).Count(&n).Error; err != nil {
		return translate(err, "check signatures")
	}
	if n > 0 {
		return fmt.Errorf("%w: sheet of %s", ErrSheetConfirmed, key)
	}
	return nil
}

// The signatures are two rows per delivered sheet: the scorer's line that
// ended it and the other line that confirmed it (API §4.2, UI.md §6). One
// row is a sheet ended by its scorer's line and not yet confirmed; two rows
// are a confirmed, delivered sheet.

// EndSheet stores the scorer's line's signature that ends a table's sheet
// (UI.md §6, the optional step before the other line confirms), under the
// sheet's locks after check accepted the stored sheet. A sheet ended or
// confirmed already is ErrConflict; no sheet is ErrNotFound.
func (db *DB) EndSheet(ctx context.Context, tournamentID string, round, table int, c Confirmation, check func(StoredSheet) error) ([]Confirmation, error) {
	return db.sign(ctx, sheetKey{tournamentID, round, table}, check, func(have []Confirmation) ([]Confirmation, error) {
		if len(have) > 0 {
			return nil, errorf(domain.ErrConflict, "line %s ended the sheet already", have[0].Line)
		}
		c.Kind, c.SignedBy = SignEnd, c.Line
		return []Confirmation{c}, nil
	})
}

// ConfirmSheet stores the other line's confirmation, which ends and
// delivers a table's sheet (API §4.2): c is the confirming line; when the
// sheet was not ended, scorer (the other line, its entrant and via) is
// stored as the line that ended it, signed by c's line (it has no time of
// its own: Confirmation.Signed is false) — or, scorer nil, the
// confirmation is refused with ErrNotEnded (the caller cannot tell which
// line scored). Under the sheet's locks, after check accepted the stored
// sheet (so no hand lands between the check and the signature). A sheet
// confirmed already is ErrConflict, one ended by c's own line ErrOwnLine;
// no sheet is ErrNotFound. It returns all the sheet's signatures, the
// confirmation last.
func (db *DB) ConfirmSheet(ctx context.Context, tournamentID string, round, table int, c Confirmation, scorer *Confirmation, check func(StoredSheet) error) ([]Confirmation, error) {
	c.Kind, c.SignedBy = SignConfirm, c.Line
	return db.sign(ctx, sheetKey{tournamentID, round, table}, check, func(have []Confirmation) ([]Confirmation, error) {
		switch {
		case len(have) >= 2:
			return nil, errorf(domain.ErrConflict, "the sheet has been confirmed already")
		case len(have) == 1 && have[0].Line == c.Line:
			return nil, fmt.Errorf("%w: line %s", ErrOwnLine, c.Line)
		case len(have) == 1:
			return []Confirmation{c}, nil
		case scorer == nil:
			return nil, ErrNotEnded
		}
		s := *scorer
		s.Kind, s.SignedBy = SignEnd, c.Line
		return []Confirmation{s, c}, nil
	})
}

// sign stores the signatures add decides from those already given, all at
// one time, in one transaction under the sheet's locks.
func (db *DB) sign(ctx context.Context, key sheetKey, check func(StoredSheet) error, add func([]Confirmation) ([]Confirmation, error)) ([]Confirmation, error) {
	var out []Confirmation
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := checkRoundOpen(tx, key); err != nil {
			return err
		}
		if err := db.lockSheet(tx, key); err != nil {
			return err
		}
		st, _, err := loadSheet(tx, key, true)
		if err != nil {
			return err
		}
		have, err := confirmations(tx, key)
		if err != nil {
			return err
		}
		list, err := add(have)
		if err != nil {
			return err
		}
		if err := check(st); err != nil {
			return err
		}
		at := instant(db.stamp())
		out = have
		for _, c := range list {
			row := toConfirmationRow(key, c, at)
			if err := tx.Create(&row).Error; err != nil {
				return translate(err, "store signature")
			}
			out = append(out, row.toDomain())
		}
		return nil
	})
	if err != nil {
		return nil, sheetError(err, key)
	}
	return out, nil
}

func confirmations(tx *gorm.DB, key sheetKey) ([]Confirmation, error) {
	var rows []confirmationRow
	if err := tx.Where("tournament_id = ? AND round_no = ? AND table_no = ?", key.tournament, key.round, key.table).
		Order(signatureOrder).Find(&rows).Error; err != nil {
		return nil, translate(err, "read signatures")
	}
	out := make([]Confirmation, len(rows))
	for i, r := range rows {
		out[i] = r.toDomain()
	}
	return out, nil
}

// SheetConfirmations returns the signatures of a table's sheet, oldest first.
func (db *DB) SheetConfirmations(ctx context.Context, tournamentID string, round, table int) ([]Confirmation, error) {
	return confirmations(db.readDB(ctx), sheetKey{tournamentID, round, table})
}

// RoundConfirmations returns the signatures of every table of a round.
func (db *DB) RoundConfirmations(ctx context.Context, tournamentID string, round int) (map[int][]Confirmation, error) {
	var rows []confirmationRow
	if err := db.readDB(ctx).Where("tournament_id = ? AND round_no = ?", tournamentID, round).
		Order("table_no, " + signatureOrder).Find(&rows).Error; err != nil {
		return nil, translate(err, "read signatures")
	}
	out := make(map[int][]Confirmation)
	for _, r := range rows {
		out[r.TableNo] = append(out[r.TableNo], r.toDomain())
	}
	return out, nil
}

// RefereeCall is a table's open call for the referee.
type RefereeCall struct {
	Round, Table int
	At           time.Time
}

type refereeCallRow struct {
	TournamentID string   `gorm:"column:tournament_id;primaryKey"`
	RoundNo      int      `gorm:"column:round_no;primaryKey"`
	TableNo      int      `gorm:"column:table_no;primaryKey"`
	Called       instant  `gorm:"column:called_at"`
	Answered     *instant `gorm:"column:answered_at"`
}

func (refereeCallRow) TableName() string { return "referee_calls" }

// CallReferee raises (or raises again) a table's call for the referee.
func (db *DB) CallReferee(ctx context.Context, tournamentID string, round, table int) error {
	now := instant(db.stamp())
	return db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&refereeCallRow{}).Where("tournament_id = ? AND round_no = ? AND table_no = ?", tournamentID, round, table).
			Updates(map[string]any{"called_at": now, "answered_at": nil})
		if res.Error != nil {
			return translate(res.Error, "call referee")
		}
		if res.RowsAffected > 0 {
			return nil
		}
		err := tx.Create(&refereeCallRow{TournamentID: tournamentID, RoundNo: round, TableNo: table, Called: now}).Error
		if errors.Is(err, gorm.ErrForeignKeyViolated) {
			return errorf(domain.ErrNotFound, "no table %d in round %d of tournament %s", table, round, tournamentID)
		}
		return translate(err, "call referee")
	})
}

// AnswerRefereeCall lowers a table's call.
func (db *DB) AnswerRefereeCall(ctx context.Context, tournamentID string, round, table int) error {
	err := db.gorm.WithContext(ctx).Model(&refereeCallRow{}).Where("tournament_id = ? AND round_no = ? AND table_no = ? AND answered_at IS NULL", tournamentID, round, table).
		Update("answered_at", instant(db.stamp())).Error
	return translate(err, "answer referee call")
}

// RefereeCalls returns a tournament's open calls, oldest first.
func (db *DB) RefereeCalls(ctx context.Context, tournamentID string) ([]RefereeCall, error) {
	var rows []refereeCallRow
	if err := db.readDB(ctx).Where("tournament_id = ? AND answered_at IS NULL", tournamentID).Order("called_at").Find(&rows).Error; err != nil {
		return nil, translate(err, "read referee calls")
	}
	out := make([]RefereeCall, len(rows))
	for i, r := range rows {
		out[i] = RefereeCall{Round: r.RoundNo, Table: r.TableNo, At: r.Called.time()}
	}
	return out, nil
}

// TournamentConfirmations returns the signatures of every sheet of a
// tournament, by round and table (the exports).
func (db *DB) TournamentConfirmations(ctx context.Context, tournamentID string) (map[[2]int][]Confirmation, error) {
	var rows []confirmationRow
	if err := db.readDB(ctx).Where("tournament_id = ?", tournamentID).
		Order("round_no, table_no, " + signatureOrder).Find(&rows).Error; err != nil {
		return nil, translate(err, "read signatures")
	}
	out := make(map[[2]int][]Confirmation)
	for _, r := range rows {
		k := [2]int{r.RoundNo, r.TableNo}
		out[k] = append(out[k], r.toDomain())
	}
	return out, nil
}

// ReopenEnded removes the scoring line's end signature of a sheet the other
// line has not confirmed (the scoring line fixes its last hand
// before the confirmation, and signs again afterwards). It reports whether
// there was one; a confirmed sheet is ErrSheetConfirmed, nothing removed.
func (db *DB) ReopenEnded(ctx context.Context, tournamentID string, round, table int) (bool, error) {
	key := sheetKey{tournamentID, round, table}
	removed := false
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := checkRoundOpen(tx, key); err != nil {
			return err
		}
		if err := db.lockSheet(tx, key); err != nil {
			return err
		}
		have, err := confirmations(tx, key)
		if err != nil {
			return err
		}
		for _, c := range have {
			if c.Kind == SignConfirm {
				return fmt.Errorf("%w: sheet of %s", ErrSheetConfirmed, key)
			}
		}
		if len(have) == 0 {
			return nil
		}
		res := tx.Where("tournament_id = ? AND round_no = ? AND table_no = ? AND kind = ?", key.tournament, key.round, key.table, string(SignEnd)).
			Delete(&confirmationRow{})
		if res.Error != nil {
			return translate(res.Error, "remove the end signature")
		}
		removed = res.RowsAffected > 0
		return nil
	})
	if err != nil {
		return false, sheetError(err, key)
	}
	return removed, nil
}
