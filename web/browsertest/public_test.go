package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// publicFixture is a tournament of club "bc-roma" with four pairs and a
// round 1 of two tables, made through the API as a club program does.
type publicFixture struct {
	site  *webtest.Site
	token string // the club's API token
	tid   string
}

func newPublicFixture(t testing.TB, db *store.DB) *publicFixture {
	t.Helper()
	site := webtest.StartSite(t, db)
	ctx := context.Background()
	if _, err := db.CreateClub(ctx, domain.Club{ID: "bc-roma", Name: "Burraco Club Roma"}); err != nil {
		t.Fatal(err)
	}
	tok, _, err := db.CreateToken(ctx, domain.RoleClub, "segreteria-api", "bc-roma")
	if err != nil {
		t.Fatal(err)
	}
	f := &publicFixture{site: site, token: tok}
	var created struct{ ID string }
	f.api(t, "POST", "/v1/tournaments", map[string]any{"name": "Coppa d'Autunno", "date": "2026-11-21", "level": "club",
		"ruleset": "fitab-2025", "kind": "pairs", "rounds_planned": 3, "hands_per_round": 3}, http.StatusCreated, &created)
	f.tid = created.ID
	names := map[string][2]string{"1": {"Rossi Anna", "Bianchi Luca"}, "2": {"Verdi Carla", "Neri Paolo"},
		"3": {"Esposito Maria", "Romano Giuseppe"}, "4": {"Colombo Sara", "Ricci Marco"}}
	var es []map[string]any
	for _, id := range []string{"1", "2", "3", "4"} {
		e := map[string]any{"id": id, "players": []map[string]any{{"name": names[id][0]}, {"name": names[id][1]}}}
		if id == "1" { // private data the public answers must not carry
			e["players"] = []map[string]any{{"name": names[id][0], "membership": "FT0001234"}, {"name": names[id][1], "membership": "FT0005678"}}
			e["club"] = "bc-roma"
		}
		es = append(es, e)
	}
	f.api(t, "POST", "/v1/tournaments/"+f.tid+"/entrants", map[string]any{"entrants": es}, http.StatusCreated, nil)
	f.api(t, "POST", "/v1/tournaments/"+f.tid+"/rounds", map[string]any{"number": 1, "phase": "mitchell",
		"tables": []map[string]any{{"table": 1, "ns": "1", "eo": "3"}, {"table": 2, "ns": "2", "eo": "4"}}}, http.StatusCreated, nil)
	return f
}

// api calls the JSON API with the club's token.
func (f *publicFixture) api(t testing.TB, method, path string, body any, want int, out any) {
	t.Helper()
	status, raw := f.site.APIDo(t, f.token, method, path, body)
	if status != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, path, status, want, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatal(err)
		}
	}
}

func (f *publicFixture) setPublic(t testing.TB, public bool) {
	t.Helper()
	f.api(t, "PATCH", "/v1/tournaments/"+f.tid, map[string]any{"public": public}, http.StatusOK, nil)
}

// storeSheet stores a correct three-hand sheet at table t of round 1: NS
// 950, EO 825, MP ±125, VP 11-9 (FITAB 3-hand table, RULES §6.1).
func (f *publicFixture) storeSheet(t testing.TB, table int) {
	t.Helper()
	hand := func(nb, np, eb, ep int) map[string]any {
		return map[string]any{"end": "closed", "ns": map[string]any{"base": nb, "points": np}, "eo": map[string]any{"base": eb, "points": ep}}
	}
	f.api(t, "PUT", fmt.Sprintf("/v1/tournaments/%s/rounds/1/tables/%d/sheet", f.tid, table),
		map[string]any{"hands": []any{hand(300, 235, 100, -120), hand(0, -55, 400, 180), hand(350, 120, 200, 65)}}, http.StatusCreated, nil)
}

type pageAnswer struct {
	status int
	header http.Header
	body   string
}

func get(t testing.TB, url string, header map[string]string) pageAnswer {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return pageAnswer{res.StatusCode, res.Header, string(b)}
}

func publicPaths(tid string) []string {
	base := "/p/" + tid
	return []string{base, base + "/standings", base + "/rounds/1", base + "/entrants/1", base + "/screen", base + "/events"}
}

// TestPublicPages: private → 404 everywhere (pages and event stream);
// public → the pages with the contract markup; ETag and 304.
func TestPublicPages(t *testing.T) {
	f := newPublicFixture(t, dbtest.SQLite(t))
	for _, p := range append(publicPaths(f.tid), "/p/t_nope/standings") {
		if a := get(t, f.site.URL+p, nil); a.status != http.StatusNotFound {
			t.Errorf("private %s: %d, want 404", p, a.status)
		}
	}
	f.setPublic(t, true)
	f.storeSheet(t, 1)
	for _, p := range publicPaths(f.tid)[:5] {
		a := get(t, f.site.URL+p, nil)
		if a.status != http.StatusOK {
			t.Fatalf("public %s: %d\n%s", p, a.status, a.body)
		}
		if !strings.Contains(a.body, `data-qr`) || !strings.Contains(a.body, `sse-connect="/p/`+f.tid+`/events"`) {
			t.Errorf("%s lacks the QR code or the event stream", p)
		}
	}
	for _, p := range []string{"/rounds/2", "/rounds/x", "/entrants/99"} {
		if a := get(t, f.site.URL+"/p/"+f.tid+p, nil); a.status != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, a.status)
		}
	}

	// UI.md §7 standings markup: caption, one row per entrant with rank,
	// vp, mp cells; provisional while round 1 is being played.
	a := get(t, f.site.URL+"/p/"+f.tid+"/standings", map[string]string{"Accept-Language": "it"})
	if !regexp.MustCompile(`<table[^>]*data-provisional="true"`).MatchString(a.body) {
		t.Error("standings of a round being played are not marked provisional")
	}
	if !strings.Contains(a.body, "<caption>Classifica dopo il turno 1") {
		t.Error("the caption does not say Classifica and the round")
	}
	row := regexp.MustCompile(`(?s)<tr data-entrant="1">.*?data-col="rank">(\d+)<.*?data-col="vp" class="num">(\d+)<.*?data-col="mp" class="num">(-?\d+)<`).FindStringSubmatch(a.body)
	if row == nil || row[1] != "1" || row[2] != "11" || row[3] != "125" {
		t.Errorf("row of entrant 1 = %v, want rank 1, 11 VP, 125 MP", row)
	}
	if n := strings.Count(a.body, "<tr data-entrant="); n != 4 {
		t.Errorf("%d entrant rows, want 4", n)
	}
	en := get(t, f.site.URL+"/p/"+f.tid+"/standings?lang=en", nil)
	if !strings.Contains(en.body, "<caption>Standings after round 1") {
		t.Error("the English caption does not say Standings")
	}

	// ETag per version: 304 while nothing changes, 200 after a sheet.
	etag := a.header.Get("ETag")
	if etag == "" || !strings.HasPrefix(a.header.Get("Cache-Control"), "public, max-age=") {
		t.Fatalf("ETag %q Cache-Control %q", etag, a.header.Get("Cache-Control"))
	}
	hdr := map[string]string{"Accept-Language": "it", "If-None-Match": etag}
	if b := get(t, f.site.URL+"/p/"+f.tid+"/standings", hdr); b.status != http.StatusNotModified || b.body != "" {
		t.Errorf("same version: %d (%d bytes), want 304", b.status, len(b.body))
	}
	f.storeSheet(t, 2)
	if b := get(t, f.site.URL+"/p/"+f.tid+"/standings", hdr); b.status != http.StatusOK || b.header.Get("ETag") == etag {
		t.Errorf("after a sheet: %d with ETag %q, want 200 with a new one", b.status, b.header.Get("ETag"))
	}

	// htmx asks for the live fragment only.
	frag := get(t, f.site.URL+"/p/"+f.tid+"/standings", map[string]string{"HX-Request": "true"})
	if frag.status != http.StatusOK || strings.Contains(frag.body, "<html") || !strings.Contains(frag.body, `data-entrant="4"`) {
		t.Errorf("fragment: %d, %q", frag.status, frag.body)
	}

	// The round page: results as they arrive, seating by name.
	r := get(t, f.site.URL+"/p/"+f.tid+"/rounds/1", nil)
	if !strings.Contains(r.body, `data-table="1" data-status="complete"`) || !strings.Contains(r.body, "950 – 825") {
		t.Error("round 1 does not show table 1's result 950 – 825")
	}
	if i, j := strings.Index(r.body, `data-player="Bianchi Luca"`), strings.Index(r.body, `data-player="Verdi Carla"`); i < 0 || j < i {
		t.Error("the alphabetical seating is not in alphabetical order")
	}
	// The entrant card: round, table, opponent, totals, MP, VP, rank.
	c := get(t, f.site.URL+"/p/"+f.tid+"/entrants/3", nil)
	if !regexp.MustCompile(`(?s)<tr data-round="1">.*?data-col="opponent"[^>]*>.*?Rossi Anna.*?825 – 950.*?-125.*?>9<`).MatchString(c.body) {
		t.Errorf("the card of entrant 3 lacks round 1 against pair 1: 825 – 950, -125 MP, 9 VP")
	}

	// Private again: 404 at once.
	f.setPublic(t, false)
	for _, p := range publicPaths(f.tid) {
		if a := get(t, f.site.URL+p, nil); a.status != http.StatusNotFound {
			t.Errorf("private again %s: %d, want 404", p, a.status)
		}
	}
}

// TestPublicSwitch: the club's "rendi pubblico" form goes through the
// same operation as the API: its club may, another club may not.
func TestPublicSwitch(t *testing.T) {
	db := dbtest.SQLite(t)
	f := newPublicFixture(t, db)
	pw := f.site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	other := f.site.CreatePerson(t, domain.RoleClub, "altro", "bc-milano")
	post := func(name, password, value string) int {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := c.PostForm(f.site.URL+"/login", url.Values{"username": {name}, "password": {password}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		res, err = c.PostForm(f.site.URL+"/tournaments/"+f.tid+"/public", url.Values{"public": {value}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if s := post("altro", other, "true"); s != http.StatusNotFound {
		t.Errorf("another club: %d, want 404", s)
	}
	if s := post("segreteria", pw, "maybe"); s != http.StatusBadRequest {
		t.Errorf("a bad value: %d, want 400", s)
	}
	if a := get(t, f.site.URL+"/p/"+f.tid, nil); a.status != http.StatusNotFound {
		t.Fatalf("still private: %d", a.status)
	}
	if s := post("segreteria", pw, "true"); s != http.StatusSeeOther {
		t.Errorf("its club: %d, want 303", s)
	}
	if a := get(t, f.site.URL+"/p/"+f.tid, nil); a.status != http.StatusOK {
		t.Errorf("made public by the form: %d", a.status)
	}
}

// The public JSON says what the public pages show and nothing more: no
// membership number, no club of an entrant, no referee's note; and every
// name, entrant number and figure (total, VP, MP) of each JSON answer is
// on its page.
func TestPublicJSONMatchesPublicPages(t *testing.T) {
	f := newPublicFixture(t, dbtest.SQLite(t))
	f.storeSheet(t, 1)
	f.api(t, "POST", "/v1/tournaments/"+f.tid+"/adjustments", map[string]any{"entrant": "2", "round": 1, "reason": "warning",
		"note": "cellulare squillato durante la smazzata"}, http.StatusCreated, nil)
	f.setPublic(t, true)
	private := []string{"FT0001234", "FT0005678", "cellulare squillato", "bc-roma", "membership", "note"}
	for _, c := range []struct{ json, page string }{
		{"/v1/public/tournaments/" + f.tid, "/p/" + f.tid},
		{"/v1/public/tournaments/" + f.tid + "/standings", "/p/" + f.tid + "/standings"},
		{"/v1/public/tournaments/" + f.tid + "/rounds/1", "/p/" + f.tid + "/rounds/1"},
	} {
		j := get(t, f.site.URL+c.json, nil)
		p := get(t, f.site.URL+c.page, map[string]string{"Accept-Language": "it"})
		if j.status != http.StatusOK || p.status != http.StatusOK {
			t.Fatalf("%s: %d, %s: %d", c.json, j.status, c.page, p.status)
		}
		for _, s := range private {
			if strings.Contains(j.body, s) {
				t.Errorf("%s carries %q, which no public page shows", c.json, s)
			}
		}
		var doc any
		if err := json.Unmarshal([]byte(j.body), &doc); err != nil {
			t.Fatal(err)
		}
		page := html.UnescapeString(p.body)
		leaves := shownLeaves(doc, "")
		if len(leaves) < 8 {
			t.Errorf("%s: only %d values compared", c.json, len(leaves))
		}
		for _, leaf := range leaves {
			if !strings.Contains(page, leaf.value) {
				t.Errorf("%s %s = %q is not on %s", c.json, leaf.path, leaf.value, c.page)
			}
		}
	}
}

type jsonLeaf struct{ path, value string }

// shownLeaves are the values of a public answer a page shows as they are:
// names, entrant numbers, ranks and figures. Codes the page words
// (state, level, ruleset, kind, phase), dates and flags are left out.
func shownLeaves(v any, path string) []jsonLeaf {
	var out []jsonLeaf
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch k {
			case "state", "level", "ruleset", "kind", "phase", "date", "id", "after_round", "provisional", "adjusted",
				"complete", "hands", "hands_planned", "rounds_planned", "hands_per_round", "number":
				if k == "id" && strings.Contains(path, "entrants") {
					out = append(out, shownLeaves(e, path+"/"+k)...)
				}
				continue
			}
			out = append(out, shownLeaves(e, path+"/"+k)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, shownLeaves(e, fmt.Sprintf("%s/%d", path, i))...)
		}
	case string:
		out = append(out, jsonLeaf{path, x})
	case float64:
		out = append(out, jsonLeaf{path, strconv.Itoa(int(x))})
	}
	return out
}
