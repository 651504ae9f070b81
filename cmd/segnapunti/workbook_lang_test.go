package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// A workbook cell that cannot be read is named in the language asked for
// (--lang it is what a club secretary reads), with the cell as written.
func TestValidateWorkbookCellInItalian(t *testing.T) {
	f, err := excelize.OpenFile("../../importers/xlsx/testdata/libreoffice/tidy_fitab2025.xlsx")
	if err != nil {
		t.Skipf("fixture not available: %v", err)
	}
	defer f.Close()
	sheet, cell := "", ""
	for _, name := range f.GetSheetList() {
		if strings.EqualFold(name, "Hands") || strings.EqualFold(name, "Smazzate") {
			sheet = name
		}
	}
	rows, err := f.GetRows(sheet)
	if sheet == "" || err != nil || len(rows) < 2 {
		t.Fatalf("no hands sheet in the fixture: %q, %v", sheet, err)
	}
	for c, v := range rows[1] {
		if _, err := strconv.Atoi(v); err == nil && c >= 2 {
			cell, _ = excelize.CoordinatesToCellName(c+1, 2)
			break
		}
	}
	if cell == "" {
		t.Fatal("no number in the fixture's first hand")
	}
	if err := f.SetCellStr(sheet, cell, "12O"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	path := writeFile(t, "typo.xlsx", buf.Bytes())
	for lang, want := range map[string]string{
		"it": sheet + "!" + cell + `: "12O" non è un numero`,
		"en": sheet + "!" + cell + `: "12O" is not a number`,
	} {
		code, out, errs := runCLI(t, "validate", "--lang", lang, path)
		if code != exitUsage || out != "" || !strings.Contains(errs, want) {
			t.Errorf("--lang %s: exit %d, stdout %q, stderr %q; want 2 and %q", lang, code, out, errs, want)
		}
	}
}
