package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"segnapunti/domain"
	"segnapunti/events"
	"segnapunti/exporters/reportjson"
	"segnapunti/store"
)

// Fix before confirming (UI.md §9): the scoring line changes or
// removes its last hand until the other line confirms the sheet. Every
// change keeps the replaced sheet in its history (sheet_versions, source
// "put", by the table); a scoring line's end signature is dropped (it
// signed another sheet: it signs again). After the confirmation only the
// referee corrects (FITAB art. 20, FIBur-INT art. 19).

// FixResult is a sheet after its last hand was changed or removed.
type FixResult struct {
	Target  SheetTarget
	Sheet   domain.Sheet
	Report  domain.Report
	Version int
	// Reopened: the scoring line's end signature was dropped.
	Reopened bool
}

// EditLastHand replaces hand index (0-based), which must be the sheet's
// last, by h. version is the stored version the caller saw (0: any).
func (a *App) EditLastHand(ctx context.Context, p Principal, tid string, round, table, index int, h domain.Hand, version int) (FixResult, error) {
	return a.fixLastHand(ctx, p, tid, round, table, index, version, func(sh *domain.Sheet) { sh.Hands[index] = h })
}

// RemoveLastHand removes hand index (0-based), which must be the sheet's
// last and not its only hand (that one is changed instead).
func (a *App) RemoveLastHand(ctx context.Context, p Principal, tid string, round, table, index int, version int) (FixResult, error) {
	return a.fixLastHand(ctx, p, tid, round, table, index, version, func(sh *domain.Sheet) { sh.Hands = sh.Hands[:index] })
}

func (a *App) fixLastHand(ctx context.Context, p Principal, tid string, round, table, index, version int, change func(*domain.Sheet)) (FixResult, error) {
	g, err := a.SheetTarget(ctx, p, tid, round, table, true)
	if err != nil {
		return FixResult{}, err
	}
	st, err := a.db.GetSheet(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table)
	if errors.Is(err, domain.ErrNotFound) {
		return FixResult{}, conflict("api.fix_empty", g.Table.Table)
	}
	if err != nil {
		return FixResult{}, err
	}
	if version > 0 && version != st.Version {
		return FixResult{}, Stale(version)
	}
	last := len(st.Sheet.Hands) - 1
	if index != last {
		return FixResult{}, invalid([]FieldError{field("/index", "field.last_hand_only", last+1, index+1)})
	}
	sh := st.Sheet
	sh.Hands = append([]domain.Hand(nil), st.Sheet.Hands...)
	change(&sh)
	if len(sh.Hands) == 0 {
		return FixResult{}, conflict("api.fix_only_hand")
	}
	reopened, err := a.db.ReopenEnded(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table)
	switch {
	case errors.Is(err, store.ErrSheetConfirmed):
		return FixResult{}, sheetSigned(g)
	case errors.Is(err, store.ErrRoundClosed):
		return FixResult{}, roundClosed(g.Tournament.ID, g.Round.Number, "no longer being played")
	case err != nil:
		return FixResult{}, err
	}
	rep := domain.Validate(sh)
	stored, err := reportjson.Marshal(rep, domain.English)
	if err != nil {
		return FixResult{}, fmt.Errorf("encode report: %w", err)
	}
	v, err := a.db.PutOpenSheetBy(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table, sh, stored, st.Version, fixActor(p))
	switch {
	case errors.Is(err, store.ErrRoundClosed):
		return FixResult{}, roundClosed(g.Tournament.ID, g.Round.Number, "no longer being played")
	case errors.Is(err, store.ErrSheetConfirmed):
		return FixResult{}, sheetSigned(g)
	case errors.Is(err, domain.ErrConflict) || errors.Is(err, domain.ErrNotFound):
		return FixResult{}, Stale(st.Version)
	case err != nil:
		return FixResult{}, err
	}
	if len(sh.Hands) < len(st.Sheet.Hands) { // a removed hand loses its late mark
		if err := a.db.UnmarkLateHands(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table, len(sh.Hands)+1); err != nil {
			return FixResult{}, err
		}
	}
	a.changed(ctx, g.Tournament.ID, events.Sheet, g.Round.Number, g.Table.Table)
	return FixResult{Target: g, Sheet: sh, Report: rep, Version: v, Reopened: reopened}, nil
}

// fixActor names who changed a sheet in its history: the table, or the
// signed-in person.
func fixActor(p Principal) string {
	if p.TableEntry() {
		return fmt.Sprintf("table %d", p.Entry.Table)
	}
	return actorName(p)
}

// CodeFixNotScoringLine is the refusal of a change of the last hand asked
// by the line that did not keep the score (issue 22): after the scoring
// line ended the sheet, only it changes its hands until the other line
// confirms.
const CodeFixNotScoringLine = "FIX_NOT_SCORING_LINE"

// FixLastHandAs is the API's change (hand non-nil: the new hand) or
// removal (hand nil) of the last hand, index 0-based, by the scoring
// line: line "ns" or "eo" and that line's entrant number, as a signature
// names them. The rules are the table page's (EditLastHand,
// RemoveLastHand): only the last hand, only before the other line's
// confirmation, every change kept in the sheet's history; and when the
// scoring line has ended the sheet, only that line (CodeFixNotScoringLine).
// After the confirmation only the referee corrects (FITAB art. 20).
//
// scope is resolved with SheetWrite before the door reads the body; hand
// is the new hand (as the door decoded it for scope's table), nil to
// remove the last hand.
func (a *App) FixLastHandAs(ctx context.Context, scope SheetScope, index int, line, entrant string, hand *domain.Hand, version int) (FixResult, error) {
	if err := scope.writable(); err != nil {
		return FixResult{}, err
	}
	g, p := scope.SheetTarget, scope.By
	tid, round, table := g.Tournament.ID, g.Round.Number, g.Table.Table
	var missing []FieldError
	if line == "" {
		missing = append(missing, field("/line", "field.scoring_line"))
	}
	if entrant == "" {
		missing = append(missing, field("/entrant", "field.scoring_entrant"))
	}
	if len(missing) > 0 {
		return FixResult{}, invalid(missing)
	}
	l, _, err := signer(g, line, entrant)
	if err != nil {
		return FixResult{}, err
	}
	have, err := a.db.SheetConfirmations(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table)
	if err != nil {
		return FixResult{}, err
	}
	for _, c := range have {
		switch {
		case c.Kind == store.SignConfirm:
			return FixResult{}, sheetSigned(g)
		case c.Kind == store.SignEnd && c.Line != l:
			e := refusal(domain.ErrConflict, "api.fix_not_scoring", c.Line.Label(), strings.Join(g.Table.Line(c.Line), " / "), l.Label())
			e.Code, e.Fields = CodeFixNotScoringLine, []FieldError{field("/line", "field.not_scoring_line")}
			return FixResult{}, e
		}
	}
	if hand == nil {
		return a.RemoveLastHand(ctx, p, tid, round, table, index, version)
	}
	return a.EditLastHand(ctx, p, tid, round, table, index, *hand, version)
}
