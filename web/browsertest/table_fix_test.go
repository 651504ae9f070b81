package browsertest

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// UI.md §9: before the confirmation the scoring line changes
// its last hand (edit-hand: the inputs come back filled, named as on the
// sheet form) or removes it (remove-hand, after a confirmation step);
// every change is kept in the sheet's history; a confirmed sheet offers
// neither.
func TestTablePageFixLastHand(t *testing.T) {
	site, club, tid, code := sqliteTable(t)
	sheet := "/v1/tournaments/" + tid + "/rounds/1/tables/1/sheet"
	send := func(method, path string, form url.Values) (int, string) {
		t.Helper()
		return site.Send(t, method, path, form)
	}
	hand := func(i, nb, np, eb, ep int, key string) url.Values {
		p := func(s string) string { return "hands." + strconv.Itoa(i) + "." + s }
		return url.Values{"index": {strconv.Itoa(i)}, "idem": {key}, p("ns.base"): {strconv.Itoa(nb)}, p("ns.points"): {strconv.Itoa(np)},
			p("eo.base"): {strconv.Itoa(eb)}, p("eo.points"): {strconv.Itoa(ep)}, p("end"): {"closed"}}
	}
	send("POST", "/table/"+code, hand(0, 300, 235, 100, -120, "a"))
	// Hand 2 with a typo: EO's points 1800 for 180.
	st, body := send("POST", "/table/"+code, hand(1, 0, -55, 400, 1800, "b"))
	if st != 200 || !strings.Contains(body, `data-action="edit-hand"`) || !strings.Contains(body, `data-action="remove-hand"`) {
		t.Fatalf("after hand 2: %d, want edit-hand and remove-hand on the last hand", st)
	}
	if n := strings.Count(body, `data-action="edit-hand"`); n != 1 {
		t.Errorf("%d edit-hand actions, want 1 (the last hand only)", n)
	}
	st, body = send("GET", "/table/"+code+"?edit=1", nil)
	for _, want := range []string{`id="edit-form"`, `name="hands.1.ns.base" data-part="ns.base" type="text" inputmode="numeric" pattern="-?[0-9]*" autocomplete="off" value="0"`,
		`name="hands.1.eo.points" data-part="eo.points" type="text" inputmode="numeric" pattern="-?[0-9]*" autocomplete="off" value="1800"`, `data-action="send-edit"`} {
		if st != 200 || !strings.Contains(body, want) {
			t.Errorf("edit page: %d, lacks %s", st, want)
		}
	}
	if strings.Contains(body, `id="hand-form"`) {
		t.Error("the edit page also offers a new hand")
	}
	version := regexp.MustCompile(`name="version" value="(\d+)"`).FindStringSubmatch(body)
	if version == nil {
		t.Fatal("no version on the edit form")
	}
	// A word for a number comes back in edit mode, named.
	bad := hand(1, 0, -55, 400, 180, "")
	bad.Set("hands.1.eo.points", "cento")
	bad.Set("version", version[1])
	if st, body = send("POST", "/table/"+code+"/hands/1", bad); st != http.StatusUnprocessableEntity || !strings.Contains(body, `id="edit-form"`) || !strings.Contains(body, `aria-describedby="hands.1.eo.points-error"`) {
		t.Errorf("a refused change: %d, want the edit form again with the field named", st)
	}
	fix := hand(1, 0, -55, 400, 180, "")
	fix.Set("version", version[1])
	if st, body = send("POST", "/table/"+code+"/hands/1", fix); st != 200 || !strings.Contains(body, `data-total="eo">560<`) {
		t.Errorf("the change: %d, want EO's total 560", st)
	}
	// The same form again (an old version): refused, nothing changed.
	if st, _ = send("POST", "/table/"+code+"/hands/1", fix); st != http.StatusPreconditionFailed {
		t.Errorf("a change from an old version: %d, want 412", st)
	}
	// Remove hand 2: first a question, then the removal.
	st, body = send("POST", "/table/"+code+"/hands/1/remove", url.Values{})
	if st != 200 || !strings.Contains(body, `data-action="confirm-remove"`) || !strings.Contains(body, "Eliminare la smazzata 2?") {
		t.Fatalf("remove without confirming: %d, want the question", st)
	}
	if got := apiCall(t, site, "GET", sheet, club, nil, 200)["sheet"].(map[string]any)["hands"].([]any); len(got) != 2 {
		t.Fatalf("the question removed the hand: %d hands", len(got))
	}
	if st, body = send("POST", "/table/"+code+"/hands/1/remove", url.Values{"confirmed": {"yes"}}); st != 200 || strings.Contains(body, `data-hand="2"`) {
		t.Errorf("confirmed removal: %d, hand 2 still shown", st)
	}
	got := apiCall(t, site, "GET", sheet, club, nil, 200)
	if hands := got["sheet"].(map[string]any)["hands"].([]any); len(hands) != 1 {
		t.Errorf("after the removal %d hands, want 1", len(hands))
	}
	hist, err := site.Store.SheetHistory(t.Context(), tid, 1, 1)
	if err != nil || len(hist) != 2 {
		t.Errorf("sheet history: %d versions, %v; want the typo and the corrected hand kept", len(hist), err)
	}
	// Only one hand: changed, not removed.
	if _, body = send("GET", "/table/"+code, nil); strings.Contains(body, `data-action="remove-hand"`) || !strings.Contains(body, `data-action="edit-hand"`) {
		t.Error("the only hand is offered for removal, or not for a change")
	}
}
