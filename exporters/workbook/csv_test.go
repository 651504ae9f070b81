package workbook

import (
	"bytes"
	"encoding/csv"
	"errors"
	"strings"
	"testing"

	"segnapunti/domain"
)

func TestWriteCSVGolden(t *testing.T) {
	for _, sheet := range CSVSheets() {
		t.Run(sheet, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteCSV(&buf, sample(t), sheet); err != nil {
				t.Fatal(err)
			}
			golden(t, strings.ToLower(sheet)+".csv", buf.Bytes())
		})
	}
}

// The CSV tables have the workbook's columns and rows.
func TestCSVMatchesWorkbook(t *testing.T) {
	f := openBook(t, writeSample(t))
	for _, sheet := range CSVSheets() {
		t.Run(sheet, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteCSV(&buf, sample(t), sheet); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			rows, err := f.GetRows(sheet)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != len(rows) {
				t.Fatalf("%d CSV records, %d workbook rows", len(recs), len(rows))
			}
			if strings.Join(recs[0], ",") != strings.Join(rows[0], ",") {
				t.Errorf("CSV header %v, workbook header %v", recs[0], rows[0])
			}
		})
	}
}

func TestWriteCSVSheetNames(t *testing.T) {
	tests := []struct {
		sheet   string
		wantErr bool
	}{
		{"Classifica", false},
		{"classifica", false},
		{"SMAZZATE", false},
		{"Torneo", false}, // The Torneo sheet as CSV too
		{"Standings", true},
		{"", true},
	}
	for _, tc := range tests {
		t.Run(tc.sheet, func(t *testing.T) {
			err := WriteCSV(&bytes.Buffer{}, sample(t), tc.sheet)
			if tc.wantErr {
				if !errors.Is(err, domain.ErrInvalid) {
					t.Errorf("err = %v, want ErrInvalid", err)
				}
				if err != nil && !strings.Contains(err.Error(), "Classifica") {
					t.Errorf("err %q does not list the sheets", err)
				}
			} else if err != nil {
				t.Errorf("err = %v", err)
			}
		})
	}
}

// API §6 / OWASP CSV injection: text starting with =, +, -, @, tab or CR
// gets a leading "'"; numbers, negative ones included, never do.
func TestCSVFormulaGuardAPI6(t *testing.T) {
	tests := []struct {
		name, note, want string
	}{
		{"formula", hostile, "'" + hostile},
		{"DDE", `=cmd|' /C calc'!A0`, `'=cmd|' /C calc'!A0`},
		{"plus", "+1", "'+1"},
		{"minus", "-1", "'-1"},
		{"at", "@x", "'@x"},
		{"tab", "\tx", "'\tx"},
		{"carriage return", "\rx", "'\rx"},
		{"full-width equals", "＝1", "'＝1"},
		{"plain", "ok", "ok"},
		{"equals later", "a=b", "a=b"},
		{"empty", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exp := TournamentExport{Adjustments: Slice([]AdjustmentRow{
				{Entrant: "1", Reason: domain.ReasonWarning, Note: tc.note, VP: domain.Int(-1), MP: domain.Int(-65)},
			})}
			var buf bytes.Buffer
			if err := WriteCSV(&buf, exp, SheetRettifiche); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			row := recs[1]
			if got := row[5]; got != tc.want {
				t.Errorf("Nota = %q, want %q", got, tc.want)
			}
			if row[3] != "-1" || row[4] != "-65" {
				t.Errorf("VP, MP = %q, %q; numbers must not be prefixed", row[3], row[4])
			}
		})
	}
}

// Any text survives a CSV round trip, with the guard's "'" as the only
// change, and no field a spreadsheet would evaluate comes out unguarded.
func FuzzCSVText(f *testing.F) {
	for _, s := range []string{hostile, "+1", "-1", "@a", "\t=1", "a,b", `"q"`, "x\ny", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		exp := TournamentExport{Standings: Slice([]StandingRow{{Rank: 1, Entrant: domain.Entrant{ID: s, Club: s}}})}
		var buf bytes.Buffer
		if err := WriteCSV(&buf, exp, SheetClassifica); err != nil {
			t.Fatal(err)
		}
		r := csv.NewReader(&buf)
		recs, err := r.ReadAll()
		if err != nil {
			t.Fatalf("unreadable CSV: %v", err)
		}
		got := recs[1][1]
		if risky(s) {
			if got != "'"+normalizeCSV(s) {
				t.Errorf("got %q, want %q guarded", got, s)
			}
		} else if got != normalizeCSV(s) {
			t.Errorf("got %q, want %q", got, s)
		}
	})
}

// normalizeCSV is what encoding/csv reads back: it turns \r\n inside a
// quoted field into \n.
func normalizeCSV(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
