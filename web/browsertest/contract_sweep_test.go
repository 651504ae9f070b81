package browsertest

// The contract sweep (UI.md read end to end against the pages): what an
// outside checker drives by the names UI.md gives, at the HTTP level.

import (
	"net/http"
	"net/url"
	"regexp"
	"segnapunti/web"
	"segnapunti/web/webtest"
	"slices"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
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

// seededSecretary is a site on the embedded database with a one-table
// tournament of bc-roma (seedBigTournament: entrants 1 and 2, round 1
// with its sheet) and its secretary signed in.
func seededSecretary(t *testing.T) (*store.DB, *webtest.PageClient, string) {
	t.Helper()
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	tid := webtest.SeedBigTournament(t, db, 1)
	return db, webtest.SignInClient(t, site, "segreteria", pw), tid
}

// UI.md §5: "the input at the finding's pointer gets aria-invalid" — for
// errors and warnings; a note (severity info) is listed with its code but
// marks nothing (it is not a mistake).
func TestSheetNoteMarksNoInput(t *testing.T) {
	_, c, tid := seededSecretary(t) // NS base 300: a base with several readings, a note
	sheet := "/tournaments/" + tid + "/rounds/1/tables/1"

	_, page := c.Get(sheet)
	if !strings.Contains(page, `data-code="UNVERIFIABLE_BREAKDOWN" data-severity="info" data-field="hands.0.ns.base"`) {
		t.Fatal("the stored sheet's note is not listed")
	}
	if tag := inputTag(t, page, "hands.0.ns.base"); strings.Contains(tag, "aria-invalid") {
		t.Errorf("a note marks its input: %s", tag)
	}

	// The live check: a wrong total is an error and marks its input; the
	// note beside it still does not.
	st, report := c.Post(sheet+"/validate", url.Values{"version": {"1"},
		"hands.0.ns.base": {"300"}, "hands.0.ns.points": {"200"}, "hands.0.ns.total": {"600"},
		"hands.0.eo.base": {"100"}, "hands.0.eo.points": {"150"}, "hands.0.end": {"closed"}})
	if st != 200 || !strings.Contains(report, `data-code="HAND_TOTAL_MISMATCH" data-severity="error" data-field="hands.0.ns.total"`) ||
		!strings.Contains(report, `data-severity="info" data-field="hands.0.ns.base"`) {
		t.Fatalf("live report %d: %s", st, report)
	}
	// Saved with the error (a sheet with errors is stored, and shown so).
	if st, _ := c.Post(sheet, url.Values{"version": {"1"},
		"hands.0.ns.base": {"300"}, "hands.0.ns.points": {"200"}, "hands.0.ns.total": {"600"},
		"hands.0.eo.base": {"100"}, "hands.0.eo.points": {"150"}, "hands.0.end": {"closed"}}); st != 303 {
		t.Fatalf("save: %d", st)
	}
	_, page = c.Get(sheet)
	if !strings.Contains(inputTag(t, page, "hands.0.ns.total"), `aria-invalid="true"`) {
		t.Error("the stored sheet's wrong total is not marked")
	}
	if tag := inputTag(t, page, "hands.0.ns.base"); strings.Contains(tag, "aria-invalid") {
		t.Errorf("the stored sheet's note marks its input: %s", tag)
	}
}

// UI.md §3: "duplicates … are refused with the row named" — in the page's
// language: the operation's English details (API §3) are not shown to a
// secretary on an Italian page.
func TestEntrantAndSeatingRefusalsInItalian(t *testing.T) {
	_, c, tid := seededSecretary(t) // entrants 1 and 2, round 1
	base := "/tournaments/" + tid

	rows := "Numero\tNome\tTessera\tNome\tTessera\n" +
		"1\tRossi Anna\tFT100001\tBianchi Luca\tFT100002\n" +
		"7\tVerdi Carla\tFT100003\tNeri Paolo\tFT100004\n" +
		"7\tGallo Rita\tFT100005\tConti Ugo\tFT100006\n"
	st, page := c.Post(base+"/entrants/paste", url.Values{"rows": {rows}})
	if st != 422 {
		t.Fatalf("a paste with a duplicate: %d", st)
	}
	for _, want := range []string{
		"Riga 2, colonna A (n. 1), numero: il numero &#34;1&#34; è già iscritto al torneo",
		"Riga 4, colonna A (n. 7), numero: il numero &#34;7&#34; compare due volte (anche alla riga 3)",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the refusal does not say %q", want)
		}
	}
	for _, english := range []string{"listed twice", "already entered"} {
		if strings.Contains(page, english) {
			t.Errorf("English on the Italian page: %q", english)
		}
	}

	st, page = c.Post(base+"/rounds/new", url.Values{"number": {"2"}, "hands_planned": {"3"}, "phase": {"mitchell"},
		"table": {"1", "2"}, "ns": {"1", "1"}, "eo": {"2", "99"}, "byes": {"2"}})
	if st != 422 {
		t.Fatalf("a seating with an entrant twice: %d", st)
	}
	for _, want := range []string{
		"il numero &#34;1&#34; è già in questo turno (riga 1): si gioca una volta per turno",
		"il numero &#34;99&#34; non è iscritto al torneo",
		`id="byes-error" class="field-error">il numero &#34;2&#34; è già in questo turno (riga 1)`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the seating's refusal does not say %q", want)
		}
	}
	if tag := inputTag(t, page, "byes"); !strings.Contains(tag, `aria-invalid="true"`) {
		t.Errorf("the byes are not marked: %s", tag)
	}
	if strings.Contains(page, "appears twice") || strings.Contains(page, "is not entered") {
		t.Error("English on the Italian seating page")
	}
}

// UI.md §3: "malformed membership numbers are refused with the row named"
// — pasted, uploaded or typed one by one; nothing is entered.
func TestMalformedMembershipRefused(t *testing.T) {
	db, c, tid := seededSecretary(t)
	base := "/tournaments/" + tid

	rows := "5\tRossi Anna\tFT100001\tBianchi Luca\tRM-004512\n" +
		"6\tVerdi Carla\tFT 10#3\tNeri Paolo\ttessera\n"
	st, page := c.Post(base+"/entrants/paste", url.Values{"rows": {rows}})
	if st != 422 {
		t.Fatalf("a paste with malformed membership numbers: %d", st)
	}
	for _, want := range []string{"Riga 2, colonna C (n. 6), tessera del giocatore 1:", "Riga 2, colonna E (n. 6), tessera del giocatore 2:"} {
		if !strings.Contains(page, want) {
			t.Errorf("the refusal does not say %q", want)
		}
	}
	if strings.Contains(page, "Riga 1") {
		t.Error("a well-formed row is named")
	}
	st, page = c.Post(base+"/entrants", url.Values{"pair": {"1"}, "id": {"5"}, "p1_name": {"Rossi Anna"}, "p1_membership": {"FT100001"},
		"p2_name": {"Bianchi Luca"}, "p2_membership": {"n/d!"}})
	if st != 422 || !strings.Contains(inputTag(t, page, "p2_membership"), `aria-invalid="true"`) || strings.Contains(inputTag(t, page, "p1_membership"), "aria-invalid") {
		t.Errorf("one entrant with a malformed membership number: %d", st)
	}
	if es, _ := db.ListEntrants(t.Context(), tid); len(es) != 2 {
		t.Errorf("%d entrants after refusals, want the 2 of the seed", len(es))
	}
	// Well formed, they are entered.
	if st, _ := c.Post(base+"/entrants/paste", url.Values{"rows": {"5\tRossi Anna\tFT100001\tBianchi Luca\tRM-004512\n"}}); st != 303 {
		t.Errorf("a well-formed paste: %d", st)
	}
}

// UI.md §2: "/logout ends the session" — the header's button posts to it;
// a person typing /logout is signed out too. Another site's link or image
// only gets the question.
func TestLogoutByAddress(t *testing.T) {
	_, c, _ := seededSecretary(t)
	req, _ := http.NewRequest("GET", c.Base+"/logout", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if st, page := c.Do(req); st != http.StatusOK || !strings.Contains(page, `<form method="post" action="/logout">`) {
		t.Errorf("GET /logout from another site: %d, want the question", st)
	}
	if st, _ := c.Get("/"); st != http.StatusOK {
		t.Fatalf("another site's GET /logout signed out: home %d", st)
	}
	req, _ = http.NewRequest("GET", c.Base+"/logout", nil)
	req.Header.Set("Sec-Fetch-Site", "none") // typed in the address bar
	res, err := c.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/login" {
		t.Errorf("GET /logout: %d to %q, want 303 to /login", res.StatusCode, res.Header.Get("Location"))
	}
	if st, _ := c.Get("/"); st != http.StatusSeeOther {
		t.Errorf("after GET /logout the home page answers %d, want the way to /login", st)
	}
}

// UI.md §3: the tournament page links to everything below it.
func TestTournamentPageLinksEverything(t *testing.T) {
	_, c, tid := seededSecretary(t)
	base := "/tournaments/" + tid
	_, page := c.Get(base)
	for _, p := range []string{"/entrants", "/rounds/1", "/rounds/1/print", "/imports", "/standings", "/export", "/corrections", "/adjustments", "/rounds/new", "/prizes"} {
		if !strings.Contains(page, `href="`+base+p+`"`) {
			t.Errorf("the tournament page has no link to %s", p)
		}
	}
}

// UI.md §5: "Totals and running totals may be left empty (the form shows
// the computed ones)": the sheet has a running_total field per line and
// hand, checked as typed and stored.
func TestSheetRunningTotals(t *testing.T) {
	_, c, tid := seededSecretary(t)
	sheet := "/tournaments/" + tid + "/rounds/1/tables/1"
	_, page := c.Get(sheet)
	if tag := inputTag(t, page, "hands.1.eo.running_total"); !strings.Contains(tag, `placeholder="`) {
		t.Errorf("the running total does not show the computed one: %s", tag)
	}
	form := url.Values{"version": {"1"},
		"hands.0.ns.base": {"300"}, "hands.0.ns.points": {"200"}, "hands.0.ns.running_total": {"500"},
		"hands.0.eo.base": {"100"}, "hands.0.eo.points": {"150"}, "hands.0.end": {"closed"},
		"hands.1.ns.base": {"100"}, "hands.1.ns.points": {"20"}, "hands.1.ns.running_total": {"600"},
		"hands.1.eo.base": {"100"}, "hands.1.eo.points": {"150"}, "hands.1.end": {"closed"}}
	_, report := c.Post(sheet+"/validate", form)
	if !strings.Contains(report, `data-code="RUNNING_TOTAL_MISMATCH" data-severity="error" data-field="hands.1.ns.running_total"`) {
		t.Errorf("a wrong running total is not found: %s", report)
	}
	if strings.Contains(report, `data-field="hands.0.ns.running_total"`) {
		t.Error("a right running total is reported")
	}
	if st, _ := c.Post(sheet, form); st != 303 {
		t.Fatalf("save: %d", st)
	}
	_, page = c.Get(sheet)
	if tag := inputTag(t, page, "hands.1.ns.running_total"); !strings.Contains(tag, `value="600"`) || !strings.Contains(tag, `aria-invalid="true"`) {
		t.Errorf("the stored running total: %s", tag)
	}
}

// UI.md §3: the printed round carries one blank sheet per table with the
// QR code of its table-entry link. The first printing issues the links;
// a later one cannot show them again (only their hashes are kept) and
// says so, and issuing again revokes the printed ones.
func TestPrintCarriesQRCodes(t *testing.T) {
	_, c, tid := seededSecretary(t)
	print := "/tournaments/" + tid + "/rounds/1/print"
	qr := regexp.MustCompile(`<img src="data:image/svg&#43;xml,%3Csvg%20[^"]+%3C/svg%3E" alt="[^"]+" width="120" height="120" data-qr="1">`)
	short := regexp.MustCompile(`data-short="([A-Z0-9]{8})"`)
	st, page := c.Get(print)
	if st != 200 || !qr.MatchString(page) || !short.MatchString(page) {
		t.Fatalf("the first printing: %d, QR code %v, typed code %v", st, qr.MatchString(page), short.MatchString(page))
	}
	first := short.FindStringSubmatch(page)[1]
	if st, opened := c.Post("/table", url.Values{"code": {first}}); st != http.StatusSeeOther || opened != "" && !strings.Contains(opened, "/table/") {
		t.Errorf("the printed typed code: %d", st)
	}
	// A preview; the second opening shows the same codes and
	// revokes nothing.
	_, page = c.Get(print)
	if !qr.MatchString(page) || short.FindStringSubmatch(page) == nil || short.FindStringSubmatch(page)[1] != first {
		t.Error("the print page opened twice does not show the same codes")
	}
	if st, _ := c.Post("/table", url.Values{"code": {first}}); st != http.StatusSeeOther {
		t.Errorf("reading the print page again revoked the printed code: %d", st)
	}
	// Issuing again is its own, confirmed action: asked first, nothing
	// changed until confirmed; then new codes, the printed one stops
	// working.
	if _, page = c.Post(print, url.Values{}); !strings.Contains(page, `data-action="confirm-issue-codes"`) || short.FindStringSubmatch(page)[1] != first {
		t.Fatal("issuing again does not ask first, or changed the codes before the answer")
	}
	if st, _ := c.Post("/table", url.Values{"code": {first}}); st != http.StatusSeeOther {
		t.Errorf("the question revoked the printed code: %d", st)
	}
	if _, page = c.Post(print, url.Values{"confirmed": {"yes"}}); !qr.MatchString(page) || short.FindStringSubmatch(page)[1] == first {
		t.Fatal("issuing again shows no new code")
	}
	if st, _ := c.Post("/table", url.Values{"code": {first}}); st == http.StatusSeeOther {
		t.Error("the revoked typed code still opens the table")
	}
}

// UI.md §3: pasted rows are "name; membership; for pairs two players per
// row" — no number needed: rows without one are numbered after the
// entrants already there; a header row is skipped.
func TestPastedRowsWithoutNumbers(t *testing.T) {
	db, c, tid := seededSecretary(t) // entrants 1 and 2
	rows := "Nome\tTessera\tNome\tTessera\n" +
		"Rossi Anna\tFT100001\tBianchi Luca\tFT100002\n" +
		"Verdi Carla\tFT100003\tNeri Paolo\n"
	if st, page := c.Post("/tournaments/"+tid+"/entrants/paste", url.Values{"rows": {rows}}); st != http.StatusSeeOther {
		t.Fatalf("a paste without numbers: %d\n%s", st, regexp.MustCompile(`(?s)<div class="row-errors".*?</div>`).FindString(page))
	}
	es, err := db.ListEntrants(t.Context(), tid)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range es {
		var names []string
		for _, p := range e.Players {
			names = append(names, p.Name+"/"+p.Membership)
		}
		got[e.ID] = strings.Join(names, " ")
	}
	if got["3"] != "Rossi Anna/FT100001 Bianchi Luca/FT100002" || got["4"] != "Verdi Carla/FT100003 Neri Paolo/" || len(got) != 4 {
		t.Errorf("entrants: %v", got)
	}
	// One by one, without a number: the next one.
	if st, _ := c.Post("/tournaments/"+tid+"/entrants", url.Values{"pair": {"1"}, "p1_name": {"Gallo Rita"}, "p2_name": {"Conti Ugo"}}); st != http.StatusSeeOther {
		t.Fatalf("one entrant without a number: %d", st)
	}
	es, _ = db.ListEntrants(t.Context(), tid)
	if !slices.ContainsFunc(es, func(e domain.Entrant) bool { return e.ID == "5" && e.Players[0].Name == "Gallo Rita" }) {
		t.Errorf("the one entered without a number is not number 5: %+v", es)
	}
}

// UI.md §3 "manual seating (a table of table, ns, eo selects)": a field
// tournament's line fields are selects offering every entrant, the one
// sent back selected — an unknown number too, so that a refused form
// still shows what was typed; a large field's share one datalist.
func TestSeatingFieldsAreSelects(t *testing.T) {
	_, c, tid := seededSecretary(t)
	base := "/tournaments/" + tid
	_, page := c.Get(base + "/rounds/new")
	for _, name := range []string{"table", "ns", "eo"} {
		if tag := inputTag(t, page, name); !strings.HasPrefix(tag, "<select") {
			t.Errorf("the %s field is not a select: %s", name, tag)
		}
	}
	if strings.Contains(page, "<datalist") {
		t.Error("a small field's form still carries the datalist")
	}
	_, page = c.Post(base+"/rounds/new", url.Values{"number": {"2"}, "hands_planned": {"3"}, "phase": {"mitchell"},
		"table": {"40"}, "ns": {"1"}, "eo": {"99"}})
	if !strings.Contains(page, `<option value="99" selected>99</option>`) {
		t.Error("the refused form does not show the unknown number sent")
	}
	if !strings.Contains(page, `<option value="40" selected>40</option>`) {
		t.Error("the refused form does not show the table number sent")
	}
	if !regexp.MustCompile(`<option value="1" selected>1 · `).MatchString(page) {
		t.Error("the refused form does not keep entrant 1 selected")
	}
}

func TestSeatingFieldsOfALargeFieldShareADatalist(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	tid := webtest.SeedBigTournament(t, db, (web.SeatingSelectLimit+2)/2)
	c := webtest.SignInClient(t, site, "segreteria", pw)
	_, page := c.Get("/tournaments/" + tid + "/rounds/new")
	if tag := inputTag(t, page, "ns"); !strings.Contains(tag, `list="entrant-ids"`) {
		t.Errorf("the ns field of a %d-entrant field is not a datalist input: %s", web.SeatingSelectLimit+2, tag)
	}
	if n := strings.Count(page, "<option"); n > 3*(web.SeatingSelectLimit+2) {
		t.Errorf("%d <option>s: the entrants are repeated per field", n)
	}
}
