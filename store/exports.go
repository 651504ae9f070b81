package store

import (
	"context"
	"iter"
	"time"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// Reads for the federation exports (API §6). Both are iterators over pages
// read by keyset (the last key read is where the next page starts): memory
// stays flat however large the tournament or the season, and no connection
// or cursor is held between pages, so the caller may run other queries
// while it ranges (the season export computes each tournament's standings
// in the middle of the list; an SQLite ":memory:" database has a single
// connection). Each page is a consistent read; a row written between two
// pages appears if it sorts after the last key read.

// exportPageSize is how many rows one page reads: large enough that the
// round trips do not dominate (a 500-table round is 3 pages), small enough
// that a page of sheets with their hands stays a few hundred kilobytes.
const exportPageSize = 200

// SheetAt is a stored sheet with the round and table it is stored at (the
// sheet's own round/table header may be missing).
type SheetAt struct {
	Round int
	Table int
	StoredSheet
}

// EachSheet yields the tournament's stored sheets, each with its hands, in
// round then table order. An unknown tournament yields nothing. The first
// error ends the sequence.
func (db *DB) EachSheet(ctx context.Context, tournamentID string) iter.Seq2[SheetAt, error] {
	return db.eachSheet(ctx, tournamentID, exportPageSize)
}

func (db *DB) eachSheet(ctx context.Context, tournamentID string, pageSize int) iter.Seq2[SheetAt, error] {
	return func(yield func(SheetAt, error) bool) {
		lastRound, lastTable := 0, 0
		for {
			page, err := db.sheetPage(ctx, tournamentID, lastRound, lastTable, pageSize)
			if err != nil {
				yield(SheetAt{}, err)
				return
			}
			for _, s := range page {
				if !yield(s, nil) {
					return
				}
			}
			if len(page) < pageSize {
				return
			}
			last := page[len(page)-1]
			lastRound, lastTable = last.Round, last.Table
		}
	}
}

// sheetPage reads the sheets after (round, table) and their hands, in one
// snapshot so each sheet comes with the hands of its own version.
func (db *DB) sheetPage(ctx context.Context, tournamentID string, afterRound, afterTable, pageSize int) ([]SheetAt, error) {
	var out []SheetAt
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []sheetRow
		// Written without row values ((a, b) > (x, y)) so that any SQLite
		// build and PostgreSQL read it the same way; the primary-key-like
		// unique index (tournament_id, round_no, table_no) serves it.
		if err := tx.Where("tournament_id = ? AND (round_no > ? OR (round_no = ? AND table_no > ?))",
			tournamentID, afterRound, afterRound, afterTable).
			Order("round_no, table_no").Limit(pageSize).Find(&rows).Error; err != nil {
			return translate(err, "list sheets of tournament "+tournamentID)
		}
		if len(rows) == 0 {
			return nil
		}
		ids := make([]int64, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		var hands []handRow
		if err := tx.Where("sheet_id IN ?", ids).Order("sheet_id, position").Find(&hands).Error; err != nil {
			return translate(err, "list hands of tournament "+tournamentID)
		}
		bySheet := make(map[int64][]handRow, len(rows))
		for _, h := range hands {
			bySheet[h.SheetID] = append(bySheet[h.SheetID], h)
		}
		out = make([]SheetAt, 0, len(rows))
		for _, r := range rows {
			st, err := sheetToDomain(r, bySheet[r.ID])
			if err != nil {
				return err
			}
			out = append(out, SheetAt{Round: r.RoundNo, Table: r.TableNo, StoredSheet: st})
		}
		return nil
	}, db.snapshot())
	return out, err
}

// SeasonFilter selects the tournaments of a season export.
type SeasonFilter struct {
	// From and To are the first and last day of the season, both included
	// (calendar days; the time of day is ignored).
	From, To time.Time
	ClubID   string       // the organising club; "" for every club
	Level    domain.Level // "" for every level
}

// SeasonTournaments yields the tournaments played between f.From and f.To
// (both included) that match the filter, by date then id. A From after To
// is ErrInvalid. The first error ends the sequence.
func (db *DB) SeasonTournaments(ctx context.Context, f SeasonFilter) iter.Seq2[domain.Tournament, error] {
	return db.seasonTournaments(ctx, f, exportPageSize)
}

func (db *DB) seasonTournaments(ctx context.Context, f SeasonFilter, pageSize int) iter.Seq2[domain.Tournament, error] {
	return func(yield func(domain.Tournament, error) bool) {
		from, to := dayOf(f.From), dayOf(f.To)
		if from > to { // same layout, so text order is date order
			yield(domain.Tournament{}, errorf(domain.ErrInvalid, "season from %s to %s: the first day is after the last", from, to))
			return
		}
		var lastDay day
		lastID := ""
		for {
			q := db.gorm.WithContext(ctx).Where("play_date BETWEEN ? AND ?", from, to)
			if f.ClubID != "" {
				q = q.Where("club_id = ?", f.ClubID)
			}
			if f.Level != "" {
				q = q.Where("level = ?", string(f.Level))
			}
			if lastID != "" {
				q = q.Where("(play_date > ? OR (play_date = ? AND id > ?))", lastDay, lastDay, lastID)
			}
			var rows []tournamentRow
			if err := q.Order("play_date, id").Limit(pageSize).Find(&rows).Error; err != nil {
				yield(domain.Tournament{}, translate(err, "list the tournaments of the season"))
				return
			}
			for _, r := range rows {
				t, err := r.toDomain()
				if err != nil {
					yield(domain.Tournament{}, err)
					return
				}
				if !yield(t, nil) {
					return
				}
			}
			if len(rows) < pageSize {
				return
			}
			lastDay, lastID = rows[len(rows)-1].PlayDate, rows[len(rows)-1].ID
		}
	}
}
