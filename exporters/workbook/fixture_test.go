package workbook

import (
	"archive/zip"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Europe/Rome on machines without a zoneinfo database

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// hostile is a player name that runs a formula if a spreadsheet evaluates it.
const hostile = `=HYPERLINK("http://evil","x")`

func mustRome(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func mustVPTable(t testing.TB, id string) domain.VPTable {
	t.Helper()
	vt, err := domain.ParseVPTable(id)
	if err != nil {
		t.Fatal(err)
	}
	return vt
}

// sample is a two-round, four-pair Mitchell tournament, FITAB 3 hands.
// Hand totals add up to the match totals; MP is the difference of totals
// and VP come from the fitab-3 table (RULES §6.1): 300 → 13-7, 520 → 15-5,
// 0 → 10-10, 1600 → 20-0. Standings order by VP then MP (RULES §8).
func sample(t testing.TB) TournamentExport {
	players := func(names ...string) []domain.Player {
		var ps []domain.Player
		for i := 0; i < len(names); i += 2 {
			ps = append(ps, domain.Player{Name: names[i], Membership: names[i+1]})
		}
		return ps
	}
	entrants := []domain.Entrant{
		{ID: "1", Players: players("Rossi Anna", "FT123456", "Bianchi Luca", "FT654321"), Club: "Circolo Roma"},
		{ID: "2", Players: players(hostile, "FT000002", "Verdi Carla", ""), Club: "@Circolo Sud"},
		{ID: "3", Players: players("+39 Neri Paolo", "-12", "Gallo Rita", "FT333333")},
		{ID: "4", Players: players("Longo Sara", "", "Fontana Ugo", "")},
	}
	ent := func(id string) domain.Entrant {
		for _, e := range entrants {
			if e.ID == id {
				return e
			}
		}
		t.Fatalf("no entrant %s", id)
		return domain.Entrant{}
	}
	type line struct{ base, points, total int }
	type match struct {
		round, table int
		ns, eo       string
		vp           [2]int
		hands        [][2]line
	}
	matches := []match{
		{1, 1, "1", "2", [2]int{13, 7}, [][2]line{
			{{300, 235, 535}, {100, -120, -20}}, {{200, 165, 365}, {500, 170, 670}}, {{400, 150, 550}, {300, 200, 500}}}},
		{1, 2, "3", "4", [2]int{5, 15}, [][2]line{
			{{100, 50, 150}, {400, 200, 600}}, {{200, 100, 300}, {300, 120, 420}}, {{300, 150, 450}, {200, 200, 400}}}},
		{2, 1, "1", "3", [2]int{10, 10}, [][2]line{
			{{300, 100, 400}, {200, 200, 400}}, {{300, 100, 400}, {200, 200, 400}}, {{300, 100, 400}, {200, 200, 400}}}},
		{2, 2, "2", "4", [2]int{20, 0}, [][2]line{
			{{600, 100, 700}, {100, 50, 150}}, {{500, 150, 650}, {0, 100, 100}}, {{500, 150, 650}, {100, 50, 150}}}},
	}
	var mrows []MatchRow
	var hrows []HandRow
	for _, m := range matches {
		mr := MatchRow{Round: m.round, Table: m.table, Entrants: [2]string{m.ns, m.eo}, VP: m.vp}
		// RULES §12.4: who sat, by name; in round 2 a substitute sits for
		// Gallo Rita in pair 3.
		for l, id := range mr.Entrants {
			var names []string
			for _, p := range ent(id).Players {
				if m.round == 2 && p.Name == "Gallo Rita" {
					p.Name = "Sostituta Bruna"
				}
				names = append(names, p.Name)
			}
			mr.Seated[l] = strings.Join(names, " – ")
		}
		for i, h := range m.hands {
			end := domain.EndClosed
			if m.round == 2 && m.table == 2 && i == 2 {
				end = domain.EndTimeOut
			}
			hr := HandRow{Round: m.round, Table: m.table, Hand: i + 1, Entrants: mr.Entrants, End: end}
			for l := range 2 {
				hr.Base[l], hr.Points[l], hr.Total[l] = h[l].base, h[l].points, h[l].total
				mr.Total[l] += h[l].total
			}
			hrows = append(hrows, hr)
		}
		mr.MP[domain.NS] = mr.Total[domain.NS] - mr.Total[domain.EO]
		mr.MP[domain.EO] = -mr.MP[domain.NS]
		mrows = append(mrows, mr)
	}
	// 2: 7+20 VP, -300+1600 MP; 1: 13+10, 300+0; 3: 5+10, -520+0;
	// 4: 15+0, 520-1600. 3 and 4 are level on VP; MP separates them.
	standings := []StandingRow{
		{Rank: 1, Entrant: ent("2"), VP: 27, MP: 1300, Wins: 1},
		{Rank: 2, Entrant: ent("1"), VP: 23, MP: 300, Wins: 1},
		{Rank: 3, Entrant: ent("3"), VP: 15, MP: -520, Wins: 0, TieBreak: []domain.Note{{Code: "tie.best_vp_level", Args: []any{"10"}}, {Code: "tie.wins", Args: []any{[]domain.Note{{Code: "tie.had", Args: []any{"3", "1"}}, {Code: "tie.had", Args: []any{"4", "0"}}}}}}},
		{Rank: 4, Entrant: ent("4"), VP: 15, MP: -1080, Wins: 1, TieBreak: []domain.Note{{Code: "tie.h2h_drew", Args: []any{"3", "4"}}}},
	}
	rome := mustRome(t)
	rounds := []domain.Round{
		{Number: 1, HandsPlanned: 3, Phase: domain.PhaseMitchell, State: domain.RoundNextPairingPublished,
			Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}, {Table: 2, NS: "3", EO: "4"}}},
		{Number: 2, HandsPlanned: 3, Phase: domain.PhaseMitchell, State: domain.RoundSheetsDelivered,
			Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "3"}, {Table: 2, NS: "2", EO: "4"}}},
	}
	return TournamentExport{
		Tournament: domain.Tournament{
			ID: "t_42", Name: "Coppa Autunno", Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC),
			ClubID: "c1", Level: domain.LevelRegional, Ruleset: domain.FITAB2025, Kind: domain.KindPairs,
			RoundsPlanned: 2, HandsPerRound: 3, VPTable: mustVPTable(t, "fitab-3"),
			// RULES §12.1: a Mitchell event, round 1 in entry order.
			Plan: domain.Plan{FirstRound: domain.SystemEntryOrder, Phases: []domain.PlanPhase{{FromRound: 1, System: domain.SystemMitchell}}, Sessions: []int{2}},
		},
		Club:       domain.Club{ID: "c1", Name: "Circolo Burraco Roma"},
		ExportedAt: time.Date(2026, 11, 21, 19, 45, 0, 0, time.UTC), // 20:45 in Rome
		Location:   rome,
		Entrants:   Slice(entrants),
		Rounds:     Slice(rounds),
		Standings:  Slice(standings),
		Matches:    Slice(mrows),
		Hands:      Slice(hrows),
		Adjustments: Slice([]AdjustmentRow{
			{Entrant: "4", Round: 2, Reason: domain.ReasonWarning, Note: `=cmd|' /C calc'!A0`, Author: "Arbitro Ferri",
				At: time.Date(2026, 11, 21, 17, 10, 0, 0, time.UTC)},
			{Entrant: "3", Reason: domain.ReasonRefereeScore, VP: domain.Int(-1), MP: domain.Int(-65), Note: "secondo richiamo",
				Author: "Arbitro Ferri", At: time.Date(2026, 11, 21, 18, 0, 0, 0, rome)},
		}),
		Corrections: Slice([]CorrectionRow{
			{Round: 1, Table: 1, Kind: domain.CorrectionSum, Ruling: domain.RulingApply, Rules: []string{"FITAB art. 20"},
				Reason: "fase Mitchell: la correzione si applica", Request: "totale NS riaddizionato",
				Author: "Arbitro Ferri", At: time.Date(2026, 11, 21, 16, 30, 0, 0, time.UTC),
				Before: &MatchResult{Total: [2]int{1400, 1150}, MP: [2]int{250, -250}, VP: [2]int{12, 8}},
				After:  &MatchResult{Total: [2]int{1450, 1150}, MP: [2]int{300, -300}, VP: [2]int{13, 7}}},
			{Round: 1, Table: 2, Kind: domain.CorrectionOther, Ruling: domain.RulingReject, Rules: []string{"FITAB art. 20"},
				Reason: "il foglio consegnato è definitivo", Request: "+1 burraco dimenticato",
				Author: "Arbitro Ferri", At: time.Date(2026, 11, 21, 16, 40, 0, 0, time.UTC),
				Before: &MatchResult{Total: [2]int{900, 1420}, MP: [2]int{-520, 520}, VP: [2]int{5, 15}}},
		}),
		// An overall prize and a host-club prize (2 has won
		// overall, so Circolo Roma's is 1).
		Prizes: Slice([]PrizeRow{
			{Category: "assoluta", Label: "Classifica assoluta", Place: 1, Rank: 1, Entrant: ent("2"), VP: 27, MP: 1300},
			{Category: "locale", Label: "Miglior coppia del circolo", Place: 1, Rank: 2, Entrant: ent("1"), VP: 23, MP: 300},
		}),
	}
}

func sampleSeason() ([]SeasonRow, []SeasonTotal) {
	d := func(m time.Month, day int) time.Time { return time.Date(2026, m, day, 0, 0, 0, 0, time.UTC) }
	rows := []SeasonRow{
		{"Rossi Anna", "FT123456", "Circolo Roma", "Coppa Autunno", d(11, 21), domain.LevelRegional, 2, 23, 300},
		{"Rossi Anna", "FT123456", "Circolo Roma", "Trofeo Primavera", d(4, 12), domain.LevelClub, 1, 52, 1210},
		{hostile, "FT000002", "@Circolo Sud", "Coppa Autunno", d(11, 21), domain.LevelRegional, 1, 27, 1300},
	}
	totals := []SeasonTotal{
		{"Rossi Anna", "FT123456", "Circolo Roma", 2, 75, 1510, 1},
		{hostile, "FT000002", "@Circolo Sud", 1, 27, 1300, 1},
	}
	return rows, totals
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

func openBook(t testing.TB, data []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the export does not open: %v", err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

var autoFilterRE = regexp.MustCompile(`<autoFilter ref="([^"]+)"`)

// sheetFilters reads the autoFilter ref of each worksheet straight from
// the archive: excelize has no getter for it.
func sheetFilters(t testing.TB, data []byte, f *excelize.File) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string]string{}
	for _, zf := range zr.File {
		if !strings.HasPrefix(zf.Name, "xl/worksheets/sheet") {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if m := autoFilterRE.FindSubmatch(b); m != nil {
			parts[zf.Name] = string(m[1])
		}
	}
	out := map[string]string{}
	for i, name := range f.GetSheetList() {
		out[name] = parts[fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1)]
	}
	return out
}

// dump renders a workbook cell by cell, as read back by excelize: for each
// sheet its frozen panes, filter (worksheet and defined name), column widths
// and every cell with its type, raw value, formatted value when it differs,
// and style marks (bold, quote prefix, number format).
func dump(t testing.TB, data []byte) string {
	t.Helper()
	f := openBook(t, data)
	filters := sheetFilters(t, data, f)
	names := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "_xlnm._FilterDatabase" {
			names[dn.Scope] = dn.RefersTo
		}
	}
	var sb strings.Builder
	for _, sheet := range f.GetSheetList() {
		fmt.Fprintf(&sb, "== %s\n", sheet)
		p, err := f.GetPanes(sheet)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "panes: freeze=%v ysplit=%d topleft=%s\n", p.Freeze, p.YSplit, p.TopLeftCell)
		fmt.Fprintf(&sb, "filter: %s name=%s\n", filters[sheet], names[sheet])
		rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		var widths []string
		if len(rows) > 0 {
			for c := range rows[0] {
				col, _ := excelize.ColumnNumberToName(c + 1)
				w, err := f.GetColWidth(sheet, col)
				if err != nil {
					t.Fatal(err)
				}
				widths = append(widths, fmt.Sprintf("%s=%g", col, w))
			}
		}
		fmt.Fprintf(&sb, "widths: %s\n", strings.Join(widths, " "))
		for r, row := range rows {
			for c := range row {
				ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
				if line := dumpCell(t, f, sheet, ref); line != "" {
					sb.WriteString(line + "\n")
				}
			}
		}
	}
	return sb.String()
}

func dumpCell(t testing.TB, f *excelize.File, sheet, ref string) string {
	t.Helper()
	typ, err := f.GetCellType(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	if typ == excelize.CellTypeUnset {
		if raw == "" {
			return ""
		}
		// A cell without t= is a number (ECMA-376 Part 1, 18.3.1.4: t
		// defaults to "n").
		typ = excelize.CellTypeNumber
	}
	shown, err := f.GetCellValue(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	formula, err := f.GetCellFormula(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	types := map[excelize.CellType]string{
		excelize.CellTypeNumber: "number", excelize.CellTypeInlineString: "text",
		excelize.CellTypeSharedString: "shared-text", excelize.CellTypeFormula: "FORMULA",
		excelize.CellTypeBool: "bool", excelize.CellTypeDate: "date-iso", excelize.CellTypeError: "error",
	}
	line := fmt.Sprintf("%s %s %q", ref, types[typ], raw)
	if shown != raw {
		line += fmt.Sprintf(" shown=%q", shown)
	}
	if formula != "" {
		line += fmt.Sprintf(" FORMULA=%q", formula)
	}
	line += styleMarks(t, f, sheet, ref)
	return line
}

func styleMarks(t testing.TB, f *excelize.File, sheet, ref string) string {
	t.Helper()
	id, err := f.GetCellStyle(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	var marks []string
	if st.Font != nil && st.Font.Bold {
		marks = append(marks, "bold")
	}
	if quotePrefix(f, id) {
		marks = append(marks, "quote")
	}
	if st.CustomNumFmt != nil {
		marks = append(marks, "fmt="+*st.CustomNumFmt)
	} else if st.NumFmt != 0 {
		marks = append(marks, fmt.Sprintf("fmt=#%d", st.NumFmt))
	}
	if len(marks) == 0 {
		return ""
	}
	return " [" + strings.Join(marks, ",") + "]"
}

func quotePrefix(f *excelize.File, id int) bool {
	xfs := f.Styles.CellXfs
	if xfs == nil || id < 0 || id >= len(xfs.Xf) {
		return false
	}
	q := xfs.Xf[id].QuotePrefix
	return q != nil && *q
}
