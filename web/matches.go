package web

import "segnapunti/app"

// matchGroup is the tables of one team match on a round page (RULES §12.5,
// UI.md §9: `[data-match="{m}"]`); Match 0 is a table of no match (pairs,
// individual), a group of its own.
type matchGroup struct {
	Match  int
	Tables []app.RoundTable
}

// matchGroups groups a round's tables by team match, in the order of each
// match's first table; a table of no match is a group of its own.
func matchGroups(tables []app.RoundTable) []matchGroup {
	var out []matchGroup
	at := map[int]int{}
	for _, tb := range tables {
		m := tb.Table.Match
		if i, ok := at[m]; ok && m != 0 {
			out[i].Tables = append(out[i].Tables, tb)
			continue
		}
		if m != 0 {
			at[m] = len(out)
		}
		out = append(out, matchGroup{Match: m, Tables: []app.RoundTable{tb}})
	}
	return out
}
