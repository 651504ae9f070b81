package store

import (
	"context"
	"math"
)

// maxRoundTables bounds one round's tables (app.MaxTables).
const maxRoundTables = 1000

// RoundSheets reads the stored sheets of one round, with their hands, by
// table (the round page's table states).
func (db *DB) RoundSheets(ctx context.Context, tournamentID string, round int) ([]SheetAt, error) {
	// The page after (round-1, +inf) starts at round's first table; one
	// page holds every table of a round.
	page, err := db.sheetPage(ctx, tournamentID, round-1, math.MaxInt32, maxRoundTables+1)
	if err != nil {
		return nil, err
	}
	out := page[:0]
	for _, s := range page {
		if s.Round == round {
			out = append(out, s)
		}
	}
	return out, nil
}
