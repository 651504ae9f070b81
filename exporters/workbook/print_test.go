package workbook

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
	"segnapunti/importers/xlsx"
)

// Every sheet prints on A4, one page wide, landscape when wide,
// with the header row on every page.
func TestPageSetupEverySheet(t *testing.T) {
	rows, totals := sampleSeason()
	landscape := map[string]bool{
		SheetClassifica: true, SheetTurni: true, SheetSmazzate: true, SheetRettifiche: true,
		SheetCorrezioni: true, SheetTorneo: false, SheetPartecipazioni: true, SheetTotali: true, SheetPremi: true,
	}
	for name, data := range map[string][]byte{"tournament": writeSample(t), "season": writeSeason(t, rows, totals)} {
		f := openBook(t, data)
		titles := map[string]string{}
		for _, dn := range f.GetDefinedName() {
			if dn.Name == "_xlnm.Print_Titles" {
				titles[dn.Scope] = dn.RefersTo
			}
		}
		for _, sheet := range f.GetSheetList() {
			t.Run(name+"/"+sheet, func(t *testing.T) {
				pl, err := f.GetPageLayout(sheet)
				if err != nil {
					t.Fatal(err)
				}
				want := "portrait"
				if landscape[sheet] {
					want = "landscape"
				}
				if pl.Size == nil || *pl.Size != 9 || pl.Orientation == nil || *pl.Orientation != want ||
					pl.FitToWidth == nil || *pl.FitToWidth != 1 || pl.FitToHeight == nil || *pl.FitToHeight != 0 {
					t.Errorf("page layout size %v, orientation %v, fit %v×%v; want A4 (9), %s, 1 page wide",
						deref(pl.Size), deref(pl.Orientation), deref(pl.FitToWidth), deref(pl.FitToHeight), want)
				}
				props, err := f.GetSheetProps(sheet)
				if err != nil {
					t.Fatal(err)
				}
				if props.FitToPage == nil || !*props.FitToPage {
					t.Error("fitToPage is not set: Excel ignores the fit to one page wide")
				}
				if got, want := titles[sheet], "'"+sheet+"'!$1:$1"; got != want {
					t.Errorf("print titles %q, want %q", got, want)
				}
			})
		}
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// One font for headers and body.
func TestOneFontForHeadersAndBody(t *testing.T) {
	f := openBook(t, writeSample(t))
	if got := mustDefaultFont(t, f); got != exportFont {
		t.Errorf("default font %q, want %q", got, exportFont)
	}
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for r := range min(len(rows), 4) {
			for c := range rows[r] {
				ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
				id, err := f.GetCellStyle(sheet, ref)
				if err != nil {
					t.Fatal(err)
				}
				if id == 0 {
					continue // the default style: the default font
				}
				st, err := f.GetStyle(id)
				if err != nil {
					t.Fatal(err)
				}
				if st.Font == nil || st.Font.Family != exportFont || st.Font.Size != exportFontSize {
					t.Errorf("%s!%s font %+v, want %s %d", sheet, ref, st.Font, exportFont, exportFontSize)
				}
			}
		}
	}
}

func mustDefaultFont(t *testing.T, f *excelize.File) string {
	t.Helper()
	name, err := f.GetDefaultFont()
	if err != nil {
		t.Fatal(err)
	}
	return name
}

// Entrant numbers are numeric cells when they are numbers; other
// ids stay text, a leading zero kept.
func TestEntrantCell(t *testing.T) {
	for id, want := range map[string]any{
		"12": 12, "1": 1, "0": 0, "007": "007", "A7": "A7", "-3": "-3", "+3": "+3",
		"": "", "1234567890": "1234567890", " 5": " 5", "1e3": "1e3",
	} {
		if got := entrantCell(id); got != want {
			t.Errorf("entrantCell(%q) = %#v, want %#v", id, got, want)
		}
	}
	f := openBook(t, writeSample(t))
	for _, ref := range [][2]string{{SheetClassifica, "B2"}, {SheetTurni, "C2"}, {SheetTurni, "D2"}, {SheetSmazzate, "D2"}, {SheetRettifiche, "A2"}} {
		typ, err := f.GetCellType(ref[0], ref[1])
		if err != nil {
			t.Fatal(err)
		}
		if typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber {
			t.Errorf("%s!%s type %v, want a number", ref[0], ref[1], typ)
		}
	}
}

// Every value a person reads is Italian; every id of the domain
// has a label, and no two ids share one.
func TestItalianLabelsCoverTheDomain(t *testing.T) {
	check := func(name string, ids []string, label func(string) string) {
		seen := map[string]string{}
		for _, id := range ids {
			l := label(id)
			if l == id && id != "" {
				t.Errorf("%s %q has no Italian label", name, id)
			}
			if prev, dup := seen[l]; dup {
				t.Errorf("%s %q and %q share the label %q", name, prev, id, l)
			}
			seen[l] = id
		}
	}
	check("level", strs(domain.Levels), func(s string) string { return italian(levelIT, domain.Level(s)) })
	check("kind", strs(domain.Kinds), func(s string) string { return italian(kindIT, domain.Kind(s)) })
	check("end", strs(domain.HandEnds), func(s string) string { return italian(endIT, domain.HandEnd(s)) })
	check("reason", strs(domain.AdjustmentReasons), func(s string) string { return italian(reasonIT, domain.AdjustmentReason(s)) })
	check("correction", strs(domain.CorrectionKinds), func(s string) string { return italian(correctionIT, domain.CorrectionKind(s)) })
	check("ruling", strs(domain.Rulings), func(s string) string { return italian(rulingIT, domain.Ruling(s)) })
	if got := italian(levelIT, domain.Level("future")); got != "future" {
		t.Errorf("an id without a label shows as %q, want the id", got)
	}
	// Spot checks of the printed layout.
	for got, want := range map[string]string{
		italian(levelIT, domain.LevelClub):          "circolo",
		italian(kindIT, domain.KindPairs):           "coppie",
		italian(endIT, domain.EndStockExhausted):    "tallone esaurito",
		italian(correctionIT, domain.CorrectionSum): "errore di somma",
		italian(reasonIT, domain.ReasonWarning):     "ammonizione",
		italian(rulingIT, domain.RulingReject):      "respinta",
	} {
		if got != want {
			t.Errorf("label %q, want %q", got, want)
		}
	}
}

func strs[T ~string](ids []T) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = string(id)
	}
	return out
}

// API §5/§6: the exported Smazzate sheet, its ends now in Italian, reads
// back through the importer with every end as it was.
func TestSmazzateEndsReadBackByTheImporter(t *testing.T) {
	var hands []HandRow
	for i, e := range domain.HandEnds {
		hands = append(hands, HandRow{Round: 1, Table: 1, Hand: i + 1, Entrants: [2]string{"1", "2"}, End: e,
			Base: [2]int{100, 0}, Points: [2]int{50, 20}, Total: [2]int{150, 20}})
	}
	var buf bytes.Buffer
	tr := domain.Tournament{Ruleset: domain.FITAB2025, HandsPerRound: 3, Kind: domain.KindPairs, Level: domain.LevelClub}
	if err := WriteTournament(&buf, TournamentExport{Tournament: tr, Hands: Slice(hands)}); err != nil {
		t.Fatal(err)
	}
	wb, err := xlsx.Read(&buf, int64(buf.Len()), xlsx.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(wb.Matches) != 1 || len(wb.Matches[0].Sheet.Hands) != len(hands) {
		t.Fatalf("read %d matches", len(wb.Matches))
	}
	for i, h := range wb.Matches[0].Sheet.Hands {
		if h.End != hands[i].End {
			t.Errorf("hand %d: end %q read back as %q", i+1, hands[i].End, h.End)
		}
	}
}

// CSV for Italian Excel: a BOM, ';' between fields, the same
// records as the RFC 4180 file.
func TestCSVItalianBOMAndSemicolon(t *testing.T) {
	if CSVOptionsFor("it") != CSVItalian || CSVOptionsFor("en") != (CSVOptions{}) {
		t.Fatalf("CSVOptionsFor: it %+v, en %+v", CSVOptionsFor("it"), CSVOptionsFor("en"))
	}
	for _, sheet := range CSVSheets() {
		t.Run(sheet, func(t *testing.T) {
			var plain, it bytes.Buffer
			if err := WriteCSV(&plain, sample(t), sheet); err != nil {
				t.Fatal(err)
			}
			if err := WriteCSVWith(&it, sample(t), sheet, CSVItalian); err != nil {
				t.Fatal(err)
			}
			body, ok := bytes.CutPrefix(it.Bytes(), []byte{0xEF, 0xBB, 0xBF})
			if !ok {
				t.Fatalf("no UTF-8 BOM: % x", it.Bytes()[:min(3, it.Len())])
			}
			if bytes.HasPrefix(plain.Bytes(), []byte{0xEF}) {
				t.Error("the RFC 4180 file has a BOM")
			}
			want := readCSV(t, &plain, ',')
			r := csv.NewReader(bytes.NewReader(body))
			r.Comma = ';'
			got, err := r.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d records, want %d", len(got), len(want))
			}
			for i := range want {
				if strings.Join(got[i], "\x00") != strings.Join(want[i], "\x00") {
					t.Errorf("record %d: %q, want %q", i, got[i], want[i])
				}
			}
			if first := strings.SplitN(string(body), "\n", 2)[0]; !strings.Contains(first, ";") || strings.Contains(first, ",") {
				t.Errorf("header line %q is not ';'-separated", first)
			}
		})
	}
	if err := WriteCSVWith(io.Discard, sample(t), SheetTurni, CSVOptions{Sep: '"'}); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("a quote as separator: %v, want ErrInvalid", err)
	}
}

func readCSV(t *testing.T, r io.Reader, sep rune) [][]string {
	t.Helper()
	cr := csv.NewReader(r)
	cr.Comma = sep
	recs, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// The Torneo sheet as CSV, Italian values, key and value.
func TestTorneoCSV(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCSVWith(&buf, sample(t), "torneo", CSVItalian); err != nil {
		t.Fatal(err)
	}
	body, _ := bytes.CutPrefix(buf.Bytes(), []byte("\uFEFF"))
	recs := readCSV(t, bytes.NewReader(body), ';')
	kv := map[string]string{}
	for _, r := range recs[1:] {
		kv[r[0]] = r[1]
	}
	if recs[0][0] != "Voce" || kv["Livello"] != "regionale" || kv["Tipo"] != "coppie" || kv["Data"] != "2026-11-21" {
		t.Errorf("Torneo CSV %q", recs)
	}
}
