package xlsx

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
)

// The blank template, uploaded unchanged, imports no match: it
// replaced a real round 1, table 1 when its example match was data.
func TestTemplateUnchangedImportsNoMatch(t *testing.T) {
	for hands := 2; hands <= 4; hands++ {
		t.Run(fmt.Sprintf("%d hands", hands), func(t *testing.T) {
			data, err := Template(hands)
			if err != nil {
				t.Fatal(err)
			}
			wb := mustRead(t, data, Options{})
			if wb.Layout != LayoutTidy || len(wb.Matches) != 0 || len(wb.Ignored) > 0 {
				t.Fatalf("layout %s, %d matches, ignored %v; want tidy, no match, nothing ignored", wb.Layout, len(wb.Matches), wb.Ignored)
			}
			if wb.Tournament.Ruleset != domain.FITAB2025 || wb.Tournament.HandsPlanned != hands {
				t.Errorf("settings %s %d", wb.Tournament.Ruleset, wb.Tournament.HandsPlanned)
			}
		})
	}
}

// An instructions sheet is never read, in either layout, whatever it holds.
func TestInstructionsSheetIsNeverRead(t *testing.T) {
	example := sheetSpec{"Esempio", [][]any{
		{"Turno", "Tavolo", "Smazzata", "NS Base", "NS Punti", "EO Base", "EO Punti"},
		{1, 1, 1, 300, 100, 0, 20},
	}}
	hands := sheetSpec{"Smazzate", [][]any{{"Turno", "Tavolo", "Smazzata", "NS Base", "NS Punti", "EO Base", "EO Punti"}}}
	paper := sheetSpec{"T1", [][]any{
		{"Turno", 2, "Tavolo", 3}, {"Smazzata", "NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "EO Totale"},
		{1, 300, 100, 400, 0, 20, 20}}}
	for _, c := range []struct {
		name   string
		sheets []sheetSpec
		want   int
	}{
		{"tidy", []sheetSpec{tournamentSheet("Torneo", "fitab-2025", 3), hands, example}, 0},
		{"paper", []sheetSpec{tournamentSheet("Torneo", "fitab-2025", 3), paper, example}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			wb := mustRead(t, buildWorkbook(t, c.sheets...), Options{})
			if len(wb.Matches) != c.want || len(wb.Ignored) > 0 {
				t.Fatalf("%d matches, ignored %v; want %d", len(wb.Matches), wb.Ignored, c.want)
			}
			for _, m := range wb.Matches {
				if m.Worksheet == "Esempio" {
					t.Errorf("match read from the instructions sheet")
				}
			}
		})
	}
}

// API §4 GET /v1/templates/scoresheet.xlsx: the template's example match,
// copied as it is into Smazzate and Risultati, imports and validates
// cleanly, every column read.
func TestTemplateExampleValidates(t *testing.T) {
	for hands := 2; hands <= 4; hands++ {
		t.Run(fmt.Sprintf("%d hands", hands), func(t *testing.T) {
			data, err := Template(hands)
			if err != nil {
				t.Fatal(err)
			}
			f, err := excelize.OpenReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rows, err := f.GetRows(templateInstrSheet)
			if err != nil {
				t.Fatal(err)
			}
			copyRows := func(from, n int) [][]any {
				var out [][]any
				for _, r := range rows[from-1 : from-1+n] {
					row := make([]any, len(r))
					for i, v := range r {
						row[i] = v
					}
					out = append(out, row)
				}
				return out
			}
			rh := exampleResultHeadRow(hands)
			wb := mustRead(t, buildWorkbook(t,
				sheetSpec{"Smazzate", copyRows(exampleHandHeadRow, hands+1)},
				sheetSpec{"Risultati", copyRows(rh, 2)},
				tournamentSheet("Torneo", "fitab-2025", hands)), Options{})
			if len(wb.Matches) != 1 {
				t.Fatalf("%d matches", len(wb.Matches))
			}
			sh := wb.Matches[0].Sheet
			if sh.Ruleset != domain.FITAB2025 || sh.HandsPlanned != hands || len(sh.Hands) != hands {
				t.Errorf("settings %s %d, %d hands", sh.Ruleset, sh.HandsPlanned, len(sh.Hands))
			}
			for i, h := range sh.Hands {
				for _, l := range domain.Lines {
					ls := h.Lines[l]
					if h.End != domain.EndClosed || ls.Closed == nil || ls.Pozzetto != domain.PozzettoTaken || ls.Burrachi == nil || ls.Total == nil {
						t.Errorf("hand %d %s read as %+v", i+1, l, ls)
					}
				}
			}
			for _, l := range domain.Lines {
				if w := sh.Written[l]; w.Total == nil || w.MP == nil || w.VP == nil {
					t.Errorf("written %s: %+v", l, w)
				}
			}
			rep := domain.Validate(sh)
			for _, f := range rep.Findings {
				if f.Severity == domain.SeverityError {
					t.Errorf("%s at %s: %s", f.Code, f.Cell, f.MessageEN)
				}
			}
			if !rep.OK() {
				t.Error("the example match does not validate")
			}
		})
	}
}

func TestTemplateHasDropDownLists(t *testing.T) {
	data, err := Template(3)
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); !slices.Equal(got, []string{"Smazzate", "Risultati", "Torneo", "Istruzioni"}) {
		t.Errorf("sheets %v", got)
	}
	lists := map[string]string{}
	for _, s := range []string{"Smazzate", "Torneo"} {
		dvs, err := f.GetDataValidations(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, dv := range dvs {
			for _, ref := range strings.Fields(dv.Sqref) {
				lists[s+"!"+strings.SplitN(ref, ":", 2)[0]] = dv.Formula1
			}
		}
	}
	// Each list's values are ones the importer reads back.
	for cell, want := range map[string][]string{
		"Smazzate!L2": templateEnds, "Smazzate!M2": templateBools, "Smazzate!N2": templateBools,
		"Smazzate!O2": templatePozzetti, "Smazzate!P2": templatePozzetti,
		"Torneo!B1": templateRulesets, "Torneo!B4": templateLevels,
	} {
		got, ok := lists[cell]
		if !ok {
			t.Errorf("no drop-down list at %s (lists: %v)", cell, lists)
			continue
		}
		for _, v := range want {
			if !strings.Contains(got, v) {
				t.Errorf("list at %s = %s, lacks %q", cell, got, v)
			}
		}
	}
	for _, v := range templateEnds {
		if _, err := parseHandEnd(v); err != nil {
			t.Error(err)
		}
	}
	for _, v := range templatePozzetti {
		if _, err := parsePozzetto(v); err != nil {
			t.Error(err)
		}
	}
	for _, v := range templateBools {
		if _, err := parseClosed(v); err != nil {
			t.Error(err)
		}
	}
	for _, v := range templateLevels {
		if _, err := parseLevelCell(v); err != nil {
			t.Error(err)
		}
	}
	for _, h := range templateHandHeads {
		if _, ok := lookup(handColumns, h); !ok {
			t.Errorf("template header %q is not read back", h)
		}
	}
}

func TestTemplateRejectsOtherHands(t *testing.T) {
	for _, n := range []int{-1, 0, 1, 5} {
		if _, err := Template(n); err == nil {
			t.Errorf("Template(%d) should fail (API §1: 2, 3 or 4 hands)", n)
		}
	}
}
