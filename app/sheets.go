package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"segnapunti/domain"
	"segnapunti/events"
	"segnapunti/exporters/reportjson"
	"segnapunti/store"
)

// Stored sheets: whole, hand by hand, read back (API §4, §4.1).

// SheetTarget is the table of a round of a tournament a sheet belongs to.
type SheetTarget struct {
	Tournament domain.Tournament
	Round      domain.Round
	Table      domain.TableAssignment
}

// EmptySheet is the sheet hand-by-hand entry starts from (API §4.1).
func (g SheetTarget) EmptySheet() domain.Sheet {
	return domain.Sheet{
		Ruleset: g.Tournament.Ruleset, HandsPlanned: g.Round.HandsPlanned, Kind: g.Tournament.Kind, VPTable: g.Tournament.VPTable,
		Tournament: g.Tournament.Name, Round: g.Round.Number, Table: g.Table.Table,
		Sides: [2]domain.Side{g.Side(domain.NS), g.Side(domain.EO)},
	}
}

// Side is how a sheet names the entrant seated at line l: a pair's or a
// team's id, or the two players' ids of an individual line (API §4.2
// "ids"; a line of an individual round stored before migration 00013
// seats one player, named by id).
func (g SheetTarget) Side(l domain.Line) domain.Side {
	ids := g.Table.Line(l)
	if len(ids) > 1 {
		return domain.Side{IDs: ids}
	}
	return domain.Side{ID: ids[0]}
}

// SheetUse is what a caller means to do with a sheet: what SheetScope
// checks before any body is read.
type SheetUse int

const (
	// SheetRead reads a sheet or checks one being typed.
	SheetRead SheetUse = iota
	// SheetWrite adds a hand or a signature: the organising club, an
	// admin, or the table's own code, while the round takes sheets.
	SheetWrite
	// SheetReplace stores a whole sheet: as SheetWrite, but never a
	// table code (its players enter hands one by one).
	SheetReplace
)

// SheetScope is who may do what to the sheet of one table of a round,
// resolved before a door reads the body (API §4 roles): the table, the
// caller and what the caller may do with its tournament.
type SheetScope struct {
	SheetTarget
	By     Principal
	access Access
}

// SheetScope resolves the table of a round for p and checks, in this
// order, what does not depend on the body: that p may read the
// tournament (another club's is a 404), for a write that p manages it
// (or is the table's own code), the path's numbers, that the round and
// the table exist, and for a write that the round still takes sheets.
func (a *App) SheetScope(ctx context.Context, p Principal, tid string, round, table int, use SheetUse) (SheetScope, error) {
	if use == SheetReplace && p.TableEntry() {
		return SheetScope{}, forbidden("api.code_hands")
	}
	write := use != SheetRead
	t, acc, err := a.sheetAccess(ctx, p, tid, round, table, write)
	if err != nil {
		return SheetScope{}, err
	}
	if round < 1 || round > MaxRoundsPlanned {
		return SheetScope{}, paramError("n", "api.whole_range_n", "n", MaxRoundsPlanned, round)
	}
	if table < 1 || table > MaxTables {
		return SheetScope{}, paramError("t", "api.whole_range_n", "t", MaxTables, table)
	}
	// Only this table's row: loading the whole round was the main cost of
	// every sheet write (measured under 32 concurrent clients).
	r, err := a.db.GetRoundTable(ctx, t.ID, round, table)
	if errors.Is(err, domain.ErrNotFound) {
		if _, perr := a.db.ProposedRound(ctx, t.ID, round); perr == nil { // app/pairings.go
			return SheetScope{}, conflict("api.round_proposed", round, round)
		}
		return SheetScope{}, notFound("api.no_round", t.ID, round)
	}
	if err != nil {
		return SheetScope{}, err
	}
	tb, ok := r.Assignment(table)
	if !ok {
		return SheetScope{}, notFound("api.no_table", r.Number, t.ID, table)
	}
	sc := SheetScope{SheetTarget: SheetTarget{Tournament: t, Round: r, Table: tb}, By: p, access: acc}
	if write {
		if err := sc.writable(); err != nil {
			return SheetScope{}, err
		}
	}
	return sc, nil
}

// writable is the part of SheetScope's write checks an operation repeats
// on a scope resolved for reading (the sheet page resolves its table
// once, to show it whatever the answer): no I/O.
func (sc SheetScope) writable() error {
	if sc.Tournament.ID == "" {
		return forbidden("api.enter_sheets_only") // a zero scope writes nothing
	}
	if !sc.By.TableEntry() && !sc.access.Manage() {
		return forbidden("api.enter_sheets_only")
	}
	if sc.Round.State.Order() >= domain.RoundSheetsDelivered.Order() {
		return roundClosed(sc.Tournament.ID, sc.Round.Number, string(sc.Round.State))
	}
	return nil
}

// SheetTarget resolves a table of a round (SheetScope). For a write it
// also checks that p manages the tournament and that the round still
// takes sheets.
func (a *App) SheetTarget(ctx context.Context, p Principal, tid string, round, table int, write bool) (SheetTarget, error) {
	use := SheetRead
	if write {
		use = SheetWrite
	}
	sc, err := a.SheetScope(ctx, p, tid, round, table, use)
	return sc.SheetTarget, err
}

// sheetAccess: the club or an admin write, whoever reads the tournament
// reads; a table's entry code reads and writes its own table (table_entry.go).
func (a *App) sheetAccess(ctx context.Context, p Principal, tid string, round, table int, write bool) (domain.Tournament, Access, error) {
	if p.TableEntry() {
		t, err := a.entryTarget(ctx, p, tid, round, table)
		return t, Access{}, err
	}
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return t, acc, err
	}
	if write && !acc.Manage() {
		return t, acc, forbidden("api.enter_sheets_only")
	}
	return t, acc, nil
}

// roundClosed: FITAB art. 20, FIBur-INT art. 19: a delivered sheet is
// final; what may still change goes through a referee's correction (RULES
// §9). The store says so too when the round was closed between the check
// and the write.
func roundClosed(tid string, n int, state string) error {
	return refusal(ErrRoundClosed, "api.round_final", n, roundState(state), tid)
}

// Stale is the refusal of a write made on a version that is not the
// stored one; version < 0 is "any version" with no sheet stored.
func Stale(version int) error {
	if version < 0 {
		return refusal(ErrPrecondition, "api.if_match_none")
	}
	return refusal(ErrPrecondition, "api.sheet_changed")
}

// CheckSheetAgrees checks a sheet against the tournament, the round and
// the table it is stored at (API §4.1: fields may be left out but must
// agree when given).
func CheckSheetAgrees(sh domain.Sheet, g SheetTarget) []FieldError {
	var errs []FieldError
	t, r := g.Tournament, g.Round
	if sh.Ruleset != t.Ruleset {
		errs = append(errs, field("/ruleset", "field.ruleset_mismatch", t.Ruleset, sh.Ruleset))
	}
	if sh.HandsPlanned != r.HandsPlanned {
		errs = append(errs, field("/hands_planned", "field.hands_mismatch", r.Number, r.HandsPlanned, sh.HandsPlanned))
	}
	if sh.Kind != t.Kind {
		errs = append(errs, field("/kind", "field.kind_mismatch", t.Kind, sh.Kind))
	}
	switch {
	case t.VPTable.IsZero() && !sh.VPTable.IsZero():
		errs = append(errs, field("/vp_table", "field.vp_table_unpinned"))
	case sh.VPTable != t.VPTable:
		errs = append(errs, field("/vp_table", "field.vp_table_mismatch", t.VPTable.ID(), sh.VPTable.ID()))
	}
	if sh.Round != r.Number {
		errs = append(errs, field("/round", "field.round_mismatch", r.Number, sh.Round))
	}
	if sh.Table != g.Table.Table {
		errs = append(errs, field("/table", "field.table_mismatch", g.Table.Table, sh.Table))
	}
	for _, l := range domain.Lines {
		want := g.Side(l)
		at := "/" + l.String()
		got := sh.Sides[l]
		if want.IDs != nil {
			// Individual: the line's two players, in either order.
			switch {
			case got.ID != "" && got.IDs == nil:
				errs = append(errs, field(at+"/id", "api.line_give_ids", want.IDs[0], want.IDs[1]))
			case !sameIDs(got.IDs, want.IDs):
				errs = append(errs, field(at+"/ids", "api.line_players", g.Table.Table, r.Number, want.IDs[0], want.IDs[1], l.Label(), quoteIDs(got.IDs)))
			}
			if got.ID != "" && got.IDs != nil {
				errs = append(errs, field(at+"/id", "api.line_ids_only"))
			}
			continue
		}
		if got.IDs != nil {
			errs = append(errs, field(at+"/ids", "api.line_give_id", kindName(t.Kind), want.ID))
			continue
		}
		if got.ID != want.ID {
			errs = append(errs, field(at+"/id", "field.seat_mismatch", g.Table.Table, r.Number, want.ID, l.Label(), got.ID))
		}
	}
	return errs
}

// PutResult is a stored sheet: its report and new version.
type PutResult struct {
	Target  SheetTarget
	Sheet   domain.Sheet
	Report  domain.Report
	Version int
	Created bool // version 1: the first sheet of the table
}

// PutSheet enters or replaces the whole sheet of a table of scope (resolved
// with SheetReplace before the door read the body; a door fills the
// defaults API §4.1 lets a client leave out from scope.SheetTarget). The
// sheet is checked against the table. version is the caller's version of
// the sheet: 0 unconditionally, -1 any existing one, N exactly N (else
// ErrPrecondition).
func (a *App) PutSheet(ctx context.Context, scope SheetScope, sh domain.Sheet, version int) (PutResult, error) {
	if scope.By.TableEntry() {
		return PutResult{}, forbidden("api.code_hands")
	}
	if err := scope.writable(); err != nil {
		return PutResult{}, err
	}
	g, p := scope.SheetTarget, scope.By
	if errs := CheckSheetAgrees(sh, g); len(errs) > 0 {
		return PutResult{}, invalid(errs)
	}
	if version < 0 {
		st, err := a.db.GetSheet(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table)
		if errors.Is(err, domain.ErrNotFound) {
			return PutResult{}, Stale(version)
		} else if err != nil {
			return PutResult{}, err
		}
		version = st.Version
	}
	rep := domain.Validate(sh)
	// The store keeps the report as API §2 renders it in English.
	stored, err := reportjson.Marshal(rep, domain.English)
	if err != nil {
		return PutResult{}, fmt.Errorf("encode report: %w", err)
	}
	v, err := a.db.PutOpenSheetBy(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table, sh, stored, version, actorName(p))
	switch {
	case errors.Is(err, store.ErrRoundClosed):
		return PutResult{}, roundClosed(g.Tournament.ID, g.Round.Number, "no longer being played")
	case errors.Is(err, store.ErrSheetConfirmed):
		return PutResult{}, sheetSigned(g)
	case (errors.Is(err, domain.ErrConflict) || errors.Is(err, domain.ErrNotFound)) && version > 0:
		return PutResult{}, Stale(version)
	case errors.Is(err, domain.ErrConflict):
		return PutResult{}, conflict("api.write_race")
	case err != nil:
		return PutResult{}, err
	}
	a.changed(ctx, g.Tournament.ID, events.Sheet, g.Round.Number, g.Table.Table)
	return PutResult{Target: g, Sheet: sh, Report: rep, Version: v, Created: v == 1}, nil
}

// AppendResult is a sheet after a hand was added.
type AppendResult struct {
	Target   SheetTarget
	Stored   store.StoredSheet
	Replayed bool // the idempotency key was seen: nothing was added now
}

// AppendHand adds the next hand (hand-by-hand entry) to the sheet of
// scope (resolved with SheetWrite before the door read the body). With an
// idempotency key, a retry adds the hand once and answers as the first
// time.
func (a *App) AppendHand(ctx context.Context, scope SheetScope, h domain.Hand, idempotencyKey string) (AppendResult, error) {
	if err := scope.writable(); err != nil {
		return AppendResult{}, err
	}
	g := scope.SheetTarget
	st, replay, err := a.db.AppendHand(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table, g.EmptySheet(), h, idempotencyKey,
		func(sh domain.Sheet) ([]byte, error) {
			if err := moreHands(sh.Hands[:len(sh.Hands)-1], g.Round.HandsPlanned); err != nil {
				return nil, err
			}
			b, err := reportjson.Marshal(domain.Validate(sh), domain.English)
			if err != nil {
				return nil, fmt.Errorf("encode report: %w", err)
			}
			return b, nil
		})
	if errors.Is(err, store.ErrRoundClosed) {
		return AppendResult{}, roundClosed(g.Tournament.ID, g.Round.Number, "no longer being played")
	}
	if errors.Is(err, store.ErrSheetConfirmed) {
		return AppendResult{}, sheetSigned(g)
	}
	if err != nil {
		return AppendResult{}, err
	}
	if !replay {
		// UI.md §9: a hand entered after time was called is marked.
		if err := a.markIfLate(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table, len(st.Sheet.Hands)); err != nil {
			return AppendResult{}, err
		}
		a.changed(ctx, g.Tournament.ID, events.Sheet, g.Round.Number, g.Table.Table)
	}
	return AppendResult{Target: g, Stored: st, Replayed: replay}, nil
}

// SheetView is a stored sheet with its correction history, oldest first.
type SheetView struct {
	Target      SheetTarget
	Stored      store.StoredSheet
	Corrections []store.Correction
	// Confirmations are the lines' signatures (table_entry.go).
	Confirmations []store.Confirmation
	// History are the earlier versions of the sheet, newest first.
	History []store.SheetVersion
}

// Sheet reads the stored sheet of a table.
func (a *App) Sheet(ctx context.Context, p Principal, tid string, round, table int) (SheetView, error) {
	g, err := a.SheetTarget(ctx, p, tid, round, table, false)
	if err != nil {
		return SheetView{}, err
	}
	st, err := a.db.GetSheet(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table)
	if errors.Is(err, domain.ErrNotFound) {
		return SheetView{}, notFound("api.no_sheet", g.Table.Table, g.Round.Number)
	}
	if err != nil {
		return SheetView{}, err
	}
	list, err := a.db.ListCorrections(ctx, g.Tournament.ID, store.CorrectionFilter{Round: g.Round.Number, Table: g.Table.Table})
	if err != nil {
		return SheetView{}, err
	}
	signed, err := a.db.SheetConfirmations(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table)
	if err != nil {
		return SheetView{}, err
	}
	history, err := a.db.SheetHistory(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table)
	if err != nil {
		return SheetView{}, err
	}
	return SheetView{Target: g, Stored: st, Corrections: list, Confirmations: signed, History: history}, nil
}

// sameIDs reports whether got names exactly the players of want, in any
// order.
func sameIDs(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for _, id := range want {
		if !slices.Contains(got, id) {
			return false
		}
	}
	return true
}

func quoteIDs(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = strconv.Quote(id)
	}
	return strings.Join(q, ", ")
}

// kindName is a tournament kind as a word ("" is pairs).
func kindName(k domain.Kind) string {
	if k == "" {
		return string(domain.KindPairs)
	}
	return string(k)
}
