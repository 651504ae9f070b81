package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"segnapunti/domain"
)

// gotSheetAnswer is GET …/sheet as this test reads it.
type gotSheetAnswer struct {
	Sheet   json.RawMessage `json:"sheet"`
	Version int             `json:"version"`
	History []struct {
		Version    int             `json:"version"`
		ReplacedAt string          `json:"replaced_at"`
		Source     string          `json:"source"`
		Import     string          `json:"import"`
		By         string          `json:"by"`
		Sheet      json.RawMessage `json:"sheet"`
	} `json:"history"`
}

func (w *world) sheetAt(tid string, round, table int) (gotSheetAnswer, response) {
	w.t.Helper()
	r := w.do(request{method: "GET", path: fmt.Sprintf("/v1/tournaments/%s/rounds/%d/tables/%d/sheet", tid, round, table), token: w.club1})
	var got gotSheetAnswer
	if r.status == http.StatusOK {
		if err := json.Unmarshal(r.body, &got); err != nil {
			w.t.Fatalf("sheet: %v\n%s", err, r.body)
		}
	}
	return got, r
}

// "The template overwrote a real sheet": the filled template
// uploaded into a round whose table 1 is entered answers 409
// would_replace and changes nothing; with ?replace=true it replaces and
// the sheet's history holds the old version; the import is listed and can
// be undone while the round is played (the replaced sheet comes back, the
// created one goes), not once the round is delivered; an undone import's
// file imports again.
func TestImportReplaceHistoryUndo(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		tid := w.tournamentWith("fitab-2025", 3, []seating{{1, 1, "1", "2"}, {1, 2, "3", "4"}})
		r := w.do(request{method: "PUT", path: fmt.Sprintf("/v1/tournaments/%s/rounds/1/tables/1/sheet", tid), token: w.club1, body: goodSheet()})
		wantStatus(t, r, http.StatusCreated, "PUT sheet")
		entered, before := w.sheetAt(tid, 1, 1)
		if len(entered.History) != 0 {
			t.Errorf("a new sheet has history %+v", entered.History)
		}
		tmpl := w.do(request{method: "GET", path: "/v1/templates/scoresheet.xlsx"})
		wantStatus(t, tmpl, http.StatusOK, "template")
		filled := fillTemplate(t, tmpl.body, 3)

		snap := w.snapshot()
		refused := w.upload(w.club1, tid, "segnapunti-scoresheet.xlsx", filled)
		p := wantProblem(t, refused, http.StatusConflict, "")
		if p.Type != "/problems/would-replace" || !strings.Contains(p.Detail, "round/table 1/1") || !strings.Contains(p.Detail, "?replace=true") {
			t.Errorf("problem %+v", p)
		}
		var rep struct {
			ID      *string `json:"id"`
			Matches []struct {
				Round, Table     int
				Status           string
				Stored, Uploaded *struct{ Hands, NSTotal, EOTotal int }
			} `json:"matches"`
			Counts map[string]int `json:"counts"`
		}
		if err := json.Unmarshal(refused.body, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.ID != nil || len(rep.Matches) != 1 || rep.Matches[0].Status != "would_replace" || rep.Matches[0].Stored == nil || rep.Matches[0].Uploaded == nil || rep.Counts["would_replace"] != 1 {
			t.Errorf("refusal report: %s", refused.body)
		}
		w.wantUnchanged(snap)
		if _, after := w.sheetAt(tid, 1, 1); string(after.body) != string(before.body) {
			t.Errorf("GET sheet changed:\n%s\n%s", before.body, after.body)
		}
		var list struct {
			Imports []struct {
				ID       string         `json:"id"`
				Filename string         `json:"filename"`
				Counts   map[string]int `json:"counts"`
				UndoneAt *string        `json:"undone_at"`
				Undoable bool           `json:"undoable"`
			} `json:"imports"`
		}
		listed := func() {
			t.Helper()
			r := w.do(request{method: "GET", path: importsPath(tid), token: w.club1})
			wantStatus(t, r, http.StatusOK, "list imports")
			list.Imports = nil
			if err := json.Unmarshal(r.body, &list); err != nil {
				t.Fatal(err)
			}
		}
		if listed(); len(list.Imports) != 0 {
			t.Errorf("a refused upload is listed: %+v", list)
		}
		wantStatus(t, w.do(request{method: "POST", path: importsPath(tid) + "?replace=yes", token: w.club1}), http.StatusBadRequest, "replace=yes")

		// Asked to replace.
		up := w.uploadReplace(w.club1, tid, "segnapunti-scoresheet.xlsx", filled)
		wantStatus(t, up, http.StatusCreated, "upload with replace")
		imp := decodeImport(t, up)
		if imp.Matches[0].Status != "replaced" || imp.Matches[0].Version != 2 {
			t.Errorf("matches %+v", imp.Matches)
		}
		replaced, _ := w.sheetAt(tid, 1, 1)
		if replaced.Version != 2 || len(replaced.History) != 1 {
			t.Fatalf("after replace: version %d, history %+v", replaced.Version, replaced.History)
		}
		h := replaced.History[0]
		if h.Version != 1 || h.Source != "import" || h.Import != imp.ID || h.By != "Segreteria Uno" || h.ReplacedAt == "" {
			t.Errorf("history entry %+v", h)
		}
		if string(h.Sheet) != string(entered.Sheet) {
			t.Errorf("history keeps\n%s\nnot the replaced\n%s", h.Sheet, entered.Sheet)
		}
		// A second import creates table 2.
		created := w.upload(w.club1, tid, "tavolo2.xlsx", tidyWorkbook(t, domain.FITAB2025, 3, genMatches(seating{1, 2, "3", "4"}), nil))
		wantStatus(t, created, http.StatusCreated, "create table 2")
		imp2 := decodeImport(t, created)
		if listed(); len(list.Imports) != 2 || list.Imports[0].ID != imp2.ID || !list.Imports[0].Undoable || list.Imports[1].Counts["replaced"] != 1 {
			t.Errorf("list %+v", list)
		}

		// Undo: who may not.
		undo := func(token, id string) response {
			return w.do(request{method: "DELETE", path: importsPath(tid) + "/" + id, token: token})
		}
		wantStatus(t, undo(w.club2, imp.ID), http.StatusNotFound, "another club")
		wantStatus(t, undo(w.fed, imp.ID), http.StatusForbidden, "federation")
		wantStatus(t, undo(w.club1, "999999"), http.StatusNotFound, "no such import")
		other := w.tournamentWith("fitab-2025", 3, []seating{{1, 1, "1", "2"}})
		wantStatus(t, w.do(request{method: "DELETE", path: importsPath(other) + "/" + imp.ID, token: w.club1}), http.StatusNotFound, "through another tournament")

		// Undo both: table 2 goes, table 1 is as entered (version 3).
		u := undo(w.club1, imp2.ID)
		wantStatus(t, u, http.StatusOK, "undo table 2")
		if !strings.Contains(string(u.body), `"undone_at"`) {
			t.Errorf("undo answer %s", u.body)
		}
		if _, r := w.sheetAt(tid, 1, 2); r.status != http.StatusNotFound {
			t.Errorf("the created sheet is still there: %d", r.status)
		}
		wantStatus(t, undo(w.club1, imp.ID), http.StatusOK, "undo the replace")
		restored, _ := w.sheetAt(tid, 1, 1)
		if string(restored.Sheet) != string(entered.Sheet) || restored.Version != 3 {
			t.Errorf("restored version %d:\n%s\nwant\n%s", restored.Version, restored.Sheet, entered.Sheet)
		}
		if len(restored.History) != 2 || restored.History[0].Source != "undo" || restored.History[1].Source != "import" {
			t.Errorf("history after undo %+v", restored.History)
		}
		g := w.do(request{method: "GET", path: "/v1/imports/" + imp.ID, token: w.club1})
		wantStatus(t, g, http.StatusOK, "GET undone import")
		if !strings.Contains(string(g.body), `"undone_at"`) || !strings.Contains(string(g.body), `"undone_by":"Segreteria Uno"`) {
			t.Errorf("GET of an undone import: %s", g.body)
		}
		p = wantProblem(t, undo(w.club1, imp.ID), http.StatusConflict, "")
		if !strings.Contains(p.Detail, "undone already") {
			t.Errorf("second undo: %+v", p)
		}
		if listed(); list.Imports[0].UndoneAt == nil || list.Imports[0].Undoable {
			t.Errorf("list after undo %+v", list.Imports[0])
		}

		// The undone file imports again (a new import, not a replay).
		again := w.upload(w.club1, tid, "tavolo2.xlsx", tidyWorkbook(t, domain.FITAB2025, 3, genMatches(seating{1, 2, "3", "4"}), nil))
		wantStatus(t, again, http.StatusCreated, "the undone file again")
		imp3 := decodeImport(t, again)
		if imp3.ID == imp2.ID {
			t.Error("the undone import was replayed")
		}

		// Delivered: no undo, 409 naming the round; nothing changes.
		w.setState(tid, 1, w.club1, "sheets_delivered")
		snap = w.snapshot()
		p = wantProblem(t, undo(w.club1, imp3.ID), http.StatusConflict, "")
		if p.Type != "/problems/round-closed" || !strings.Contains(p.Detail, "round 1") {
			t.Errorf("undo in a delivered round: %+v", p)
		}
		w.wantUnchanged(snap)
		if listed(); list.Imports[0].Undoable {
			t.Error("an import of a delivered round is listed undoable")
		}
	})
}
