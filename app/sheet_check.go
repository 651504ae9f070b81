package app

import (
	"context"

	"segnapunti/domain"
)

// CheckSheet validates a sheet being typed for a table of a round, without
// storing it (the sheet page's live report, UI.md §5): the same engine
// as a stored sheet's report. p must be able to enter the sheet; build
// makes the sheet once the target is known.
func (a *App) CheckSheet(ctx context.Context, p Principal, tid string, round, table int, build func(SheetTarget) (domain.Sheet, error)) (SheetTarget, domain.Sheet, domain.Report, error) {
	g, err := a.SheetTarget(ctx, p, tid, round, table, false)
	if err != nil {
		return SheetTarget{}, domain.Sheet{}, domain.Report{}, err
	}
	sh, err := build(g)
	if err != nil {
		return g, domain.Sheet{}, domain.Report{}, err
	}
	return g, sh, domain.Validate(sh), nil
}

// SheetReport is the report of a stored sheet (the page shows it beside
// the sheet after a save).
func SheetReport(sh domain.Sheet) domain.Report { return domain.Validate(sh) }
