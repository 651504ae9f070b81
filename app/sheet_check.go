package app

import (
	"context"

	"segnapunti/domain"
)

// CheckSheet validates a sheet being typed for the table of scope,
// without storing it (the sheet page's live report, UI.md §5): the same
// engine as a stored sheet's report.
func (a *App) CheckSheet(_ context.Context, scope SheetScope, sh domain.Sheet) (domain.Report, error) {
	if scope.Tournament.ID == "" {
		return domain.Report{}, forbidden("api.enter_sheets_only") // a zero scope reads nothing
	}
	return domain.Validate(sh), nil
}

// SheetReport is the report of a stored sheet (the page shows it beside
// the sheet after a save).
func SheetReport(sh domain.Sheet) domain.Report { return domain.Validate(sh) }
