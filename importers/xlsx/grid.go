package xlsx

import (
	"errors"
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// grid is one worksheet's cell values as stored: the cached value of a
// formula, never a number formatted for display. It is read through
// excelize's streaming row iterator within the row and column caps, so a
// hostile sheet costs at most MaxRows rows of MaxColumns cells.
type grid struct {
	sheet string
	rows  [][]string // rows[i] is row i+1
	f     *excelize.File
}

var rawValues = excelize.Options{RawCellValue: true}

// readGrid reads a worksheet. A row beyond the row cap is an error if it
// holds anything; empty rows there (formatting only) are skipped, but no
// more of them than the cap. cells counts the non-empty cells read in the
// whole workbook, against lim.cells; a cell's text is at most lim.cellText
// bytes (inline strings are not in the shared-strings check).
func readGrid(f *excelize.File, sheet string, lim limits, cells *int) (*grid, error) {
	it, err := f.Rows(sheet)
	if err != nil {
		return nil, fmt.Errorf("%w: sheet %s cannot be read: %v", ErrNotWorkbook, quoteSheet(sheet), err)
	}
	defer it.Close()
	g := &grid{sheet: sheet, f: f}
	row, emptyBeyond := 0, 0
	for it.Next() {
		row++
		cols, err := it.Columns(rawValues)
		if err != nil {
			return nil, fmt.Errorf("%w: sheet %s, row %d cannot be read: %v", ErrNotWorkbook, quoteSheet(sheet), row, err)
		}
		if len(cols) > lim.cols {
			for c := lim.cols; c < len(cols); c++ {
				if strings.TrimSpace(cols[c]) != "" {
					return nil, fmt.Errorf("%w: %w", ErrTooLarge, cellErrf(sheet, c+1, row, "xlsx.beyond_columns", lim.cols))
				}
			}
			cols = cols[:lim.cols]
		}
		for c, v := range cols {
			if v == "" {
				continue
			}
			if len(v) > lim.cellText {
				return nil, fmt.Errorf("%w: %w", ErrTooLarge, cellErrf(sheet, c+1, row, "xlsx.cell_text", len(v), lim.cellText))
			}
			if *cells++; *cells > lim.cells {
				return nil, fmt.Errorf("%w: %w", ErrTooLarge, cellErrf(sheet, c+1, row, "xlsx.cells", lim.cells))
			}
		}
		if row > lim.rows {
			if !blank(cols) {
				return nil, fmt.Errorf("%w: sheet %s has more than %d rows", ErrTooLarge, quoteSheet(sheet), lim.rows)
			}
			if emptyBeyond++; emptyBeyond > lim.rows {
				return nil, fmt.Errorf("%w: sheet %s has more than %d rows (most of them empty)", ErrTooLarge, quoteSheet(sheet), lim.rows)
			}
			continue
		}
		g.rows = append(g.rows, cols)
	}
	if err := it.Error(); err != nil {
		if errors.Is(err, excelize.ErrMaxRows) {
			return nil, fmt.Errorf("%w: sheet %s has more than %d rows", ErrTooLarge, quoteSheet(sheet), lim.rows)
		}
		return nil, fmt.Errorf("%w: sheet %s cannot be read: %v", ErrNotWorkbook, quoteSheet(sheet), err)
	}
	for len(g.rows) > 0 && blank(g.rows[len(g.rows)-1]) {
		g.rows = g.rows[:len(g.rows)-1]
	}
	return g, nil
}

func blank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// text is the trimmed value of the cell at (col, row), both 1-based; "" when
// the cell is empty or absent.
func (g *grid) text(col, row int) string {
	if col < 1 || row < 1 || row > len(g.rows) {
		return ""
	}
	r := g.rows[row-1]
	if col > len(r) {
		return ""
	}
	return strings.TrimSpace(r[col-1])
}

// number reads the cell at (col, row) as a whole number; ok is false when
// it is empty. A cell stored as a number is read as one; a text cell goes
// through ParseNumber. The two differ only on values like "1.530" (1.53 as a
// stored number, 1530 as Italian text): for those the cell's type decides.
func (g *grid) number(col, row int) (v int, ok bool, err error) {
	raw := g.text(col, row)
	if raw == "" {
		return 0, false, nil
	}
	if storedNumberForm(raw) {
		typ, terr := g.f.GetCellType(g.sheet, cellName(col, row))
		if terr != nil {
			return 0, false, cellErr(g.sheet, col, row, terr)
		}
		if typ == excelize.CellTypeUnset || typ == excelize.CellTypeNumber {
			v, err = parseStoredNumber(raw)
			if err != nil {
				return 0, false, cellErr(g.sheet, col, row, err)
			}
			return v, true, nil
		}
	}
	v, err = ParseNumber(raw)
	if err != nil {
		return 0, false, cellErr(g.sheet, col, row, err)
	}
	return v, true, nil
}

// required reads a number that must be there.
func (g *grid) required(col, row int) (int, error) {
	v, ok, err := g.number(col, row)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, cellErr(g.sheet, col, row, &NumberError{Reason: reasonEmpty})
	}
	return v, nil
}

// optional reads a number that may be missing (nil).
func (g *grid) optional(col, row int) (*int, error) {
	if col == 0 {
		return nil, nil
	}
	v, ok, err := g.number(col, row)
	if err != nil || !ok {
		return nil, err
	}
	return &v, nil
}

// positive reads a required number of at least 1 (a round, table or hand).
func (g *grid) positive(col, row int, what string) (int, error) {
	v, err := g.required(col, row)
	if err != nil {
		return 0, err
	}
	if v < 1 {
		return 0, cellErrf(g.sheet, col, row, "xlsx.positive", whatWord(what), v)
	}
	return v, nil
}

// header finds the header row among the first rows of the sheet: the first
// row that names every required field. It returns the row and the column
// of each field it names (1-based), and notes on cells it did not
// recognise.
func (g *grid) header(table map[string]string, required []string, maxRow int) (row int, cols map[string]int, ignored []string, err error) {
	best, bestCount := 0, -1
	for r := 1; r <= min(maxRow, len(g.rows)); r++ {
		found := map[string]int{}
		for c := 1; c <= len(g.rows[r-1]); c++ {
			if f, ok := lookup(table, g.text(c, r)); ok {
				if _, dup := found[f]; !dup {
					found[f] = c
				}
			}
		}
		if hasAll(found, required) {
			cols, ignored, err = g.headerColumns(table, r)
			return r, cols, ignored, err
		}
		if len(found) > bestCount {
			best, bestCount = r, len(found)
		}
	}
	var missing []string
	if best > 0 {
		found := map[string]int{}
		for c := 1; c <= len(g.rows[best-1]); c++ {
			if f, ok := lookup(table, g.text(c, best)); ok {
				found[f] = c
			}
		}
		for _, f := range required {
			if _, ok := found[f]; !ok {
				missing = append(missing, f)
			}
		}
	} else {
		missing = required
	}
	return 0, nil, nil, fmt.Errorf("%w: %w", ErrLayout, sheetErrf(g.sheet,
		"xlsx.no_header",
		maxRow, strings.Join(required, ", "), strings.Join(missing, ", ")))
}

// headerColumns maps the header row's cells to fields; a field named twice
// is an error (which column would hold it?).
func (g *grid) headerColumns(table map[string]string, r int) (map[string]int, []string, error) {
	cols := map[string]int{}
	var ignored []string
	for c := 1; c <= len(g.rows[r-1]); c++ {
		t := g.text(c, r)
		if t == "" {
			continue
		}
		f, ok := lookup(table, t)
		if !ok {
			ignored = append(ignored, fmt.Sprintf("%s %q: column not recognised, not read", cellRef(g.sheet, c, r), t))
			continue
		}
		if prev, dup := cols[f]; dup {
			return nil, nil, cellErrf(g.sheet, c, r, "xlsx.column_again", t, f, cellName(prev, r))
		}
		cols[f] = c
	}
	return cols, ignored, nil
}

func hasAll(found map[string]int, fields []string) bool {
	for _, f := range fields {
		if _, ok := found[f]; !ok {
			return false
		}
	}
	return true
}
