package xlsx

import (
	"slices"
	"testing"

	"segnapunti/domain"
)

// API §4.2, §5: in an individual tournament a line's cell names its two
// players; the separators SplitPlayerIDs documents.
func TestSplitPlayerIDs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"3-11", []string{"3", "11"}},
		{"3 - 11", []string{"3", "11"}},
		{"3/11", []string{"3", "11"}},
		{"3 / 11", []string{"3", "11"}},
		{"3, 11", []string{"3", "11"}},
		{"3;11", []string{"3", "11"}},
		{"3 + 11", []string{"3", "11"}},
		{"3 & 11", []string{"3", "11"}},
		{"3 11", []string{"3", "11"}},
		{"A-1 / B-2", []string{"A-1", "B-2"}},
		{"3", nil},
		{"", nil},
		{"3-11-4", nil},
		{"3, 11, 4", nil},
		{"-11", nil},
	} {
		got, ok := SplitPlayerIDs(c.in)
		if ok != (c.want != nil) || !slices.Equal(got, c.want) {
			t.Errorf("SplitPlayerIDs(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

// The tidy layout of an individual tournament (the kind from Options, as
// the service passes the tournament's): "3-11" is the line's two players;
// one id is an error naming the cell.
func TestTidyIndividualLines(t *testing.T) {
	build := func(t *testing.T, ns, eo string) []byte {
		return buildWorkbook(t, tournamentSheet("Torneo", "fitab-2025", 3), sheetSpec{"Smazzate", [][]any{
			{"Turno", "Tavolo", "Smazzata", "NS", "EO", "NS Base", "NS Punti", "EO Base", "EO Punti"},
			{1, 2, 1, ns, eo, 300, 100, 0, 20},
		}})
	}
	wb := mustRead(t, build(t, "3-11", "7 / 2"), Options{Kind: domain.KindIndividual})
	sh := wb.Matches[0].Sheet
	if sh.Kind != domain.KindIndividual || !slices.Equal(sh.Sides[domain.NS].IDs, []string{"3", "11"}) || !slices.Equal(sh.Sides[domain.EO].IDs, []string{"7", "2"}) || sh.Sides[domain.NS].ID != "" {
		t.Fatalf("sides %+v kind %s", sh.Sides, sh.Kind)
	}
	if sh.Cells["/ns/ids"] != "Smazzate!D2" {
		t.Errorf("cell of /ns/ids = %q", sh.Cells["/ns/ids"])
	}
	wb, err := readWorkbook(t, build(t, "3-11", "7"), Options{Kind: domain.KindIndividual})
	if err != nil {
		t.Fatal(err)
	}
	if ref := cellErrorRef(wb.Matches[0].Err); ref != "Smazzate!E2" {
		t.Errorf("one id in an individual line: error %v at %q, want Smazzate!E2", wb.Matches[0].Err, ref)
	}
	// Pairs read as before: the cell is the pair's id.
	wb = mustRead(t, build(t, "3", "7"), Options{})
	if wb.Matches[0].Sheet.Sides[domain.NS].ID != "3" || wb.Matches[0].Sheet.Sides[domain.NS].IDs != nil {
		t.Errorf("pairs sides %+v", wb.Matches[0].Sheet.Sides)
	}
}

// The paper layout: "NS" (or "Coppia NS") "3 - 11", or "Giocatori NS"
// naming the two players by number.
func TestPaperIndividualLines(t *testing.T) {
	build := func(t *testing.T, header ...[]any) []byte {
		rows := append([][]any{{"Turno", 1, "Tavolo", 2}}, header...)
		rows = append(rows,
			[]any{"Smazzata", "NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "EO Totale"},
			[]any{1, 300, 100, 400, 0, 20, 20})
		return buildWorkbook(t, tournamentSheet("Torneo", "fitab-2025", 3), sheetSpec{"T1", rows})
	}
	opts := Options{Kind: domain.KindIndividual}
	sh := mustRead(t, build(t, []any{"NS", "3 - 11", "EO", "7-2"}), opts).Matches[0].Sheet
	if !slices.Equal(sh.Sides[domain.NS].IDs, []string{"3", "11"}) || !slices.Equal(sh.Sides[domain.EO].IDs, []string{"7", "2"}) {
		t.Errorf("NS/EO labels: %+v", sh.Sides)
	}
	sh = mustRead(t, build(t, []any{"Giocatori NS", "3 / 11", "Giocatori EO", "7, 2"}), opts).Matches[0].Sheet
	if !slices.Equal(sh.Sides[domain.NS].IDs, []string{"3", "11"}) || sh.Sides[domain.NS].Players != nil {
		t.Errorf("Giocatori labels: %+v", sh.Sides)
	}
	sh = mustRead(t, build(t, []any{"Giocatori NS", "Rossi / Bianchi"}), opts).Matches[0].Sheet
	if sh.Sides[domain.NS].IDs != nil || !slices.Equal(sh.Sides[domain.NS].Players, []string{"Rossi", "Bianchi"}) {
		t.Errorf("names stay names: %+v", sh.Sides)
	}
	_, err := readWorkbook(t, build(t, []any{"Coppia NS", "3", "Coppia EO", "7-2"}), opts)
	if ref := cellErrorRef(err); ref != "T1!B2" {
		t.Errorf("one id in an individual line: error %v at %q, want T1!B2", err, ref)
	}
}

// The template for an individual tournament says so (kind, instructions)
// and its example lines read back as two players each.
func TestTemplateIndividual(t *testing.T) {
	data, err := TemplateFor(3, domain.KindIndividual)
	if err != nil {
		t.Fatal(err)
	}
	wb := mustRead(t, data, Options{})
	if wb.Tournament.Kind != domain.KindIndividual {
		t.Errorf("template kind %q", wb.Tournament.Kind)
	}
	for _, l := range (&templateWriter{kind: domain.KindIndividual}).exampleLines() {
		if _, ok := SplitPlayerIDs(l); !ok {
			t.Errorf("example line %q is not two players", l)
		}
	}
	if _, err := TemplateFor(3, "doubles"); err == nil {
		t.Error("unknown kind accepted")
	}
}
