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
	// Sat names the players who sit at each line this round when that
	// is news (RULES §12.4, §12.5): a team's line-up, or a pair with a
	// substitute in; "" otherwise (the entrant's own players).
	Sat [2]string
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
	sheets, err := a.roundSheetsOf(ctx, t.ID, r.Number)
	if err != nil {
		return RoundTables{}, err
	}
	signed, err := a.db.RoundConfirmations(ctx, t.ID, r.Number)
	if err != nil {
		return RoundTables{}, err
	}
	sat, err := a.satNames(ctx, t, r)
	if err != nil {
		return RoundTables{}, err
	}
	out := RoundTables{Tournament: t, Access: acc, Round: r, Tables: make([]RoundTable, 0, len(r.Tables))}
	for _, tb := range r.Tables {
		rt := RoundTable{Table: tb, Sat: sat[tb.Table]}
		var sh *domain.Sheet
		if st, ok := sheets[tb.Table]; ok {
			sh = st.sheet
			rt.Hands, rt.Version, rt.Errors = len(sh.Hands), st.version, st.errors
			c := st.computed // each page its own copy
			rt.Result = &c
		}
		rt.Status = statusOf(sh, rt.Errors > 0, len(signed[tb.Table]), r.State)
		out.Tables = append(out.Tables, rt)
	}
	return out, nil
}

// roundSheet is a stored sheet of a round as the round page reads it:
// the sheet, its version and what its validation found.
type roundSheet struct {
	sheet    *domain.Sheet // shared by the pages at one stamp: read only
	version  int
	errors   int
	computed domain.Computed
}

// roundSheetsOf reads, by table, the stored sheets of round n of
// tournament tid, validated; computed once per tournament stamp
// (store.StandingsStamp moves with every sheet write, hand and
// correction) and shared by the pages at that stamp.
func (a *App) roundSheetsOf(ctx context.Context, tid string, n int) (map[int]roundSheet, error) {
	stamp, err := a.db.StandingsStamp(ctx, tid)
	if err != nil {
		return nil, err
	}
	return a.roundSheets.Get(tid, n, stamp, func() (map[int]roundSheet, error) {
		sheets, err := a.db.RoundSheets(ctx, tid, n)
		if err != nil {
			return nil, err
		}
		out := make(map[int]roundSheet, len(sheets))
		for i := range sheets {
			sh := &sheets[i].Sheet
			rep := domain.Validate(*sh)
			out[sheets[i].Table] = roundSheet{sheet: sh, version: sheets[i].Version,
				errors: rep.Count(domain.SeverityError), computed: rep.Computed}
		}
		return out, nil
	})
}

// satNames is, by table, who sits at each line of round r when that is
// news (RoundTable.Sat): a team tournament's line-ups, and the lines of
// entrants with a substitute in by round r. Nothing is read for a pairs
// round without substitutions (the page polls it).
func (a *App) satNames(ctx context.Context, t domain.Tournament, r domain.Round) (map[int][2]string, error) {
	subs, err := a.db.ListSubstitutions(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	changed := map[string]bool{}
	for _, s := range subs {
		if s.FromRound <= r.Number {
			changed[s.Entrant] = true
		}
	}
	if t.Kind != domain.KindTeams && len(changed) == 0 {
		return nil, nil
	}
	entrants, err := a.db.ListEntrants(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	var lineups map[int][]domain.Lineup
	if t.Kind == domain.KindTeams {
		ls, err := a.db.ListLineups(ctx, t.ID, r.Number)
		if err != nil {
			return nil, err
		}
		lineups = map[int][]domain.Lineup{r.Number: ls}
	}
	seats := seatsOf([]domain.Round{r}, entrants, subs, lineups)
	out := map[int][2]string{}
	for _, tb := range r.Tables {
		var names [2]string
		for _, l := range domain.Lines {
			news := tb.Match > 0
			for _, id := range tb.Line(l) {
				news = news || changed[id]
			}
			if news {
				names[l] = seats[[2]int{r.Number, tb.Table}].seated[l]
			}
		}
		out[tb.Table] = names
	}
	return out, nil
}

// SatAt is who sits at each line of the sheet's table when that is news
// (RoundTable.Sat: a team's line-up, a substitute in; RULES §12.4, §12.5),
// for the sheet page of a target the caller has already been given.
func (a *App) SatAt(ctx context.Context, g SheetTarget) ([2]string, error) {
	sat, err := a.satNames(ctx, g.Tournament, g.Round)
	return sat[g.Table.Table], err
}
