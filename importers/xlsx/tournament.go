package xlsx

import (
	"fmt"
)

// readTournament reads the Tournament/Torneo sheet: key/value rows, the key
// in the first filled cell of a row and the value in the next filled cell
// to its right (API §5 A). Unknown keys are noted and skipped; a known key
// with a value that is not one of its values fails the read.
func (rd *reader) readTournament(g *grid) (Tournament, error) {
	t := Tournament{Cells: map[string]string{}}
	for r := 1; r <= len(g.rows); r++ {
		kc := nextFilled(g, r, 1)
		if kc == 0 {
			continue
		}
		keyText := g.text(kc, r)
		key, ok := lookup(tournamentKeys, keyText)
		if !ok {
			rd.wb.Ignored = append(rd.wb.Ignored, fmt.Sprintf("%s %q: not a tournament setting, not read", cellRef(g.sheet, kc, r), keyText))
			continue
		}
		vc := nextFilled(g, r, kc+1)
		if vc == 0 {
			continue // a key without a value says nothing
		}
		if _, dup := t.Cells[key]; dup {
			return t, cellErrf(g.sheet, kc, r, "xlsx.set_twice", key, t.Cells[key])
		}
		v := g.text(vc, r)
		var err error
		switch key {
		case kRuleset:
			t.Ruleset, err = parseRulesetCell(v)
		case kHandsPlanned:
			var n int
			if n, err = g.required(vc, r); err != nil {
				return t, err
			}
			// API §1: hands_planned is 2, 3 or 4.
			if n < 2 || n > 4 {
				err = refuse("xlsx.hands_planned", n)
			}
			t.HandsPlanned = n
		case kName:
			t.Name = v
		case kLevel:
			t.Level, err = parseLevelCell(v)
		case kKind:
			t.Kind, err = parseKindCell(v)
		case kVPTable:
			t.VPTable, err = parseVPTableCell(v)
		}
		if err != nil {
			return t, cellErr(g.sheet, vc, r, err)
		}
		t.Cells[key] = cellRef(g.sheet, vc, r)
	}
	return t, nil
}

// nextFilled is the first column at or after col holding a value in row r;
// 0 if none.
func nextFilled(g *grid, r, col int) int {
	if r < 1 || r > len(g.rows) {
		return 0
	}
	for c := col; c <= len(g.rows[r-1]); c++ {
		if g.text(c, r) != "" {
			return c
		}
	}
	return 0
}
