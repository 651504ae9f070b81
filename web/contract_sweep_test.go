package web

// The contract sweep (UI.md read end to end against the pages): what an
// outside checker drives by the names UI.md gives, at the HTTP level.

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// inputTag is the <input> or <select> named name in a page.
func inputTag(t *testing.T, page, name string) string {
	t.Helper()
	tag := regexp.MustCompile(`<(?:input|select) [^>]*name="` + regexp.QuoteMeta(name) + `"[^>]*>`).FindString(page)
	if tag == "" {
		t.Fatalf("no field %q in the page", name)
	}
	return tag
}

// UI.md §5: "the input at the finding's pointer gets aria-invalid" — for
// errors and warnings; a note (severity info) is listed with its code but
// marks nothing (it is not a mistake).
func TestSheetNoteMarksNoInput(t *testing.T) {
	db := dbtest.SQLite(t)
	site := startSite(t, db)
	pw := site.createPerson(t, domain.RoleClub, "segreteria", "bc-roma")
	tid := seedBigTournament(t, db, 1) // NS base 300: a base with several readings, a note
	c := signInClient(t, site, "segreteria", pw)
	sheet := "/tournaments/" + tid + "/rounds/1/tables/1"

	_, page := c.get(sheet)
	if !strings.Contains(page, `data-code="UNVERIFIABLE_BREAKDOWN" data-severity="info" data-field="hands.0.ns.base"`) {
		t.Fatal("the stored sheet's note is not listed")
	}
	if tag := inputTag(t, page, "hands.0.ns.base"); strings.Contains(tag, "aria-invalid") {
		t.Errorf("a note marks its input: %s", tag)
	}

	// The live check: a wrong total is an error and marks its input; the
	// note beside it still does not.
	st, report := c.post(sheet+"/validate", url.Values{"version": {"1"},
		"hands.0.ns.base": {"300"}, "hands.0.ns.points": {"200"}, "hands.0.ns.total": {"600"},
		"hands.0.eo.base": {"100"}, "hands.0.eo.points": {"150"}, "hands.0.end": {"closed"}})
	if st != 200 || !strings.Contains(report, `data-code="HAND_TOTAL_MISMATCH" data-severity="error" data-field="hands.0.ns.total"`) ||
		!strings.Contains(report, `data-severity="info" data-field="hands.0.ns.base"`) {
		t.Fatalf("live report %d: %s", st, report)
	}
	// Saved with the error (a sheet with errors is stored, and shown so).
	if st, _ := c.post(sheet, url.Values{"version": {"1"},
		"hands.0.ns.base": {"300"}, "hands.0.ns.points": {"200"}, "hands.0.ns.total": {"600"},
		"hands.0.eo.base": {"100"}, "hands.0.eo.points": {"150"}, "hands.0.end": {"closed"}}); st != 303 {
		t.Fatalf("save: %d", st)
	}
	_, page = c.get(sheet)
	if !strings.Contains(inputTag(t, page, "hands.0.ns.total"), `aria-invalid="true"`) {
		t.Error("the stored sheet's wrong total is not marked")
	}
	if tag := inputTag(t, page, "hands.0.ns.base"); strings.Contains(tag, "aria-invalid") {
		t.Errorf("the stored sheet's note marks its input: %s", tag)
	}
}
