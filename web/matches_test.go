package web

import (
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
)

// UI.md §9, RULES §12.5: the round page groups the two tables of a match,
// wherever they are numbered; the tables of a pairs round stay one group
// (one tbody).
func TestMatchGroupsRULES12_5(t *testing.T) {
	tb := func(table, match int) app.RoundTable {
		return app.RoundTable{Table: domain.TableAssignment{Table: table, Match: match}}
	}
	got := matchGroups([]app.RoundTable{tb(1, 1), tb(2, 2), tb(3, 1), tb(4, 2)})
	if len(got) != 2 || got[0].Match != 1 || got[1].Match != 2 ||
		got[0].Tables[0].Table.Table != 1 || got[0].Tables[1].Table.Table != 3 || got[1].Tables[1].Table.Table != 4 {
		t.Errorf("team groups: %+v", got)
	}
	pairs := matchGroups([]app.RoundTable{tb(1, 0), tb(2, 0)})
	if len(pairs) != 1 || len(pairs[0].Tables) != 2 || pairs[0].Match != 0 {
		t.Errorf("pairs groups: %+v", pairs)
	}
}
