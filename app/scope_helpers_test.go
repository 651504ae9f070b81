package app_test

import (
	"context"

	"segnapunti/app"
	"segnapunti/domain"
)

// putSheet is PutSheet as a door runs it: the scope first, then the body
// built for that table.
func putSheet(a *app.App, ctx context.Context, p app.Principal, tid string, round, table int, build func(app.SheetTarget) (domain.Sheet, error), version int) (app.PutResult, error) {
	sc, err := a.SheetScope(ctx, p, tid, round, table, app.SheetReplace)
	if err != nil {
		return app.PutResult{}, err
	}
	sh, err := build(sc.SheetTarget)
	if err != nil {
		return app.PutResult{}, err
	}
	return a.PutSheet(ctx, sc, sh, version)
}

// appendHand is AppendHand as a door runs it: the scope first.
func appendHand(a *app.App, ctx context.Context, p app.Principal, tid string, round, table int, decode func(app.SheetTarget) (domain.Hand, error), key string) (app.AppendResult, error) {
	sc, err := a.SheetScope(ctx, p, tid, round, table, app.SheetWrite)
	if err != nil {
		return app.AppendResult{}, err
	}
	h, err := decode(sc.SheetTarget)
	if err != nil {
		return app.AppendResult{}, err
	}
	return a.AppendHand(ctx, sc, h, key)
}
