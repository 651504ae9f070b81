package xlsx

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// sheetSpec is a worksheet for a test workbook: rows of cell values, nil
// for an empty cell. A formula cell is a formula value.
type sheetSpec struct {
	name string
	rows [][]any
}

// formula is a cell with a formula and the value a spreadsheet computed
// for it.
type formula struct {
	expr   string
	cached any
}

// buildWorkbook writes the sheets with excelize, in order.
func buildWorkbook(t testing.TB, sheets ...sheetSpec) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, s := range sheets {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", s.name); err != nil {
				t.Fatal(err)
			}
		} else if _, err := f.NewSheet(s.name); err != nil {
			t.Fatal(err)
		}
		for r, row := range s.rows {
			for c, v := range row {
				if v == nil {
					continue
				}
				cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
				var err error
				if fm, ok := v.(formula); ok {
					if err = f.SetCellValue(s.name, cell, fm.cached); err == nil {
						err = f.SetCellFormula(s.name, cell, fm.expr)
					}
				} else {
					err = f.SetCellValue(s.name, cell, v)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawSheet is a worksheet written as XML by hand, for cell types excelize
// will not write (a number-typed formula result, a number stored as
// "1.125"): its cells are "<c .../>" elements per row.
type rawSheet struct {
	name string
	rows [][]string // each cell's full XML element
}

// rawWorkbook zips a minimal .xlsx around hand-written sheets.
func rawWorkbook(t testing.TB, sheets ...rawSheet) []byte {
	t.Helper()
	var names, data []string
	for _, s := range sheets {
		var sd strings.Builder
		for r, row := range s.rows {
			fmt.Fprintf(&sd, `<row r="%d">%s</row>`, r+1, strings.Join(row, ""))
		}
		names, data = append(names, s.name), append(data, sd.String())
	}
	return rawWorkbookXML(t, names, data)
}

// rawWorkbookXML zips a minimal .xlsx around sheets given as the XML inside
// their <sheetData> element.
func rawWorkbookXML(t testing.TB, names, sheetData []string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name, body string) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	var ct, wbSheets, rels strings.Builder
	for i, name := range names {
		fmt.Fprintf(&ct, `<Override PartName="/xl/worksheets/sheet%d.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`, i+1)
		fmt.Fprintf(&wbSheets, `<sheet name="%s" sheetId="%d" r:id="rId%d"/>`, name, i+1, i+1)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%d.xml"/>`, i+1, i+1)
		add(fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1),
			`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`+sheetData[i]+`</sheetData></worksheet>`)
	}
	add("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>`+ct.String()+`</Types>`)
	add("_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	add("xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>`+wbSheets.String()+`</sheets></workbook>`)
	add("xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+rels.String()+`</Relationships>`)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Cell XML for rawSheet rows.
func numCell(ref, v string) string { return fmt.Sprintf(`<c r="%s"><v>%s</v></c>`, ref, v) }
func strCell(ref, v string) string {
	return fmt.Sprintf(`<c r="%s" t="inlineStr"><is><t>%s</t></is></c>`, ref, v)
}
func numFormulaCell(ref, expr, v string) string {
	return fmt.Sprintf(`<c r="%s"><f>%s</f><v>%s</v></c>`, ref, expr, v)
}
func strFormulaCell(ref, expr, v string) string {
	return fmt.Sprintf(`<c r="%s" t="str"><f>%s</f><v>%s</v></c>`, ref, expr, v)
}

func readWorkbook(t testing.TB, data []byte, opts Options) (*Workbook, error) {
	t.Helper()
	wb, err := Read(bytes.NewReader(data), int64(len(data)), opts)
	if p, ok := isPanic(err); ok {
		t.Fatalf("reader panicked: %v\n%s", p.value, p.stack)
	}
	return wb, err
}

func mustRead(t testing.TB, data []byte, opts Options) *Workbook {
	t.Helper()
	wb, err := readWorkbook(t, data, opts)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	for _, m := range wb.Matches {
		if m.Err != nil {
			t.Fatalf("match at %s: %v", m.Origin(), m.Err)
		}
	}
	return wb
}

// cellErrorRef is the Ref of the *CellError in err, or "".
func cellErrorRef(err error) string {
	var ce *CellError
	if errors.As(err, &ce) {
		return ce.Ref()
	}
	return ""
}

// tournamentSheet is a Torneo sheet with the given ruleset and hands.
func tournamentSheet(name, ruleset string, hands int) sheetSpec {
	return sheetSpec{name, [][]any{{"ruleset", ruleset}, {"hands_planned", hands}, {"name", "Test"}}}
}
