package app

import (
	"context"
	"log/slog"

	"segnapunti/events"
	"segnapunti/store"
)

// Live updates (UI.md §7): every write operation announces what it changed
// once it has committed, with one line calling changed. That is the only
// place events are published; the pages and the API subscribe.

// newBus is PostgreSQL's LISTEN/NOTIFY when the database is PostgreSQL
// (so that every replica hears every write), the process alone on the
// embedded database.
func newBus(db *store.DB, log *slog.Logger) *events.Bus {
	if db != nil && db.Dialect() == store.DialectPostgres {
		return events.New(db, log)
	}
	return events.New(nil, log)
}

// changed announces a committed change of tournament tid.
func (a *App) changed(ctx context.Context, tid string, kind events.Kind, round, table int) {
	a.bus.Publish(ctx, events.Event{Tournament: tid, Kind: kind, Round: round, Table: table})
}

// Events is the live-update bus (for the event streams of the doors).
func (a *App) Events() *events.Bus { return a.bus }

// Close ends the open event streams, stops listening and sends the events
// still queued (at shutdown; again after the last request, for what it
// published).
func (a *App) Close() { a.bus.Close() }

// SheetsImported announces the sheets an import stored (package api runs
// imports; to move here).
func (a *App) SheetsImported(ctx context.Context, tid string) {
	a.changed(ctx, tid, events.Sheet, 0, 0)
}
