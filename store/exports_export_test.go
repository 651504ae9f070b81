package store

import (
	"context"
	"iter"

	"segnapunti/domain"
)

// EachSheetPaged and SeasonTournamentsPaged are EachSheet and
// SeasonTournaments with a chosen page size, so tests cross page
// boundaries with a handful of rows.
func EachSheetPaged(ctx context.Context, db *DB, tournamentID string, pageSize int) iter.Seq2[SheetAt, error] {
	return db.eachSheet(ctx, tournamentID, pageSize)
}

func SeasonTournamentsPaged(ctx context.Context, db *DB, f SeasonFilter, pageSize int) iter.Seq2[domain.Tournament, error] {
	return db.seasonTournaments(ctx, f, pageSize)
}
