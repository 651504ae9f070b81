package officialtest

// No English in Italian output (UI.md: Italian first): every page of the
// web router that renders HTML and every export a person opens (the
// workbooks' cells, the CSV files) is read in Italian and must not hold a
// word of the list below. Codes (CLOSURE_IMPOSSIBLE, sheets_delivered)
// are allowed: they are small print, not sentences.

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/xuri/excelize/v2"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// englishWords are words of English sentences that are not Italian words
// (nor parts of the names and codes the pages show): one of them in an
// Italian page means an English sentence reached it.
var englishWords = strings.Fields(`
	the and not with without must should been has have which from this that
	of to is are was be by at an or for on into than then when where your
	you please only more cannot can't doesn't isn't don't won't
	round rounds sheet sheets hand hands table tables error errors warning warnings
	applicable head-to-head tie-break invalid required unknown missing refused allowed
	want got level shared place wins won drew beat meet did highest margin
	entrant entrants player players tournament tournaments standings season year
	referee correction corrections adjustment adjustments delivered published playing
	proposed number value field page save cancel back next name total`)

// skippedRoutes are the GET routes that render no page for people: assets,
// streams, JSON, the sign-out, and pages reached by a code or id this
// sweep has not (the table's own pages are swept by the table tests).
var skippedRoutes = []string{
	"/engine/{file}", "/logout", "/table/manifest.webmanifest", "/table/sw.js",
	"/p/{tid}/events", "/p/{tid}/clock", "/table/{code}/clock", "/table/{code}",
	"/federation/tournaments/{tid}/export.json", "/admin/people/{id}",
	"/tournaments/{tid}/export/{file}",                // swept through the export page's links
	"/tournaments/{tid}/rounds/{n}/tables/{t}/lineup", // team tournaments only
	"/setup",             // the first run's page, gone once an administrator exists
	"/federation/season", // a workbook: read below with checkFile
}

func TestNoEnglishInItalianOutput(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.SQLite(t))
	w := newRefereeWorld(t, site.Store, "fitab-2025", false)
	tie := tiedTournament(t, w.ops)
	ref := webtest.SignInClient(t, site, "anna.rossi", site.CreatePerson(t, domain.RoleReferee, "anna.rossi", ""))
	club := webtest.SignInClient(t, site, "segr.c1", site.CreatePerson(t, domain.RoleClub, "segr.c1", "c1"))
	fed := webtest.SignInClient(t, site, "fed", site.CreatePerson(t, domain.RoleFederation, "fed", ""))
	admin := webtest.SignInClient(t, site, "capo", site.CreatePerson(t, domain.RoleAdmin, "capo", ""))
	anyone := &webtest.PageClient{Base: site.URL, Client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	clients := []*webtest.PageClient{anyone, club, ref, fed, admin}

	// A correction (table 1's sum error), an adjustment and prizes, made
	// through the pages.
	T := "/tournaments/" + w.tid
	if st, body := ref.Post(T+"/rounds/1/tables/1/correct", url.Values{"kind": {"sum"}, "reason": {"errore di somma alla mano 1"},
		"version": {"1"}, "hands.0.ns.total": {"500"}}); st != http.StatusSeeOther && st != http.StatusOK {
		t.Fatalf("correction: %d %s", st, body)
	}
	if st, body := ref.Post(T+"/adjustments", url.Values{"entrant": {"2"}, "reason": {"warning"}, "round": {"1"}, "note": {"ritardo"}}); st != http.StatusSeeOther {
		t.Fatalf("adjustment: %d %s", st, body)
	}
	public := true
	for _, tid := range []string{w.tid, tie} {
		if _, err := w.ops.PatchTournament(context.Background(), clubP, tid, app.PublicPatch{Public: &public}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.ops.SetPrizeCategories(context.Background(), clubP, tid, []domain.PrizeCategory{
			{ID: "assoluta", Kind: domain.PrizeOverall, Label: "Classifica assoluta", Places: 2}}); err != nil {
			t.Fatal(err)
		}
	}

	check := func(where, text string) {
		t.Helper()
		if words := englishIn(text); len(words) > 0 {
			t.Errorf("%s: English words %q in %q", where, words, excerpt(text, words[0]))
		}
	}

	// Every page of the router, for both tournaments, as the first of
	// club, referee, federation, admin that may open it.
	for _, tid := range []string{w.tid, tie} {
		for _, route := range htmlRoutes(t) {
			path := strings.NewReplacer("{tid}", tid, "{n}", "1", "{t}", "1", "{id}", "1").Replace(route)
			opened := false
			for _, c := range clients {
				st, ct, body := get(t, c, path)
				if st != http.StatusOK {
					continue
				}
				opened = true
				if strings.HasPrefix(ct, "text/html") {
					check(path, pageText(body))
				}
				break
			}
			if !opened {
				t.Logf("%s: no one opens it", path)
			}
		}
	}

	// Pages with an error on them: a bad season, a refused Mitchell round,
	// an adjustment refused.
	for path, c := range map[string]*webtest.PageClient{
		"/federation?season=zzz":              fed,
		"/federation/season?season=2026-2030": fed,
	} {
		_, _, body := get(t, c, path)
		check(path, pageText(body))
	}
	_, body := club.Post(T+"/rounds/generate", url.Values{"number": {"2"}, "system": {"mitchell"}, "hands_planned": {"3"}})
	check("generate a refused round", pageText(body))
	_, body = ref.Post(T+"/adjustments", url.Values{"entrant": {"9"}, "reason": {"warning"}, "round": {"1"}})
	check("a refused adjustment", pageText(body))
	_, body = ref.Post(T+"/rounds/1/tables/1/correct", url.Values{"kind": {"sum"}, "reason": {"x"}, "version": {"1"}, "hands.0.ns.total": {"abc"}})
	check("a refused correction", pageText(body))

	// Every export: the export page's links (workbook, CSV), the
	// federation's workbooks.
	for _, tid := range []string{w.tid, tie} {
		_, _, page := get(t, club, "/tournaments/"+tid+"/export")
		links := regexp.MustCompile(`href="(/tournaments/[^"]+/export/[^"]+)"`).FindAllStringSubmatch(page, -1)
		if len(links) == 0 {
			t.Fatalf("the export page of %s links no file", tid)
		}
		for _, l := range links {
			path := strings.ReplaceAll(l[1], "&amp;", "&")
			if strings.Contains(path, ".json") {
				continue // data for programs, English by API §6
			}
			checkFile(t, club, path, check)
		}
		checkFile(t, fed, "/federation/tournaments/"+tid+"/workbook.xlsx", check)
	}
	// The sweep reads what it should: the tie-break in Italian.
	if _, _, body := get(t, club, "/tournaments/"+tie+"/export/classifica.csv"); !strings.Contains(body, "scontro diretto non applicabile") {
		t.Errorf("the tied tournament's standings CSV has no Italian tie-break: %s", body)
	}
	checkFile(t, fed, "/federation/season?season=2026", check)
}

// tiedTournament is a club tournament of c1 whose two tables have the
// same result, so that 1 and 3 are level on VP and MP and the tie-break
// notes of RULES §8 reach the standings.
func tiedTournament(t *testing.T, ops *app.App) string {
	t.Helper()
	ctx := context.Background()
	tr, err := ops.CreateTournament(ctx, clubP, app.TournamentInput{Name: "Serata del giovedì", Date: "2026-11-26", Level: "club",
		Ruleset: "fitab-2025", Kind: "pairs", RoundsPlanned: 3, HandsPerRound: 3})
	if err != nil {
		t.Fatal(err)
	}
	var in []app.EntrantInput
	for _, id := range []string{"1", "2", "3", "4"} {
		in = append(in, app.EntrantInput{ID: id, Players: []domain.Player{{Name: "Verdi " + id}, {Name: "Neri " + id}}})
	}
	if _, err := ops.AddEntrants(ctx, clubP, tr.ID, in); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.CreateRound(ctx, clubP, tr.ID, app.RoundInput{Number: 1, Phase: "mitchell",
		Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}, {Table: 2, NS: "3", EO: "4"}}}); err != nil {
		t.Fatal(err)
	}
	for table := 1; table <= 2; table++ {
		if _, err := webtest.PutSheet(ops, ctx, clubP, tr.ID, 1, table, func(g app.SheetTarget) (domain.Sheet, error) {
			return refSheet(g, 500, 300, nil), nil
		}, 0); err != nil {
			t.Fatal(err)
		}
	}
	st, err := ops.Standings(ctx, clubP, tr.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Rows) == 0 || len(st.Rows[0].Tiebreak) == 0 {
		t.Fatalf("the seeded standings have no tie-break: %+v", st.Rows)
	}
	return tr.ID
}

// htmlRoutes are the GET routes of the web router (routes_*.go) that may
// render a page.
func htmlRoutes(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("../routes_*.go")
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`"GET (/[^"]*)"`).FindAllStringSubmatch(string(b), -1) {
			if !slices.Contains(skippedRoutes, m[1]) && !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	}
	if len(out) < 30 {
		t.Fatalf("only %d routes found in the router: %v", len(out), out)
	}
	return out
}

func get(t *testing.T, c *webtest.PageClient, path string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", c.Base+path, nil)
	req.Header.Set("Accept-Language", "it")
	res, err := c.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Content-Type"), string(b)
}

// checkFile reads a workbook's every cell, or a CSV's every field.
func checkFile(t *testing.T, c *webtest.PageClient, path string, check func(where, text string)) {
	t.Helper()
	st, ct, body := get(t, c, path)
	if st != http.StatusOK {
		t.Errorf("%s: %d", path, st)
		return
	}
	switch {
	case strings.Contains(ct, "spreadsheetml"):
		f, err := excelize.OpenReader(bytes.NewReader([]byte(body)))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		defer f.Close()
		for _, sheet := range f.GetSheetList() {
			rows, err := f.GetRows(sheet)
			if err != nil {
				t.Fatal(err)
			}
			for i, row := range rows {
				check(path+" "+sheet+" row "+strconv.Itoa(i+1), strings.Join(row, " | "))
			}
		}
	case strings.Contains(ct, "csv"):
		r := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\ufeff")))
		r.Comma, r.FieldsPerRecord, r.LazyQuotes = ';', -1, true
		if !strings.Contains(strings.SplitN(body, "\n", 2)[0], ";") {
			r.Comma = ','
		}
		recs, err := r.ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i, rec := range recs {
			check(path+" line "+strconv.Itoa(i+1), strings.Join(rec, " | "))
		}
	default:
		t.Errorf("%s: content type %q, want a workbook or CSV", path, ct)
	}
}

var (
	dropBlocks = regexp.MustCompile(`(?is)<(script|style|code|template)\b.*?</(script|style|code|template)>`)
	readAttrs  = regexp.MustCompile(`(?i)\b(?:aria-label|title|placeholder|alt)="([^"]*)"`)
	tags       = regexp.MustCompile(`(?s)<[^>]*>`)
	addresses  = regexp.MustCompile(`https?://\S+`)
)

// pageText is what people read of a page: its text (without scripts,
// styles and code elements) and the attributes read aloud or shown.
func pageText(page string) string {
	page = dropBlocks.ReplaceAllString(page, " ")
	var b strings.Builder
	for _, m := range readAttrs.FindAllStringSubmatch(page, -1) {
		b.WriteString(m[1])
		b.WriteString(" | ")
	}
	b.WriteString(addresses.ReplaceAllString(tags.ReplaceAllString(page, " "), " "))
	return strings.NewReplacer("&#39;", "'", "&quot;", `"`, "&amp;", "&", "&nbsp;", " ").Replace(b.String())
}

// englishIn lists the English words of text; a token with an underscore
// or a digit, or in capitals, is a code or an id, not a word.
func englishIn(text string) []string {
	text = addresses.ReplaceAllString(text, " ")
	var out []string
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '\''
	}) {
		tok = strings.Trim(tok, "-'")
		if tok == "" || strings.ContainsFunc(tok, func(r rune) bool { return r == '_' || unicode.IsDigit(r) }) || strings.ToUpper(tok) == tok {
			continue
		}
		if w := strings.ToLower(tok); slices.Contains(englishWords, w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// excerpt is the text around word, for the failure message.
func excerpt(text, word string) string {
	i := strings.Index(strings.ToLower(text), word)
	if i < 0 {
		return ""
	}
	from, to := max(i-80, 0), min(i+80, len(text))
	return strings.Join(strings.Fields(text[from:to]), " ")
}
