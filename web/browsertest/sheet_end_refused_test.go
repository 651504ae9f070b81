package browsertest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// UI.md §5: a hand's end that is none of the ends is refused next to its
// select (422), as every unreadable field is — never a server error.
func TestSheetFormRefusesAnUnknownEnd(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.SQLite(t))
	_, tid := tableWorld(t, site)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria.uno", "c1")
	pc := webtest.SignInClient(t, site, "segreteria.uno", pw)
	for _, end := range []string{"chiusa", "\xff"} {
		st, body := pc.Post("/tournaments/"+tid+"/rounds/1/tables/1", url.Values{
			"hands.0.ns.base": {"300"}, "hands.0.ns.points": {"200"}, "hands.0.eo.base": {"100"}, "hands.0.eo.points": {"50"},
			"hands.0.end": {end},
		})
		if st != http.StatusUnprocessableEntity || !strings.Contains(body, `id="hands-0-end-error"`) {
			t.Errorf("end %q: %d, want 422 with the error next to the select hands.0.end", end, st)
		}
	}
}
