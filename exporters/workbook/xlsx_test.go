package workbook

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

func writeSample(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteTournament(&buf, sample(t)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeSeason(t testing.TB, rows []SeasonRow, totals []SeasonTotal) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSeason(&buf, Slice(rows), Slice(totals)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The golden files are the workbooks read back cell by cell; review a diff
// against API §6 before accepting it with -update.
func TestWriteTournamentGolden(t *testing.T) {
	golden(t, "tournament.xlsx.txt", []byte(dump(t, writeSample(t))))
}

func TestWriteSeasonGolden(t *testing.T) {
	rows, totals := sampleSeason()
	golden(t, "season.xlsx.txt", []byte(dump(t, writeSeason(t, rows, totals))))
}

func TestTournamentSheetsAPI6(t *testing.T) {
	f := openBook(t, writeSample(t))
	want := []string{"Torneo", "Classifica", "Turni", "Smazzate", "Rettifiche", "Correzioni", "Premi"}
	if got := f.GetSheetList(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("sheets = %v, want %v", got, want)
	}
}

// API §6: a text value starting with =, +, -, @ is written so that no
// spreadsheet runs it; the value read back is the original text.
func TestFormulaInjectionWorkbookAPI6(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		quote bool // risky: gets the quotePrefix style
	}{
		{"HYPERLINK formula", hostile, true},
		{"DDE command", `=cmd|' /C calc'!A0`, true},
		{"plus", "+39 06 1234", true},
		{"minus", "-2+3", true},
		{"at sign", "@SUM(A1:A2)", true},
		{"tab then formula", "\t=1+1", true},
		{"carriage return then formula", "\r=1+1", true},
		{"full-width equals", "＝1+1", true},
		{"equals inside is harmless", "Rossi = Anna", false},
		{"plain name", "Rossi Anna", false},
		{"looks like a number", "123", false},
	}
	var rows []SeasonRow
	for _, tc := range tests {
		rows = append(rows, SeasonRow{Player: tc.text, Membership: tc.text, Tournament: "T", Rank: 1})
	}
	f := openBook(t, writeSeason(t, rows, nil))
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, col := range []string{"A", "B"} {
				ref := col + strconv.Itoa(i+2)
				got, err := f.GetCellValue(SheetPartecipazioni, ref)
				if err != nil {
					t.Fatal(err)
				}
				if got != tc.text {
					t.Errorf("%s = %q, want the original %q", ref, got, tc.text)
				}
				formula, err := f.GetCellFormula(SheetPartecipazioni, ref)
				if err != nil {
					t.Fatal(err)
				}
				if formula != "" {
					t.Errorf("%s has formula %q", ref, formula)
				}
				typ, err := f.GetCellType(SheetPartecipazioni, ref)
				if err != nil {
					t.Fatal(err)
				}
				if typ != excelize.CellTypeInlineString {
					t.Errorf("%s type = %v, want an inline string", ref, typ)
				}
				id, err := f.GetCellStyle(SheetPartecipazioni, ref)
				if err != nil {
					t.Fatal(err)
				}
				if q := quotePrefix(f, id); q != tc.quote {
					t.Errorf("%s quotePrefix = %v, want %v", ref, q, tc.quote)
				}
			}
		})
	}
}

// API §6 "numbers as numbers": every number of the Turni sheet is a
// numeric cell holding the value given.
func TestNumbersAreNumericAPI6(t *testing.T) {
	exp := sample(t)
	f := openBook(t, writeSample(t))
	r := 2
	for m := range exp.Matches {
		want := []int{m.Round, m.Table, m.Total[0], m.Total[1], m.MP[0], m.MP[1], m.VP[0], m.VP[1]}
		for i, col := range []string{"A", "B", "E", "F", "G", "H", "I", "J"} {
			ref := col + strconv.Itoa(r)
			typ, err := f.GetCellType(SheetTurni, ref)
			if err != nil {
				t.Fatal(err)
			}
			// No t attribute is a number (ECMA-376 18.3.1.4).
			if typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber {
				t.Errorf("Turni!%s type = %v, want a number", ref, typ)
			}
			raw, _ := f.GetCellValue(SheetTurni, ref, excelize.Options{RawCellValue: true})
			if raw != strconv.Itoa(want[i]) {
				t.Errorf("Turni!%s = %q, want %d", ref, raw, want[i])
			}
		}
		r++
	}
}

// Dates are real dates: a serial number that converts back to the day
// given, shown with a date format.
func TestDatesAreDates(t *testing.T) {
	tests := []struct {
		name, sheet, ref string
		want             time.Time // wall clock expected in the cell
		shown            string
	}{
		{"tournament date", SheetTorneo, "B4", time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), "21/11/2026"},
		{"exported at, Rome wall clock", SheetTorneo, "B12", time.Date(2026, 11, 21, 20, 45, 0, 0, time.UTC), "21/11/2026 20:45"},
		{"adjustment time", SheetRettifiche, "H2", time.Date(2026, 11, 21, 18, 10, 0, 0, time.UTC), "21/11/2026 18:10"},
	}
	f := openBook(t, writeSample(t))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := f.GetCellValue(tc.sheet, tc.ref, excelize.Options{RawCellValue: true})
			if err != nil {
				t.Fatal(err)
			}
			serial, err := strconv.ParseFloat(raw, 64)
			if err != nil {
				t.Fatalf("%s!%s = %q, not a number: %v", tc.sheet, tc.ref, raw, err)
			}
			got, err := excelize.ExcelDateToTime(serial, false)
			if err != nil {
				t.Fatal(err)
			}
			if d := got.Sub(tc.want); d < -time.Second || d > time.Second {
				t.Errorf("%s!%s is %v, want %v", tc.sheet, tc.ref, got, tc.want)
			}
			shown, _ := f.GetCellValue(tc.sheet, tc.ref)
			if shown != tc.shown {
				t.Errorf("%s!%s shows %q, want %q", tc.sheet, tc.ref, shown, tc.shown)
			}
		})
	}
}

func TestDateEdgeCells(t *testing.T) {
	rows := []SeasonRow{
		{Player: "zero date", Rank: 1},
		{Player: "before 1900-03-01", Date: time.Date(1899, 1, 2, 0, 0, 0, 0, time.UTC), Rank: 1},
		{Player: "first serial day", Date: time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC), Rank: 1},
	}
	f := openBook(t, writeSeason(t, rows, nil))
	for i, want := range []string{"", "1899-01-02", "61"} {
		ref := "E" + strconv.Itoa(i+2)
		got, _ := f.GetCellValue(SheetPartecipazioni, ref, excelize.Options{RawCellValue: true})
		if got != want {
			t.Errorf("%s (%s) = %q, want %q", ref, rows[i].Player, got, want)
		}
	}
}

// API §6: headers bold, panes frozen, filters on — on every sheet, over
// every written row.
func TestHeaderPanesFilterAPI6(t *testing.T) {
	rows, totals := sampleSeason()
	books := map[string][]byte{"tournament": writeSample(t), "season": writeSeason(t, rows, totals)}
	for name, data := range books {
		f := openBook(t, data)
		filters := sheetFilters(t, data, f)
		for _, sheet := range f.GetSheetList() {
			t.Run(name+"/"+sheet, func(t *testing.T) {
				all, err := f.GetRows(sheet)
				if err != nil {
					t.Fatal(err)
				}
				if len(all) == 0 {
					t.Fatal("no header row")
				}
				for c := range all[0] {
					ref, _ := excelize.CoordinatesToCellName(c+1, 1)
					id, _ := f.GetCellStyle(sheet, ref)
					st, err := f.GetStyle(id)
					if err != nil {
						t.Fatal(err)
					}
					if st.Font == nil || !st.Font.Bold {
						t.Errorf("header %s is not bold", ref)
					}
				}
				p, err := f.GetPanes(sheet)
				if err != nil {
					t.Fatal(err)
				}
				if !p.Freeze || p.YSplit != 1 || p.XSplit != 0 || p.TopLeftCell != "A2" {
					t.Errorf("panes = %+v, want the header row frozen", p)
				}
				last, _ := excelize.ColumnNumberToName(len(all[0]))
				want := fmt.Sprintf("$A$1:$%s$%d", last, len(all))
				if filters[sheet] != want {
					t.Errorf("autoFilter = %q, want %q", filters[sheet], want)
				}
				found := false
				for _, dn := range f.GetDefinedName() {
					if dn.Name == "_xlnm._FilterDatabase" && dn.Scope == sheet {
						found = dn.RefersTo == "'"+sheet+"'!"+want
					}
				}
				if !found {
					t.Errorf("no _xlnm._FilterDatabase name for %s", want)
				}
			})
		}
	}
}

var colRE = regexp.MustCompile(`<col min="(\d+)" max="(\d+)" width="([0-9.]+)"`)

// Widths are set for every column, in ascending order (Excel repairs a
// file whose <col> elements are not).
func TestColumnWidths(t *testing.T) {
	data := writeSample(t)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, zf := range zr.File {
		if !strings.HasPrefix(zf.Name, "xl/worksheets/sheet") {
			continue
		}
		rc, _ := zf.Open()
		b, _ := io.ReadAll(rc)
		_ = rc.Close()
		cols := colRE.FindAllSubmatch(b, -1)
		if len(cols) == 0 {
			t.Errorf("%s: no column widths", zf.Name)
		}
		for i, c := range cols {
			if lo, _ := strconv.Atoi(string(c[1])); lo != i+1 {
				t.Errorf("%s: col %d has min %d, want ascending from 1", zf.Name, i, lo)
			}
			if w, _ := strconv.ParseFloat(string(c[3]), 64); w < 8 {
				t.Errorf("%s: col %d width %g, want at least 8", zf.Name, i+1, w)
			}
		}
	}
}

// A table longer than a sheet continues on "<name> (2)", each part with
// its header and filter, rows in order.
func TestSheetOverflow(t *testing.T) {
	b, err := newBook(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	b.maxRows = 3 // header + 2 rows a sheet
	var rows []SeasonRow
	for i := range 5 {
		rows = append(rows, SeasonRow{Player: fmt.Sprintf("P%d", i+1), Rank: i + 1})
	}
	if err := b.writeTable(partecipazioniTable(Slice(rows))); err != nil {
		t.Fatal(err)
	}
	if err := b.writeTable(totaliTable(nil)); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := b.save(&buf); err != nil {
		t.Fatal(err)
	}
	f := openBook(t, buf.Bytes())
	filters := sheetFilters(t, buf.Bytes(), f)
	want := map[string][]string{
		"Partecipazioni":     {"Giocatore", "P1", "P2"},
		"Partecipazioni (2)": {"Giocatore", "P3", "P4"},
		"Partecipazioni (3)": {"Giocatore", "P5"},
		"Totali":             {"Giocatore"},
	}
	if got := f.GetSheetList(); len(got) != len(want) {
		t.Fatalf("sheets = %v", got)
	}
	for sheet, col := range want {
		got, err := f.GetCols(sheet)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got[0], ",") != strings.Join(col, ",") {
			t.Errorf("%s column A = %v, want %v", sheet, got[0], col)
		}
		if filters[sheet] == "" {
			t.Errorf("%s has no filter", sheet)
		}
	}
}

func TestEmptyTournament(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTournament(&buf, TournamentExport{}); err != nil {
		t.Fatal(err)
	}
	f := openBook(t, buf.Bytes())
	for _, sheet := range f.GetSheetList()[1:] {
		rows, _ := f.GetRows(sheet)
		if len(rows) != 1 {
			t.Errorf("%s has %d rows, want the header only", sheet, len(rows))
		}
	}
}

// failing yields n rows and then err.
func failing[T any](n int, v T, err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for range n {
			if !yield(v, nil) {
				return
			}
		}
		var zero T
		yield(zero, err)
	}
}

// An iterator's error aborts the export: a store failure never becomes a
// complete-looking file.
func TestSourceErrorAborts(t *testing.T) {
	boom := errors.New("connection reset")
	exp := sample(t)
	exp.Hands = failing(2, HandRow{Round: 1, Table: 1, Hand: 1}, boom)
	tests := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"workbook", func(w io.Writer) error { return WriteTournament(w, exp) }},
		{"csv", func(w io.Writer) error { return WriteCSV(w, exp, SheetSmazzate) }},
		{"json", func(w io.Writer) error { return WriteJSON(w, exp) }},
		{"season", func(w io.Writer) error {
			return WriteSeason(w, failing(1, SeasonRow{}, boom), nil)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.write(io.Discard)
			if !errors.Is(err, boom) {
				t.Errorf("err = %v, want it to wrap %v", err, boom)
			}
		})
	}
}

// A hostile or odd string always reads back as the same text, never as a
// formula.
func FuzzWorkbookText(f *testing.F) {
	for _, s := range []string{hostile, "+1", "-1", "@a", "\t=1", " =1 ", "Rossi", "a\nb", "＝1", "0", "1e5", "TRUE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" || !xmlText(s) || len(s) > 1000 {
			t.Skip()
		}
		var buf bytes.Buffer
		if err := WriteSeason(&buf, Slice([]SeasonRow{{Player: s}}), nil); err != nil {
			t.Fatal(err)
		}
		book := openBook(t, buf.Bytes())
		got, err := book.GetCellValue(SheetPartecipazioni, "A2")
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.ReplaceAll(s, "\r\n", "\n"); got != want && got != s {
			t.Errorf("read back %q, want %q", got, s)
		}
		if formula, _ := book.GetCellFormula(SheetPartecipazioni, "A2"); formula != "" {
			t.Errorf("formula %q", formula)
		}
		if typ, _ := book.GetCellType(SheetPartecipazioni, "A2"); typ != excelize.CellTypeInlineString {
			t.Errorf("type %v, want inline string", typ)
		}
	})
}

// xmlText reports whether s survives XML unchanged: valid UTF-8 with only
// characters XML 1.0 allows (others are replaced by U+FFFD on the way).
func xmlText(s string) bool {
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r == 0xFFFD, r < 0x20, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			return false
		}
	}
	return true
}
