package app

import (
	"context"

	"segnapunti/domain"
)

// Authorization is the first step of every operation on one object: a
// door resolves a scope (SheetScope for a table's sheet, TournamentScope
// for a tournament) before it reads the body, and passes it with plain
// values to the operation. A caller who may not see the object gets its
// 404 whatever the body.

// TournamentUse is what a caller means to do with a tournament.
type TournamentUse int

const (
	// TournamentRead reads it: the organising club, its referees, the
	// federation, an admin.
	TournamentRead TournamentUse = iota
	// TournamentCorrect corrects a sheet (RULES §9): a referee of the
	// tournament or an admin, at club level the organising club too.
	TournamentCorrect
	// TournamentImport uploads a workbook of sheets: the organising club,
	// a referee of the tournament, an admin.
	TournamentImport
)

// TournamentScope is who may do what to one tournament, resolved before a
// door reads the body.
type TournamentScope struct {
	Tournament domain.Tournament
	By         Principal
	access     Access
	use        TournamentUse
}

// TournamentScope loads tournament tid for p and checks that p may use it
// so: a tournament p may not read is a 404 (as if it did not exist),
// one p reads but may not use so a 403.
func (a *App) TournamentScope(ctx context.Context, p Principal, tid string, use TournamentUse) (TournamentScope, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return TournamentScope{}, err
	}
	sc := TournamentScope{Tournament: t, By: p, access: acc, use: use}
	if err := sc.allows(use); err != nil {
		return TournamentScope{}, err
	}
	return sc, nil
}

// allows is TournamentScope's check of use, repeated by an operation on
// the scope it is given: no I/O. A zero scope allows nothing.
func (sc TournamentScope) allows(use TournamentUse) error {
	if sc.Tournament.ID == "" {
		return notFound("api.no_tournament", "")
	}
	switch use {
	case TournamentCorrect:
		if !sc.access.Judge(sc.Tournament) {
			return forbidden(refereeOnly(sc.Tournament), action("corrects sheets"))
		}
	case TournamentImport:
		if !sc.access.Import() {
			return forbidden("api.upload_only")
		}
	default:
		if !sc.access.Read() {
			return notFound("api.no_tournament", sc.Tournament.ID)
		}
	}
	return nil
}
