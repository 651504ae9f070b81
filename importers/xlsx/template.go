package xlsx

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
)

// templateHand is one hand of the template's example match: a fitab-2025
// hand whose every column agrees with RULES §4-5 (base = bonuses + 100 for
// the line that closed; both pozzetti taken).
type templateHand struct {
	base, points [2]int
	closer       domain.Line
	burrachi     [2]string
}

var templateHands = []templateHand{
	{base: [2]int{300, 100}, points: [2]int{155, 40}, closer: domain.NS, burrachi: [2]string{"pulito 1", "sporco 1"}},
	{base: [2]int{150, 450}, points: [2]int{-20, 210}, closer: domain.EO, burrachi: [2]string{"semipulito 1", "pulito 1, semipulito 1"}},
	{base: [2]int{600, 0}, points: [2]int{280, -75}, closer: domain.NS, burrachi: [2]string{"reale 1, pulito 1", "nessuno"}},
	{base: [2]int{250, 300}, points: [2]int{120, 135}, closer: domain.EO, burrachi: [2]string{"super 1", "pulito 1"}},
}

// Template returns a blank workbook in the tidy layout (API §5 A) for
// rounds of the given planned hands (2, 3 or 4): the sheets Smazzate,
// Risultati and Torneo with their headers, drop-down lists for the
// enumerated columns and settings, and one filled example match (round 1,
// table 1) that imports and validates cleanly.
func Template(hands int) ([]byte, error) {
	if hands < 2 || hands > len(templateHands) {
		return nil, fmt.Errorf("%w: hands %d: must be 2, 3 or 4", domain.ErrInvalid, hands)
	}
	f := excelize.NewFile()
	defer f.Close()
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, err
	}
	w := &templateWriter{f: f, bold: bold}
	w.handsSheet(hands)
	w.resultsSheet(hands)
	w.tournamentSheet(hands)
	if w.err != nil {
		return nil, w.err
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// templateWriter keeps the first error, so the sheet builders read as a
// list of cells.
type templateWriter struct {
	f    *excelize.File
	bold int
	err  error
}

func (w *templateWriter) do(err error) {
	if w.err == nil {
		w.err = err
	}
}

func (w *templateWriter) row(sheet string, r int, values []any) {
	cell, err := excelize.CoordinatesToCellName(1, r)
	w.do(err)
	w.do(w.f.SetSheetRow(sheet, cell, &values))
}

func (w *templateWriter) header(sheet string, heads []string) {
	values := make([]any, len(heads))
	for i, h := range heads {
		values[i] = h
	}
	w.row(sheet, 1, values)
	last, _ := excelize.CoordinatesToCellName(len(heads), 1)
	w.do(w.f.SetCellStyle(sheet, "A1", last, w.bold))
	w.do(w.f.SetPanes(sheet, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}))
	lastCol, _ := excelize.ColumnNumberToName(len(heads))
	w.do(w.f.SetColWidth(sheet, "A", lastCol, 13))
}

// list adds a drop-down list to the cells of sqref.
func (w *templateWriter) list(sheet, sqref string, values []string) {
	dv := excelize.NewDataValidation(true)
	dv.Sqref = sqref
	w.do(dv.SetDropList(values))
	w.do(w.f.AddDataValidation(sheet, dv))
}

// column is the range of a column below its header, as far as the row cap.
func column(col int) string {
	name, _ := excelize.ColumnNumberToName(col)
	return name + "2:" + name + strconv.Itoa(DefaultMaxRows)
}

const (
	templateHandsSheet   = "Smazzate"
	templateResultsSheet = "Risultati"
	templateTourneySheet = "Torneo"
)

func (w *templateWriter) handsSheet(hands int) {
	s := templateHandsSheet
	w.do(w.f.SetSheetName("Sheet1", s))
	w.header(s, templateHandHeads)
	for h := 1; h <= hands; h++ {
		th := templateHands[h-1]
		row := []any{1, 1, h, "1", "2"}
		for _, l := range domain.Lines {
			row = append(row, th.base[l], th.points[l], th.base[l]+th.points[l])
		}
		closed := [2]string{"no", "no"}
		closed[th.closer] = "sì"
		row = append(row, "chiusura", closed[domain.NS], closed[domain.EO], "preso", "preso", th.burrachi[domain.NS], th.burrachi[domain.EO])
		w.row(s, h+1, row)
	}
	// Columns L..R: Fine, NS/EO Chiusura, NS/EO Pozzetto (templateHandHeads).
	w.list(s, column(12), templateEnds)
	w.list(s, column(13)+" "+column(14), templateBools)
	w.list(s, column(15)+" "+column(16), templatePozzetti)
}

// resultsSheet writes the example match's bottom line as RULES §6 computes
// it: totals, MP difference, and VP from the table of the planned hands.
func (w *templateWriter) resultsSheet(hands int) {
	s := templateResultsSheet
	_, err := w.f.NewSheet(s)
	w.do(err)
	w.header(s, templateResultHeads)
	var total [2]int
	for _, th := range templateHands[:hands] {
		for _, l := range domain.Lines {
			total[l] += th.base[l] + th.points[l]
		}
	}
	diff := total[domain.NS] - total[domain.EO]
	table := domain.ChooseVPTable(domain.FITAB2025, domain.KindPairs, hands, hands, domain.VPTable{})
	win, lose := table.Lookup(diff)
	vp := [2]int{win, lose}
	if diff < 0 {
		vp = [2]int{lose, win}
	}
	w.row(s, 2, []any{1, 1, total[domain.NS], total[domain.EO], diff, -diff, vp[domain.NS], vp[domain.EO]})
}

func (w *templateWriter) tournamentSheet(hands int) {
	s := templateTourneySheet
	_, err := w.f.NewSheet(s)
	w.do(err)
	w.row(s, 1, []any{"ruleset", string(domain.FITAB2025)})
	w.row(s, 2, []any{"hands_planned", hands})
	w.row(s, 3, []any{"name", ""})
	w.row(s, 4, []any{"level", ""})
	w.do(w.f.SetCellStyle(s, "A1", "A4", w.bold))
	w.do(w.f.SetColWidth(s, "A", "B", 24))
	w.list(s, "B1", templateRulesets)
	w.list(s, "B2", []string{"2", "3", "4"})
	w.list(s, "B4", templateLevels)
}
