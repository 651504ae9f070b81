package xlsx

import (
	"fmt"
	"strings"

	"segnapunti/domain"
)

// The paper layout (API §5 B): one worksheet per match, shaped like the
// paper score. Labels are found, not assumed at fixed cells: a label/value
// block above the hand header row, the hand rows under it, and rows
// labelled Totale, MP/Differenza and VP after them, each line's value under
// its Totale column.

var paperRequired = []string{fHand,
	lineField(domain.NS, fBase), lineField(domain.NS, fPoints),
	lineField(domain.EO, fBase), lineField(domain.EO, fPoints)}

func (rd *reader) readPaper(names []string, tournamentSheet string) error {
	var set settings
	haveSettings := false
	found := 0
	var tidyLike []string
	for _, name := range names {
		if name == tournamentSheet {
			continue
		}
		g, err := readGrid(rd.f, name, rd.lim, &rd.cells)
		if err != nil {
			return err
		}
		hrow := headerRow(g, handColumns, paperRequired, paperHeaderRows)
		if hrow == 0 {
			if headerRow(g, handColumns, tidyRequired, headerRows) != 0 {
				tidyLike = append(tidyLike, quoteSheet(name))
			}
			rd.wb.Ignored = append(rd.wb.Ignored, fmt.Sprintf("sheet %s: not shaped like a score sheet, not read", quoteSheet(name)))
			continue
		}
		cols, ignored, err := g.headerColumns(handColumns, hrow)
		if err != nil {
			return err
		}
		if cols[fRound] != 0 && cols[fTable] != 0 {
			// Round and table columns: rows of many matches, the tidy
			// layout under another sheet name.
			tidyLike = append(tidyLike, quoteSheet(name))
			rd.wb.Ignored = append(rd.wb.Ignored, fmt.Sprintf("sheet %s: has round and table columns like the tidy layout, but the tidy layout's sheet is named Hands or Smazzate; not read", quoteSheet(name)))
			continue
		}
		found++
		rd.wb.Ignored = append(rd.wb.Ignored, ignored...)
		if !haveSettings {
			if set, err = rd.settings(); err != nil {
				return err
			}
			haveSettings = true
		}
		m, ok, err := readPaperSheet(g, hrow, cols, set)
		if err != nil {
			return err
		}
		if !ok {
			rd.wb.Ignored = append(rd.wb.Ignored, fmt.Sprintf("sheet %s: a blank score sheet (no hands, no totals), not read", quoteSheet(name)))
			continue
		}
		rd.wb.Matches = append(rd.wb.Matches, m)
	}
	if found == 0 {
		if len(tidyLike) > 0 {
			return wbErr(ErrLayout, "xlsx.no_layout_tidy", strings.Join(tidyLike, ", "))
		}
		return wbErr(ErrLayout, "xlsx.no_layout")
	}
	return nil
}

// headerRow is the first row, among the first maxRow, that names every
// required field; 0 when there is none.
func headerRow(g *grid, table map[string]string, required []string, maxRow int) int {
	for r := 1; r <= min(maxRow, len(g.rows)); r++ {
		found := map[string]int{}
		for c := 1; c <= len(g.rows[r-1]); c++ {
			if f, ok := lookup(table, g.text(c, r)); ok {
				found[f] = c
			}
		}
		if hasAll(found, required) {
			return r
		}
	}
	return 0
}

// readPaperSheet reads one paper score. ok is false for a blank form.
func readPaperSheet(g *grid, hrow int, cols map[string]int, set settings) (m Match, ok bool, err error) {
	sh := set.newSheet()
	hc := handColsFrom(cols)
	m.Worksheet, m.Cell = g.sheet, cellName(hc.hand, hrow)
	if err := readPaperLabels(g, hrow, &sh); err != nil {
		return m, false, err
	}

	vals := hc.valueCols()
	isValueCol := map[int]bool{}
	for _, c := range vals {
		isValueCol[c] = true
	}
	var hands []handRow
	w := written{}
	footer := false
	for r := hrow + 1; r <= len(g.rows); r++ {
		if label, c := footerLabel(g, r, isValueCol); label != "" {
			footer = true
			if err := readFooterRow(g, r, c, label, hc, w, &m); err != nil {
				return m, false, err
			}
			continue
		}
		if !filled(g, r, vals) {
			continue
		}
		if footer {
			// Signatures and notes may follow the totals; a numbered hand
			// may not.
			if _, ok, _ := g.number(hc.hand, r); ok && m.Err == nil {
				m.Err = cellErrf(g.sheet, hc.hand, r, "xlsx.hand_after_total")
			}
			continue
		}
		h, err := readHand(g, r, hc)
		if err != nil {
			return m, false, err
		}
		hands = append(hands, h)
	}
	if len(hands) == 0 && len(w) == 0 {
		return m, false, nil
	}
	if len(hands) == 0 && m.Err == nil {
		m.Err = cellErrf(g.sheet, hc.hand, hrow, "xlsx.totals_no_hands")
	}
	if err := orderHands(g, hc, hands); err != nil && m.Err == nil {
		m.Err = err
	}
	sh.Hands = make([]domain.Hand, len(hands))
	if len(hands) > 0 {
		sh.Cells["/hands"] = cellRef(g.sheet, handCell(hc), hands[0].row)
	}
	for i, h := range hands {
		sh.Hands[i] = h.hand
		addHandCells(sh.Cells, g.sheet, i, h.row, hc, h.hand)
	}
	w.apply(&sh, g.sheet)
	m.Sheet = sh
	return m, true, nil
}

// readPaperLabels reads the label/value block above the hand header row:
// each label's value is the next filled cell to its right, unless that is
// another label (a label left blank). The first of a repeated label counts.
func readPaperLabels(g *grid, hrow int, sh *domain.Sheet) error {
	seen := map[string]bool{}
	for r := 1; r < hrow; r++ {
		for c := 1; c <= len(g.rows[r-1]); c++ {
			label, ok := lookup(paperLabels, g.text(c, r))
			if !ok {
				continue
			}
			vc := nextFilled(g, r, c+1)
			if vc == 0 {
				break
			}
			if _, isLabel := lookup(paperLabels, g.text(vc, r)); isLabel {
				continue
			}
			c = vc
			if seen[label] {
				continue
			}
			seen[label] = true
			v, ref := g.text(vc, r), cellRef(g.sheet, vc, r)
			switch label {
			case fTournament:
				sh.Tournament = v
				sh.Cells["/tournament"] = ref
			case fRound, fTable:
				n, err := g.positive(vc, r, label)
				if err != nil {
					return err
				}
				if label == fRound {
					sh.Round = n
				} else {
					sh.Table = n
				}
				sh.Cells["/"+label] = ref
			default:
				for _, l := range domain.Lines {
					switch label {
					case lineField(l, fID):
						if sh.Kind == domain.KindIndividual {
							ids, ok := SplitPlayerIDs(v)
							if !ok {
								return cellErrf(g.sheet, vc, r, "xlsx.individual_ids", l.Label(), v)
							}
							sh.Sides[l].IDs = ids
							sh.Cells["/"+l.String()+"/ids"] = ref
							break
						}
						sh.Sides[l].ID = v
						sh.Cells["/"+l.String()+"/id"] = ref
					case lineField(l, fPlayers):
						// Individual: "Giocatori NS" may name the line's two
						// players by their numbers ("3 - 11").
						if ids, ok := SplitPlayerIDs(v); ok && sh.Kind == domain.KindIndividual && allDigits(ids) {
							if sh.Sides[l].IDs == nil {
								sh.Sides[l].IDs = ids
								sh.Cells["/"+l.String()+"/ids"] = ref
							}
							break
						}
						sh.Sides[l].Players = splitPlayers(v)
						sh.Cells["/"+l.String()+"/players"] = ref
					}
				}
			}
		}
	}
	return nil
}

// footerLabel finds a Totale/MP/VP label in a row, in a cell that is not a
// hand value column; it returns the field and the label's column.
func footerLabel(g *grid, r int, isValueCol map[int]bool) (string, int) {
	for c := 1; c <= len(g.rows[r-1]); c++ {
		if isValueCol[c] {
			continue
		}
		if t := g.text(c, r); t != "" {
			if f, ok := lookup(footerLabels, t); ok {
				return f, c
			}
		}
	}
	return "", 0
}

// readFooterRow reads a footer row: each line's value under its Totale
// column (API §5 B).
func readFooterRow(g *grid, r, labelCol int, label string, hc handCols, w written, m *Match) error {
	for _, l := range domain.Lines {
		col := hc.lines[l].total
		if col == 0 {
			continue
		}
		v, ok, err := g.number(col, r)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		name := lineField(l, label)
		if prev := w[name]; prev != nil {
			if m.Err == nil {
				m.Err = cellErrf(g.sheet, labelCol, r, "xlsx.second_row", g.text(labelCol, r), prev.row)
			}
			continue
		}
		w[name] = &writtenCell{v, col, r}
	}
	return nil
}
