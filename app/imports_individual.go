package app

import (
	"segnapunti/domain"
)

// fitIndividualLine checks line l of an imported match at a table that
// seats two players a line (an individual tournament, API §4.2): the cell
// names the line's two players (importers/xlsx SplitPlayerIDs), in either
// order, or nothing (taken from the round, as a PUT takes them). done is
// false for a table that seats one entrant a line and a sheet naming none
// by ids: fitMatch's pairs check applies.
func fitIndividualLine(r domain.Round, tb domain.TableAssignment, entered map[string]bool, sh *domain.Sheet, l domain.Line,
	misfit func(pointer, key string, args ...any) []FieldError) (errs []FieldError, done bool) {
	want, other := tb.Line(l), tb.Line(l.Other())
	side := &sh.Sides[l]
	at := "/" + l.String()
	if len(want) < domain.PlayersPerIndividualLine {
		if side.IDs == nil {
			return nil, false
		}
		return misfit(at+"/ids", "field.match_one_entrant",
			r.Number, tb.Table, l.Label(), want[0], quoteIDs(side.IDs)), true
	}
	got := side.IDs
	switch {
	case got == nil && side.ID != "":
		return misfit(at+"/id", "field.match_pair_cell",
			l.Label(), side.ID, want[0], want[1], r.Number, tb.Table), true
	case got == nil:
		side.IDs = want // API §4.1: ids may be left out
		return nil, true
	case sameIDs(got, want):
		return nil, true
	case sameIDs(got, other):
		return misfit(at+"/ids", "field.match_players_swapped",
			r.Number, tb.Table, quoteIDs(want), l.Label(), quoteIDs(got)), true
	}
	for _, id := range got {
		if !entered[id] {
			return misfit(at+"/ids", "field.match_player_unknown",
				l.Label(), id, r.Number, tb.Table, quoteIDs(want), l.Label()), true
		}
	}
	return misfit(at+"/ids", "field.match_players", r.Number, tb.Table, quoteIDs(want), l.Label(), quoteIDs(got)), true
}
