package workbook

import (
	"archive/zip"
	"compress/flate"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// WriteTournament writes the tournament workbook of API §6 to w: the sheets
// Torneo, Classifica, Turni, Smazzate, Rettifiche, Correzioni and Premi, each with
// a bold, frozen, filtered header row.
func WriteTournament(w io.Writer, t TournamentExport) error {
	b, err := newBook(t.Location)
	if err != nil {
		return err
	}
	defer b.close()
	props := &excelize.DocProperties{Creator: "segnapunti", Title: t.Tournament.Name}
	if !t.ExportedAt.IsZero() {
		props.Created = t.ExportedAt.UTC().Format(time.RFC3339)
	}
	if err := b.f.SetDocProps(props); err != nil {
		return fmt.Errorf("workbook: document properties: %w", err)
	}
	for _, tb := range tournamentTables(t) {
		if err := b.writeTable(tb); err != nil {
			return err
		}
	}
	return b.save(w)
}

// WriteSeason writes the season workbook of API §6 to w: one row per player
// and tournament (sheet Partecipazioni) and one per player for the season
// (sheet Totali). Both iterators are read once, rows first.
func WriteSeason(w io.Writer, rows iter.Seq2[SeasonRow, error], totals iter.Seq2[SeasonTotal, error]) error {
	b, err := newBook(nil)
	if err != nil {
		return err
	}
	defer b.close()
	if err := b.f.SetDocProps(&excelize.DocProperties{Creator: "segnapunti"}); err != nil {
		return fmt.Errorf("workbook: document properties: %w", err)
	}
	for _, tb := range []table{partecipazioniTable(rows), totaliTable(totals)} {
		if err := b.writeTable(tb); err != nil {
			return err
		}
	}
	return b.save(w)
}

// book is a workbook being streamed.
type book struct {
	f   *excelize.File
	loc *time.Location
	// Style ids: the header row, dates, date-times, and risky text (see
	// the package comment).
	bold, date, stamp, text int
	maxRows                 int // rows per sheet, header included
	sheets                  int // sheets started so far
}

// exportFont is the one font of every cell, headers and body (
// mixed fonts looked broken in Italian Excel); exportFontSize in points.
const (
	exportFont     = "Calibri"
	exportFontSize = 11
)

func newBook(loc *time.Location) (*book, error) {
	if loc == nil {
		loc = time.UTC
	}
	b := &book{f: excelize.NewFile(), loc: loc, maxRows: excelize.TotalRows}
	if err := b.f.SetDefaultFont(exportFont); err != nil {
		return nil, b.styleErr(err)
	}
	font := func(bold bool) *excelize.Font {
		return &excelize.Font{Family: exportFont, Size: exportFontSize, Bold: bold}
	}
	var err error
	if b.bold, err = b.f.NewStyle(&excelize.Style{Font: font(true)}); err != nil {
		return nil, b.styleErr(err)
	}
	dateFmt, stampFmt := "dd/mm/yyyy", "dd/mm/yyyy hh:mm"
	if b.date, err = b.f.NewStyle(&excelize.Style{Font: font(false), CustomNumFmt: &dateFmt}); err != nil {
		return nil, b.styleErr(err)
	}
	if b.stamp, err = b.f.NewStyle(&excelize.Style{Font: font(false), CustomNumFmt: &stampFmt}); err != nil {
		return nil, b.styleErr(err)
	}
	// Created last: NewStyle reuses an equal style, and this one is then
	// marked quotePrefix, which excelize.Style cannot express.
	if b.text, err = b.f.NewStyle(&excelize.Style{Font: font(false), Alignment: &excelize.Alignment{Horizontal: "left"}}); err != nil {
		return nil, b.styleErr(err)
	}
	xfs := b.f.Styles.CellXfs
	if xfs == nil || b.text <= 0 || b.text >= len(xfs.Xf) {
		return nil, b.styleErr(fmt.Errorf("style %d not found", b.text))
	}
	quote := true
	xfs.Xf[b.text].QuotePrefix = &quote
	return b, nil
}

func (b *book) styleErr(err error) error {
	_ = b.f.Close()
	return fmt.Errorf("workbook: styles: %w", err)
}

func (b *book) close() { _ = b.f.Close() } // removes the stream writers' temporary files

// save writes the archive straight to w. excelize's File.Write assembles the
// whole zip in a bytes.Buffer first; handing it a zip writer bound to w
// keeps memory flat. (The buffer it still passes in stays empty. Its only
// other use is patching the local headers of parts over 4 GB for Excel;
// at the 1,048,576-row cap that takes rows over 4 KB of XML, while these
// tables' rows are 300-1,000 bytes.)
//
// Parts are deflated at flate.BestSpeed: measured on the 1,000,000-row
// season (BenchmarkSeason) it halves the CPU time of the default level
// (6.8 s against 13 s) for a file a third larger (65 MB against 49 MB);
// the export is made on request, on a server, and CPU is what is scarce.
func (b *book) save(w io.Writer) error {
	b.f.SetZipWriter(func(io.Writer) excelize.ZipWriter {
		zw := zip.NewWriter(w)
		zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
			return flate.NewWriter(out, flate.BestSpeed)
		})
		return zw
	})
	if _, err := b.f.WriteToBuffer(); err != nil {
		return fmt.Errorf("workbook: writing: %w", err)
	}
	return nil
}

// writeTable streams one table, continuing on "<name> (2)", ... when it
// outgrows a sheet.
func (b *book) writeTable(tb table) error {
	name := tb.name
	sw, err := b.startSheet(name, tb.columns)
	if err != nil {
		return err
	}
	row, part := 1, 1
	out := make([]any, len(tb.columns))
	for cells, err := range tb.rows {
		if err != nil {
			return fmt.Errorf("workbook: sheet %s, row %d: %w", name, row+1, err)
		}
		if row == b.maxRows {
			if err := b.finishSheet(sw, name, len(tb.columns), row); err != nil {
				return err
			}
			part++
			name = tb.name + " (" + strconv.Itoa(part) + ")"
			if sw, err = b.startSheet(name, tb.columns); err != nil {
				return err
			}
			row = 1
		}
		row++
		b.convert(out, cells)
		if err := sw.SetRow("A"+strconv.Itoa(row), out); err != nil {
			return fmt.Errorf("workbook: sheet %s, row %d: %w", name, row, err)
		}
	}
	return b.finishSheet(sw, name, len(tb.columns), row)
}

// startSheet adds a sheet and writes its header: widths and panes must come
// before the first row (StreamWriter).
func (b *book) startSheet(name string, cols []column) (*excelize.StreamWriter, error) {
	var err error
	if b.sheets == 0 {
		err = b.f.SetSheetName("Sheet1", name)
	} else {
		_, err = b.f.NewSheet(name)
	}
	if err != nil {
		return nil, fmt.Errorf("workbook: sheet %s: %w", name, err)
	}
	b.sheets++
	if err := b.pageSetup(name, cols); err != nil {
		return nil, err
	}
	sw, err := b.f.NewStreamWriter(name)
	if err != nil {
		return nil, fmt.Errorf("workbook: sheet %s: %w", name, err)
	}
	// Right to left: excelize puts each new <col> before the ones it has,
	// and Excel wants them in ascending order.
	for i := len(cols) - 1; i >= 0; i-- {
		if err := sw.SetColWidth(i+1, i+1, cols[i].width); err != nil {
			return nil, fmt.Errorf("workbook: sheet %s, column %d width: %w", name, i+1, err)
		}
	}
	header := make([]any, len(cols))
	for i, c := range cols {
		header[i] = excelize.Cell{StyleID: b.bold, Value: c.header}
	}
	// Freeze the header row: rows scroll under it.
	if err := sw.SetPanes(&excelize.Panes{
		Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	}); err != nil {
		return nil, fmt.Errorf("workbook: sheet %s panes: %w", name, err)
	}
	if err := sw.SetRow("A1", header); err != nil {
		return nil, fmt.Errorf("workbook: sheet %s header: %w", name, err)
	}
	return sw, nil
}

// wideColumns: a sheet wider than this many characters of columns prints
// landscape.
const wideColumns = 100

// pageSetup makes a sheet print well: A4, landscape when wide, scaled to
// one page wide (as many pages tall as it takes), the header row repeated
// on every page. It must run before the sheet's StreamWriter is made: the
// StreamWriter writes <sheetPr> (which holds fitToPage) when it starts,
// and <pageSetup> from the same worksheet at Flush.
func (b *book) pageSetup(name string, cols []column) error {
	width := 0.0
	for _, c := range cols {
		width += c.width
	}
	orientation := "portrait"
	if width > wideColumns {
		orientation = "landscape"
	}
	fit := true
	a4, one, any := 9, 1, 0
	if err := b.f.SetSheetProps(name, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
		return fmt.Errorf("workbook: sheet %s page setup: %w", name, err)
	}
	if err := b.f.SetPageLayout(name, &excelize.PageLayoutOptions{
		Size: &a4, Orientation: &orientation, FitToWidth: &one, FitToHeight: &any,
	}); err != nil {
		return fmt.Errorf("workbook: sheet %s page setup: %w", name, err)
	}
	if err := b.f.SetDefinedName(&excelize.DefinedName{
		Name: "_xlnm.Print_Titles", RefersTo: sheetRef(name) + "!$1:$1", Scope: name,
	}); err != nil {
		return fmt.Errorf("workbook: sheet %s print titles: %w", name, err)
	}
	return nil
}

// sheetRef is a sheet name as a formula writes it: always quoted, quotes
// doubled.
func sheetRef(name string) string {
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

// finishSheet puts the filter on the header over every written row and
// flushes. The filter is stored in the worksheet the StreamWriter writes
// at Flush, so it must be set after the rows and before Flush.
func (b *book) finishSheet(sw *excelize.StreamWriter, name string, ncols, lastRow int) error {
	last, err := excelize.ColumnNumberToName(ncols)
	if err != nil {
		return fmt.Errorf("workbook: sheet %s: %w", name, err)
	}
	if err := b.f.AutoFilter(name, "A1:"+last+strconv.Itoa(lastRow), nil); err != nil {
		return fmt.Errorf("workbook: sheet %s filter: %w", name, err)
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("workbook: sheet %s: %w", name, err)
	}
	return nil
}

// convert turns a table row into StreamWriter values.
func (b *book) convert(out, cells []any) {
	for i, v := range cells {
		switch v := v.(type) {
		case string:
			switch {
			case v == "":
				out[i] = nil
			case risky(v):
				out[i] = excelize.Cell{StyleID: b.text, Value: v}
			default:
				out[i] = v
			}
		case calDate:
			out[i] = b.dateCell(time.Time(v), false)
		case instant:
			out[i] = b.dateCell(time.Time(v), true)
		default: // int or nil
			out[i] = v
		}
	}
}

// Days Excel shows as dates: serial 61 (1900-03-01, the first after the
// 1900 leap-year bug) to 9999-12-31. Unix seconds, UTC.
const (
	excelFirst = -2203891200  // 1900-03-01
	excelEnd   = 253402300800 // 10000-01-01
)

// dateCell is a real date: excelize writes a time.Time as its serial
// number, from its wall clock, under the date style. A zero time is an
// empty cell; a day Excel cannot show is ISO text.
func (b *book) dateCell(t time.Time, withTime bool) any {
	if t.IsZero() {
		return nil
	}
	style := b.date
	if withTime {
		t = t.In(b.loc)
		style = b.stamp
	}
	y, m, d := t.Date()
	wall := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if withTime {
		wall = time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	}
	if sec := wall.Unix(); sec < excelFirst || sec >= excelEnd {
		if withTime {
			return t.Format(time.RFC3339)
		}
		return t.Format(time.DateOnly)
	}
	return excelize.Cell{StyleID: style, Value: wall}
}

// risky reports whether a spreadsheet could take the text for a formula or
// a command (OWASP CSV injection): it starts with =, +, -, @, a tab, CR or
// LF, or a full-width =, +, - or @, which some spreadsheets fold to ASCII.
func risky(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r', '\n':
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	switch r {
	case '＝', '＋', '－', '＠':
		return true
	}
	return false
}
