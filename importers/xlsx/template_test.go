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

// API §4 GET /v1/templates/scoresheet.xlsx: "a blank workbook in the import
// layout"; its example match imports and validates cleanly.
func TestTemplateImportsCleanly(t *testing.T) {
	for hands := 2; hands <= 4; hands++ {
		t.Run(fmt.Sprintf("%d hands", hands), func(t *testing.T) {
			data, err := Template(hands)
			if err != nil {
				t.Fatal(err)
			}
			wb := mustRead(t, data, Options{})
			if wb.Layout != LayoutTidy || len(wb.Matches) != 1 || len(wb.Ignored) > 0 {
				t.Fatalf("layout %s, %d matches, ignored %v", wb.Layout, len(wb.Matches), wb.Ignored)
			}
			sh := wb.Matches[0].Sheet
			if sh.Ruleset != domain.FITAB2025 || sh.HandsPlanned != hands || len(sh.Hands) != hands {
				t.Errorf("settings %s %d, %d hands", sh.Ruleset, sh.HandsPlanned, len(sh.Hands))
			}
			// Every column of the template is read: end, closed, pozzetto
			// and burrachi too.
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
	if got := f.GetSheetList(); !slices.Equal(got, []string{"Smazzate", "Risultati", "Torneo"}) {
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
