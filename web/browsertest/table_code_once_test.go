package browsertest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A phone's request opens its table code once, whatever it answers: a
// refused form (a word for a number, 422) shows the page again with the
// principal the code opened, without looking the code up a second time.
func TestTableCodeLookedUpOncePerRefusedForm(t *testing.T) {
	t.Parallel()
	site, _, _, code := sqliteTable(t)
	bad := url.Values{"index": {"0"}, "hands.0.ns.base": {"tre"}, "hands.0.ns.points": {"5"}, "hands.0.eo.base": {"0"}, "hands.0.eo.points": {"0"}, "hands.0.end": {"closed"}}
	before := site.App.TableCodeLookups()
	status, body := site.PostForm(t, "/table/"+code, bad)
	if status != http.StatusUnprocessableEntity || !strings.Contains(body, `aria-describedby="hands.0.ns.base-error"`) {
		t.Fatalf("a word for a number: %d, want 422 with the input named\n%.300s", status, body)
	}
	if n := site.App.TableCodeLookups() - before; n != 1 {
		t.Errorf("one refused form looked its table code up %d times, want 1", n)
	}
	// A refused signature (no such entrant at the line) too.
	before = site.App.TableCodeLookups()
	if status, _ = site.PostForm(t, "/table/"+code+"/end", url.Values{"line": {"ns"}, "scorer_entrant": {"999"}}); status < 400 {
		t.Fatalf("an unknown scorer's end: %d, want a refusal", status)
	}
	if n := site.App.TableCodeLookups() - before; n != 1 {
		t.Errorf("one refused end looked its table code up %d times, want 1", n)
	}
}
