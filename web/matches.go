package web

import "segnapunti/app"

// matchGroup is the tables of one team match on a round page (RULES §12.5,
// UI.md §9: `[data-match="{m}"]`); Match 0 holds the tables of no match
// (pairs, individual), all in one group: one tbody, as before teams.
type matchGroup struct {
	Match  int
	Tables []app.RoundTable
}

// matchGroups groups a round's tables by team match, in the order of each
// match's first table; the tables of no match make one group.
func matchGroups(tables []app.RoundTable) []matchGroup {
	var out []matchGroup
	at := map[int]int{}
	for _, tb := range tables {
		m := tb.Table.Match
		if i, ok := at[m]; ok {
			out[i].Tables = append(out[i].Tables, tb)
			continue
		}
		at[m] = len(out)
		out = append(out, matchGroup{Match: m, Tables: []app.RoundTable{tb}})
	}
	return out
}
