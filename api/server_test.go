package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/go-cmp/cmp"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/importers/sheetjson"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// TestOpenAPIMatchesRouter: openapi.yaml is the authoritative contract
// (API.md): every route gin serves is in the document and every operation
// of the document is served.
func TestOpenAPIMatchesRouter(t *testing.T) {
	t.Parallel()
	specRouter(t) // loads and validates the document
	s := &server{cfg: Config{}.withDefaults(), log: slog.New(slog.DiscardHandler)}
	param := regexp.MustCompile(`:([A-Za-z]+)`)
	var served []string
	for _, r := range s.routes().Routes() {
		served = append(served, r.Method+" "+param.ReplaceAllString(r.Path, "{$1}"))
	}
	var documented []string
	for path, item := range specDoc.Paths.Map() {
		for method := range item.Operations() {
			documented = append(documented, method+" "+path)
		}
	}
	slices.Sort(served)
	slices.Sort(documented)
	if d := cmp.Diff(documented, served); d != "" {
		t.Errorf("routes (-openapi.yaml +gin):\n%s", d)
	}
}

// TestOpenAPIIsServed: GET /v1/openapi.yaml answers the embedded document.
func TestOpenAPIIsServed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, dbtest.SQLite(t))
	r := e.do(request{method: "GET", path: "/v1/openapi.yaml"})
	wantStatus(t, r, http.StatusOK, "openapi")
	if !bytes.Equal(r.body, OpenAPI()) || !strings.HasPrefix(string(r.body), "openapi: 3.1") {
		t.Errorf("served document differs from the embedded one")
	}
}

// TestProblemFor is the error → status table (STYLE habit 4).
func TestProblemFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		err    error
		status int
		typ    string
		// leak is text of the error that must not reach the client.
		leak string
	}{
		{"handler error as it is", errInvalid("bad", fieldError{Pointer: "/a", Detail: "x"}), 422, typeInvalid, ""},
		{"body over the limit", fmt.Errorf("read: %w", &http.MaxBytesError{Limit: 10}), 413, typeTooLarge, ""},
		{"sheet decoding", &sheetjson.Error{Pointer: "/hands/0/ns/base", Detail: "want a whole number"}, 422, typeInvalid, ""},
		{"not found", fmt.Errorf("store: tournament t_1 in SELECT * FROM x: %w", domain.ErrNotFound), 404, typeNotFound, "SELECT"},
		{"conflict", fmt.Errorf("store: duplicate key value violates unique constraint: %w", domain.ErrConflict), 409, typeConflict, "constraint"},
		{"invalid", fmt.Errorf("store: CHECK constraint failed: %w", domain.ErrInvalid), 422, typeInvalid, "CHECK"},
		{"cancelled", fmt.Errorf("query: %w", context.Canceled), 503, typeRequestTimeout, "query"},
		{"anything else", errors.New("pq: password authentication failed for user segnapunti"), 500, typeInternal, "password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := problemFor(tt.err)
			if p.Status != tt.status || p.Type != tt.typ || p.Title == "" {
				t.Errorf("problem %+v, want status %d type %s", p, tt.status, tt.typ)
			}
			if tt.leak != "" && strings.Contains(string(encodeProblem(p)), tt.leak) {
				t.Errorf("the problem leaks %q: %s", tt.leak, encodeProblem(p))
			}
		})
	}
	if p := problemFor(&sheetjson.Error{Pointer: "/hands/0/ns/base", Detail: "x"}); len(p.Errors) != 1 || p.Errors[0].Pointer != "/hands/0/ns/base" {
		t.Errorf("sheet errors keep their pointer: %+v", p)
	}
}

// TestPanicIsAProblem: a panic in a handler is a 500 problem that says
// nothing of the panic, logged with its stack; the server goes on.
func TestPanicIsAProblem(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	s := &server{cfg: Config{}.withDefaults(), log: slog.New(slog.NewJSONHandler(&logs, nil))}
	gin.SetMode(gin.ReleaseMode)
	r := s.routes()
	r.GET("/boom", func(*gin.Context) { panic("secret internal state 42") })
	srv := httptest.NewServer(r)
	defer srv.Close()
	res, err := http.Get(srv.URL + "/boom")
	if err != nil {
		t.Fatal(err)
	}
	var p problem
	err = json.NewDecoder(res.Body).Decode(&p)
	res.Body.Close()
	if err != nil || res.StatusCode != 500 || p.Status != 500 || res.Header.Get("Content-Type") != problemContentType {
		t.Fatalf("status %d, problem %+v, err %v", res.StatusCode, p, err)
	}
	if strings.Contains(p.Detail, "secret") {
		t.Errorf("the panic leaked: %+v", p)
	}
	if !strings.Contains(logs.String(), "secret internal state 42") || !strings.Contains(logs.String(), "goroutine") {
		t.Errorf("the panic and its stack are not logged")
	}
	res, err = http.Get(srv.URL + "/healthz")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("after a panic: %v %v", res, err)
	}
	res.Body.Close()
}

// TestRequestLog: one structured line per request with method, route,
// status and duration; no token, no query, no body.
func TestRequestLog(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	db := dbtest.SQLite(t)
	clock := time.Date(2026, 11, 21, 15, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(1500 * time.Microsecond); return clock }
	srv := httptest.NewServer(NewServer(Config{Now: now, AuthCacheTTL: -1}, db, slog.New(slog.NewJSONHandler(&logs, nil))))
	defer srv.Close()
	tok, _, err := db.CreateToken(context.Background(), domain.RoleAdmin, "root", "")
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/v1/tournaments/t_secretid/standings?after_round=querysecret", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d log lines, want 1:\n%s", len(lines), logs.String())
	}
	var line map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &line); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"method": "GET", "route": "/v1/tournaments/:tid/standings", "status": 404.0, "role": "admin", "duration": 1.5e6}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("log %s = %v, want %v", k, line[k], v)
		}
	}
	for _, secret := range []string{tok, "querysecret", "t_secretid"} {
		if strings.Contains(lines[0], secret) {
			t.Errorf("the log line holds %q", secret)
		}
	}
}

// TestReadyzWithoutDatabase: /readyz says 503 when the database is gone;
// /healthz still answers.
func TestReadyzWithoutDatabase(t *testing.T) {
	t.Parallel()
	db, err := store.Open(context.Background(), dbtest.SQLitePath(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, db)
	wantStatus(t, e.do(request{method: "GET", path: "/readyz"}), http.StatusOK, "ready")
	db.Close()
	wantProblem(t, e.do(request{method: "GET", path: "/readyz"}), http.StatusServiceUnavailable, "")
	wantStatus(t, e.do(request{method: "GET", path: "/healthz"}), http.StatusOK, "alive")
}

// TestRulesetsAndVP: the catalogue and the VP lookup follow RULES §2, §4,
// §6.1 and §6.2.
func TestRulesetsAndVP(t *testing.T) {
	t.Parallel()
	e := newEnv(t, dbtest.SQLite(t))
	r := e.do(request{method: "GET", path: "/v1/rulesets"})
	wantStatus(t, r, http.StatusOK, "rulesets")
	var cat rulesetsResponse
	if err := json.Unmarshal(r.body, &cat); err != nil {
		t.Fatal(err)
	}
	if len(cat.Rulesets) != 4 || len(cat.VPTables) != 7 {
		t.Fatalf("%d rulesets, %d tables", len(cat.Rulesets), len(cat.VPTables))
	}
	// RULES §2: fitab-2025 has seven types, reale 300 first; fibur-int two.
	if rs := cat.Rulesets[0]; rs.ID != "fitab-2025" || len(rs.BurracoTypes) != 7 || rs.BurracoTypes[0] != (burracoTypeJSON{"reale", 300, 13}) {
		t.Errorf("fitab-2025: %+v", rs)
	}
	if rs := cat.Rulesets[3]; rs.ID != "fibur-int" || len(rs.BurracoTypes) != 2 || rs.VPTableBy != "played_hands" || rs.MinClosing != 300 {
		t.Errorf("fibur-int: %+v", rs)
	}
	// RULES §6.1, FITAB 3 hands: 10-10 is 0-60, 20-0 from 1515 up.
	for _, tb := range cat.VPTables {
		if tb.ID != "fitab-3" {
			continue
		}
		first, last := tb.Bands[0], tb.Bands[10]
		if first.Min != 0 || *first.Max != 60 || first.Winner != 10 || last.Min != 1515 || last.Max != nil || last.Winner != 20 {
			t.Errorf("fitab-3 bands: %+v ... %+v", first, last)
		}
	}

	vp := []struct {
		name   string
		query  string
		table  string
		winner int
	}{
		{"RULES §6.1 fitab-3 365 is 14-6", "table=fitab-3&diff=365", "fitab-3", 14},
		{"sign ignored", "table=fitab-3&diff=-365", "fitab-3", 14},
		{"RULES §6.1 band edge 360 is 13-7", "table=fitab-3&diff=360", "fitab-3", 13},
		{"RULES §6.1 fibur-teams over 2500 is 20-0", "table=fibur-teams&diff=2505", "fibur-teams", 20},
		{"RULES §6.2 fitab-2025 3 planned hands", "ruleset=fitab-2025&hands=3&diff=365", "fitab-3", 14},
		{"RULES §6.2 fibur-int one table up from 2 played", "ruleset=fibur-int&hands=2&diff=365", "fibur-3", 14},
		{"RULES §6.2 fibur-int 4 played stays at fibur-4", "ruleset=fibur-int&hands=4&diff=365", "fibur-4", 12},
		{"RULES §6.2 teams use fibur-teams (355-550 is 12-8)", "ruleset=fitab-2025&hands=3&kind=teams&diff=365", "fibur-teams", 12},
	}
	for _, tt := range vp {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(request{method: "GET", path: "/v1/vp?" + tt.query})
			wantStatus(t, r, http.StatusOK, tt.query)
			var got vpResponse
			if err := json.Unmarshal(r.body, &got); err != nil {
				t.Fatal(err)
			}
			if got.Table != tt.table || got.Winner != tt.winner || got.Loser != 20-tt.winner {
				t.Errorf("got %+v, want %s %d-%d", got, tt.table, tt.winner, 20-tt.winner)
			}
		})
	}
	for _, q := range []string{"", "diff=5", "table=fitab-3", "ruleset=fitab-2025&diff=5", "ruleset=fitab-2025&hands=5&diff=5", "table=fitab-3&diff=5&diff=6"} {
		wantProblem(t, e.do(request{method: "GET", path: "/v1/vp?" + q}), http.StatusBadRequest, "")
	}
}

// TestIfMatch parses the header (RFC 9110 §13.1.1): not an entity tag at
// all is a 400; a well-formed tag that is no version of ours never
// matches (412); a weak tag never matches for If-Match (strong comparison).
func TestIfMatch(t *testing.T) {
	t.Parallel()
	const ok, bad, stale = 0, 1, 2
	for _, tt := range []struct {
		header string
		want   int
		result int
	}{
		{"", 0, ok}, {`"3"`, 3, ok}, {` "12" `, 12, ok}, {"*", -1, ok}, {`"x", "3"`, 3, ok},
		{"3", 0, bad}, {`"3", "4"`, 0, bad}, {`"a`, 0, bad}, {`"a"b"`, 0, bad}, {`"3",`, 0, bad}, {"\"a b\"", 0, bad},
		{`W/"3"`, 0, stale}, {`"03"`, 0, stale}, {`"stale-0"`, 0, stale},
		{`"0"`, 0, stale}, {`"-1"`, 0, stale}, {`""`, 0, stale}, {`"1e3"`, 0, stale},
	} {
		c, _ := gin.CreateTestContext(httptest.NewRecorder())
		c.Request = httptest.NewRequest("PUT", "/", nil)
		c.Request.Header.Set("If-Match", tt.header)
		got, err := ifMatch(c)
		status := problemFor(err).Status
		switch {
		case tt.result == ok && (err != nil || got != tt.want):
			t.Errorf("If-Match %q: %d, %v; want %d", tt.header, got, err, tt.want)
		case tt.result == bad && status != http.StatusBadRequest:
			t.Errorf("If-Match %q: %v (%d); want 400", tt.header, err, status)
		case tt.result == stale && status != http.StatusPreconditionFailed:
			t.Errorf("If-Match %q: %v (%d); want 412", tt.header, err, status)
		}
	}
}

// TestPrincipalCache: a found token is trusted for the TTL without the
// database; unknown tokens are never remembered; after the TTL the
// database is asked again.
func TestPrincipalCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, dbtest.SQLitePath(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, want, err := db.CreateToken(ctx, domain.RoleReferee, "Arbitro", "")
	if err != nil {
		t.Fatal(err)
	}
	const ttl = 300 * time.Millisecond
	pc := newPrincipalCache(ttl)
	ops := app.New(db, nil, nil)
	if p, err := pc.authenticate(ctx, ops, tok); err != nil || p != want {
		t.Fatalf("first lookup: %+v, %v", p, err)
	}
	if _, err := pc.authenticate(ctx, ops, "sp_unknown"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("unknown token: %v", err)
	}
	db.Close() // from now on only the cache can answer
	if p, err := pc.authenticate(ctx, ops, tok); err != nil || p != want {
		t.Errorf("within the TTL: %+v, %v", p, err)
	}
	if _, err := pc.authenticate(ctx, ops, "sp_unknown"); err == nil || errors.Is(err, domain.ErrNotFound) {
		t.Errorf("an unknown token must not be cached: %v", err)
	}
	time.Sleep(ttl + 100*time.Millisecond) // the expirable LRU reads the real clock
	if _, err := pc.authenticate(ctx, ops, tok); err == nil {
		t.Errorf("after the TTL the database must be asked")
	}
}

// TestRequestLogLevels: a read or a validate that succeeds is logged at
// DEBUG, off under serve's INFO logger (issue 26); a write and any answer
// of 400 or more at INFO; 503 at WARN; other 5xx at ERROR.
func TestRequestLogLevels(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		method, route string
		status        int
		want          slog.Level
	}{
		{"GET", "/v1/tournaments/:tid/standings", 200, slog.LevelDebug},
		{"HEAD", "/healthz", 200, slog.LevelDebug},
		{"GET", "/v1/tournaments/:tid/export.xlsx", 304, slog.LevelDebug},
		{"POST", "/v1/validate", 200, slog.LevelDebug},
		{"POST", "/v1/validate", 400, slog.LevelInfo},
		{"POST", "/v1/validate", 422, slog.LevelInfo},
		{"GET", "/v1/tournaments/:tid/standings", 404, slog.LevelInfo},
		{"GET", "", 404, slog.LevelInfo},
		{"PUT", "/v1/tournaments/:tid/rounds/:n/tables/:t/sheet", 200, slog.LevelInfo},
		{"POST", "/v1/clubs", 201, slog.LevelInfo},
		{"DELETE", "/v1/tournaments/:tid/imports/:id", 204, slog.LevelInfo},
		{"GET", "/v1/tournaments", 503, slog.LevelWarn},
		{"POST", "/v1/validate", 500, slog.LevelError},
	} {
		if got := requestLevel(c.method, c.route, c.status); got != c.want {
			t.Errorf("%s %s %d: level %v, want %v", c.method, c.route, c.status, got, c.want)
		}
	}

	sheet, err := os.ReadFile("../examples/clean.json")
	if err != nil {
		t.Fatal(err)
	}
	db := dbtest.SQLite(t)
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var logs syncBuffer
		srv := httptest.NewServer(NewServer(Config{}, db, slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: level}))))
		for _, body := range []string{string(sheet), "{"} {
			res, err := http.Post(srv.URL+"/v1/validate", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
		}
		srv.Close()
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
			var l map[string]any
			if err := json.Unmarshal([]byte(line), &l); err != nil {
				t.Fatalf("log line %q: %v", line, err)
			}
			got = append(got, fmt.Sprintf("%v %v %v", l["level"], l["route"], l["status"]))
		}
		want := []string{"INFO /v1/validate 400"}
		if level == slog.LevelDebug {
			want = []string{"DEBUG /v1/validate 200", "INFO /v1/validate 400"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("logger at %v: lines %q, want %q", level, got, want)
		}
	}
}
