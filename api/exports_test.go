package api

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
	"segnapunti/exporters/workbook"
	"segnapunti/store/dbtest"
)

// Exports (API §6): the tournament workbook, its CSV tables, the JSON
// export and its schema, and the season workbook, read back cell by cell
// and compared with what the service answers elsewhere (standings, stored
// sheets), not with numbers copied from the export itself.

const evilName = `=HYPERLINK("http://evil","x")`

// swappedSheet is goodSheet with the lines exchanged: EO wins 950 to 825.
func swappedSheet() map[string]any {
	return map[string]any{
		"hands": []map[string]any{
			hand("closed", 100, -120, 300, 235),
			hand("closed", 400, 180, 0, -55),
			hand("closed", 200, 65, 350, 120),
		},
		"written": map[string]any{
			"ns": map[string]any{"total": 825, "mp": -125, "vp": 9},
			"eo": map[string]any{"total": 950, "mp": 125, "vp": 11},
		},
	}
}

// exportWorld is the world's tournament with a fifth pair whose first
// player is named like a formula, two rounds and three sheets (one table
// of round 2 still without one).
func exportWorld(t *testing.T, b backend) *world {
	t.Helper()
	w := newWorld(t, b)
	r := w.do(request{method: "POST", path: "/v1/tournaments/" + w.tid + "/entrants", token: w.club1, body: map[string]any{
		"entrants": []map[string]any{{"id": "5", "club": "Circolo Uno", "players": []map[string]any{
			{"name": evilName, "membership": "FT999"}, {"name": "Bianchi Luca"}}}}}})
	wantStatus(t, r, http.StatusCreated, "enter pair 5")
	r = w.do(request{method: "POST", path: "/v1/tournaments/" + w.tid + "/rounds", token: w.club1, body: map[string]any{
		"number": 2, "phase": "mitchell", "byes": []string{"2"},
		"tables": []map[string]any{{"table": 1, "ns": "1", "eo": "4"}, {"table": 2, "ns": "5", "eo": "3"}}}})
	wantStatus(t, r, http.StatusCreated, "create round 2")
	for _, s := range []struct {
		round, table int
		body         map[string]any
	}{{1, 1, goodSheet()}, {1, 2, swappedSheet()}, {2, 2, goodSheet()}} {
		r := w.do(request{method: "PUT", path: w.sheetPath(s.round, s.table), token: w.club1, body: s.body})
		wantStatus(t, r, http.StatusCreated, fmt.Sprintf("sheet %d/%d", s.round, s.table))
	}
	return w
}

func (w *world) exportPath(suffix string) string {
	return "/v1/tournaments/" + w.tid + "/" + suffix
}

func openWorkbook(t *testing.T, body []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the export is not a workbook: %v", err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// rowsOf reads a sheet's rows below the header: raw values (numbers as
// written) or, formatted, as a spreadsheet shows them (dates).
func rowsOf(t *testing.T, f *excelize.File, sheet string, raw bool) (header []string, rows [][]string) {
	t.Helper()
	all, err := f.GetRows(sheet, excelize.Options{RawCellValue: raw})
	if err != nil {
		t.Fatalf("sheet %s: %v", sheet, err)
	}
	if len(all) == 0 {
		t.Fatalf("sheet %s has no header", sheet)
	}
	for _, r := range all[1:] {
		for len(r) < len(all[0]) {
			r = append(r, "") // GetRows drops trailing empty cells
		}
		rows = append(rows, r)
	}
	return all[0], rows
}

// wantNumber checks that a cell holds a number (no t= attribute, API §6
// "numbers as numbers") equal to want.
func wantNumber(t *testing.T, f *excelize.File, sheet string, col, row int, want int) {
	t.Helper()
	ref, _ := excelize.CoordinatesToCellName(col, row)
	typ, err := f.GetCellType(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true})
	if typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber {
		t.Errorf("%s!%s = %q is of type %v, want a number", sheet, ref, v, typ)
	}
	if v != strconv.Itoa(want) {
		t.Errorf("%s!%s = %q, want %d", sheet, ref, v, want)
	}
}

// apiStanding is one row of GET .../standings (API §4.1).
type apiStanding struct {
	Rank     int               `json:"rank"`
	Entrant  string            `json:"entrant"`
	Players  []json.RawMessage `json:"players"`
	VP       int               `json:"vp"`
	MP       int               `json:"mp"`
	Wins     int               `json:"wins"`
	Tiebreak *string           `json:"tiebreak"`
}

// names are the players' names, whether the answer gives players as names
// or as {"name", "membership"} objects.
func (s apiStanding) names(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, p := range s.Players {
		var name string
		if err := json.Unmarshal(p, &name); err != nil {
			var obj struct {
				Name string `json:"name"`
			}
			if err := json.Unmarshal(p, &obj); err != nil {
				t.Fatalf("standings player %s: %v", p, err)
			}
			name = obj.Name
		}
		out = append(out, name)
	}
	return out
}

func (w *world) standings(tid string) []apiStanding {
	w.t.Helper()
	r := w.do(request{method: "GET", path: "/v1/tournaments/" + tid + "/standings", token: w.admin})
	wantStatus(w.t, r, http.StatusOK, "standings")
	var out struct {
		Standings []apiStanding `json:"standings"`
	}
	if err := json.Unmarshal(r.body, &out); err != nil {
		w.t.Fatalf("standings: %v\n%s", err, r.body)
	}
	if len(out.Standings) == 0 {
		w.t.Fatalf("no standings: %s", r.body)
	}
	return out.Standings
}

// storedSheet is what GET .../sheet answers, the parts the export shows.
type storedSheet struct {
	Sheet struct {
		NS    struct{ ID string } `json:"ns"`
		EO    struct{ ID string } `json:"eo"`
		Hands []struct {
			End string `json:"end"`
			NS  struct {
				Base, Points int
				Total        *int
			} `json:"ns"`
			EO struct {
				Base, Points int
				Total        *int
			} `json:"eo"`
		} `json:"hands"`
	} `json:"sheet"`
	Report struct {
		Computed struct {
			NS struct{ Total, MP, VP int } `json:"ns"`
			EO struct{ Total, MP, VP int } `json:"eo"`
		} `json:"computed"`
	} `json:"report"`
}

func (w *world) storedSheet(round, table int) (storedSheet, bool) {
	w.t.Helper()
	r := w.do(request{method: "GET", path: w.sheetPath(round, table), token: w.admin})
	if r.status == http.StatusNotFound {
		return storedSheet{}, false
	}
	wantStatus(w.t, r, http.StatusOK, "get sheet")
	var st storedSheet
	if err := json.Unmarshal(r.body, &st); err != nil {
		w.t.Fatalf("sheet: %v", err)
	}
	return st, true
}

// TestTournamentWorkbookAPI6 exports a small tournament and reads the
// workbook back cell by cell.
func TestTournamentWorkbookAPI6(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := exportWorld(t, b)
		r := w.do(request{method: "GET", path: w.exportPath("export.xlsx"), token: w.club1})
		wantStatus(t, r, http.StatusOK, "export")
		if ct := r.header.Get("Content-Type"); ct != xlsxContentType {
			t.Errorf("Content-Type %q", ct)
		}
		if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename="Coppa Autunno 2026-11-21.xlsx"` {
			t.Errorf("Content-Disposition %q", cd)
		}
		f := openWorkbook(t, r.body)
		want := []string{"Torneo", "Classifica", "Turni", "Smazzate", "Rettifiche", "Correzioni", "Premi"}
		if d := cmp.Diff(want, f.GetSheetList()); d != "" {
			t.Errorf("sheets (-want +got):\n%s", d)
		}

		t.Run("Classifica is GET standings, row for row (RULES §8)", func(t *testing.T) {
			standings := w.standings(w.tid)
			header, rows := rowsOf(t, f, "Classifica", true)
			if header[0] != "Posizione" || header[6] != "VP" || header[7] != "MP" {
				t.Errorf("header %q", header)
			}
			if len(rows) != len(standings) {
				t.Fatalf("%d rows, %d standings", len(rows), len(standings))
			}
			for i, s := range standings {
				row := i + 2
				wantNumber(t, f, "Classifica", 1, row, s.Rank)
				wantNumber(t, f, "Classifica", 7, row, s.VP)
				wantNumber(t, f, "Classifica", 8, row, s.MP)
				wantNumber(t, f, "Classifica", 9, row, s.Wins)
				tiebreak := ""
				if s.Tiebreak != nil {
					tiebreak = *s.Tiebreak
				}
				got := rows[i]
				// The workbook words the same tie-break notes in Italian (the
				// API in English): a cell exactly when the API gives one.
				if got[1] != s.Entrant || got[2] != strings.Join(s.names(t), " / ") || (got[9] == "") != (tiebreak == "") {
					t.Errorf("row %d = %q, standings say %+v", row, got, s)
				}
			}
			// Standings with real results: the sheets gave VP to someone.
			if standings[0].VP == 0 {
				t.Errorf("the leader has no VP: %+v", standings)
			}
		})

		t.Run("a player named like a formula is text (API §6)", func(t *testing.T) {
			_, rows := rowsOf(t, f, "Classifica", true)
			i := slices.IndexFunc(rows, func(r []string) bool { return r[1] == "5" })
			if i < 0 {
				t.Fatal("pair 5 is not in Classifica")
			}
			ref := fmt.Sprintf("C%d", i+2)
			v, _ := f.GetCellValue("Classifica", ref)
			if v != evilName+" / Bianchi Luca" {
				t.Errorf("%s = %q", ref, v)
			}
			if formula, _ := f.GetCellFormula("Classifica", ref); formula != "" {
				t.Errorf("%s has the formula %q", ref, formula)
			}
			if typ, _ := f.GetCellType("Classifica", ref); typ != excelize.CellTypeInlineString && typ != excelize.CellTypeSharedString {
				t.Errorf("%s is of type %v, want text", ref, typ)
			}
		})

		t.Run("Turni rows are the stored sheets' official results, which these valid sheets compute alike (RULES §8)", func(t *testing.T) {
			_, rows := rowsOf(t, f, "Turni", true)
			entrants, err := w.db.ListEntrants(context.Background(), w.tid)
			if err != nil {
				t.Fatal(err)
			}
			// RULES §12.4: the players who sat (no substitution here).
			names := func(id string) string {
				for _, e := range entrants {
					if e.ID == id {
						return e.Players[0].Name + " – " + e.Players[1].Name
					}
				}
				return ""
			}
			var want [][]string
			for _, k := range [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}} {
				st, ok := w.storedSheet(k[0], k[1])
				if !ok {
					continue // a table without a sheet has no row
				}
				c := st.Report.Computed
				want = append(want, []string{strconv.Itoa(k[0]), strconv.Itoa(k[1]), st.Sheet.NS.ID, st.Sheet.EO.ID,
					strconv.Itoa(c.NS.Total), strconv.Itoa(c.EO.Total), strconv.Itoa(c.NS.MP), strconv.Itoa(c.EO.MP),
					strconv.Itoa(c.NS.VP), strconv.Itoa(c.EO.VP), "", "", "", // "Ufficiale ≠ calcolato": no; not signed at a table (Firma NS, Firma EO)
					"", names(st.Sheet.NS.ID), names(st.Sheet.EO.ID)}) // no team match (Incontro); Giocatori NS, EO
			}
			if len(want) != 3 {
				t.Fatalf("%d stored sheets, want 3", len(want))
			}
			if d := cmp.Diff(want, rows); d != "" {
				t.Errorf("Turni (-stored +exported):\n%s", d)
			}
			for r := 2; r <= len(rows)+1; r++ {
				for c := 5; c <= 10; c++ {
					n, _ := strconv.Atoi(rows[r-2][c-1])
					wantNumber(t, f, "Turni", c, r, n)
				}
			}
		})

		t.Run("Smazzate has every stored hand", func(t *testing.T) {
			_, rows := rowsOf(t, f, "Smazzate", true)
			var want [][]string
			for _, k := range [][2]int{{1, 1}, {1, 2}, {2, 2}} {
				st, _ := w.storedSheet(k[0], k[1])
				for i, h := range st.Sheet.Hands {
					want = append(want, []string{strconv.Itoa(k[0]), strconv.Itoa(k[1]), strconv.Itoa(i + 1),
						st.Sheet.NS.ID, st.Sheet.EO.ID, workbook.HandEndLabel(domain.HandEnd(h.End)),
						strconv.Itoa(h.NS.Base), strconv.Itoa(h.NS.Points), strconv.Itoa(*h.NS.Total),
						strconv.Itoa(h.EO.Base), strconv.Itoa(h.EO.Points), strconv.Itoa(*h.EO.Total)})
				}
			}
			if d := cmp.Diff(want, rows); d != "" {
				t.Errorf("Smazzate (-stored +exported):\n%s", d)
			}
		})

		t.Run("Torneo names the tournament and its club", func(t *testing.T) {
			_, rows := rowsOf(t, f, "Torneo", true)
			kv := map[string]string{}
			for _, r := range rows {
				kv[r[0]] = r[1]
			}
			if kv["ID torneo"] != w.tid || kv["Nome"] != "Coppa Autunno" || kv["Circolo"] != "Circolo Uno" || kv["Livello"] != workbook.LevelLabel(domain.LevelRegional) {
				t.Errorf("Torneo %v", kv)
			}
		})
	})
}

// TestAuditSheetsAPI6: Rettifiche lists the referee adjustments (RULES §7)
// and Correzioni the corrections with their rulings (RULES §9), with the
// match result before and after as the stored sheet gave it.
func TestAuditSheetsAPI6(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := exportWorld(t, b)
		T := "/v1/tournaments/" + w.tid
		before, _ := w.storedSheet(1, 2)
		wantStatus(t, w.do(request{method: "PATCH", path: T + "/rounds/1", token: w.ref1, body: map[string]any{"state": "sheets_delivered"}}), http.StatusOK, "deliver round 1")
		r := w.do(request{method: "POST", path: T + "/corrections", token: w.ref1, body: map[string]any{
			"round": 1, "table": 2, "kind": "transcription", "reason": "EO hand 3 copied wrong",
			"corrected": map[string]any{"hands": []map[string]any{
				hand("closed", 100, -120, 300, 235), hand("closed", 400, 180, 0, -55), hand("closed", 200, 65, 350, 320)},
				// The written bottom is corrected with the hands: the WRITTEN
				// result is what counts and what Correzioni shows (RULES §8).
				"written": map[string]any{"ns": map[string]any{"total": 825, "mp": -325, "vp": 7}, "eo": map[string]any{"total": 1150, "mp": 325, "vp": 13}}}}})
		wantStatus(t, r, http.StatusCreated, "correction")
		var corr struct {
			Ruling struct {
				Ruling string   `json:"ruling"`
				Rules  []string `json:"rules"`
				Reason string   `json:"reason"`
			} `json:"ruling"`
			Applied bool `json:"applied"`
		}
		if err := json.Unmarshal(r.body, &corr); err != nil || !corr.Applied {
			t.Fatalf("correction not applied (%v): %s", err, r.body)
		}
		after, _ := w.storedSheet(1, 2)

		type adjustment struct {
			Entrant string `json:"entrant"`
			Round   *int   `json:"round"`
			Reason  string `json:"reason"`
			Note    string `json:"note"`
			Author  string `json:"author"`
			Effect  struct {
				Result *struct{ VP, MP int } `json:"result"`
				Delta  struct{ VP, MP int }  `json:"delta"`
			} `json:"effect"`
		}
		var adjs []adjustment
		for _, body := range []map[string]any{
			{"entrant": "5", "reason": "referee_score", "note": "=cmd|' /C calc'!A0", "vp": 3, "mp": 100},
			{"entrant": "2", "round": 1, "reason": "warning"},
		} {
			r := w.do(request{method: "POST", path: T + "/adjustments", token: w.ref1, body: body})
			wantStatus(t, r, http.StatusCreated, "adjustment")
			var a adjustment
			if err := json.Unmarshal(r.body, &a); err != nil {
				t.Fatal(err)
			}
			adjs = append(adjs, a)
		}

		res := w.do(request{method: "GET", path: w.exportPath("export.xlsx"), token: w.ref1})
		wantStatus(t, res, http.StatusOK, "export")
		f := openWorkbook(t, res.body)

		t.Run("Correzioni: the ruling, and the result before and after (RULES §9)", func(t *testing.T) {
			_, rows := rowsOf(t, f, "Correzioni", true)
			if len(rows) != 1 {
				t.Fatalf("%d corrections, want 1: %q", len(rows), rows)
			}
			result := func(st storedSheet) []string {
				c := st.Report.Computed
				return []string{strconv.Itoa(c.NS.Total), strconv.Itoa(c.EO.Total), strconv.Itoa(c.NS.MP), strconv.Itoa(c.EO.MP), strconv.Itoa(c.NS.VP), strconv.Itoa(c.EO.VP)}
			}
			// RULES §9.1 rule 5 (FITAB art. 20): the workbook gives the
			// ruling's reason in Italian, the API's answer in English.
			if !strings.HasPrefix(corr.Ruling.Reason, "the error was found in a phase that does not depend on the scores (mitchell)") {
				t.Fatalf("ruling reason %q, want RULES §9.1 rule 5", corr.Ruling.Reason)
			}
			reasonIT := "l'errore è rilevato in una fase di gioco indipendente dai punteggi acquisiti (mitchell): si procede alla correzione (FITAB art. 20)"
			want := append([]string{"1", "2", workbook.CorrectionLabel(domain.CorrectionTranscription), workbook.RulingLabel(domain.Ruling(corr.Ruling.Ruling)), strings.Join(corr.Ruling.Rules, "; "),
				reasonIT, "EO hand 3 copied wrong", refereeOne}, append(result(before), result(after)...)...)
			got := append(append([]string{}, rows[0][:8]...), rows[0][9:]...)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("Correzioni (-want +got):\n%s", d)
			}
			if cmp.Equal(result(before), result(after)) {
				t.Error("the correction did not change the result: the test proves nothing")
			}
		})
		t.Run("Rettifiche: every adjustment with what it adds (RULES §7)", func(t *testing.T) {
			_, rows := rowsOf(t, f, "Rettifiche", true)
			if len(rows) != len(adjs) {
				t.Fatalf("%d rows, want %d", len(rows), len(adjs))
			}
			for i, a := range adjs {
				round, vp, mp := "", "", ""
				if a.Round != nil {
					round = strconv.Itoa(*a.Round)
				}
				if a.Effect.Result != nil || a.Effect.Delta != (struct{ VP, MP int }{}) {
					v, m := a.Effect.Delta.VP, a.Effect.Delta.MP
					if a.Effect.Result != nil {
						v, m = v+a.Effect.Result.VP, m+a.Effect.Result.MP
					}
					vp, mp = strconv.Itoa(v), strconv.Itoa(m)
				}
				want := []string{a.Entrant, round, workbook.ReasonLabel(domain.AdjustmentReason(a.Reason)), vp, mp, a.Note, a.Author}
				if d := cmp.Diff(want, rows[i][:7]); d != "" {
					t.Errorf("row %d (-want +got):\n%s", i+2, d)
				}
			}
			if formula, _ := f.GetCellFormula("Rettifiche", "F2"); formula != "" {
				t.Errorf("the note runs as a formula: %q", formula)
			}
		})
		t.Run("Classifica still is GET standings", func(t *testing.T) {
			standings := w.standings(w.tid)
			_, rows := rowsOf(t, f, "Classifica", true)
			for i, s := range standings {
				if rows[i][1] != s.Entrant || rows[i][6] != strconv.Itoa(s.VP) || rows[i][7] != strconv.Itoa(s.MP) {
					t.Errorf("row %d = %q, standings %+v", i+2, rows[i], s)
				}
			}
		})
	})
}

func TestTournamentCSV(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := exportWorld(t, b)
		standings := w.standings(w.tid)
		r := w.do(request{method: "GET", path: w.exportPath("export.xlsx?format=csv&sheet=classifica"), token: w.fed})
		wantStatus(t, r, http.StatusOK, "CSV")
		if ct := r.header.Get("Content-Type"); ct != csvContentType {
			t.Errorf("Content-Type %q", ct)
		}
		if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename="Coppa Autunno 2026-11-21 classifica.csv"` {
			t.Errorf("Content-Disposition %q", cd)
		}
		recs, err := csv.NewReader(bytes.NewReader(r.body)).ReadAll()
		if err != nil {
			t.Fatalf("not CSV: %v", err)
		}
		if recs[0][0] != "Posizione" || len(recs) != len(standings)+1 {
			t.Fatalf("header %q, %d records for %d standings", recs[0], len(recs), len(standings))
		}
		for i, s := range standings {
			rec := recs[i+1]
			players := strings.Join(s.names(t), " / ")
			if strings.HasPrefix(players, "=") {
				players = "'" + players // API §6: never run as a formula
			}
			want := []string{strconv.Itoa(s.Rank), s.Entrant, players, strconv.Itoa(s.VP), strconv.Itoa(s.MP), strconv.Itoa(s.Wins)}
			got := []string{rec[0], rec[1], rec[2], rec[6], rec[7], rec[8]}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("record %d (-standings +csv):\n%s", i+1, d)
			}
		}
		if !bytes.Contains(r.body, []byte(`"'=HYPERLINK(""http://evil"",""x"") / Bianchi Luca"`)) {
			t.Errorf("the formula-like name is not neutralised:\n%s", r.body)
		}

		for _, sheet := range []string{"Torneo", "Turni", "Smazzate", "Rettifiche", "Correzioni"} {
			r := w.do(request{method: "GET", path: w.exportPath("export.xlsx?format=csv&sheet=" + sheet), token: w.fed})
			wantStatus(t, r, http.StatusOK, sheet)
			if recs, err := csv.NewReader(bytes.NewReader(r.body)).ReadAll(); err != nil || len(recs) == 0 {
				t.Errorf("%s: %d records, %v", sheet, len(recs), err)
			}
		}
		for _, bad := range []struct{ query, param string }{
			{"format=csv&sheet=Nope", "sheet"},
			{"format=csv", "sheet"},
			{"sheet=Classifica", "sheet"}, // a sheet without format=csv
			{"format=pdf", "format"},
			{"format=csv&sheet=Turni&sheet=Smazzate", "sheet"},
			{"formato=csv", "formato"},
		} {
			r := w.do(request{method: "GET", path: w.exportPath("export.xlsx?" + bad.query), token: w.fed})
			wantProblem(t, r, http.StatusBadRequest, bad.param)
		}
	})
}

// schemaRequired checks a JSON document against the required members of
// the export schema: at every object the schema's "required" list, through
// $ref, properties and items.
func schemaRequired(t *testing.T, schema map[string]any, doc any) []string {
	t.Helper()
	defs, _ := schema["$defs"].(map[string]any)
	var errs []string
	var walk func(sch map[string]any, v any, at string)
	walk = func(sch map[string]any, v any, at string) {
		if ref, ok := sch["$ref"].(string); ok {
			def, ok := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
			if !ok {
				errs = append(errs, at+": unresolved "+ref)
				return
			}
			walk(def, v, at)
		}
		switch v := v.(type) {
		case map[string]any:
			req, _ := sch["required"].([]any)
			for _, k := range req {
				if _, ok := v[k.(string)]; !ok {
					errs = append(errs, fmt.Sprintf("%s: missing %s", at, k))
				}
			}
			props, _ := sch["properties"].(map[string]any)
			for k, pv := range v {
				if p, ok := props[k].(map[string]any); ok {
					walk(p, pv, at+"/"+k)
				}
			}
		case []any:
			if items, ok := sch["items"].(map[string]any); ok {
				for i, x := range v {
					walk(items, x, fmt.Sprintf("%s/%d", at, i))
				}
			}
		}
	}
	walk(schema, doc, "")
	return errs
}

func TestTournamentJSONExport(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := exportWorld(t, b)
		sr := w.do(request{method: "GET", path: "/v1/schemas/tournament-export.json"})
		wantStatus(t, sr, http.StatusOK, "schema without a token")
		if ct := sr.header.Get("Content-Type"); ct != schemaContentType {
			t.Errorf("schema Content-Type %q", ct)
		}
		if !bytes.Equal(sr.body, workbook.Schema) {
			t.Error("the schema served is not workbook.Schema")
		}
		var schema map[string]any
		if err := json.Unmarshal(sr.body, &schema); err != nil {
			t.Fatal(err)
		}

		r := w.do(request{method: "GET", path: w.exportPath("export.json"), token: w.ref1})
		wantStatus(t, r, http.StatusOK, "JSON export")
		if ct := r.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
		var doc map[string]any
		if err := json.Unmarshal(r.body, &doc); err != nil {
			t.Fatalf("not one JSON document: %v", err)
		}
		if errs := schemaRequired(t, schema, doc); len(errs) > 0 {
			t.Errorf("schema violations:\n%s", strings.Join(errs, "\n"))
		}
		// The schema's required lists are not empty words: the check finds
		// a member taken out.
		delete(doc["matches"].([]any)[0].(map[string]any), "ns")
		if errs := schemaRequired(t, schema, doc); len(errs) != 1 || !strings.Contains(errs[0], "/matches/0: missing ns") {
			t.Errorf("a match without ns: %q", errs)
		}

		var ex struct {
			Matches []struct {
				Round int `json:"round"`
				Table int `json:"table"`
				NS    struct {
					ID    string `json:"id"`
					Total int    `json:"total"`
					VP    int    `json:"vp"`
				} `json:"ns"`
				Hands []struct {
					Hand int `json:"hand"`
				} `json:"hands"`
			} `json:"matches"`
			Standings []struct {
				Rank    int    `json:"rank"`
				Entrant string `json:"entrant"`
				VP      int    `json:"vp"`
			} `json:"standings"`
			Entrants []struct{ ID string }  `json:"entrants"`
			Rounds   []struct{ Number int } `json:"rounds"`
		}
		if err := json.Unmarshal(r.body, &ex); err != nil {
			t.Fatal(err)
		}
		// Each match carries its own hands (WriteJSON nests them): the one
		// pass over the sheets feeds both.
		var got []string
		for _, m := range ex.Matches {
			st, _ := w.storedSheet(m.Round, m.Table)
			if m.NS.ID != st.Sheet.NS.ID || m.NS.Total != st.Report.Computed.NS.Total || m.NS.VP != st.Report.Computed.NS.VP || len(m.Hands) != len(st.Sheet.Hands) {
				t.Errorf("match %d/%d = %+v, stored %+v", m.Round, m.Table, m, st.Report.Computed)
			}
			got = append(got, fmt.Sprintf("%d/%d", m.Round, m.Table))
		}
		if d := cmp.Diff([]string{"1/1", "1/2", "2/2"}, got); d != "" {
			t.Errorf("matches (-want +got):\n%s", d)
		}
		standings := w.standings(w.tid)
		if len(ex.Standings) != len(standings) || len(ex.Entrants) != 5 || len(ex.Rounds) != 2 {
			t.Errorf("%d standings (want %d), %d entrants, %d rounds", len(ex.Standings), len(standings), len(ex.Entrants), len(ex.Rounds))
		}
		for i := range min(len(ex.Standings), len(standings)) {
			if ex.Standings[i].Entrant != standings[i].Entrant || ex.Standings[i].VP != standings[i].VP || ex.Standings[i].Rank != standings[i].Rank {
				t.Errorf("standing %d = %+v, GET standings %+v", i, ex.Standings[i], standings[i])
			}
		}
	})
}

// TestExportAccess: API §4 roles. The tournament exports follow reading
// the tournament; the season export is the federation's.
func TestExportAccess(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		for _, path := range []string{w.exportPath("export.xlsx"), w.exportPath("export.xlsx?format=csv&sheet=Turni"), w.exportPath("export.json")} {
			for r := none; r < nRoles; r++ {
				t.Run(fmt.Sprintf("%s as %s", path, roleNames[r]), func(t *testing.T) {
					res := w.do(request{method: "GET", path: path, token: w.tokenOf(r)})
					want := readT[r]
					if want == ok {
						want = http.StatusOK
					}
					if res.status != want {
						t.Errorf("status %d, want %d\n%.300s", res.status, want, res.body)
					}
				})
			}
		}
		season := [nRoles]int{401, 403, 403, 403, 403, 200, 200}
		for r := none; r < nRoles; r++ {
			t.Run("season as "+roleNames[r], func(t *testing.T) {
				res := w.do(request{method: "GET", path: "/v1/seasons/2026/export.xlsx", token: w.tokenOf(r)})
				if res.status != season[r] {
					t.Errorf("status %d, want %d\n%.300s", res.status, season[r], res.body)
				}
			})
		}
		r := w.do(request{method: "GET", path: "/v1/tournaments/t_nope/export.xlsx", token: w.fed})
		wantProblem(t, r, http.StatusNotFound, "")
	})
}

// seasonWant is a row of the season workbook as the standings say it
// should be.
type seasonWant struct {
	player, tournament, date, level string
	rank, vp, mp                    int
}

func TestSeasonWorkbook(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := exportWorld(t, b) // Coppa Autunno, 2026-11-21, regional, club 1
		// Trofeo Primavera, 2027-03-14, club level, club 2: pair 1's first
		// player (FT101) plays again, in a pair of another number.
		newTournament := func(name, date, level, club string, pairs [][2][2]string) string {
			body := tournamentBody(name, level)
			body["date"], body["club"] = date, club
			tid := w.createTournament(w.admin, body)
			var es []map[string]any
			for i, p := range pairs {
				es = append(es, map[string]any{"id": strconv.Itoa(i + 1), "players": []map[string]any{
					{"name": p[0][0], "membership": p[0][1]}, {"name": p[1][0], "membership": p[1][1]}}})
			}
			r := w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/entrants", token: w.admin, body: map[string]any{"entrants": es}})
			wantStatus(t, r, http.StatusCreated, "entrants of "+name)
			r = w.do(request{method: "POST", path: "/v1/tournaments/" + tid + "/rounds", token: w.admin, body: map[string]any{
				"number": 1, "phase": "mitchell", "tables": []map[string]any{{"table": 1, "ns": "2", "eo": "1"}}}})
			wantStatus(t, r, http.StatusCreated, "round of "+name)
			r = w.do(request{method: "PUT", path: "/v1/tournaments/" + tid + "/rounds/1/tables/1/sheet", token: w.admin, body: swappedSheet()})
			wantStatus(t, r, http.StatusCreated, "sheet of "+name)
			return tid
		}
		spring := newTournament("Trofeo Primavera", "2027-03-14", "club", w.c2, [][2][2]string{
			{{"Giocatore 1a", "FT101"}, {"Rosa Neri", "FT777"}},
			{{"Carlo Blu", "FT500"}, {"Dario Gialli", ""}},
		})
		summer := newTournament("Fuori Stagione", "2026-08-31", "club", w.c1, [][2][2]string{
			{{"Giocatore 1a", "FT101"}, {"Rosa Neri", "FT777"}},
			{{"Carlo Blu", "FT500"}, {"Dario Gialli", ""}},
		})
		type tour struct{ id, name, date, level string }
		autumn := tour{w.tid, "Coppa Autunno", "21/11/2026", "regional"}
		springT := tour{spring, "Trofeo Primavera", "14/03/2027", "club"}
		summerT := tour{summer, "Fuori Stagione", "31/08/2026", "club"}
		expected := func(ts ...tour) []seasonWant {
			var out []seasonWant
			for _, tr := range ts {
				for _, s := range w.standings(tr.id) {
					for _, p := range s.names(t) {
						out = append(out, seasonWant{p, tr.name, tr.date, workbook.LevelLabel(domain.Level(tr.level)), s.Rank, s.VP, s.MP})
					}
				}
			}
			return out
		}
		read := func(path string) *excelize.File {
			t.Helper()
			r := w.do(request{method: "GET", path: path, token: w.fed})
			wantStatus(t, r, http.StatusOK, path)
			if ct := r.header.Get("Content-Type"); ct != xlsxContentType {
				t.Errorf("Content-Type %q", ct)
			}
			return openWorkbook(t, r.body)
		}
		rowsWant := func(t *testing.T, f *excelize.File, want []seasonWant) {
			t.Helper()
			_, rows := rowsOf(t, f, "Partecipazioni", false)
			var got []seasonWant
			for _, r := range rows {
				rank, _ := strconv.Atoi(r[6])
				vp, _ := strconv.Atoi(r[7])
				mp, _ := strconv.Atoi(r[8])
				got = append(got, seasonWant{r[0], r[3], r[4], r[5], rank, vp, mp})
			}
			if d := cmp.Diff(want, got, cmp.AllowUnexported(seasonWant{})); d != "" {
				t.Errorf("Partecipazioni (-standings +export):\n%s", d)
			}
		}

		t.Run("a federation season runs from September to August", func(t *testing.T) {
			f := read("/v1/seasons/2026-2027/export.xlsx")
			if d := cmp.Diff([]string{"Partecipazioni", "Totali"}, f.GetSheetList()); d != "" {
				t.Errorf("sheets: %s", d)
			}
			want := expected(autumn, springT)
			rowsWant(t, f, want)

			// Totals by membership number (by name without one), from the
			// rows the standings gave.
			type total struct{ tournaments, vp, mp int }
			totals := map[string]*total{}
			for _, r := range want {
				tot := totals[r.player]
				if tot == nil {
					tot = &total{}
					totals[r.player] = tot
				}
				tot.tournaments++
				tot.vp += r.vp
				tot.mp += r.mp
			}
			_, rows := rowsOf(t, f, "Totali", true)
			if len(rows) != len(totals) {
				t.Errorf("%d totals, want %d players", len(rows), len(totals))
			}
			for i, r := range rows {
				tot := totals[r[0]]
				if tot == nil {
					t.Errorf("total for unknown player %q", r[0])
					continue
				}
				wantNumber(t, f, "Totali", 4, i+2, tot.tournaments)
				wantNumber(t, f, "Totali", 5, i+2, tot.vp)
				wantNumber(t, f, "Totali", 6, i+2, tot.mp)
				if r[0] == "Giocatore 1a" && (r[1] != "FT101" || tot.tournaments != 2) {
					t.Errorf("FT101 = %q, %d tournaments; want both tournaments of the season", r, tot.tournaments)
				}
			}
		})
		t.Run("Circolo is the entrant's club, the organising club's when it gave none (issue 22)", func(t *testing.T) {
			f := read("/v1/seasons/2026-2027/export.xlsx")
			_, rows := rowsOf(t, f, "Partecipazioni", false)
			// Coppa Autunno (club c1, "Circolo Uno"): pair 5 was entered
			// with club "Circolo Uno", the world's pairs 1-4 with none;
			// Trofeo Primavera (club c2, "Circolo Due"): none.
			want := map[string]string{"Coppa Autunno": "Circolo Uno", "Trofeo Primavera": "Circolo Due"}
			for _, r := range rows {
				if r[2] != want[r[3]] {
					t.Errorf("Partecipazioni %q: Circolo %q, want %q", r, r[2], want[r[3]])
				}
			}
			_, totals := rowsOf(t, f, "Totali", false)
			for _, r := range totals {
				if r[2] == "" {
					t.Errorf("Totali %q: no Circolo", r)
				}
			}
		})
		t.Run("a calendar year", func(t *testing.T) {
			rowsWant(t, read("/v1/seasons/2026/export.xlsx"), expected(summerT, autumn))
		})
		t.Run("one club", func(t *testing.T) {
			rowsWant(t, read("/v1/seasons/2026-2027/export.xlsx?club="+w.c2), expected(springT))
		})
		t.Run("one level", func(t *testing.T) {
			rowsWant(t, read("/v1/seasons/2026-2027/export.xlsx?level=regional"), expected(autumn))
		})
		t.Run("club and level that select nothing", func(t *testing.T) {
			rowsWant(t, read("/v1/seasons/2026-2027/export.xlsx?club="+w.c2+"&level=national"), nil)
		})
		t.Run("FITAB art. 39: a void tournament is left out", func(t *testing.T) {
			void := newTournament("Annullato", "2026-12-05", "club", w.c1, [][2][2]string{
				{{"Giocatore 1a", "FT101"}, {"Rosa Neri", "FT777"}},
				{{"Carlo Blu", "FT500"}, {"Dario Gialli", ""}},
			})
			r := w.do(request{method: "PATCH", path: "/v1/tournaments/" + void, token: w.admin, body: map[string]any{"interrupted_after_round": 0, "reason": "neve"}})
			wantStatus(t, r, http.StatusOK, "interrupt")
			if j := r.json(t); j["void"] != true {
				t.Fatalf("6 rounds planned, none completed: %v, want void", j)
			}
			rowsWant(t, read("/v1/seasons/2026-2027/export.xlsx"), expected(autumn, springT))
		})
		t.Run("the file is named after the season", func(t *testing.T) {
			r := w.do(request{method: "GET", path: "/v1/seasons/2025-2026/export.xlsx?level=club", token: w.admin})
			if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename="stagione 2025-2026 club.xlsx"` {
				t.Errorf("Content-Disposition %q", cd)
			}
		})
		for _, bad := range []struct{ path, param, detail string }{
			{"/v1/seasons/2025-2027/export.xlsx", "season", "the second year must be 2026"},
			{"/v1/seasons/2026-2025/export.xlsx", "season", "the second year must be 2027"},
			{"/v1/seasons/26/export.xlsx", "season", "want a year like 2026"},
			{"/v1/seasons/2025%2F2026/export.xlsx", "season", "want a year like 2026"},
			{"/v1/seasons/1800/export.xlsx", "season", "1900 or later"},
			{"/v1/seasons/2026/export.xlsx?level=galactic", "level", "unknown level"},
			{"/v1/seasons/2026/export.xlsx?club=nope", "club", `no club "nope"`},
			{"/v1/seasons/2026/export.xlsx?clubs=c1", "clubs", "unknown query parameter"},
		} {
			t.Run("400 for "+bad.path, func(t *testing.T) {
				p := wantProblem(t, w.do(request{method: "GET", path: bad.path, token: w.fed}), http.StatusBadRequest, bad.param)
				if !strings.Contains(p.Detail, bad.detail) {
					t.Errorf("detail %q does not say %q", p.Detail, bad.detail)
				}
			})
		}
	})
}

func TestParseSeason(t *testing.T) {
	t.Parallel()
	day := func(s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, tc := range []struct{ season, from, to string }{
		{"2026", "2026-01-01", "2026-12-31"},
		{"2025-2026", "2025-09-01", "2026-08-31"},
		{"2023-2024", "2023-09-01", "2024-08-31"}, // a leap February inside changes nothing
		{"1900", "1900-01-01", "1900-12-31"},
		{"9998-9999", "9998-09-01", "9999-08-31"},
	} {
		t.Run(tc.season, func(t *testing.T) {
			from, to, err := parseSeason(tc.season)
			if err != nil {
				t.Fatal(err)
			}
			if !from.Equal(day(tc.from)) || !to.Equal(day(tc.to)) {
				t.Errorf("%s .. %s, want %s .. %s", from.Format(time.DateOnly), to.Format(time.DateOnly), tc.from, tc.to)
			}
		})
	}
	for _, bad := range []string{"", "26", "20260", "2025-2027", "2026-2025", "2025-2025", "2025/2026", "2025-26",
		" 2026", "2026 ", "２０２６", "1899", "1899-1900", "abcd", "2025-2026-2027", "-2026"} {
		t.Run("refuses "+strconv.Quote(bad), func(t *testing.T) {
			if _, _, err := parseSeason(bad); err == nil {
				t.Errorf("accepted")
			} else if p := problemFor(err); p.Status != http.StatusBadRequest || len(p.Errors) != 1 || p.Errors[0].Parameter != "season" {
				t.Errorf("problem %+v", p)
			}
		})
	}
}

func FuzzParseSeason(f *testing.F) {
	for _, s := range []string{"2026", "2025-2026", "2025-2027", "x", "9999-10000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		from, to, err := parseSeason(s)
		if err != nil {
			return
		}
		// Any season accepted is a year or September to August, from
		// before to after.
		days := to.Sub(from).Hours() / 24
		if !from.Before(to) || days < 364 || days > 365 {
			t.Errorf("%q: %s .. %s", s, from, to)
		}
	})
}

// TestStreamFailure: an export that fails before its first byte is a
// problem answer; one that fails after it is an aborted transfer, never a
// file that looks whole.
func TestStreamFailure(t *testing.T) {
	t.Parallel()
	s := &server{cfg: Config{}.withDefaults(), log: slog.New(slog.DiscardHandler)}
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(s.recoverPanics)
	boom := errors.New("the database went away")
	r.GET("/before", func(c *gin.Context) {
		s.stream(c, csvContentType, "x.csv", func(io.Writer) error { return boom })
	})
	r.GET("/after", func(c *gin.Context) {
		s.stream(c, csvContentType, "x.csv", func(w io.Writer) error {
			if _, err := w.Write(bytes.Repeat([]byte("Posizione,Concorrente\n"), 10000)); err != nil {
				return err
			}
			return boom
		})
	})
	srv := httptest.NewServer(r)
	defer srv.Close()

	res, err := srv.Client().Get(srv.URL + "/before")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusInternalServerError || res.Header.Get("Content-Type") != problemContentType || res.Header.Get("Content-Disposition") != "" {
		t.Errorf("before: %d %q %q %s", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"), body)
	}
	if bytes.Contains(body, []byte("database")) {
		t.Errorf("the problem tells the internals: %s", body)
	}

	res, err = srv.Client().Get(srv.URL + "/after")
	if err == nil {
		_, err = io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("after: status %d", res.StatusCode)
		}
	}
	if err == nil {
		t.Error("after: the client read a complete answer from a failed export")
	}
}

// BenchmarkExport500Tables: a tournament of 500 tables (1,000 pairs, one
// round of three-hand sheets), its workbook exported over HTTP on
// loopback from PostgreSQL. The target is under a second per export.
func BenchmarkExport500Tables(b *testing.B) {
	db := dbtest.Postgres(b)
	ctx := context.Background()
	if _, err := db.CreateClub(ctx, domain.Club{ID: "c1", Name: "Circolo Uno"}); err != nil {
		b.Fatal(err)
	}
	tr, err := db.CreateTournament(ctx, domain.Tournament{Name: "Campionato", Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC),
		ClubID: "c1", Level: domain.LevelNational, Ruleset: domain.FITAB2025, Kind: domain.KindPairs, RoundsPlanned: 1, HandsPerRound: 3})
	if err != nil {
		b.Fatal(err)
	}
	const tables = 500
	es := make([]domain.Entrant, 2*tables)
	for i := range es {
		id := strconv.Itoa(i + 1)
		es[i] = domain.Entrant{ID: id, Players: []domain.Player{{Name: "Giocatore " + id + "A", Membership: "FT" + id}, {Name: "Giocatore " + id + "B"}}}
	}
	if err := db.AddEntrants(ctx, tr.ID, es); err != nil {
		b.Fatal(err)
	}
	round := domain.Round{Number: 1, HandsPlanned: 3, Phase: domain.PhaseMitchell}
	for t := 1; t <= tables; t++ {
		round.Tables = append(round.Tables, domain.TableAssignment{Table: t, NS: strconv.Itoa(2*t - 1), EO: strconv.Itoa(2 * t)})
	}
	if err := db.CreateRound(ctx, tr.ID, round); err != nil {
		b.Fatal(err)
	}
	for t := 1; t <= tables; t++ {
		// Varied results, so the standings have work to do.
		h := []domain.Hand{
			benchHand(300, 235+t%7*10, 100, -120),
			benchHand(0, -55, 400, 180+t%5*20),
			benchHand(350, 120, 200, 65+t%11*15),
		}
		s := domain.Sheet{Ruleset: domain.FITAB2025, HandsPlanned: 3, Kind: domain.KindPairs, Round: 1, Table: t,
			Sides: [2]domain.Side{{ID: strconv.Itoa(2*t - 1)}, {ID: strconv.Itoa(2 * t)}}, Hands: h}
		rep, err := marshalReport(s, domain.English)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.PutSheet(ctx, tr.ID, 1, t, s, rep, 0); err != nil {
			b.Fatal(err)
		}
	}
	tok, _, err := db.CreateToken(ctx, domain.RoleFederation, "FITAB", "")
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(NewServer(Config{}, db, slog.New(slog.DiscardHandler)))
	defer srv.Close()
	for _, format := range []struct{ name, path string }{
		{"xlsx", "/export.xlsx"},
		{"csv", "/export.xlsx?format=csv&sheet=Smazzate"},
		{"json", "/export.json"},
	} {
		b.Run(format.name, func(b *testing.B) {
			var size int64
			for b.Loop() {
				req, _ := http.NewRequest("GET", srv.URL+"/v1/tournaments/"+tr.ID+format.path, nil)
				req.Header.Set("Authorization", "Bearer "+tok)
				res, err := srv.Client().Do(req)
				if err != nil {
					b.Fatal(err)
				}
				size, err = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if err != nil || res.StatusCode != http.StatusOK {
					b.Fatalf("%d %v", res.StatusCode, err)
				}
			}
			b.ReportMetric(float64(size), "bytes")
		})
	}
}

func benchHand(nsBase, nsPoints, eoBase, eoPoints int) domain.Hand {
	return domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{
		{Base: nsBase, Points: nsPoints, Total: domain.Int(nsBase + nsPoints)},
		{Base: eoBase, Points: eoPoints, Total: domain.Int(eoBase + eoPoints)},
	}}
}

// An Italian CSV is what Excel set to Italian opens by a double
// click (';' and a BOM): chosen by ?lang=it or Accept-Language; ?sep=
// overrides the separator; lang and sep need format=csv.
func TestTournamentCSVItalian(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := exportWorld(t, b)
		standings := w.standings(w.tid)
		// The document checker reads text/csv as comma-separated only; the
		// separators are checked here instead.
		w.checkSpec = false
		get := func(query string, header map[string]string) response {
			t.Helper()
			r := w.do(request{method: "GET", path: w.exportPath("export.xlsx?format=csv&sheet=Classifica" + query), token: w.fed, header: header})
			wantStatus(t, r, http.StatusOK, query)
			return r
		}
		read := func(r response, sep rune, bom bool) [][]string {
			t.Helper()
			body := r.body
			if got := bytes.HasPrefix(body, []byte("\uFEFF")); got != bom {
				t.Fatalf("BOM %v, want %v", got, bom)
			}
			cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(body, []byte("\uFEFF"))))
			cr.Comma = sep
			recs, err := cr.ReadAll()
			if err != nil || len(recs) != len(standings)+1 || recs[0][0] != "Posizione" || len(recs[0]) < 9 {
				t.Fatalf("not a %q-separated table of the standings (%v): %q", sep, err, recs)
			}
			return recs
		}
		it := read(get("&lang=it", nil), ';', true)
		read(get("", map[string]string{"Accept-Language": "it-IT,it;q=0.9,en;q=0.5"}), ';', true)
		read(get("", map[string]string{"Accept-Language": "en-GB,en;q=0.9,it;q=0.5"}), ',', false)
		en := read(get("&lang=en", map[string]string{"Accept-Language": "it"}), ',', false)
		if d := cmp.Diff(en, it); d != "" {
			t.Errorf("the languages differ in content (-en +it):\n%s", d)
		}
		read(get("&lang=it&sep=comma", nil), ',', true)
		read(get("&sep=tab", nil), '\t', false)
		for _, bad := range []struct{ query, param string }{
			{"&lang=fr", "lang"},
			{"&sep=pipe", "sep"},
			{"&sep=comma&sep=tab", "sep"},
		} {
			r := w.do(request{method: "GET", path: w.exportPath("export.xlsx?format=csv&sheet=Classifica" + bad.query), token: w.fed})
			wantProblem(t, r, http.StatusBadRequest, bad.param)
		}
		for _, q := range []string{"lang=it", "sep=tab"} {
			r := w.do(request{method: "GET", path: w.exportPath("export.xlsx?" + q), token: w.fed})
			wantProblem(t, r, http.StatusBadRequest, strings.SplitN(q, "=", 2)[0])
		}
	})
}
