package xlsx

import (
	"bytes"
	"fmt"
	"slices"
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
// Risultati and Torneo with their headers only, and drop-down lists for
// the enumerated columns and settings; then a sheet Istruzioni with how to
// fill them in and one filled example match (round 1, table 1). The reader
// never reads an Istruzioni sheet, so the unchanged template imports no
// match at all (an uploaded blank template replaced a real
// round 1, table 1), and the example, copied into Smazzate and Risultati,
// validates cleanly.
func Template(hands int) ([]byte, error) { return TemplateFor(hands, domain.KindPairs) }

// TemplateFor is Template for a tournament of the given kind: for an
// individual tournament the Torneo sheet says kind individual, the
// instructions say that each line's cell names its two players ("3-11",
// SplitPlayerIDs), and the example seats players 1-2 against 3-4.
func TemplateFor(hands int, kind domain.Kind) ([]byte, error) {
	if hands < 2 || hands > len(templateHands) {
		return nil, fmt.Errorf("%w: hands %d: must be 2, 3 or 4", domain.ErrInvalid, hands)
	}
	if kind == "" {
		kind = domain.KindPairs
	}
	if !slices.Contains(domain.Kinds, kind) {
		return nil, fmt.Errorf("%w: kind %q: must be pairs, individual, teams or international", domain.ErrInvalid, kind)
	}
	f := excelize.NewFile()
	defer f.Close()
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, err
	}
	w := &templateWriter{f: f, bold: bold, kind: kind}
	w.handsSheet()
	w.resultsSheet()
	w.tournamentSheet(hands)
	w.instructionsSheet(hands)
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
	kind domain.Kind
	err  error
}

// exampleLines are the example match's NS and EO cells.
func (w *templateWriter) exampleLines() [2]string {
	if w.kind == domain.KindIndividual {
		return [2]string{"1-2", "3-4"}
	}
	return [2]string{"1", "2"}
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
	w.headRow(sheet, 1, heads)
	w.do(w.f.SetPanes(sheet, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}))
	lastCol, _ := excelize.ColumnNumberToName(len(heads))
	w.do(w.f.SetColWidth(sheet, "A", lastCol, 13))
}

// headRow writes a bold row of headers at row r.
func (w *templateWriter) headRow(sheet string, r int, heads []string) {
	values := make([]any, len(heads))
	for i, h := range heads {
		values[i] = h
	}
	w.row(sheet, r, values)
	first, _ := excelize.CoordinatesToCellName(1, r)
	last, _ := excelize.CoordinatesToCellName(len(heads), r)
	w.do(w.f.SetCellStyle(sheet, first, last, w.bold))
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
	templateInstrSheet   = "Istruzioni"
)

func (w *templateWriter) handsSheet() {
	s := templateHandsSheet
	w.do(w.f.SetSheetName("Sheet1", s))
	w.header(s, templateHandHeads)
	// Columns L..R: Fine, NS/EO Chiusura, NS/EO Pozzetto (templateHandHeads).
	w.list(s, column(12), templateEnds)
	w.list(s, column(13)+" "+column(14), templateBools)
	w.list(s, column(15)+" "+column(16), templatePozzetti)
}

func (w *templateWriter) resultsSheet() {
	s := templateResultsSheet
	_, err := w.f.NewSheet(s)
	w.do(err)
	w.header(s, templateResultHeads)
}

// exampleHandRows are the example match's rows of Smazzate: a fitab-2025
// match, round 1, table 1, pairs 1 and 2.
func exampleHandRows(hands int, lines [2]string) [][]any {
	rows := make([][]any, 0, hands)
	for h := 1; h <= hands; h++ {
		th := templateHands[h-1]
		row := []any{1, 1, h, lines[domain.NS], lines[domain.EO]}
		for _, l := range domain.Lines {
			row = append(row, th.base[l], th.points[l], th.base[l]+th.points[l])
		}
		closed := [2]string{"no", "no"}
		closed[th.closer] = "sì"
		row = append(row, "chiusura", closed[domain.NS], closed[domain.EO], "preso", "preso", th.burrachi[domain.NS], th.burrachi[domain.EO])
		rows = append(rows, row)
	}
	return rows
}

// exampleResultRow is the example match's bottom line as RULES §6 computes
// it: totals, MP difference, and VP from the table of the planned hands.
func exampleResultRow(hands int) []any {
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
	return []any{1, 1, total[domain.NS], total[domain.EO], diff, -diff, vp[domain.NS], vp[domain.EO]}
}

// Where the example sits on the Istruzioni sheet (the tests copy it).
const (
	exampleHandHeadRow = 9 // the Smazzate header; its hands follow
)

// exampleResultHeadRow is the row of the example's Risultati header.
func exampleResultHeadRow(hands int) int { return exampleHandHeadRow + hands + 2 }

var templateInstructions = []string{
	"Come compilare questo modello",
	"1. Foglio Torneo: scegliete il regolamento (ruleset) e le smazzate per turno (hands_planned).",
	"2. Foglio Smazzate: una riga per smazzata, con turno, tavolo, numero della smazzata e le coppie NS ed EO.",
	"3. Foglio Risultati (facoltativo): una riga per tavolo con totali, MP e VP scritti sul foglio di gara.",
	"4. Questo foglio (Istruzioni) non viene mai importato: l'esempio qui sotto serve solo da guida.",
}

// instructionsSheet writes how to fill in the template and the example
// match. The sheet's name is one the reader skips (sheetInstructions).
func (w *templateWriter) instructionsSheet(hands int) {
	s := templateInstrSheet
	_, err := w.f.NewSheet(s)
	w.do(err)
	instr := templateInstructions
	if w.kind == domain.KindIndividual {
		instr = slices.Clone(instr)
		instr[2] = "2. Foglio Smazzate: una riga per smazzata, con turno, tavolo, numero della smazzata e, nelle colonne NS ed EO, i due giocatori di ciascuna linea: torneo individuale, es. 3-11 (separatori ammessi: - / , ; + & o spazi)."
	}
	for i, line := range instr {
		w.row(s, i+1, []any{line})
	}
	w.do(w.f.SetCellStyle(s, "A1", "A1", w.bold))
	w.row(s, exampleHandHeadRow-1, []any{"ESEMPIO (non viene importato): turno 1, tavolo 1, foglio Smazzate"})
	w.do(w.f.SetCellStyle(s, cellName(1, exampleHandHeadRow-1), cellName(1, exampleHandHeadRow-1), w.bold))
	w.headRow(s, exampleHandHeadRow, templateHandHeads)
	for i, row := range exampleHandRows(hands, w.exampleLines()) {
		w.row(s, exampleHandHeadRow+1+i, row)
	}
	rh := exampleResultHeadRow(hands)
	w.row(s, rh-1, []any{"ESEMPIO (non viene importato): foglio Risultati"})
	w.do(w.f.SetCellStyle(s, cellName(1, rh-1), cellName(1, rh-1), w.bold))
	w.headRow(s, rh, templateResultHeads)
	w.row(s, rh+1, exampleResultRow(hands))
	lastCol, _ := excelize.ColumnNumberToName(len(templateHandHeads))
	w.do(w.f.SetColWidth(s, "A", lastCol, 13))
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
	if w.kind != domain.KindPairs {
		w.row(s, 5, []any{"kind", string(w.kind)})
		w.do(w.f.SetCellStyle(s, "A5", "A5", w.bold))
	}
	w.do(w.f.SetColWidth(s, "A", "B", 24))
	w.list(s, "B1", templateRulesets)
	w.list(s, "B2", []string{"2", "3", "4"})
	w.list(s, "B4", templateLevels)
}
