package xlsx

import (
	"bytes"
	"os"
	"testing"

	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
)

// exampleFile is the workbook the README uploads: the template (3 hands)
// with its example match copied into Smazzate and Risultati, as a
// secretary fills it in (round 1, table 1, pairs 1 and 2).
const exampleFile = "../../examples/round1.xlsx"

// TestExampleRound1 keeps examples/round1.xlsx true: it reads as the one
// match of the template's example and validates without an error. With
// SEGNAPUNTI_WRITE_EXAMPLES=1 it writes the file afresh first.
func TestExampleRound1(t *testing.T) {
	if os.Getenv("SEGNAPUNTI_WRITE_EXAMPLES") == "1" {
		if err := os.WriteFile(exampleFile, filledTemplate(t, 3), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatalf("%v (make it with SEGNAPUNTI_WRITE_EXAMPLES=1 go test ./importers/xlsx -run TestExampleRound1)", err)
	}
	wb := mustRead(t, data, Options{})
	if len(wb.Matches) != 1 {
		t.Fatalf("%d matches, want 1", len(wb.Matches))
	}
	m := wb.Matches[0]
	if m.Err != nil {
		t.Fatal(m.Err)
	}
	sh := m.Sheet
	if sh.Round != 1 || sh.Table != 1 || sh.Sides[domain.NS].ID != "1" || sh.Sides[domain.EO].ID != "2" || len(sh.Hands) != 3 || sh.Ruleset != domain.FITAB2025 {
		t.Errorf("round %d table %d, %s v %s, %d hands, %s", sh.Round, sh.Table, sh.Sides[domain.NS].ID, sh.Sides[domain.EO].ID, len(sh.Hands), sh.Ruleset)
	}
	if rep := domain.Validate(sh); !rep.OK() {
		t.Errorf("the example does not validate: %+v", rep.Findings)
	}
}

// filledTemplate is Template(hands) with the example rows in place.
func filledTemplate(t *testing.T, hands int) []byte {
	t.Helper()
	data, err := Template(hands)
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i, row := range exampleHandRows(hands, [2]string{"1", "2"}) {
		if err := f.SetSheetRow(templateHandsSheet, cellName(1, 2+i), &row); err != nil {
			t.Fatal(err)
		}
	}
	res := exampleResultRow(hands)
	if err := f.SetSheetRow(templateResultsSheet, cellName(1, 2), &res); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
