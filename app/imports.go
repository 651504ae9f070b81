package app

import (
	"context"
	"errors"

	"segnapunti/domain"
	"segnapunti/store"
)

// Workbook imports (API §5). Who may upload and who may read a recorded
// upload is decided here; reading the workbook and planning the writes
// still live in package api (importWorkbook) — to be moved here.

// ImportTournament loads the tournament of an upload: the organising
// club, a referee of the tournament and an admin may upload; the
// federation reads but does not enter sheets.
func (a *App) ImportTournament(ctx context.Context, p Principal, tid string) (domain.Tournament, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return t, err
	}
	if !acc.Import() {
		return t, forbidden("only the organising club, a referee of the tournament or an admin uploads sheets")
	}
	return t, nil
}

// Import is a recorded upload, for whoever may read its tournament; to
// anyone else it does not exist (and the error says nothing of the
// tournament).
func (a *App) Import(ctx context.Context, p Principal, id int64) (store.Import, error) {
	nf := notFound("no import %d", id)
	if id < 1 {
		return store.Import{}, nf
	}
	imp, err := a.db.GetImport(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return store.Import{}, nf
	}
	if err != nil {
		return store.Import{}, err
	}
	if _, err := a.readable(ctx, p, imp.TournamentID); errors.Is(err, domain.ErrNotFound) {
		return store.Import{}, nf
	} else if err != nil {
		return store.Import{}, err
	}
	return imp, nil
}
