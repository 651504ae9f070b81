package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// TournamentImport is a whole tournament to store at once: an open-format
// file read on another instance (API §4.4, POST /v1/tournaments/import).
type TournamentImport struct {
	Tournament  domain.Tournament // ID empty: a new id is chosen
	Entrants    []domain.Entrant
	Rounds      []domain.Round
	Sheets      []ImportedTournamentSheet
	Corrections []Correction
	Adjustments []Adjustment
	// Substitutions, Lineups (by round number) and PrizeCategories: RULES
	// §12.4, §12.5, issue 22. The plan, interruption, withdrawals, public
	// flag, groups and vacated entrants travel in Tournament, Entrants and
	// Rounds.
	Substitutions   []domain.Substitution
	Lineups         map[int][]domain.Lineup
	PrizeCategories []domain.PrizeCategory
}

// ImportedTournamentSheet is one sheet of an imported tournament with its
// report JSON (the validator's, computed by the caller) and signatures.
type ImportedTournamentSheet struct {
	Round, Table int
	Sheet        domain.Sheet
	ReportJSON   []byte
	Signatures   []Confirmation
	StoredAt     time.Time // when it was last stored where it comes from
}

// ImportTournament stores the whole tournament in one transaction: the
// tournament, its entrants, rounds (with their states, systems and
// seeds), sheets with their hands and results, signatures, corrections and
// adjustments, in the order given (so the ids of corrections and
// adjustments keep the file's order). Nothing is written when anything
// fails. An unknown club is ErrInvalid.
func (db *DB) ImportTournament(ctx context.Context, imp TournamentImport) (domain.Tournament, error) {
	t := imp.Tournament
	if t.ID == "" {
		t.ID = newID("t_")
	}
	now := instant(db.stamp())
	trow := tournamentToRow(t, now)
	var entrants []entrantRow
	var players []entrantPlayerRow
	for _, e := range imp.Entrants {
		er, pr := entrantToRows(t.ID, e)
		entrants = append(entrants, er)
		players = append(players, pr...)
	}
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&trow).Error; err != nil {
			if errors.Is(err, gorm.ErrForeignKeyViolated) {
				return errorf(domain.ErrInvalid, "club %q does not exist", t.ClubID)
			}
			return translate(err, "import tournament")
		}
		if len(entrants) > 0 {
			if err := tx.CreateInBatches(&entrants, 500).Error; err != nil {
				return translate(err, "import entrants")
			}
		}
		if len(players) > 0 {
			if err := tx.CreateInBatches(&players, 500).Error; err != nil {
				return translate(err, "import entrant players")
			}
		}
		if err := rememberPlayers(tx, t.ID, imp.Entrants); err != nil {
			return err
		}
		for _, r := range imp.Rounds {
			if err := writeRound(tx, t.ID, r, false); err != nil {
				return fmt.Errorf("import round %d: %w", r.Number, err)
			}
		}
		var results []matchResultRow
		for _, s := range imp.Sheets {
			key := sheetKey{t.ID, s.Round, s.Table}
			row, hands, err := sheetToRow(s.Sheet, s.ReportJSON, instant(s.StoredAt.UTC().Truncate(time.Microsecond)))
			if err != nil {
				return fmt.Errorf("sheet of %s: %w", key, err)
			}
			row.TournamentID, row.RoundNo, row.TableNo, row.Version = t.ID, s.Round, s.Table, 1
			if err := tx.Create(&row).Error; err != nil {
				return sheetError(err, key)
			}
			if err := insertHands(tx, key, row.ID, hands); err != nil {
				return err
			}
			results = append(results, resultToRow(row.ID, key, row.Version, s.Sheet))
			for _, c := range s.Signatures {
				cr := toConfirmationRow(key, c, instant(c.At))
				if err := tx.Create(&cr).Error; err != nil {
					return translate(err, "import signatures of sheet of "+key.String())
				}
			}
		}
		if err := putResults(tx, results); err != nil {
			return err
		}
		for _, c := range imp.Corrections {
			row, err := correctionToRow(t.ID, c)
			if err != nil {
				return err
			}
			if err := tx.Create(&row).Error; err != nil {
				return translate(err, "import correction")
			}
		}
		for _, a := range imp.Adjustments {
			row, err := adjustmentToRow(t.ID, a)
			if err != nil {
				return err
			}
			if err := tx.Create(&row).Error; err != nil {
				return translate(err, "import adjustment")
			}
		}
		if err := importTwelve(tx, t.ID, imp, now); err != nil {
			return err
		}
		return db.touchTournament(tx, t.ID)
	})
	db.facts.drop(t.ID)
	if err != nil {
		return domain.Tournament{}, err
	}
	return trow.toDomain()
}

// importTwelve stores an import's substitutions, line-ups and prize
// categories inside its transaction.
func importTwelve(tx *gorm.DB, tid string, imp TournamentImport, now instant) error {
	for _, s := range imp.Substitutions {
		row := substitutionToRow(tid, s, now)
		if err := tx.Create(&row).Error; err != nil {
			return translate(err, "import substitution")
		}
	}
	var lineups []lineupRow
	for _, round := range slices.Sorted(maps.Keys(imp.Lineups)) {
		for _, l := range imp.Lineups[round] {
			lineups = append(lineups, lineupRows(tid, round, l)...)
		}
	}
	if len(lineups) > 0 {
		if err := tx.CreateInBatches(&lineups, 500).Error; err != nil {
			return translate(err, "import line-ups")
		}
	}
	if len(imp.PrizeCategories) > 0 {
		rows := prizeCategoryRows(tid, imp.PrizeCategories)
		if err := tx.Create(&rows).Error; err != nil {
			return translate(err, "import prize categories")
		}
	}
	return nil
}
