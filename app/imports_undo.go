package app

import (
	"context"
	"encoding/json"
	"errors"

	"segnapunti/domain"
	"segnapunti/store"
)

// Undoing an import and listing a tournament's imports: a
// secretary who uploaded the wrong workbook takes it back while its rounds
// are still being played (RULES §10: a delivered sheet is final; past that
// point a change goes through the referee's corrections).

// UndoImport undoes the tournament's import id: the sheets it created are
// removed, those it replaced are restored (store.UndoImport). The same
// callers as an upload may undo it; another tournament's import does not
// exist for them.
func (a *App) UndoImport(ctx context.Context, p Principal, tid string, id int64) (store.Import, error) {
	t, err := a.ImportTournament(ctx, p, tid)
	if err != nil {
		return store.Import{}, err
	}
	if id < 1 {
		return store.Import{}, notFound("api.no_import_in", id, t.ID)
	}
	imp, err := a.db.UndoImport(ctx, t.ID, id, actorName(p))
	var rc *store.RoundClosedError
	var sc *store.SheetChangedError
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return store.Import{}, notFound("api.no_import_in", id, t.ID)
	case errors.As(err, &rc):
		return store.Import{}, refusal(ErrRoundClosed, "api.undo_final", rc.Round, roundState(string(rc.State)), id)
	case errors.As(err, &sc):
		if sc.Now == 0 {
			return store.Import{}, conflict("api.undo_removed", sc.Round, sc.Table, id)
		}
		return store.Import{}, conflict("api.undo_changed",
			sc.Round, sc.Table, id, sc.Now, sc.Left)
	case errors.Is(err, store.ErrImportUndone):
		return store.Import{}, conflict("api.undo_again", id)
	case errors.Is(err, store.ErrImportNotUndoable):
		return store.Import{}, conflict("api.undo_old", id)
	case err != nil:
		return store.Import{}, err
	}
	a.SheetsImported(ctx, t.ID)
	return imp, nil
}

// ImportEntry is one import in a tournament's list.
type ImportEntry struct {
	store.Import
	Counts ImportCounts
	// Undoable: not undone, recorded with its sheets, and every round it
	// wrote to still being played.
	Undoable bool
}

// Imports lists the tournament's imports, newest first (without their
// reports), for whoever may read the tournament.
func (a *App) Imports(ctx context.Context, p Principal, tid string) ([]ImportEntry, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return nil, err
	}
	list, err := a.db.ListImports(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	rounds, err := a.db.ListRounds(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	playing := map[int]bool{}
	for _, r := range rounds {
		playing[r.Number] = r.State == domain.RoundPlaying
	}
	out := make([]ImportEntry, len(list))
	for i, imp := range list {
		e := ImportEntry{Import: imp, Undoable: imp.UndoneAt.IsZero() && imp.Sheets != nil}
		_ = json.Unmarshal(imp.CountsJSON, &e.Counts) // written by report; unreadable reads as zero
		for _, s := range imp.Sheets {
			e.Undoable = e.Undoable && playing[s.Round]
		}
		out[i] = e
	}
	return out, nil
}

// actorName names p in a record: its name, or its role when it has none.
func actorName(p Principal) string {
	if p.Name != "" {
		return p.Name
	}
	return string(p.Role)
}
