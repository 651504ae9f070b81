package browsertest

import (
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"segnapunti/store"
	"segnapunti/store/dbtest"
	"segnapunti/web"
	"segnapunti/web/webtest"
)

// Pages answer like the API while PostgreSQL cannot be reached: 503 with
// Retry-After and a page in Italian, not a 500.
func TestPagesWhileDatabaseUnreachable(t *testing.T) {
	ctx := context.Background()
	dsn := dbtest.PostgresURL(t)
	db, err := store.Open(ctx, dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	site := webtest.StartSite(t, db)
	u, _ := url.Parse(dsn)
	name := strings.TrimPrefix(u.Path, "/")
	u.Path = "/postgres"
	admin, err := sql.Open("pgx", u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.ExecContext(ctx, `DROP DATABASE "`+name+`" WITH (FORCE)`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		method, path, body, cookie string
	}{
		{"POST", "/login", "username=anna&password=segreta-123", ""},
		{"GET", "/admin", "", web.SessionCookie + "=anything"},
	} {
		req, _ := http.NewRequest(c.method, site.URL+c.path, strings.NewReader(c.body))
		if c.body != "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		if c.cookie != "" {
			k, v, _ := strings.Cut(c.cookie, "=")
			req.AddCookie(&http.Cookie{Name: k, Value: v})
		}
		req.Header.Set("Accept-Language", "it")
		a := doPage(t, req)
		if a.status != http.StatusServiceUnavailable || a.header.Get("Retry-After") == "" || !strings.Contains(a.body, "Il database non risponde") {
			t.Errorf("%s %s: %d (Retry-After %q), want 503 with an Italian page", c.method, c.path, a.status, a.header.Get("Retry-After"))
		}
	}
}

func doPage(t *testing.T, req *http.Request) pageAnswer {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return pageAnswer{res.StatusCode, res.Header, b.String()}
}
