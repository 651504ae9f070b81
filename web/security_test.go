package web

import (
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/messages"
	"segnapunti/store/dbtest"
)

// noRedirect is a client that shows redirects instead of following them.
func noRedirect(jar http.CookieJar) *http.Client {
	return &http.Client{Jar: jar, Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func newSiteServer(t *testing.T, db *app.DB, tls bool) *httptest.Server {
	t.Helper()
	pages, err := New(Deps{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	var srv *httptest.Server
	if tls {
		srv = httptest.NewTLSServer(pages)
	} else {
		srv = httptest.NewServer(pages)
	}
	t.Cleanup(srv.Close)
	return srv
}

func body(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// UI.md §2: every form that changes something refuses cross-site requests.
func TestCrossSiteFormPostIsRefused(t *testing.T) {
	db := dbtest.SQLite(t)
	srv := newSiteServer(t, db, false)
	for _, c := range []struct {
		name  string
		setup func(r *http.Request)
	}{
		{"Sec-Fetch-Site cross-site", func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }},
		{"foreign Origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }},
	} {
		for _, path := range []string{"/login", "/logout", "/setup", "/admin/people", "/admin/clubs"} {
			req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader("username=a&password=b"))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			c.setup(req)
			resp, err := noRedirect(nil).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b := body(t, resp)
			if resp.StatusCode != http.StatusForbidden || !strings.Contains(b, "non proviene da questo sito") {
				t.Errorf("%s POST %s: %d, want 403 with a message", c.name, path, resp.StatusCode)
			}
		}
	}
	// Same-origin posts go through (a wrong password is 401, not 403).
	req, _ := http.NewRequest("POST", srv.URL+"/login", strings.NewReader("username=a&password=b"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := noRedirect(nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("same-origin wrong password: %d, want 401", resp.StatusCode)
	}
}

// signInHTTP posts /login and returns the session cookie.
func signInHTTP(t *testing.T, srv *httptest.Server, client *http.Client, name, pw string) *http.Cookie {
	t.Helper()
	resp, err := client.PostForm(srv.URL+"/login", url.Values{"username": {name}, "password": {pw}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", resp.StatusCode)
	}
	for _, c := range resp.Cookies() {
		if c.Name == SessionCookie {
			return c
		}
	}
	t.Fatal("no session cookie")
	return nil
}

// UI.md §2: the session cookie is HttpOnly, SameSite=Lax, and Secure over
// TLS; the database keeps only its hash.
func TestSessionCookieFlags(t *testing.T) {
	db := dbtest.SQLite(t)
	if _, err := db.CreatePerson(context.Background(), "fed", domain.RoleFederation, "", "segreta-123"); err != nil {
		t.Fatal(err)
	}
	plain := newSiteServer(t, db, false)
	c := signInHTTP(t, plain, noRedirect(nil), "fed", "segreta-123")
	if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure {
		t.Errorf("over plain HTTP: HttpOnly=%v SameSite=%v Secure=%v; want true, Lax, false", c.HttpOnly, c.SameSite, c.Secure)
	}
	if c.Path != "/" || len(c.Value) < 40 {
		t.Errorf("cookie path %q, value length %d", c.Path, len(c.Value))
	}
	tls := newSiteServer(t, db, true)
	client := tls.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c = signInHTTP(t, tls, client, "fed", "segreta-123")
	if !c.Secure || !c.HttpOnly {
		t.Errorf("over TLS: Secure=%v HttpOnly=%v, want both", c.Secure, c.HttpOnly)
	}
}

// UI.md §2: a revoked session stops working at once; so does one whose
// person is disabled; sign-out ends it in the database.
func TestRevokedSessionStopsAtOnce(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *app.DB) {
		ctx := context.Background()
		p, err := db.CreatePerson(ctx, "admin", domain.RoleAdmin, "", "segreta-123")
		if err != nil {
			t.Fatal(err)
		}
		srv := newSiteServer(t, db, false)
		jar, _ := cookiejar.New(nil)
		client := noRedirect(jar)
		signInHTTP(t, srv, client, "admin", "segreta-123")
		get := func() *http.Response {
			resp, err := client.Get(srv.URL + "/admin")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp
		}
		if resp := get(); resp.StatusCode != http.StatusOK {
			t.Fatalf("/admin signed in: %d", resp.StatusCode)
		}
		sessions, _ := db.ListSessions(ctx, p.ID)
		if len(sessions) != 1 {
			t.Fatalf("sessions: %d", len(sessions))
		}
		if err := db.RevokeSession(ctx, p.ID, sessions[0].ID); err != nil {
			t.Fatal(err)
		}
		if resp := get(); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
			t.Errorf("/admin after revocation: %d %s, want a redirect to /login", resp.StatusCode, resp.Header.Get("Location"))
		}
	})
}

// UI.md §2 and API §4: /admin is for admins only; the signed-out go to
// /login.
func TestAdminIsForAdmins(t *testing.T) {
	db := dbtest.SQLite(t)
	ctx := context.Background()
	db.CreateClub(ctx, domain.Club{ID: "bc-roma", Name: "BC Roma"})
	for _, p := range []struct {
		name string
		role domain.Role
		club string
	}{{"club", domain.RoleClub, "bc-roma"}, {"referee", domain.RoleReferee, ""}, {"fed", domain.RoleFederation, ""}} {
		if _, err := db.CreatePerson(ctx, p.name, p.role, p.club, "segreta-123"); err != nil {
			t.Fatal(err)
		}
	}
	srv := newSiteServer(t, db, false)
	resp, err := noRedirect(nil).Get(srv.URL + "/admin")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login?next=%2Fadmin" {
		t.Errorf("signed out: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, name := range []string{"club", "referee", "fed"} {
		jar, _ := cookiejar.New(nil)
		client := noRedirect(jar)
		signInHTTP(t, srv, client, name, "segreta-123")
		for _, path := range []string{"/admin", "/admin/people/x"} {
			resp, err := client.Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("%s GET %s: %d, want 403", name, path, resp.StatusCode)
			}
		}
		resp, err := client.PostForm(srv.URL+"/admin/clubs", url.Values{"id": {"x"}, "name": {"x"}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s POST /admin/clubs: %d, want 403", name, resp.StatusCode)
		}
	}
	if clubs, _ := db.ListClubs(ctx); len(clubs) != 1 {
		t.Errorf("clubs = %d: a non-admin created one", len(clubs))
	}
}

// UI.md §2: repeated wrong passwords slow down per name and per address,
// answering 429 with a message and Retry-After — and the real person,
// typing the right password from an address that has not failed, gets in
// during the attack (the figures are in app/limits.go).
func TestLoginSlowsDownAfterWrongPasswords(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *app.DB) {
		if _, err := db.CreatePerson(context.Background(), "anna", domain.RoleReferee, "", "segreta-123"); err != nil {
			t.Fatal(err)
		}
		s, err := newServer(Deps{Store: db})
		if err != nil {
			t.Fatal(err)
		}
		h := s.Handler()
		post := func(from, name, pw string) *httptest.ResponseRecorder {
			r := httptest.NewRequest("POST", "/login", strings.NewReader(url.Values{"username": {name}, "password": {pw}}.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.RemoteAddr = from + ":40000"
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			return w
		}
		const attacker = "198.51.100.66"
		for i := range 5 {
			if w := post(attacker, "anna", "wrong-pass"); w.Code != http.StatusUnauthorized {
				t.Fatalf("wrong password %d: %d, want 401", i+1, w.Code)
			}
		}
		// The sixth wrong password is counted; now even the right one waits
		// from that address.
		post(attacker, "anna", "wrong-pass")
		w := post(attacker, "anna", "segreta-123")
		if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), "Troppi tentativi") || w.Header().Get("Retry-After") == "" {
			t.Fatalf("after 6 failures: %d (Retry-After %q), want 429 with a message", w.Code, w.Header().Get("Retry-After"))
		}
		// The secretary from her own address signs in during the attack.
		if w := post("203.0.113.5", "anna", "segreta-123"); w.Code != http.StatusSeeOther {
			t.Errorf("the right password from an address that has not failed: %d, want 303", w.Code)
		}
	})
}

// UI.md: ?lang=, then the lang cookie, then Accept-Language, then Italian.
func TestLanguageChoice(t *testing.T) {
	cases := []struct {
		name, query, cookie, accept string
		want                        Lang
	}{
		{"default Italian", "", "", "", domain.Italian},
		{"Accept-Language en", "", "", "en-GB,en;q=0.9", domain.English},
		{"Accept-Language unknown", "", "", "de-DE", domain.Italian},
		{"cookie over Accept-Language", "", "it", "en", domain.Italian},
		{"query over cookie", "en", "it", "it", domain.English},
		{"bad query ignored", "xx", "en", "", domain.English},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/login?lang="+c.query, nil)
			if c.cookie != "" {
				r.AddCookie(&http.Cookie{Name: langCookie, Value: c.cookie})
			}
			if c.accept != "" {
				r.Header.Set("Accept-Language", c.accept)
			}
			if got, _ := pickLang(r); got != c.want {
				t.Errorf("lang %q, want %q", got, c.want)
			}
		})
	}
}

// Every message id a template or a page's Go file names exists (STYLE
// §16); the catalogue's own checks are messages.TestCatalogue.
func TestCatalogue(t *testing.T) {
	ids := regexp.MustCompile(`\bt "([a-z_.]+)"`)
	entries, _ := templateFS.ReadDir("templates")
	for _, e := range entries {
		b, _ := templateFS.ReadFile("templates/" + e.Name())
		for _, m := range ids.FindAllStringSubmatch(string(b), -1) {
			if !messages.Has(m[1]) {
				t.Errorf("%s: message %q is not in the catalogue", e.Name(), m[1])
			}
		}
	}
	// Ids built from data: roles, languages, and those handlers pass.
	for _, r := range domain.Roles {
		if !messages.Has("role." + string(r)) {
			t.Errorf("no message role.%s", r)
		}
	}
	goIDs := regexp.MustCompile(`"((?:error|login|setup|admin|form|home|pairing|secretary|table|print|adjust)\.[a-z_]+(?:\.[a-z_]+)*)"`)
	files, _ := os.ReadDir(".")
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".go") || strings.HasSuffix(f.Name(), "_test.go") {
			continue
		}
		b, _ := os.ReadFile(f.Name())
		for _, m := range goIDs.FindAllStringSubmatch(string(b), -1) {
			if !messages.Has(m[1]) {
				t.Errorf("%s: message %q is not in the catalogue", f.Name(), m[1])
			}
		}
	}
}

// UI.md §1: static files have versioned URLs and a year-long cache; pages
// are gzipped; a page's first load is at most 150 KB transferred.
func TestStaticCachingAndPageWeight(t *testing.T) {
	db := dbtest.SQLite(t)
	srv := newSiteServer(t, db, false)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 10 * time.Second}
	get := func(path string) (*http.Response, int) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, len(b)
	}
	resp, n := get("/login")
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("/login not gzipped: %v", resp.Header)
	}
	total := n
	// The page's assets, from its own HTML.
	req, _ := http.NewRequest("GET", srv.URL+"/login", nil)
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	html := body(t, r2)
	assets := regexp.MustCompile(`(?:href|src)="(/static/[^"]+)"`).FindAllStringSubmatch(html, -1)
	if len(assets) < 3 {
		t.Fatalf("assets in /login: %v", assets)
	}
	for _, a := range assets {
		resp, n := get(a[1])
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", a[1], resp.StatusCode)
		}
		if cc := resp.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") || !strings.Contains(cc, "max-age=31536000") {
			t.Errorf("%s: Cache-Control %q", a[1], cc)
		}
		if resp.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s not gzipped", a[1])
		}
		total += n
	}
	t.Logf("/login first load: %d bytes transferred (gzip)", total)
	if total > 150<<10 {
		t.Errorf("/login first load %d bytes, budget 150 KB", total)
	}
	// A wrong version or an unknown file is 404; licences are not served.
	for _, p := range []string{"/static/0000/htmx.min.js", strings.Replace(assets[0][1], "pico.min.css", "LICENSE.pico.md", 1)} {
		if resp, _ := get(p); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, resp.StatusCode)
		}
	}
	// Gzip is real gzip.
	req, _ = http.NewRequest("GET", srv.URL+"/login", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(zr)
	resp.Body.Close()
	if !strings.Contains(string(b), `name="username"`) {
		t.Error("gzipped /login lacks the username field")
	}
}

// Site sends /v1, /healthz and /readyz to the API, the rest to the pages.
func TestSiteRouting(t *testing.T) {
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("api")) })
	pages := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("pages")) })
	h := Site(api, pages)
	for path, want := range map[string]string{
		"/v1": "api", "/v1/tournaments": "api", "/healthz": "api", "/readyz": "api",
		"/": "pages", "/login": "pages", "/v1x": "pages", "/admin": "pages", "/static/x/y.css": "pages",
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Body.String() != want {
			t.Errorf("%s went to %s, want %s", path, w.Body.String(), want)
		}
	}
}
