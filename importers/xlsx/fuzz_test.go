package xlsx

import (
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"segnapunti/domain"
)

// FuzzRead: the workbook reader on arbitrary bytes returns a workbook or an
// error, never panics (a recovered panic fails the target too), and what it
// returns is well formed.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"tidy_fitab2025.xlsx", "paper_fitabint.xlsx", "hostile_text_in_number.xlsx"} {
		if b, err := os.ReadFile(filepath.Join(fixturesDir, name)); err == nil {
			f.Add(b)
			f.Add(b[:len(b)*2/3])
		}
	}
	if b, err := Template(3); err == nil {
		f.Add(b)
	}
	f.Add(buildWorkbook(f, tournamentSheet("Torneo", "fitab-int", 2), sheetSpec{"T1", [][]any{
		{"Turno", 1, "Tavolo", 2}, {"Smazzata", "NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "EO Totale"},
		{1, 300, 100, 400, 0, 20, 20}, {"Totale", nil, nil, 400, nil, nil, 20}, {"VP", nil, nil, 13, nil, nil, 7}}}))
	f.Add(rawWorkbook(f, rawSheet{"Hands", [][]string{
		{strCell("A1", "round"), strCell("B1", "table"), strCell("C1", "ns_base"), strCell("D1", "ns_points"), strCell("E1", "eo_base"), strCell("F1", "eo_points")},
		{numCell("A2", "1"), numCell("B2", "1"), numCell("C2", "1.5E2"), strCell("D2", "1.250"), numFormulaCell("E2", "1+1", "2"), strCell("F2", "(5)")}}}))
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte("Turno;Tavolo\n"))
	opts := Options{MaxBytes: 1 << 20, MaxUnzippedBytes: 8 << 20, MaxRows: 2000, Ruleset: domain.FITAB2025, HandsPlanned: 3}
	f.Fuzz(func(t *testing.T, data []byte) {
		wb, err := readWorkbook(t, data, opts)
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("error %v does not wrap domain.ErrInvalid", err)
			}
			var ce *CellError
			if errors.As(err, &ce) && ce.Sheet == "" && ce.Cell != "" {
				t.Fatalf("cell error without a sheet: %v", err)
			}
			return
		}
		if wb == nil {
			t.Fatal("no workbook and no error")
		}
		for _, m := range wb.Matches {
			for ptr, cell := range m.Sheet.Cells {
				if !strings.HasPrefix(ptr, "/") || !strings.Contains(cell, "!") {
					t.Fatalf("bad cell entry %q → %q", ptr, cell)
				}
			}
			if m.Err == nil && len(m.Sheet.Hands) == 0 {
				t.Fatalf("match at %s has no hands and no error", m.Origin())
			}
			_ = domain.Validate(m.Sheet)
		}
	})
}

// FuzzReadSheet fuzzes what is inside a valid zip, which FuzzRead's
// mutations rarely reach past the zip checksums: the cells of a sheet,
// named Smazzate (tidy) or not (paper), after a Torneo sheet.
func FuzzReadSheet(f *testing.F) {
	row := func(r int, cells ...string) string {
		return fmt.Sprintf(`<row r="%d">%s</row>`, r, strings.Join(cells, ""))
	}
	tidy := row(1, strCell("A1", "Turno"), strCell("B1", "Tavolo"), strCell("C1", "Smazzata"), strCell("D1", "NS Base"),
		strCell("E1", "NS Punti"), strCell("F1", "EO Base"), strCell("G1", "EO Punti"), strCell("H1", "Fine"), strCell("I1", "NS Burrachi")) +
		row(2, numCell("A2", "1"), numCell("B2", "1"), numCell("C2", "1"), numCell("D2", "300"), strCell("E2", "1.250"),
			numCell("F2", "1.5E2"), strCell("G2", "(5)"), strCell("H2", "chiusura"), strCell("I2", "2P 1S")) +
		row(3, numCell("A3", "1"), numCell("B3", "1"), numCell("C3", "2"), numFormulaCell("D3", "1+1", "200"), strCell("E3", "65,0"),
			numCell("F3", "0"), strCell("G3", "-15"))
	paper := row(1, strCell("A1", "Turno"), numCell("B1", "2"), strCell("C1", "Coppia NS"), strCell("D1", "7")) +
		row(3, strCell("A3", "Smazzata"), strCell("B3", "NS Base"), strCell("C3", "NS Punti"), strCell("D3", "NS Totale"),
			strCell("E3", "EO Base"), strCell("F3", "EO Punti"), strCell("G3", "EO Totale")) +
		row(4, numCell("A4", "1"), numCell("B4", "300"), numCell("C4", "100"), numCell("D4", "400"), numCell("E4", "0"), numCell("F4", "20"), numCell("G4", "20")) +
		row(5, strCell("A5", "Totale"), numCell("D5", "400"), numCell("G5", "20")) +
		row(6, strCell("A6", "VP"), numCell("D6", "13"), numCell("G6", "7"))
	f.Add(true, tidy)
	f.Add(false, paper)
	f.Add(true, `<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>`)
	f.Add(false, `<row><c><v>1</v></c></row><row r="0"/>`)
	torneo := row(1, strCell("A1", "ruleset"), strCell("B1", "fitab-2025")) + row(2, strCell("A2", "hands_planned"), numCell("B2", "3"))
	opts := Options{MaxRows: 500, MaxColumns: 64}
	f.Fuzz(func(t *testing.T, tidyLayout bool, sheetData string) {
		name := "Turno1"
		if tidyLayout {
			name = "Smazzate"
		}
		data := rawWorkbookXML(t, []string{"Torneo", name}, []string{torneo, sheetData})
		wb, err := readWorkbook(t, data, opts)
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("error %v does not wrap domain.ErrInvalid", err)
			}
			return
		}
		for _, m := range wb.Matches {
			for ptr, cell := range m.Sheet.Cells {
				if !strings.HasPrefix(ptr, "/") || !strings.Contains(cell, "!") {
					t.Fatalf("bad cell entry %q → %q", ptr, cell)
				}
			}
			_ = domain.Validate(m.Sheet)
		}
	})
}

// FuzzCheckSharedStrings: the shared-strings pre-check on arbitrary part
// bytes never panics, fails only with ErrTooLarge or ErrNotWorkbook (both
// invalid input, both naming the part), and accepts a part only when it
// is within the limits as excelize's own reading of <si> items counts it.
func FuzzCheckSharedStrings(f *testing.F) {
	f.Add(`<sst><si><t>Rossi Anna</t></si><si><r><t>chiu</t></r><r><t>sura</t></r></si></sst>`)
	f.Add(`<sst><si><t>` + strings.Repeat("9", 40) + `</t></si></sst>`)
	f.Add(`<sst>` + strings.Repeat(`<si><t>a</t></si>`, 9) + `</sst>`)
	f.Add(`<sst><si><t>&amp;&#x10FFFF;</t></si><si><rPh><t>ふ</t></rPh></si></sst>`)
	f.Add(`<sst><si><t>unclosed`)
	f.Add(`<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><sst><si><t>&a;</t></si></sst>`)
	lim := Options{MaxSharedStrings: 8, MaxCellText: 32, MaxSharedStringBytes: 4096}.limits()
	f.Fuzz(func(t *testing.T, part string) {
		err := checkSharedStrings(strings.NewReader(part), lim)
		if err != nil {
			if !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrNotWorkbook) {
				t.Fatalf("error %v is neither ErrTooLarge nor ErrNotWorkbook", err)
			}
			if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), sharedStringsPart) {
				t.Fatalf("error %v does not wrap domain.ErrInvalid or name the part", err)
			}
			return
		}
		if int64(len(part)) > lim.ssBytes {
			t.Fatalf("a %d-byte part accepted over the %d-byte limit", len(part), lim.ssBytes)
		}
		// Accepted: a plain decode finds no more items than the limit.
		var sst struct {
			SI []struct {
				T string   `xml:"t"`
				R []string `xml:"r>t"`
			} `xml:"si"`
		}
		if xml.Unmarshal([]byte(part), &sst) != nil {
			return
		}
		if len(sst.SI) > lim.strings {
			t.Fatalf("%d items accepted over the limit of %d", len(sst.SI), lim.strings)
		}
		for i, si := range sst.SI {
			if n := len(si.T) + len(strings.Join(si.R, "")); n > lim.cellText {
				t.Fatalf("item %d of %d bytes accepted over the limit of %d", i+1, n, lim.cellText)
			}
		}
	})
}
