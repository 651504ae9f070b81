package xlsx

import (
	"segnapunti/domain"
)

// The tidy layout (API §5 A): a Hands/Smazzate sheet with one row per hand,
// keyed by round and table; an optional Results/Risultati sheet with the
// written bottom of each match.

var (
	tidyRequired = []string{fRound, fTable,
		lineField(domain.NS, fBase), lineField(domain.NS, fPoints),
		lineField(domain.EO, fBase), lineField(domain.EO, fPoints)}
	resultsRequired = []string{fRound, fTable}
)

type matchKey struct{ round, table int }

// tidyMatch gathers one match's rows.
type tidyMatch struct {
	key      matchKey
	firstRow int // its first row in Hands; 0 when only Results has it
	ids      [2]string
	idCells  [2]string
	idAt     [2][2]int // column and row of each line's id cell
	hands    []handRow
	written  written
	resRow   int // its row in Results
	err      error
}

// setID records a line's id read at (sheet, col, r); a different id for the
// same match is the match's error.
func (m *tidyMatch) setID(g *grid, l domain.Line, col, r int) {
	id := g.text(col, r)
	if col == 0 || id == "" {
		return
	}
	switch {
	case m.ids[l] == "":
		m.ids[l], m.idCells[l], m.idAt[l] = id, cellRef(g.sheet, col, r), [2]int{col, r}
	case m.ids[l] != id && m.err == nil:
		m.err = cellErrf(g.sheet, col, r, "xlsx.id_differs",
			m.key.round, m.key.table, l.Label(), id, m.ids[l], m.idCells[l])
	}
}

func (rd *reader) readTidy(handsName, resultsName string) error {
	g, err := readGrid(rd.f, handsName, rd.lim, &rd.cells)
	if err != nil {
		return err
	}
	hrow, cols, ignored, err := g.header(handColumns, tidyRequired, headerRows)
	if err != nil {
		return err
	}
	rd.wb.Ignored = append(rd.wb.Ignored, ignored...)
	set, err := rd.settings()
	if err != nil {
		return err
	}
	hc := handColsFrom(cols)
	vals := hc.valueCols()
	byKey := map[matchKey]*tidyMatch{}
	var order []*tidyMatch
	for r := hrow + 1; r <= len(g.rows); r++ {
		if !filled(g, r, vals) {
			continue
		}
		round, err := g.positive(hc.round, r, "round")
		if err != nil {
			return err
		}
		table, err := g.positive(hc.table, r, "table")
		if err != nil {
			return err
		}
		k := matchKey{round, table}
		m := byKey[k]
		if m == nil {
			m = &tidyMatch{key: k, firstRow: r, written: written{}}
			byKey[k] = m
			order = append(order, m)
		}
		for _, l := range domain.Lines {
			m.setID(g, l, hc.lines[l].id, r)
		}
		h, err := readHand(g, r, hc)
		if err != nil {
			return err
		}
		m.hands = append(m.hands, h)
	}

	var rg *grid
	var rc map[string]int
	if resultsName != "" {
		if rg, err = readGrid(rd.f, resultsName, rd.lim, &rd.cells); err != nil {
			return err
		}
		var rrow int
		if rrow, rc, ignored, err = rg.header(resultColumns, resultsRequired, headerRows); err != nil {
			return err
		}
		rd.wb.Ignored = append(rd.wb.Ignored, ignored...)
		if order, err = readResults(rg, rrow, rc, byKey, order); err != nil {
			return err
		}
	}

	for _, m := range order {
		sh := set.newSheet()
		sh.Round, sh.Table = m.key.round, m.key.table
		var match Match
		if m.firstRow != 0 {
			match.Worksheet, match.Cell = g.sheet, cellName(hc.round, m.firstRow)
			sh.Cells["/round"] = cellRef(g.sheet, hc.round, m.firstRow)
			sh.Cells["/table"] = cellRef(g.sheet, hc.table, m.firstRow)
		} else {
			match.Worksheet, match.Cell = rg.sheet, cellName(rc[fRound], m.resRow)
			sh.Cells["/round"] = cellRef(rg.sheet, rc[fRound], m.resRow)
			sh.Cells["/table"] = cellRef(rg.sheet, rc[fTable], m.resRow)
			if m.err == nil {
				m.err = cellErrf(rg.sheet, rc[fRound], m.resRow, "xlsx.results_no_hands",
					m.key.round, m.key.table, quoteSheet(g.sheet))
			}
		}
		for _, l := range domain.Lines {
			switch {
			case m.ids[l] == "":
			case sh.Kind == domain.KindIndividual:
				ids, ok := SplitPlayerIDs(m.ids[l])
				if !ok {
					if m.err == nil {
						m.err = cellErrf(g.sheet, m.idAt[l][0], m.idAt[l][1], "xlsx.individual_ids", l.Label(), m.ids[l])
					}
					continue
				}
				sh.Sides[l].IDs = ids
				sh.Cells["/"+l.String()+"/ids"] = m.idCells[l]
			default:
				sh.Sides[l].ID = m.ids[l]
				sh.Cells["/"+l.String()+"/id"] = m.idCells[l]
			}
		}
		if err := orderHands(g, hc, m.hands); err != nil && m.err == nil {
			m.err = err
		}
		sh.Hands = make([]domain.Hand, len(m.hands))
		if len(m.hands) > 0 {
			sh.Cells["/hands"] = cellRef(g.sheet, handCell(hc), m.hands[0].row)
		}
		for i, h := range m.hands {
			sh.Hands[i] = h.hand
			addHandCells(sh.Cells, g.sheet, i, h.row, hc, h.hand)
		}
		if rg != nil {
			m.written.apply(&sh, rg.sheet)
		}
		match.Sheet, match.Err = sh, m.err
		rd.wb.Matches = append(rd.wb.Matches, match)
	}
	return nil
}

// readResults reads the Results sheet into the matches, adding a match for
// results whose round and table have no hands (reported, not dropped).
func readResults(rg *grid, rrow int, rc map[string]int, byKey map[matchKey]*tidyMatch, order []*tidyMatch) ([]*tidyMatch, error) {
	type field struct {
		name string
		col  int
	}
	var fields []field
	var valueCols []int
	for _, l := range domain.Lines {
		for _, f := range []string{fTotal, fMP, fVP, fLatePoints} {
			if c := rc[lineField(l, f)]; c != 0 {
				fields = append(fields, field{lineField(l, f), c})
				valueCols = append(valueCols, c)
			}
		}
	}
	var orphans []*tidyMatch
	for r := rrow + 1; r <= len(rg.rows); r++ {
		if !filled(rg, r, valueCols) {
			continue
		}
		round, err := rg.positive(rc[fRound], r, "round")
		if err != nil {
			return nil, err
		}
		table, err := rg.positive(rc[fTable], r, "table")
		if err != nil {
			return nil, err
		}
		k := matchKey{round, table}
		m := byKey[k]
		if m == nil {
			m = &tidyMatch{key: k, written: written{}}
			byKey[k] = m
			orphans = append(orphans, m)
		}
		if m.resRow != 0 {
			if m.err == nil {
				m.err = cellErrf(rg.sheet, rc[fRound], r, "xlsx.results_twice", round, table, m.resRow)
			}
			continue
		}
		m.resRow = r
		for _, l := range domain.Lines {
			m.setID(rg, l, rc[lineField(l, fID)], r)
		}
		for _, f := range fields {
			v, ok, err := rg.number(f.col, r)
			if err != nil {
				return nil, err
			}
			if ok {
				m.written[f.name] = &writtenCell{v, f.col, r}
			}
		}
	}
	return append(order, orphans...), nil
}
