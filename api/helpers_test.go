package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// env is a running service on loopback over one fresh database.
type env struct {
	t    *testing.T
	db   *store.DB
	srv  *httptest.Server
	logs *bytes.Buffer
	// checkSpec validates every answer against openapi.yaml.
	checkSpec bool
}

// syncBuffer lets the server's goroutines log while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.Buffer.Write(p)
}

func newEnv(t *testing.T, db *store.DB) *env {
	t.Helper()
	logs := &syncBuffer{}
	log := slog.New(slog.NewJSONHandler(logs, nil))
	srv := httptest.NewServer(NewServer(Config{}, db, log))
	t.Cleanup(srv.Close)
	return &env{t: t, db: db, srv: srv, logs: &logs.Buffer, checkSpec: true}
}

// adminToken makes the first admin token directly in the store, as
// `segnapunti token create --role admin` does.
func (e *env) adminToken() string {
	e.t.Helper()
	tok, _, err := e.db.CreateToken(context.Background(), domain.RoleAdmin, "root", "")
	if err != nil {
		e.t.Fatalf("create admin token: %v", err)
	}
	return tok
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("answer %d is not a JSON object: %v\n%s", r.status, err, r.body)
	}
	return m
}

// request is one HTTP call of a test.
type request struct {
	method, path, token string
	body                any // string and []byte are sent as they are, anything else as JSON
	header              map[string]string
}

func (e *env) do(rq request) response {
	e.t.Helper()
	var body io.Reader
	var raw []byte
	switch b := rq.body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	case io.Reader:
		body = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			e.t.Fatalf("encode request: %v", err)
		}
	}
	if raw != nil {
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(rq.method, e.srv.URL+rq.path, body)
	if err != nil {
		e.t.Fatalf("request %s %s: %v", rq.method, rq.path, err)
	}
	if rq.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if rq.token != "" {
		req.Header.Set("Authorization", "Bearer "+rq.token)
	}
	for k, v := range rq.header {
		req.Header.Set(k, v)
	}
	res, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", rq.method, rq.path, err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatalf("read answer of %s %s: %v", rq.method, rq.path, err)
	}
	r := response{status: res.StatusCode, header: res.Header, body: out}
	e.checkAnswer(rq, req, raw, r)
	return r
}

// checkAnswer holds every answer to the contract: errors are problem+json
// with the status repeated in the body, and (when the route is in the
// document) the answer's status, headers and body agree with openapi.yaml.
func (e *env) checkAnswer(rq request, req *http.Request, raw []byte, r response) {
	e.t.Helper()
	if r.status >= 400 {
		if ct := r.header.Get("Content-Type"); ct != problemContentType {
			e.t.Errorf("%s %s: %d with Content-Type %q, want %s\n%s", rq.method, rq.path, r.status, ct, problemContentType, r.body)
		}
		var p problem
		if err := json.Unmarshal(r.body, &p); err != nil || p.Status != r.status || p.Type == "" || p.Title == "" {
			e.t.Errorf("%s %s: %d body is not a problem with that status: %s", rq.method, rq.path, r.status, r.body)
		}
		if r.status == http.StatusUnauthorized && !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
			e.t.Errorf("%s %s: 401 without a Bearer challenge", rq.method, rq.path)
		}
	}
	// A 503 with Retry-After is a deliberate answer (readyz, a busy import gate).
	if r.status >= 500 && !(r.status == http.StatusServiceUnavailable && (rq.path == "/readyz" || r.header.Get("Retry-After") != "")) {
		e.t.Errorf("%s %s: server error %d: %s", rq.method, rq.path, r.status, r.body)
	}
	if !e.checkSpec {
		return
	}
	if r.status == http.StatusNotFound && strings.Contains(string(r.body), `"no route `) {
		return // unmatched by the router; the document's router forgives a trailing slash
	}
	router := specRouter(e.t)
	// The router matches on the path only; the request it sees must carry
	// the body it was sent with for the (request) validation input.
	vreq := req.Clone(context.Background())
	vreq.Body = io.NopCloser(bytes.NewReader(raw))
	route, params, err := router.FindRoute(vreq)
	if err != nil {
		// An encoded "/" in a segment (%2F) is one segment to the service
		// but two to the document's router, which reads the decoded path.
		if r.status != http.StatusNotFound && r.status != http.StatusMethodNotAllowed && !strings.Contains(req.URL.RawPath, "%2F") {
			e.t.Errorf("%s %s answered %d but is not in openapi.yaml: %v", rq.method, rq.path, r.status, err)
		}
		return
	}
	in := &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}}
	// A request the service accepted must be one the document allows: the
	// request schemas may not be stricter than the service.
	if r.status < 300 && (rq.body == nil || raw != nil) {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			msg := err.Error()
			if len(msg) > 2000 {
				msg = msg[:2000] + "..."
			}
			e.t.Errorf("%s %s: accepted (%d) but the document refuses the request: %s", rq.method, rq.path, r.status, msg)
		}
		vreq.Body = io.NopCloser(bytes.NewReader(raw))
	}
	err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 r.status,
		Header:                 r.header,
		Body:                   io.NopCloser(bytes.NewReader(r.body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	})
	if err != nil {
		msg := err.Error()
		if len(msg) > 2000 {
			msg = msg[:2000] + "..."
		}
		e.t.Errorf("%s %s: answer %d does not follow openapi.yaml: %s\nbody: %.500s", rq.method, rq.path, r.status, msg, r.body)
	}
}

var (
	specOnce   sync.Once
	specRt     routers.Router
	specDoc    *openapi3.T
	specLoadEr error
)

// specRouter loads openapi.yaml once for all tests.
func specRouter(t testing.TB) routers.Router {
	t.Helper()
	specOnce.Do(func() {
		loader := openapi3.NewLoader()
		specDoc, specLoadEr = loader.LoadFromData(openAPIDocument)
		if specLoadEr != nil {
			return
		}
		if specLoadEr = specDoc.Validate(context.Background()); specLoadEr != nil {
			return
		}
		// The document's server is relative ("/"); the router must match
		// the test server's absolute URLs by path alone.
		specDoc.Servers = nil
		specRt, specLoadEr = legacy.NewRouter(specDoc)
	})
	if specLoadEr != nil {
		t.Fatalf("openapi.yaml: %v", specLoadEr)
	}
	return specRt
}

// wantStatus fails the test when the answer is not the expected status.
func wantStatus(t *testing.T, r response, status int, what string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("%s: status %d, want %d\n%s", what, r.status, status, r.body)
	}
}

// wantProblem checks the status and, if pointer is not empty, that the
// problem names that JSON pointer (or parameter/header).
func wantProblem(t *testing.T, r response, status int, pointer string) problem {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d\n%s", r.status, status, r.body)
	}
	var p problem
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatalf("not a problem: %v\n%s", err, r.body)
	}
	if pointer == "" {
		return p
	}
	for _, fe := range p.Errors {
		if fe.Pointer == pointer || fe.Parameter == pointer || fe.Header == pointer {
			return p
		}
	}
	t.Fatalf("problem does not name %q: %s", pointer, r.body)
	return p
}

func jsonPath(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("at %v: not an object", p)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("at %v: not an array long enough", p)
			}
			v = a[k]
		}
	}
	return v
}
