package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
)

// Issue 22, UI.md §9, as the table page's edit-hand and remove-hand: the
// scoring line changes or removes its LAST hand until the other line
// confirms; every change is kept in the sheet's history; a line that did
// not end the sheet changes nothing once the scoring line ended it; after
// the confirmation only the referee corrects (FITAB art. 19-20).
func TestFixLastHandAPI(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b) // round 1: table 1 is NS 1 v EO 3, table 2 NS 2 v EO 4
		code, _ := w.issueLink(w.club1, 1, 1)
		other, _ := w.issueLink(w.club1, 1, 2)
		handPath := func(h int) string { return fmt.Sprintf("%s/hands/%d", w.sheetPath(1, 1), h) }
		edit := func(token string, h int, body map[string]any, header map[string]string) response {
			return w.do(request{method: "PUT", path: handPath(h), token: token, body: body, header: header})
		}
		remove := func(token string, h int, query string) response {
			return w.do(request{method: "DELETE", path: handPath(h) + "?" + query, token: token})
		}
		versions := func() int {
			var n int
			q := `SELECT count(*) FROM sheet_versions WHERE tournament_id = $1 AND round_no = 1 AND table_no = 1`
			if b.db.Dialect() == store.DialectSQLite {
				q = strings.ReplaceAll(q, "$1", "?")
			}
			if err := b.raw.QueryRow(q, w.tid).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		for _, h := range goodHands {
			wantStatus(t, w.do(request{method: "POST", path: w.sheetPath(1, 1) + "/hands", token: code, body: h}), http.StatusCreated, "hand")
		}
		typo := hand("closed", 350, 120, 200, 650) // EO's points typed 650 for 65
		wantStatus(t, edit(code, 3, map[string]any{"line": "ns", "entrant": "1", "hand": typo}, nil), http.StatusOK, "a typo in hand 3")
		before := versions()

		t.Run("the last hand is changed, the replaced sheet kept in the history", func(t *testing.T) {
			r := edit(code, 3, map[string]any{"line": "ns", "entrant": "1", "hand": goodHands[2]}, nil)
			wantStatus(t, r, http.StatusOK, "fix hand 3")
			m := r.json(t)
			if m["hands"] != 3.0 || m["reopened"] != false || r.header.Get("ETag") != fmt.Sprintf(`"%v"`, m["version"]) {
				t.Errorf("answer %s, ETag %s", r.body, r.header.Get("ETag"))
			}
			st, _ := w.storedSheet(1, 1)
			if got := st.Sheet.Hands[2].EO.Points; got != 65 {
				t.Errorf("hand 3 EO points %d, want 65", got)
			}
			if versions() != before+1 {
				t.Errorf("history: %d versions, want %d", versions(), before+1)
			}
		})
		t.Run("refused: not the last hand, another line's number, a bad hand, a stale version, another table's code", func(t *testing.T) {
			snap := w.snapshot()
			wantProblem(t, edit(code, 2, map[string]any{"line": "ns", "entrant": "1", "hand": goodHands[1]}, nil), http.StatusUnprocessableEntity, "h")
			wantProblem(t, edit(code, 3, map[string]any{"line": "ns", "entrant": "3", "hand": goodHands[2]}, nil), http.StatusUnprocessableEntity, "/entrant")
			wantProblem(t, edit(code, 3, map[string]any{"line": "nord", "entrant": "1", "hand": goodHands[2]}, nil), http.StatusUnprocessableEntity, "/line")
			wantProblem(t, edit(code, 3, map[string]any{"entrant": "1", "hand": goodHands[2]}, nil), http.StatusUnprocessableEntity, "/line")
			wantProblem(t, edit(code, 3, map[string]any{"line": "ns", "entrant": "1"}, nil), http.StatusUnprocessableEntity, "/hand")
			wantProblem(t, edit(code, 3, map[string]any{"line": "ns", "entrant": "1", "hand": map[string]any{"end": "closed", "ns": map[string]any{"base": "tre"}, "eo": map[string]any{}}}, nil),
				http.StatusUnprocessableEntity, "/hand/ns/base")
			wantProblem(t, edit(code, 3, map[string]any{"line": "ns", "entrant": "1", "hand": goodHands[2], "note": "x"}, nil), http.StatusUnprocessableEntity, "/note")
			wantProblem(t, edit(code, 3, map[string]any{"line": "ns", "entrant": "1", "hand": goodHands[2]}, map[string]string{"If-Match": `"1"`}), http.StatusPreconditionFailed, "If-Match")
			wantProblem(t, remove(code, 3, "line=ns&entrant=3"), http.StatusUnprocessableEntity, "entrant")
			wantProblem(t, remove(code, 3, "line=ns"), http.StatusUnprocessableEntity, "entrant")
			wantProblem(t, remove(code, 3, "line=ns&entrant=1&colour=red"), http.StatusBadRequest, "colour")
			wantProblem(t, remove(code, 9, "line=ns&entrant=1"), http.StatusBadRequest, "h")
			if r := edit(other, 3, map[string]any{"line": "ns", "entrant": "1", "hand": goodHands[2]}, nil); r.status != http.StatusForbidden && r.status != http.StatusNotFound {
				t.Errorf("table 2's code on table 1: %d, want 403 or 404\n%s", r.status, r.body)
			}
			w.wantUnchanged(snap)
		})
		t.Run("the last hand is removed", func(t *testing.T) {
			r := remove(code, 3, "line=ns&entrant=1")
			wantStatus(t, r, http.StatusOK, "remove hand 3")
			if st, _ := w.storedSheet(1, 1); len(st.Sheet.Hands) != 2 {
				t.Errorf("%d hands after removing the third, want 2", len(st.Sheet.Hands))
			}
			wantStatus(t, w.do(request{method: "POST", path: w.sheetPath(1, 1) + "/hands", token: code, body: goodHands[2]}), http.StatusCreated, "hand 3 again")
		})
		t.Run("after NS ended the sheet, EO changes nothing; NS's change reopens it", func(t *testing.T) {
			if _, err := w.db.EndSheet(context.Background(), w.tid, 1, 1, store.Confirmation{Line: domain.NS, Entrant: "1", Via: "table"},
				func(store.StoredSheet) error { return nil }); err != nil {
				t.Fatal(err)
			}
			snap := w.snapshot()
			p := wantProblem(t, edit(code, 3, map[string]any{"line": "eo", "entrant": "3", "hand": typo}, nil), http.StatusConflict, "/line")
			if p.Code != "FIX_NOT_SCORING_LINE" || !strings.Contains(p.Detail, "art. 19") {
				t.Errorf("EO's change: code %q, detail %q", p.Code, p.Detail)
			}
			p = wantProblem(t, remove(code, 3, "line=eo&entrant=3"), http.StatusConflict, "")
			if p.Code != "FIX_NOT_SCORING_LINE" {
				t.Errorf("EO's removal: code %q", p.Code)
			}
			w.wantUnchanged(snap)
			r := edit(code, 3, map[string]any{"line": "ns", "entrant": "1", "hand": goodHands[2]}, nil)
			wantStatus(t, r, http.StatusOK, "NS changes its ended sheet")
			if r.json(t)["reopened"] != true {
				t.Errorf("NS's end signature was not dropped: %s", r.body)
			}
		})
		t.Run("after EO's confirmation: 409 naming why, only the referee corrects", func(t *testing.T) {
			r := w.do(request{method: "POST", path: w.sheetPath(1, 1) + "/confirm", token: code, body: map[string]any{"line": "eo", "entrant": "3"}})
			wantStatus(t, r, http.StatusOK, "EO confirms")
			snap := w.snapshot()
			for _, r := range []response{
				edit(code, 3, map[string]any{"line": "ns", "entrant": "1", "hand": typo}, nil),
				remove(code, 3, "line=ns&entrant=1"),
				edit(w.club1, 3, map[string]any{"line": "ns", "entrant": "1", "hand": typo}, nil),
			} {
				if r.status == http.StatusUnauthorized { // the code dies with the delivered round only; this round is open
					t.Fatalf("401: %s", r.body)
				}
				p := wantProblem(t, r, http.StatusConflict, "")
				if !strings.Contains(p.Detail, "signed by its players") || !strings.Contains(p.Detail, "referee") {
					t.Errorf("detail %q does not say why", p.Detail)
				}
			}
			w.wantUnchanged(snap)
		})
	})
}
