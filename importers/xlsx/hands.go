package xlsx

import (
	"slices"
	"strconv"

	"segnapunti/domain"
)

// lineCols are the columns (1-based, 0 when absent) of one line's fields.
type lineCols struct {
	id, players                  int
	base, points, total, running int
	closed, pozzetto, burrachi   int
}

// handCols are the columns of a hand row: the tidy Hands sheet or a paper
// sheet's hand rows.
type handCols struct {
	round, table, hand, end int
	lines                   [2]lineCols
}

func handColsFrom(cols map[string]int) handCols {
	hc := handCols{round: cols[fRound], table: cols[fTable], hand: cols[fHand], end: cols[fEnd]}
	for _, l := range domain.Lines {
		hc.lines[l] = lineCols{
			id:       cols[lineField(l, fID)],
			players:  cols[lineField(l, fPlayers)],
			base:     cols[lineField(l, fBase)],
			points:   cols[lineField(l, fPoints)],
			total:    cols[lineField(l, fTotal)],
			running:  cols[lineField(l, fRunningTotal)],
			closed:   cols[lineField(l, fClosed)],
			pozzetto: cols[lineField(l, fPozzetto)],
			burrachi: cols[lineField(l, fBurrachi)],
		}
	}
	return hc
}

// valueCols are the columns that hold what happened in a hand.
func (hc handCols) valueCols() []int {
	cs := []int{hc.end}
	for _, lc := range hc.lines {
		cs = append(cs, lc.base, lc.points, lc.total, lc.running, lc.closed, lc.pozzetto, lc.burrachi)
	}
	return slices.DeleteFunc(cs, func(c int) bool { return c == 0 })
}

// filled reports whether any of the columns holds a value in row r. A row
// whose value columns are all empty is not a hand: sheets come with the
// hand numbers (and, in the tidy layout, the round and table) pre-filled
// for hands that may never be played (a time-out).
func filled(g *grid, r int, cols []int) bool {
	for _, c := range cols {
		if g.text(c, r) != "" {
			return true
		}
	}
	return false
}

// handRow is one hand as read from its row, before the hands are put in
// play order.
type handRow struct {
	row  int
	num  int // the hand number written; 0 when none
	hand domain.Hand
}

// readHand reads the hand in row r. Base and points are required (API §1);
// every other field is optional. A value that cannot be read is an error
// naming its cell.
func readHand(g *grid, r int, hc handCols) (handRow, error) {
	hr := handRow{row: r}
	var err error
	if hc.hand != 0 && g.text(hc.hand, r) != "" {
		if hr.num, err = g.positive(hc.hand, r, "hand"); err != nil {
			return hr, err
		}
	}
	if hc.end != 0 {
		if hr.hand.End, err = parseHandEnd(g.text(hc.end, r)); err != nil {
			return hr, cellErr(g.sheet, hc.end, r, err)
		}
	}
	for _, l := range domain.Lines {
		lc, ls := hc.lines[l], &hr.hand.Lines[l]
		if ls.Base, err = g.required(lc.base, r); err != nil {
			return hr, err
		}
		if ls.Points, err = g.required(lc.points, r); err != nil {
			return hr, err
		}
		if ls.Total, err = g.optional(lc.total, r); err != nil {
			return hr, err
		}
		if ls.RunningTotal, err = g.optional(lc.running, r); err != nil {
			return hr, err
		}
		if lc.closed != 0 {
			if ls.Closed, err = parseClosed(g.text(lc.closed, r)); err != nil {
				return hr, cellErr(g.sheet, lc.closed, r, err)
			}
		}
		if lc.pozzetto != 0 {
			if ls.Pozzetto, err = parsePozzetto(g.text(lc.pozzetto, r)); err != nil {
				return hr, cellErr(g.sheet, lc.pozzetto, r, err)
			}
		}
		if lc.burrachi != 0 {
			if ls.Burrachi, err = parseBurrachi(g.text(lc.burrachi, r)); err != nil {
				return hr, cellErr(g.sheet, lc.burrachi, r, err)
			}
		}
	}
	return hr, nil
}

// maxHandsPerMatch bounds the hands of one match. A round plans 2 to 4
// (API §1); a few more are still a sheet to validate (RULES §6.3
// HANDS_EXCEED_PLANNED), many more are rows of other matches keyed wrongly.
const maxHandsPerMatch = 12

// orderHands puts the hands in play order: by their numbers, which must run
// 1, 2, 3 ... without a repeat or a gap, or, with no numbers, as the rows
// come. The error is the match's own (Match.Err).
func orderHands(g *grid, hc handCols, hs []handRow) error {
	if len(hs) > maxHandsPerMatch {
		return cellErrf(g.sheet, handCell(hc), hs[maxHandsPerMatch].row,
			"xlsx.too_many_hands", maxHandsPerMatch)
	}
	numbered := 0
	for _, h := range hs {
		if h.num != 0 {
			numbered++
		}
	}
	if numbered == 0 {
		return nil
	}
	if numbered < len(hs) {
		for _, h := range hs {
			if h.num == 0 {
				return cellErrf(g.sheet, hc.hand, h.row, "xlsx.hand_unnumbered")
			}
		}
	}
	slices.SortStableFunc(hs, func(a, b handRow) int { return a.num - b.num })
	for i, h := range hs {
		switch {
		case i > 0 && h.num == hs[i-1].num:
			return cellErrf(g.sheet, hc.hand, h.row, "xlsx.hand_twice", h.num, hs[i-1].row)
		case h.num != i+1:
			return cellErrf(g.sheet, hc.hand, h.row, "xlsx.hand_gap", h.num, i, i+1)
		}
	}
	return nil
}

// handCell is the column that stands for a whole hand row: its number, or
// its first value when the hands are not numbered.
func handCell(hc handCols) int {
	if hc.hand != 0 {
		return hc.hand
	}
	return hc.lines[domain.NS].base
}

// addHandCells records the cell of every value of hand i (0-based) read
// from row r, under its JSON pointer (domain.HandPointer's form), and the
// hand's and each line's own pointers ("/hands/1", "/hands/1/ns": the hand
// number and the line's base) for findings about a whole hand or line.
func addHandCells(cells map[string]string, sheet string, i, r int, hc handCols, h domain.Hand) {
	prefix := "/hands/" + strconv.Itoa(i)
	cells[prefix] = cellRef(sheet, handCell(hc), r)
	if h.End != domain.EndUnknown {
		cells[prefix+"/end"] = cellRef(sheet, hc.end, r)
	}
	for _, l := range domain.Lines {
		lc, ls := hc.lines[l], h.Lines[l]
		lp := prefix + "/" + l.String()
		cells[lp] = cellRef(sheet, lc.base, r)
		cells[lp+"/base"] = cells[lp]
		cells[lp+"/points"] = cellRef(sheet, lc.points, r)
		if ls.Total != nil {
			cells[lp+"/total"] = cellRef(sheet, lc.total, r)
		}
		if ls.RunningTotal != nil {
			cells[lp+"/running_total"] = cellRef(sheet, lc.running, r)
		}
		if ls.Closed != nil {
			cells[lp+"/closed"] = cellRef(sheet, lc.closed, r)
		}
		if ls.Pozzetto != domain.PozzettoUnknown {
			cells[lp+"/pozzetto"] = cellRef(sheet, lc.pozzetto, r)
		}
		if ls.Burrachi != nil {
			cells[lp+"/burrachi"] = cellRef(sheet, lc.burrachi, r)
		}
	}
}

// writtenCell is one written result read from a cell.
type writtenCell struct {
	v        int
	col, row int
}

// written holds the bottom of a sheet as read, per line and field
// (total, mp, vp, late_points).
type written map[string]*writtenCell

// apply puts the written results into the sheet and their cells into
// its Cells.
func (w written) apply(sh *domain.Sheet, sheet string) {
	for _, l := range domain.Lines {
		for _, f := range []string{fTotal, fMP, fVP, fLatePoints} {
			wc := w[lineField(l, f)]
			if wc == nil {
				continue
			}
			v := wc.v
			ref := cellRef(sheet, wc.col, wc.row)
			switch f {
			case fTotal:
				sh.Written[l].Total = &v
			case fMP:
				sh.Written[l].MP = &v
			case fVP:
				sh.Written[l].VP = &v
			case fLatePoints:
				sh.LatePoints[l] = v
				sh.Cells["/late_points/"+l.String()] = ref
				continue
			}
			sh.Cells[domain.WrittenPointer(l, f)] = ref
		}
	}
}
