package api

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// TestDatabaseUnavailable: the database goes away under a running server
// (its database is dropped, every connection terminated). Clients get a
// 503 with Retry-After — not a 500 — and the log says WARN, not ERROR.
func TestDatabaseUnavailable(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dsn := dbtest.PostgresURL(t)
	db, err := store.Open(ctx, dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := newEnv(t, db)
	e.checkSpec = false
	tok := e.adminToken()
	wantStatus(t, e.do(request{method: "GET", path: "/v1/tournaments", token: tok}), http.StatusOK, "before")

	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
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
	e.logs.Reset()

	for _, rq := range []request{
		{method: "GET", path: "/v1/tournaments", token: tok},                                        // the token was cached: the query fails
		{method: "POST", path: "/v1/clubs", token: tok, body: map[string]any{"name": "Circolo"}},    // a write
		{method: "GET", path: "/v1/tournaments", token: "sp_not_cached_" + strings.Repeat("x", 30)}, // authentication itself fails
	} {
		// Straight to the server: the test client counts any 5xx as a
		// failure of the service, and this one is the point.
		var body io.Reader
		if rq.body != nil {
			b, _ := json.Marshal(rq.body)
			body = bytes.NewReader(b)
		}
		req, _ := http.NewRequest(rq.method, e.srv.URL+rq.path, body)
		req.Header.Set("Authorization", "Bearer "+rq.token)
		res, err := e.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var p problem
		err = json.NewDecoder(res.Body).Decode(&p)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusServiceUnavailable || p.Type != typeUnavailable || !strings.Contains(p.Detail, "nothing was written") {
			t.Errorf("%s %s: %d %+v (%v)", rq.method, rq.path, res.StatusCode, p, err)
		}
		if res.Header.Get("Retry-After") == "" {
			t.Errorf("%s %s: no Retry-After", rq.method, rq.path)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(e.logs.String()), "\n") {
		var l map[string]any
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if l["level"] != "WARN" {
			t.Errorf("log level %v, want WARN: %s", l["level"], line)
		}
	}
}

// TestUnavailableClassification: connection failures are ErrUnavailable,
// a point at a closed port too; a rule's error is not.
func TestUnavailableClassification(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	raw, err := sql.Open("pgx", "postgres://postgres@127.0.0.1:1/none?sslmode=disable&connect_timeout=2")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	err = raw.PingContext(ctx)
	if err == nil {
		t.Skip("something listens on port 1")
	}
	if p := problemFor(err); p.Status != http.StatusServiceUnavailable || p.Type != typeUnavailable {
		t.Errorf("closed port (%v): %+v", err, p)
	}
	if p := problemFor(sql.ErrNoRows); p.Status != http.StatusInternalServerError {
		t.Errorf("not a connection error: %+v", p)
	}
}

// TestProtocolRules: the rules of HTTP checked on every route.
func TestProtocolRules(t *testing.T) {
	t.Parallel()
	w := newWorld(t, backend{db: dbtest.Postgres(t)})
	T := "/v1/tournaments/" + w.tid
	w.checkSpec = false
	t.Run("RFC 8259 §8.1: a charset other than UTF-8 is 415", func(t *testing.T) {
		for _, ct := range []string{"application/json; charset=latin1", "application/json; charset=ISO-8859-1", "application/json;charset=utf-16"} {
			r := w.do(request{method: "POST", path: "/v1/tournaments", token: w.club1, body: tournamentBody("Latin", "club"), header: map[string]string{"Content-Type": ct}})
			wantProblem(t, r, http.StatusUnsupportedMediaType, "Content-Type")
		}
		for _, ct := range []string{"application/json; charset=utf-8", "application/json; charset=UTF-8"} {
			r := w.do(request{method: "POST", path: "/v1/tournaments", token: w.club1, body: tournamentBody("Utf", "club"), header: map[string]string{"Content-Type": ct}})
			wantStatus(t, r, http.StatusCreated, ct)
		}
	})
	t.Run("path values must be UTF-8", func(t *testing.T) {
		r := w.do(request{method: "PUT", path: T + "/referees/%ff%fe", token: w.club1})
		wantProblem(t, r, http.StatusBadRequest, "name")
		r = w.do(request{method: "GET", path: "/v1/tournaments/%ff", token: w.club1})
		wantProblem(t, r, http.StatusBadRequest, "tid")
	})
	t.Run("a query parameter the route does not know is 400 on every route", func(t *testing.T) {
		for _, rq := range []request{
			{method: "POST", path: "/v1/rulings?foo=bar", body: map[string]any{}},
			{method: "GET", path: "/v1/rulesets?foo=bar"},
			{method: "GET", path: T + "?foo=bar", token: w.club1},
			{method: "GET", path: T + "/standings?after_round=1&foo=bar", token: w.club1},
			{method: "PUT", path: T + "/referees/X?foo=bar", token: w.club1},
		} {
			wantProblem(t, w.do(rq), http.StatusBadRequest, "foo")
		}
		// Known ones pass.
		wantStatus(t, w.do(request{method: "GET", path: T + "/standings?after_round=1", token: w.club1}), http.StatusOK, "known parameter")
	})
	t.Run("RFC 9110 §9.3.7: OPTIONS is 204 with Allow", func(t *testing.T) {
		for path, want := range map[string][]string{
			"/v1/tournaments":              {"GET", "POST", "OPTIONS"},
			T + "/rounds/1":                {"GET", "PATCH", "OPTIONS"},
			T + "/rounds/1/tables/1/sheet": {"GET", "PUT", "OPTIONS"},
			"/v1/rulings":                  {"POST", "OPTIONS"},
		} {
			r := w.do(request{method: "OPTIONS", path: path})
			wantStatus(t, r, http.StatusNoContent, "OPTIONS "+path)
			allow := r.header.Get("Allow")
			for _, m := range want {
				if !strings.Contains(allow, m) {
					t.Errorf("OPTIONS %s: Allow %q lacks %s", path, allow, m)
				}
			}
		}
	})
}
