package api

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
)

// FITAB art. 19, UI.md §9: after the scoring line (NS) ended
// the sheet at the table, a confirmation with NS's number — even under
// EO's name — is a 409 whose code is CONFIRM_OWN_LINE, worded in Italian
// when asked; EO's number then delivers the sheet.
func TestConfirmOwnLineArt19(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		code, _ := w.issueLink(w.club1, 1, 1)
		for _, h := range goodHands {
			wantStatus(t, w.do(request{method: "POST", path: w.sheetPath(1, 1) + "/hands", token: code, body: h}), http.StatusCreated, "hand")
		}
		// NS ends on the phone page (the API has no end call).
		if _, err := w.db.EndSheet(context.Background(), w.tid, 1, 1, store.Confirmation{Line: domain.NS, Entrant: "1", Via: "table"},
			func(store.StoredSheet) error { return nil }); err != nil {
			t.Fatal(err)
		}
		confirm := func(line, entrant, lang string) response {
			return w.do(request{method: "POST", path: w.sheetPath(1, 1) + "/confirm", token: code, header: map[string]string{"Accept-Language": lang},
				body: map[string]any{"line": line, "entrant": entrant}})
		}
		for _, line := range []string{"eo", "ns"} {
			p := wantProblem(t, confirm(line, "1", "en"), http.StatusConflict, "/entrant")
			if p.Code != "CONFIRM_OWN_LINE" {
				t.Errorf("line %s with NS's number: code %q, want CONFIRM_OWN_LINE", line, p.Code)
			}
		}
		p := wantProblem(t, confirm("eo", "1", "it"), http.StatusConflict, "")
		if p.Code != "CONFIRM_OWN_LINE" || !strings.Contains(p.Detail, "ha tenuto lo score") {
			t.Errorf("Italian refusal: code %q, detail %q", p.Code, p.Detail)
		}
		r := confirm("eo", "3", "en")
		wantStatus(t, r, http.StatusOK, "EO confirms")
		if r.json(t)["delivered"] != true {
			t.Errorf("EO's confirmation did not deliver: %s", r.body)
		}
	})
}

// UI.md §9: a table card's code is a bearer token for its
// table's current round only: hands there are taken, another round's
// table is refused.
func TestTableCardCodeAsBearer(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		cards, err := w.db.TableCards(context.Background(), w.tid, []int{1}, "test")
		if err != nil {
			t.Fatal(err)
		}
		code := cards[1].Code
		r := w.do(request{method: "POST", path: w.sheetPath(1, 1) + "/hands", token: code, body: goodHands[0]})
		wantStatus(t, r, http.StatusCreated, "a hand with the card's code")
		r = w.do(request{method: "POST", path: w.sheetPath(2, 1) + "/hands", token: code, body: goodHands[0]})
		if r.status != http.StatusForbidden && r.status != http.StatusNotFound {
			t.Errorf("another round with the card's code: %d, want 403 or 404", r.status)
		}
	})
}
