package xlsx

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
)

// An English tidy workbook with every optional column, a Results sheet and
// a Tournament sheet: every value and every cell it came from.
func TestTidyEnglishReadsEveryFieldAndCell(t *testing.T) {
	data := buildWorkbook(t,
		sheetSpec{"Tournament", [][]any{
			{"ruleset", "fibur-ita"}, {"hands_planned", 2}, {"name", "Spring Cup"}, {"level", "club"},
			{"kind", "pairs"}, {"vp_table", "fibur-2"}}},
		sheetSpec{"Hands", [][]any{
			{"round", "table", "hand", "ns", "eo", "ns_base", "ns_points", "ns_total", "eo_base", "eo_points", "eo_total",
				"end", "ns_closed", "eo_closed", "ns_pozzetto", "eo_pozzetto", "ns_burrachi", "eo_burrachi", "Notes"},
			{1, 4, 1, "12", "5", 300, 155, 455, 100, 40, 140, "closed", "yes", "no", "taken", "taken", "pulito 1", "1S", "ok"},
			{1, 4, 2, "12", "5", 150, -20, 130, 450, 210, 660, "closed", "no", "yes", "taken", "taken", "1 semipulito", "pulito 1, semipulito 1"},
		}},
		sheetSpec{"Results", [][]any{
			{"round", "table", "ns_total", "eo_total", "ns_mp", "eo_mp", "ns_vp", "eo_vp"},
			{1, 4, 585, 800, -215, 215, 7, 13},
		}},
	)
	wb := mustRead(t, data, Options{})
	if wb.Layout != LayoutTidy || len(wb.Matches) != 1 {
		t.Fatalf("layout %s, %d matches", wb.Layout, len(wb.Matches))
	}
	if len(wb.Ignored) != 1 || !strings.Contains(wb.Ignored[0], "Hands!S1") {
		t.Errorf("the Notes column should be noted as ignored: %v", wb.Ignored)
	}
	vp, _ := domain.ParseVPTable("fibur-2")
	want := domain.Sheet{
		Ruleset: domain.FIBurIta, HandsPlanned: 2, Kind: domain.KindPairs, VPTable: vp, Tournament: "Spring Cup",
		Round: 1, Table: 4, Sides: [2]domain.Side{{ID: "12"}, {ID: "5"}},
		Hands: []domain.Hand{
			{End: domain.EndClosed, Lines: [2]domain.LineScore{
				{Base: 300, Points: 155, Total: domain.Int(455), Closed: domain.Bool(true), Pozzetto: domain.PozzettoTaken,
					Burrachi: map[domain.BurracoType]int{domain.Pulito: 1}},
				{Base: 100, Points: 40, Total: domain.Int(140), Closed: domain.Bool(false), Pozzetto: domain.PozzettoTaken,
					Burrachi: map[domain.BurracoType]int{domain.Sporco: 1}}}},
			{End: domain.EndClosed, Lines: [2]domain.LineScore{
				{Base: 150, Points: -20, Total: domain.Int(130), Closed: domain.Bool(false), Pozzetto: domain.PozzettoTaken,
					Burrachi: map[domain.BurracoType]int{domain.Semipulito: 1}},
				{Base: 450, Points: 210, Total: domain.Int(660), Closed: domain.Bool(true), Pozzetto: domain.PozzettoTaken,
					Burrachi: map[domain.BurracoType]int{domain.Pulito: 1, domain.Semipulito: 1}}}},
		},
		Written: [2]domain.WrittenResult{
			{Total: domain.Int(585), MP: domain.Int(-215), VP: domain.Int(7)},
			{Total: domain.Int(800), MP: domain.Int(215), VP: domain.Int(13)}},
	}
	got := wb.Matches[0].Sheet
	if d := cmp.Diff(want, got, sheetCmp...); d != "" {
		t.Errorf("sheet (-want +got):\n%s", d)
	}
	wantCells := map[string]string{
		"/hands":   "Hands!C2",
		"/ruleset": "Tournament!B1", "/hands_planned": "Tournament!B2", "/tournament": "Tournament!B3",
		"/kind": "Tournament!B5", "/vp_table": "Tournament!B6",
		"/round": "Hands!A2", "/table": "Hands!B2", "/ns/id": "Hands!D2", "/eo/id": "Hands!E2",
		"/written/ns/total": "Results!C2", "/written/eo/total": "Results!D2", "/written/ns/mp": "Results!E2",
		"/written/eo/mp": "Results!F2", "/written/ns/vp": "Results!G2", "/written/eo/vp": "Results!H2",
	}
	for i, r := range []string{"2", "3"} {
		h := "/hands/" + string(rune('0'+i))
		wantCells[h] = "Hands!C" + r
		wantCells[h+"/end"] = "Hands!L" + r
		for l, cols := range map[string]string{"ns": "FGHMOQ", "eo": "IJKNPR"} {
			wantCells[h+"/"+l] = "Hands!" + cols[0:1] + r
			for j, f := range []string{"base", "points", "total", "closed", "pozzetto", "burrachi"} {
				wantCells[h+"/"+l+"/"+f] = "Hands!" + cols[j:j+1] + r
			}
		}
	}
	if d := cmp.Diff(wantCells, got.Cells); d != "" {
		t.Errorf("cells (-want +got):\n%s", d)
	}
	// The pointers are the domain's.
	if got.Cells[domain.HandPointer(2, domain.EO, "total")] != "Hands!K3" || got.Cells[domain.WrittenPointer(domain.NS, "vp")] != "Results!G2" {
		t.Error("Cells keys do not follow domain.HandPointer / domain.WrittenPointer")
	}
	if wb.Tournament.Level != domain.LevelClub || wb.Tournament.Cells["level"] != "Tournament!B4" {
		t.Errorf("tournament %+v", wb.Tournament)
	}
	if rep := domain.Validate(got); !rep.OK() {
		t.Errorf("the example match should validate cleanly: %+v", rep.Findings)
	}
}

// Italian headers, a match whose rows are not contiguous and whose hands
// are out of order, numbers as Italian text, blank pre-filled rows.
func TestTidyItalianOrdersHandsAndGroupsRows(t *testing.T) {
	data := buildWorkbook(t,
		sheetSpec{"Torneo", [][]any{{"Regolamento", "FITAB 2025"}, {"Smazzate previste", "3"}, {"Nome", "Coppa"}, {"Livello", "Regionale"}}},
		sheetSpec{"Smazzate", [][]any{
			{"Turno", "Tavolo", "Smazzata", "N-S", "E-O", "N-S Base", "N-S Punti", "N-S Totale", "E-O Base", "E-O Punti", "E-O Totale"},
			{1, 1, 2, "3", "4", "1.200", "(15)", "1.185", 0, -5, -5},
			{1, 2, 1, "5", "6", 100, 20, 120, 300, 100, 400},
			{1, 1, 1, "3", "4", "250,0", "1,250", "1.500", 100, "+30", 130},
			{1, 1, 3, "3", "4", nil, nil, nil, nil, nil, nil}, // hand 3 not played (time-out)
			{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
		}},
	)
	wb := mustRead(t, data, Options{})
	if len(wb.Matches) != 2 {
		t.Fatalf("%d matches, want 2", len(wb.Matches))
	}
	m := wb.Matches[0]
	if m.Origin() != "Smazzate!A2" || m.Sheet.Round != 1 || m.Sheet.Table != 1 || len(m.Sheet.Hands) != 2 {
		t.Fatalf("first match %s: %+v", m.Origin(), m.Sheet)
	}
	h1, h2 := m.Sheet.Hands[0].Lines, m.Sheet.Hands[1].Lines
	if h1[0].Base != 250 || h1[0].Points != 1250 || *h1[0].Total != 1500 || h1[1].Points != 30 ||
		h2[0].Base != 1200 || h2[0].Points != -15 || *h2[0].Total != 1185 {
		t.Errorf("hands read as %+v / %+v", h1, h2)
	}
	// Hand 1 is row 4, hand 2 row 2: the cells follow the rows.
	if c := m.Sheet.Cells["/hands/0/ns/points"]; c != "Smazzate!G4" {
		t.Errorf("hand 1 NS points at %s, want Smazzate!G4", c)
	}
	if c := m.Sheet.Cells["/hands/1/ns/total"]; c != "Smazzate!H2" {
		t.Errorf("hand 2 NS total at %s, want Smazzate!H2", c)
	}
	if s := m.Sheet; s.Ruleset != domain.FITAB2025 || s.HandsPlanned != 3 || s.Tournament != "Coppa" {
		t.Errorf("settings %s %d %q", s.Ruleset, s.HandsPlanned, s.Tournament)
	}
	if wb.Matches[1].Origin() != "Smazzate!A3" {
		t.Errorf("second match at %s", wb.Matches[1].Origin())
	}
}

// Formulas are read as the values the spreadsheet computed and cached.
func TestFormulasReadAsCachedValues(t *testing.T) {
	t.Run("excelize string-typed cached values", func(t *testing.T) {
		data := buildWorkbook(t,
			tournamentSheet("Torneo", "fitab-2025", 2),
			sheetSpec{"Smazzate", [][]any{
				{"Turno", "Tavolo", "NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "EO Totale"},
				{1, 1, 300, 155, formula{"C2+D2", 455}, 100, 40, formula{"F2+G2", 140}},
			}})
		wb := mustRead(t, data, Options{})
		ls := wb.Matches[0].Sheet.Hands[0].Lines
		if *ls[0].Total != 455 || *ls[1].Total != 140 {
			t.Errorf("formula totals read as %d, %d", *ls[0].Total, *ls[1].Total)
		}
	})
	t.Run("number-typed cached values, with float noise", func(t *testing.T) {
		data := rawWorkbook(t,
			rawSheet{"Torneo", [][]string{{strCell("A1", "ruleset"), strCell("B1", "fitab-2025")}, {strCell("A2", "hands_planned"), numCell("B2", "3")}}},
			rawSheet{"Smazzate", [][]string{
				{strCell("A1", "Turno"), strCell("B1", "Tavolo"), strCell("C1", "NS Base"), strCell("D1", "NS Punti"), strCell("E1", "NS Totale"),
					strCell("F1", "EO Base"), strCell("G1", "EO Punti"), strCell("H1", "EO Totale")},
				{numCell("A2", "1"), numCell("B2", "1"), numCell("C2", "300"), numFormulaCell("D2", "0.1*1550", "155.00000000000003"),
					numFormulaCell("E2", "C2+D2", "455"), numCell("F2", "1.1E3"), strFormulaCell("G2", "TEXT(1530,\"#.##0\")", "1.530"),
					numFormulaCell("H2", "F2+G2", "2630")},
			}})
		wb := mustRead(t, data, Options{})
		ls := wb.Matches[0].Sheet.Hands[0].Lines
		if ls[0].Points != 155 || *ls[0].Total != 455 || ls[1].Base != 1100 || ls[1].Points != 1530 || *ls[1].Total != 2630 {
			t.Errorf("read %+v", ls)
		}
	})
	t.Run("a stored fraction is not read as Italian thousands", func(t *testing.T) {
		// 1.125 stored as a number is one and an eighth, not 1125.
		data := rawWorkbook(t,
			rawSheet{"Smazzate", [][]string{
				{strCell("A1", "Turno"), strCell("B1", "Tavolo"), strCell("C1", "NS Base"), strCell("D1", "NS Punti"),
					strCell("E1", "EO Base"), strCell("F1", "EO Punti")},
				{numCell("A2", "1"), numCell("B2", "1"), numCell("C2", "300"), numCell("D2", "1.125"), numCell("E2", "0"), numCell("F2", "5")},
			}})
		_, err := readWorkbook(t, data, Options{Ruleset: domain.FITAB2025, HandsPlanned: 3})
		if ref := cellErrorRef(err); ref != "Smazzate!D2" || !strings.Contains(err.Error(), "not a whole number") {
			t.Errorf("error %v (cell %q), want Smazzate!D2 not a whole number", err, ref)
		}
	})
}

// A paper workbook built with excelize: labels off their usual cells, a
// running total column, a footer with late points, a pre-printed unplayed
// hand, a notes sheet and a blank form.
func TestPaperLayout(t *testing.T) {
	score := sheetSpec{"Turno 2 - Tav. 3", [][]any{
		{nil, "SEGNAPUNTI"},
		{nil, "Tournament", "Autumn Cup", nil, "Round", 2},
		{nil, "Table", 3},
		{nil, "NS pair", "14", nil, "EW pair", "9"},
		{nil, "NS players", "Greco / De Luca", nil, "EW players", "Longo; Fontana"},
		{},
		{nil, "Hand", "NS Base", "NS Points", "NS Total", "NS Running total", "EW Base", "EW Points", "EW Total", "EW Running total"},
		{nil, 1, 350, 180, 530, 530, 450, 325, 775, 775},
		{nil, 2, 250, 265, 515, 1045, 0, -195, -195, 580},
		{nil, 3},
		{nil, "Late points", nil, nil, 100},
		{nil, "Total", nil, nil, 1145, nil, nil, nil, 580},
		{nil, "MP (difference)", nil, nil, 565, nil, nil, nil, -565},
		{nil, "VP", nil, nil, 15, nil, nil, nil, 5},
		{nil, "Firma NS", nil, nil, nil, nil, "Firma EO"},
	}}
	blank := sheetSpec{"Blank", [][]any{
		{"Smazzata", "NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "EO Totale"},
		{1}, {2}, {3}, {"Totale"}, {"MP"}, {"VP"},
	}}
	notes := sheetSpec{"Notes", [][]any{{"Arbitro", "Rossi"}}}
	data := buildWorkbook(t, notes, score, blank, tournamentSheet("Torneo", "fitab-2025", 3))
	wb := mustRead(t, data, Options{})
	if wb.Layout != LayoutPaper || len(wb.Matches) != 1 {
		t.Fatalf("layout %s, %d matches, ignored %v", wb.Layout, len(wb.Matches), wb.Ignored)
	}
	if len(wb.Ignored) != 2 || !strings.Contains(wb.Ignored[0], "Notes") || !strings.Contains(wb.Ignored[1], "Blank") {
		t.Errorf("ignored %v; want the notes sheet and the blank form", wb.Ignored)
	}
	m := wb.Matches[0]
	want := domain.Sheet{
		Ruleset: domain.FITAB2025, HandsPlanned: 3, Kind: domain.KindPairs, Tournament: "Autumn Cup", Round: 2, Table: 3,
		Sides:      [2]domain.Side{{ID: "14", Players: []string{"Greco", "De Luca"}}, {ID: "9", Players: []string{"Longo", "Fontana"}}},
		LatePoints: [2]int{100, 0},
		Hands: []domain.Hand{
			{Lines: [2]domain.LineScore{{Base: 350, Points: 180, Total: domain.Int(530), RunningTotal: domain.Int(530)},
				{Base: 450, Points: 325, Total: domain.Int(775), RunningTotal: domain.Int(775)}}},
			{Lines: [2]domain.LineScore{{Base: 250, Points: 265, Total: domain.Int(515), RunningTotal: domain.Int(1045)},
				{Base: 0, Points: -195, Total: domain.Int(-195), RunningTotal: domain.Int(580)}}},
		},
		Written: [2]domain.WrittenResult{
			{Total: domain.Int(1145), MP: domain.Int(565), VP: domain.Int(15)},
			{Total: domain.Int(580), MP: domain.Int(-565), VP: domain.Int(5)}},
	}
	if d := cmp.Diff(want, m.Sheet, sheetCmp...); d != "" {
		t.Errorf("sheet (-want +got):\n%s", d)
	}
	q := "'Turno 2 - Tav. 3'!"
	for ptr, cell := range map[string]string{
		"/tournament": "C2", "/round": "F2", "/table": "C3", "/ns/id": "C4", "/eo/id": "F4", "/ns/players": "C5", "/eo/players": "F5",
		"/hands/0": "B8", "/hands/1/ns/running_total": "F9", "/hands/1/eo/total": "I9",
		"/late_points/ns": "E11", "/written/ns/total": "E12", "/written/eo/mp": "I13", "/written/eo/vp": "I14",
	} {
		if got := m.Sheet.Cells[ptr]; got != q+cell {
			t.Errorf("Cells[%s] = %q, want %q", ptr, got, q+cell)
		}
	}
	if m.Origin() != q+"B7" {
		t.Errorf("origin %s", m.Origin())
	}
	if rep := domain.Validate(m.Sheet); !rep.OK() {
		t.Errorf("the match should validate cleanly: %+v", rep.Findings)
	}
}

// A match that can be read cell by cell but not as a whole gets its own
// error naming the cell; the other matches are still read.
func TestMatchErrors(t *testing.T) {
	head := []any{"Turno", "Tavolo", "Smazzata", "NS", "EO", "NS Base", "NS Punti", "EO Base", "EO Punti"}
	good := []any{9, 9, 1, "1", "2", 300, 100, 0, 20}
	cases := []struct {
		name    string
		rows    [][]any
		results [][]any
		cell    string
	}{
		{"hand numbered twice", [][]any{{1, 1, 1, "3", "4", 300, 100, 0, 20}, {1, 1, 1, "3", "4", 300, 100, 0, 20}}, nil, "Smazzate!C4"},
		{"hand missing", [][]any{{1, 1, 1, "3", "4", 300, 100, 0, 20}, {1, 1, 3, "3", "4", 300, 100, 0, 20}}, nil, "Smazzate!C4"},
		{"hand number missing", [][]any{{1, 1, 1, "3", "4", 300, 100, 0, 20}, {1, 1, nil, "3", "4", 300, 100, 0, 20}}, nil, "Smazzate!C4"},
		{"pair id changes", [][]any{{1, 1, 1, "3", "4", 300, 100, 0, 20}, {1, 1, 2, "3", "7", 300, 100, 0, 20}}, nil, "Smazzate!E4"},
		{"results without hands", [][]any{{1, 1, 1, "3", "4", 300, 100, 0, 20}}, [][]any{{"Turno", "Tavolo", "NS VP"}, {1, 2, 10}}, "Risultati!A2"},
		{"results twice", [][]any{{1, 1, 1, "3", "4", 300, 100, 0, 20}}, [][]any{{"Turno", "Tavolo", "NS VP"}, {1, 1, 10}, {1, 1, 11}}, "Risultati!A3"},
		{"too many hands", func() [][]any {
			var rows [][]any
			for h := 1; h <= 13; h++ {
				rows = append(rows, []any{1, 1, h, "3", "4", 300, 100, 0, 20})
			}
			return rows
		}(), nil, "Smazzate!C15"},
		{"results pair differs", [][]any{{1, 1, 1, "3", "4", 300, 100, 0, 20}}, [][]any{{"Turno", "Tavolo", "NS", "NS VP"}, {1, 1, "8", 10}}, "Risultati!C2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sheets := []sheetSpec{tournamentSheet("Torneo", "fitab-2025", 3), {"Smazzate", append([][]any{head, good}, c.rows...)}}
			if c.results != nil {
				sheets = append(sheets, sheetSpec{"Risultati", c.results})
			}
			wb, err := readWorkbook(t, buildWorkbook(t, sheets...), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var bad []Match
			for _, m := range wb.Matches {
				if m.Err != nil {
					bad = append(bad, m)
				}
			}
			if len(bad) != 1 || cellErrorRef(bad[0].Err) != c.cell {
				for _, m := range wb.Matches {
					t.Logf("%s: %v", m.Origin(), m.Err)
				}
				t.Fatalf("want one match error at %s", c.cell)
			}
			if wb.Matches[0].Err != nil || wb.Matches[0].Sheet.Round != 9 {
				t.Errorf("the good match should read cleanly: %v", wb.Matches[0].Err)
			}
		})
	}
	t.Run("paper hand after the totals", func(t *testing.T) {
		data := buildWorkbook(t, tournamentSheet("Torneo", "fitab-int", 2), sheetSpec{"T1", [][]any{
			{"Smazzata", "NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "EO Totale"},
			{1, 300, 100, 400, 0, 20, 20},
			{"Totale", nil, nil, 400, nil, nil, 20},
			{2, 300, 100, 400, 0, 20, 20},
		}})
		wb, err := readWorkbook(t, data, Options{})
		if err != nil || len(wb.Matches) != 1 || cellErrorRef(wb.Matches[0].Err) != "T1!A4" {
			t.Fatalf("err %v, matches %+v", err, wb.Matches)
		}
	})
}

// A cell whose value cannot be read fails the whole read, naming the cell
// (never read as 0, never skipped).
func TestUnreadableCellFailsTheRead(t *testing.T) {
	head := []any{"Turno", "Tavolo", "Smazzata", "NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "Fine", "NS Chiusura", "NS Pozzetto", "NS Burrachi"}
	row := func(col int, v any) []any {
		r := []any{1, 1, 1, 300, 100, 400, 0, 20, nil, nil, nil, nil}
		r[col] = v
		return r
	}
	cases := []struct {
		name   string
		sheets []sheetSpec
		cell   string
		detail string
	}{
		{"text in points", []sheetSpec{{"Smazzate", [][]any{head, row(4, "12O")}}}, "Smazzate!E2", `"12O" is not a number`},
		{"fraction in base", []sheetSpec{{"Smazzate", [][]any{head, row(3, "12,5")}}}, "Smazzate!D2", "not a whole number"},
		{"empty required base", []sheetSpec{{"Smazzate", [][]any{head, row(3, nil)}}}, "Smazzate!D2", "empty"},
		{"text in optional total", []sheetSpec{{"Smazzate", [][]any{head, row(5, "n/a")}}}, "Smazzate!F2", "not a number"},
		{"round zero", []sheetSpec{{"Smazzate", [][]any{head, row(0, 0)}}}, "Smazzate!A2", "1 or more"},
		{"missing table", []sheetSpec{{"Smazzate", [][]any{head, row(1, nil)}}}, "Smazzate!B2", "empty"},
		{"hand end", []sheetSpec{{"Smazzate", [][]any{head, row(8, "finita")}}}, "Smazzate!I2", "not a hand end"},
		{"closed", []sheetSpec{{"Smazzate", [][]any{head, row(9, "forse")}}}, "Smazzate!J2", "not yes or no"},
		{"pozzetto", []sheetSpec{{"Smazzate", [][]any{head, row(10, "boh")}}}, "Smazzate!K2", "not a pozzetto state"},
		{"burrachi", []sheetSpec{{"Smazzate", [][]any{head, row(11, "tre puliti")}}}, "Smazzate!L2", "not a burraco breakdown"},
		{"results number", []sheetSpec{{"Smazzate", [][]any{head, row(0, 1)}}, {"Risultati", [][]any{{"Turno", "Tavolo", "NS VP"}, {1, 1, "dieci"}}}}, "Risultati!C2", "not a number"},
		{"ruleset", []sheetSpec{{"Torneo", [][]any{{"ruleset", "burraco"}}}, {"Smazzate", [][]any{head, row(0, 1)}}}, "Torneo!B1", "unknown ruleset"},
		{"hands planned", []sheetSpec{{"Torneo", [][]any{{"ruleset", "fitab-2025"}, {"Smazzate previste", 5}}}, {"Smazzate", [][]any{head, row(0, 1)}}}, "Torneo!B2", "2, 3 or 4"},
		{"level", []sheetSpec{{"Torneo", [][]any{{"livello", "mondiale"}}}, {"Smazzate", [][]any{head, row(0, 1)}}}, "Torneo!B1", "unknown level"},
		{"setting twice", []sheetSpec{{"Torneo", [][]any{{"ruleset", "fitab-2025"}, {"Regolamento", "fitab-int"}}}, {"Smazzate", [][]any{head, row(0, 1)}}}, "Torneo!A2", "twice"},
		{"paper round", []sheetSpec{{"T1", [][]any{{"Turno", "primo"}, {"Smazzata", "NS Base", "NS Punti", "EO Base", "EO Punti"}, {1, 300, 100, 0, 20}}}}, "T1!B1", "not a number"},
		{"paper footer", []sheetSpec{{"T1", [][]any{{"Smazzata", "NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "EO Totale"}, {1, 300, 100, 400, 0, 20, 20}, {"VP", nil, nil, "dieci"}}}}, "T1!D3", "not a number"},
		{"duplicate column", []sheetSpec{{"Smazzate", [][]any{append(head, "N-S Punti"), row(0, 1)}}}, "Smazzate!M1", "again"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wb, err := readWorkbook(t, buildWorkbook(t, c.sheets...), Options{Ruleset: domain.FITAB2025, HandsPlanned: 3})
			if err == nil {
				t.Fatalf("read succeeded: %+v", wb.Matches)
			}
			if got := cellErrorRef(err); got != c.cell || !strings.Contains(err.Error(), c.detail) {
				t.Errorf("error %q (cell %q); want cell %s and %q", err, got, c.cell, c.detail)
			}
			if !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("error %v does not wrap domain.ErrInvalid", err)
			}
			if !strings.HasPrefix(err.Error(), c.cell+": ") && !strings.Contains(err.Error(), c.cell+": ") {
				t.Errorf("message %q does not start with the cell", err)
			}
		})
	}
}

func TestLayoutAndSettingErrors(t *testing.T) {
	hands := sheetSpec{"Smazzate", [][]any{{"Turno", "Tavolo", "NS Base", "NS Punti", "EO Base", "EO Punti"}, {1, 1, 300, 100, 0, 20}}}
	cases := []struct {
		name   string
		sheets []sheetSpec
		opts   Options
		want   error
		detail string
	}{
		{"neither layout", []sheetSpec{{"Foglio1", [][]any{{"a", "b"}, {1, 2}}}}, Options{}, ErrLayout, "no sheet named Hands or Smazzate"},
		{"tidy sheet under another name", []sheetSpec{{"Dati", hands.rows}}, Options{}, ErrLayout, "rename it Hands or Smazzate"},
		{"tidy header missing columns", []sheetSpec{{"Hands", [][]any{{"Turno", "Tavolo", "NS Base"}, {1, 1, 300}}}}, Options{}, ErrLayout, "missing ns_points, eo_base, eo_points"},
		{"no ruleset", []sheetSpec{hands}, Options{HandsPlanned: 3}, ErrLayout, "no ruleset"},
		{"no planned hands", []sheetSpec{hands}, Options{Ruleset: domain.FITAB2025}, ErrLayout, "no planned hands"},
		{"bad ruleset option", []sheetSpec{hands}, Options{Ruleset: "x", HandsPlanned: 3}, domain.ErrInvalid, "unknown ruleset"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readWorkbook(t, buildWorkbook(t, c.sheets...), c.opts)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.detail) {
				t.Errorf("error %v; want %v with %q", err, c.want, c.detail)
			}
		})
	}
	t.Run("options are defaults the Tournament sheet overrides", func(t *testing.T) {
		wb := mustRead(t, buildWorkbook(t, hands), Options{Ruleset: domain.FIBurInt, HandsPlanned: 2})
		if s := wb.Matches[0].Sheet; s.Ruleset != domain.FIBurInt || s.HandsPlanned != 2 || s.Cells["/ruleset"] != "" {
			t.Errorf("defaults not applied: %s %d", s.Ruleset, s.HandsPlanned)
		}
		wb = mustRead(t, buildWorkbook(t, tournamentSheet("Torneo", "fitab-int", 4), hands), Options{Ruleset: domain.FIBurInt, HandsPlanned: 2})
		if s := wb.Matches[0].Sheet; s.Ruleset != domain.FITABInt || s.HandsPlanned != 4 {
			t.Errorf("Torneo sheet should win: %s %d", s.Ruleset, s.HandsPlanned)
		}
	})
}

func TestQuoteSheet(t *testing.T) {
	for in, want := range map[string]string{
		"Smazzate": "Smazzate", "Turno1_Tavolo4": "Turno1_Tavolo4", "Città": "Città",
		"Turno 1": "'Turno 1'", "O'Brien": "'O''Brien'", "2024": "'2024'", "a-b": "'a-b'",
	} {
		if got := quoteSheet(in); got != want {
			t.Errorf("quoteSheet(%q) = %q, want %q", in, got, want)
		}
	}
	for col, want := range map[int]string{1: "A", 26: "Z", 27: "AA", 52: "AZ", 53: "BA", 702: "ZZ", 703: "AAA", 16384: "XFD"} {
		if got := cellName(col, 7); got != want+"7" {
			t.Errorf("cellName(%d, 7) = %q, want %s7", col, got, want)
		}
	}
}

// API §5: every number form, as text in a cell and as a stored number,
// reads as its value.
func TestEveryNumberFormInACell(t *testing.T) {
	forms := []struct {
		cell any
		want int
	}{
		{"1.250", 1250}, {"1,250", 1250}, {"-120", -120}, {"(120)", -120}, {"1250,0", 1250}, {"1.250,0", 1250},
		{"1,250.0", 1250}, {" 65 ", 65}, {"+65", 65}, {"0,0", 0}, {"(1.480)", -1480}, {"1.250.000", 1250000},
		{1250, 1250}, {-120, -120}, {1250.0, 1250}, {int64(65), 65}, {0, 0},
	}
	head := []any{"Turno", "Tavolo", "Smazzata", "NS Base", "NS Punti", "EO Base", "EO Punti"}
	rows := [][]any{head}
	for i, f := range forms {
		rows = append(rows, []any{1, i + 1, 1, 0, f.cell, 0, 0})
	}
	wb := mustRead(t, buildWorkbook(t, sheetSpec{"Smazzate", rows}), Options{Ruleset: domain.FITAB2025, HandsPlanned: 3})
	if len(wb.Matches) != len(forms) {
		t.Fatalf("%d matches", len(wb.Matches))
	}
	for i, f := range forms {
		sh := wb.Matches[i].Sheet
		if got := sh.Hands[0].Lines[domain.NS].Points; got != f.want {
			t.Errorf("%#v read as %d, want %d", f.cell, got, f.want)
		}
		if c := sh.Cells["/hands/0/ns/points"]; c != cellRef("Smazzate", 5, i+2) {
			t.Errorf("%#v: cell %s", f.cell, c)
		}
	}
}

func TestOtherSheetsOfATidyWorkbookAreNoted(t *testing.T) {
	data := buildWorkbook(t, sheetSpec{"Note", [][]any{{"Compilare il foglio Smazzate"}}},
		sheetSpec{"Smazzate", [][]any{{"Turno", "Tavolo", "NS Base", "NS Punti", "EO Base", "EO Punti"}, {1, 1, 300, 100, 0, 20}}})
	wb := mustRead(t, data, Options{Ruleset: domain.FITAB2025, HandsPlanned: 3})
	if len(wb.Ignored) != 1 || !strings.Contains(wb.Ignored[0], "Note") {
		t.Errorf("ignored %v", wb.Ignored)
	}
	if c := wb.Matches[0].Sheet.Cells["/hands/0"]; c != "Smazzate!C2" {
		t.Errorf("without hand numbers a hand is its first value's cell, got %s", c)
	}
}
