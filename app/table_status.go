package app

import (
	"context"

	"segnapunti/domain"
)

// The state of each table of a round, as the round page shows it (UI.md
// §3 data-status). One place decides it; confirmations at the table (UI.md
// §6) join here when they are stored.

// TableStatus is where a table's sheet is.
type TableStatus string

const (
	// TableEmpty: no hand entered.
	TableEmpty TableStatus = "empty"
	// TableInProgress: some hands entered, not all planned, no time called.
	TableInProgress TableStatus = "in_progress"
	// TableAwaitingConfirmation: every planned hand is in (or a hand ended
	// on time, RULES §10), the sheet not yet delivered.
	TableAwaitingConfirmation TableStatus = "awaiting_confirmation"
	// TableDelivered: the round's sheets are delivered (RULES §10).
	TableDelivered TableStatus = "delivered"
	// TableFlagged: delivered with an error finding: the referee's turn.
	TableFlagged TableStatus = "flagged"
)

// RoundTable is one table of a round with its sheet's state.
type RoundTable struct {
	Table   domain.TableAssignment
	Status  TableStatus
	Hands   int // hands entered
	Version int // the stored sheet's version; 0 without a sheet
	Errors  int // error findings of the stored sheet
	// Result is the computed result when a sheet is stored.
	Result *domain.Computed
}

// RoundTables is a round with the state of each of its tables.
type RoundTables struct {
	Tournament domain.Tournament
	Access     Access
	Round      domain.Round
	Tables     []RoundTable
}

// TableStatuses reads a round of a tournament p may read with the state
// of each table.
func (a *App) TableStatuses(ctx context.Context, p Principal, tid string, n int) (RoundTables, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return RoundTables{}, err
	}
	r, err := a.round(ctx, t, n)
	if err != nil {
		return RoundTables{}, err
	}
	sheets, err := a.db.RoundSheets(ctx, t.ID, r.Number)
	if err != nil {
		return RoundTables{}, err
	}
	signed, err := a.db.RoundConfirmations(ctx, t.ID, r.Number)
	if err != nil {
		return RoundTables{}, err
	}
	byTable := make(map[int]int, len(sheets))
	for i, s := range sheets {
		byTable[s.Table] = i
	}
	out := RoundTables{Tournament: t, Access: acc, Round: r, Tables: make([]RoundTable, 0, len(r.Tables))}
	for _, tb := range r.Tables {
		rt := RoundTable{Table: tb}
		var sh *domain.Sheet
		if i, ok := byTable[tb.Table]; ok {
			sh = &sheets[i].Sheet
			rt.Hands, rt.Version = len(sh.Hands), sheets[i].Version
			rep := domain.Validate(*sh)
			rt.Errors = rep.Count(domain.SeverityError)
			c := rep.Computed
			rt.Result = &c
		}
		rt.Status = statusOf(sh, rt.Errors > 0, len(signed[tb.Table]), r.State)
		out.Tables = append(out.Tables, rt)
	}
	return out, nil
}
