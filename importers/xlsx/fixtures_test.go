package xlsx

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"segnapunti/domain"
)

// The LibreOffice-made workbooks of ../shared/fixtures and what a correct
// import of each must report (expected.json, field "must"), copied into
// testdata so the tests do not depend on where the checkout sits; and the
// same workbooks saved again by Gnumeric (testdata/gnumeric).

const fixturesDir = "testdata/libreoffice"

type expectedFile struct {
	File         string `json:"file"`
	Layout       string `json:"layout"`
	Ruleset      string `json:"ruleset"`
	HandsPlanned int    `json:"hands_planned"`
	Name         string `json:"name"`
	Level        string `json:"level"`
	Findings     []struct {
		Code  string   `json:"code"`
		Round int      `json:"round"`
		Table int      `json:"table"`
		Cells []string `json:"cells"`
		Hand  int      `json:"hand"`
		Line  string   `json:"line"`
	} `json:"findings"`
	TextNumbers []struct {
		Cell  string `json:"cell"`
		Text  string `json:"text"`
		Value int    `json:"value"`
	} `json:"text_numbers"`
	BadCell string `json:"bad_cell"`
	Matches []struct {
		SheetJSON sheetJSON `json:"sheet_json"`
	} `json:"matches"`
}

// sheetJSON is the part of API §1 the fixtures use.
type sheetJSON struct {
	Ruleset      string `json:"ruleset"`
	HandsPlanned int    `json:"hands_planned"`
	Kind         string `json:"kind"`
	Tournament   string `json:"tournament"`
	Round        int    `json:"round"`
	Table        int    `json:"table"`
	NS           sideJSON
	EO           sideJSON
	Hands        []struct {
		NS lineJSON `json:"ns"`
		EO lineJSON `json:"eo"`
	} `json:"hands"`
	Written struct {
		NS writtenJSON `json:"ns"`
		EO writtenJSON `json:"eo"`
	} `json:"written"`
}

type sideJSON struct {
	ID      string   `json:"id"`
	Players []string `json:"players"`
}

type lineJSON struct {
	Base   int  `json:"base"`
	Points int  `json:"points"`
	Total  *int `json:"total"`
}

type writtenJSON struct {
	Total *int `json:"total"`
	MP    *int `json:"mp"`
	VP    *int `json:"vp"`
}

func (s sheetJSON) sheet() domain.Sheet {
	sh := domain.Sheet{
		Ruleset: domain.Ruleset(s.Ruleset), HandsPlanned: s.HandsPlanned, Kind: domain.Kind(s.Kind),
		Tournament: s.Tournament, Round: s.Round, Table: s.Table,
		Sides: [2]domain.Side{{ID: s.NS.ID, Players: s.NS.Players}, {ID: s.EO.ID, Players: s.EO.Players}},
	}
	for _, h := range s.Hands {
		sh.Hands = append(sh.Hands, domain.Hand{Lines: [2]domain.LineScore{
			{Base: h.NS.Base, Points: h.NS.Points, Total: h.NS.Total},
			{Base: h.EO.Base, Points: h.EO.Points, Total: h.EO.Total},
		}})
	}
	sh.Written = [2]domain.WrittenResult{
		{Total: s.Written.NS.Total, MP: s.Written.NS.MP, VP: s.Written.NS.VP},
		{Total: s.Written.EO.Total, MP: s.Written.EO.MP, VP: s.Written.EO.VP},
	}
	return sh
}

func loadExpected(t *testing.T) []expectedFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixturesDir, "expected.json"))
	if err != nil {
		t.Skipf("fixtures not available: %v", err)
	}
	var doc struct {
		Files []expectedFile `json:"files"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Files
}

// valueAt is the number a sheet holds at a JSON pointer of a hand or
// written field; nil when it holds none there.
func valueAt(sh domain.Sheet, ptr string) *int {
	for i, h := range sh.Hands {
		for _, l := range domain.Lines {
			ls := h.Lines[l]
			switch ptr {
			case domain.HandPointer(i+1, l, "base"):
				return &ls.Base
			case domain.HandPointer(i+1, l, "points"):
				return &ls.Points
			case domain.HandPointer(i+1, l, "total"):
				return ls.Total
			case domain.HandPointer(i+1, l, "running_total"):
				return ls.RunningTotal
			}
		}
	}
	for _, l := range domain.Lines {
		w := sh.Written[l]
		switch ptr {
		case domain.WrittenPointer(l, "total"):
			return w.Total
		case domain.WrittenPointer(l, "mp"):
			return w.MP
		case domain.WrittenPointer(l, "vp"):
			return w.VP
		}
	}
	return nil
}

var sheetCmp = []cmp.Option{
	cmpopts.IgnoreFields(domain.Sheet{}, "Cells"),
	cmpopts.EquateEmpty(),
	cmp.Comparer(func(a, b domain.VPTable) bool { return a.ID() == b.ID() }),
}

func TestLibreOfficeFixtures(t *testing.T) { testFixtures(t, fixturesDir) }

// The same workbooks opened in Gnumeric 1.12.55 and saved again as .xlsx
// (`ssconvert`): another writer's XML (its own styles, shared strings,
// number formats), the same expectations.
func TestGnumericFixtures(t *testing.T) { testFixtures(t, "testdata/gnumeric") }

func testFixtures(t *testing.T, dir string) {
	for _, ef := range loadExpected(t) {
		t.Run(ef.File, func(t *testing.T) {
			wb, err := ReadFile(filepath.Join(dir, ef.File), Options{})
			if p, ok := isPanic(err); ok {
				t.Fatalf("panic: %v\n%s", p.value, p.stack)
			}
			if ef.BadCell != "" {
				// "an error naming the cell Smazzate!G4 ...; never read as
				// 0 or skipped silently"
				if err == nil {
					t.Fatalf("read succeeded; want an error naming %s", ef.BadCell)
				}
				if got := cellErrorRef(err); got != ef.BadCell {
					t.Fatalf("error %q names %q, want %s", err, got, ef.BadCell)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(wb.Layout) != ef.Layout {
				t.Errorf("layout %s, want %s", wb.Layout, ef.Layout)
			}
			tm := wb.Tournament
			if string(tm.Ruleset) != ef.Ruleset || tm.HandsPlanned != ef.HandsPlanned || tm.Name != ef.Name || string(tm.Level) != ef.Level {
				t.Errorf("tournament %+v, want %s %d %q %q", tm, ef.Ruleset, ef.HandsPlanned, ef.Name, ef.Level)
			}
			if len(wb.Ignored) > 0 {
				t.Errorf("ignored: %v", wb.Ignored)
			}

			// "import every match listed": each match equals its sheet_json,
			// field by field, in workbook order.
			if len(wb.Matches) != len(ef.Matches) {
				t.Fatalf("%d matches, want %d", len(wb.Matches), len(ef.Matches))
			}
			for i, m := range wb.Matches {
				if m.Err != nil {
					t.Errorf("match %d: %v", i, m.Err)
				}
				if d := cmp.Diff(ef.Matches[i].SheetJSON.sheet(), m.Sheet, sheetCmp...); d != "" {
					t.Errorf("match %d (%s) differs from sheet_json (-want +got):\n%s", i, m.Origin(), d)
				}
			}

			// "read every text number as its value".
			for _, tn := range ef.TextNumbers {
				found := false
				for _, m := range wb.Matches {
					for ptr, cell := range m.Sheet.Cells {
						if cell != tn.Cell {
							continue
						}
						if v := valueAt(m.Sheet, ptr); v != nil {
							found = true
							if *v != tn.Value {
								t.Errorf("%s %q (%s) read as %d, want %d", tn.Cell, tn.Text, ptr, *v, tn.Value)
							}
						}
					}
				}
				if !found {
					t.Errorf("text number %s %q was not read into any match", tn.Cell, tn.Text)
				}
			}

			// "report exactly the listed error findings, each naming its
			// cell (one of 'cells'); no other error finding".
			type key struct {
				round, table int
				code         string
			}
			want := map[key][]string{}
			for _, f := range ef.Findings {
				want[key{f.Round, f.Table, f.Code}] = f.Cells
			}
			for _, m := range wb.Matches {
				rep := domain.Validate(m.Sheet)
				for _, f := range rep.Findings {
					if f.Severity != domain.SeverityError {
						continue
					}
					k := key{m.Sheet.Round, m.Sheet.Table, string(f.Code)}
					cells, ok := want[k]
					if !ok {
						t.Errorf("round %d table %d: unexpected %s at %s (%s): %s", k.round, k.table, f.Code, f.Pointer, f.Cell, f.MessageEN)
						continue
					}
					delete(want, k)
					if c := m.Sheet.Cells[f.Pointer]; !slices.Contains(cells, c) {
						t.Errorf("round %d table %d %s: pointer %s is cell %q, want one of %v", k.round, k.table, f.Code, f.Pointer, c, cells)
					}
					if !slices.Contains(cells, f.Cell) {
						t.Errorf("round %d table %d %s: finding cell %q, want one of %v", k.round, k.table, f.Code, f.Cell, cells)
					}
				}
			}
			for k, cells := range want {
				t.Errorf("missing finding %s in round %d table %d (cells %s)", k.code, k.round, k.table, strings.Join(cells, ", "))
			}
		})
	}
}
