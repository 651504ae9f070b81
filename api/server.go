// Package api is the REST service of API.md §4: gin routes, request and
// response types, problem+json errors, token authentication and the role
// rules, and the OpenAPI document (openapi.yaml, embedded and served).
package api

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/events"
	"segnapunti/importers/xlsx"
	"segnapunti/messages"
)

// Config holds what the service needs besides the database and the logger.
// The zero value is usable: every zero field takes its default.
type Config struct {
	// MaxBodyBytes bounds a JSON request body (default 1 MiB); a larger body
	// is a 413 and is not read.
	MaxBodyBytes int64
	// MaxValidateBytes bounds the body of POST /v1/validate, which may carry
	// a batch of sheets (default 8 MiB).
	MaxValidateBytes int64
	// MaxBatchSheets bounds the sheets of one batch (default 1000).
	MaxBatchSheets int
	// MaxImportBytes bounds an uploaded workbook (default 10 MiB); a larger
	// upload is a 413 and is not read.
	MaxImportBytes int64
	// Now is the clock (default time.Now).
	Now func() time.Time
	// AuthCacheTTL is how long a token, once found, is trusted without
	// asking the database again (default 10 s; negative: never cached).
	AuthCacheTTL time.Duration
	// ImportGate bounds the workbooks read at once (POST .../imports); a
	// caller finding it full is answered 503 with its Retry-After. nil: a
	// gate of DefaultImportSlots waiting at most DefaultImportWait.
	ImportGate *xlsx.Gate
	// App is the layer of operations shared with the pages (one instance per
	// process, so that its caches and live-update bus are shared); nil makes
	// one over db.
	App *app.App
}

const (
	defaultMaxBodyBytes     = 1 << 20
	defaultMaxValidateBytes = 8 << 20
	defaultMaxBatchSheets   = 1000
	defaultAuthCacheTTL     = 10 * time.Second
	// DefaultImportSlots workbooks are read at once (each may hold up to
	// xlsx.UploadMemoryBudget); another upload waits DefaultImportWait for
	// a slot, then is answered 503.
	DefaultImportSlots = 2
	DefaultImportWait  = 2 * time.Second
)

func (c Config) withDefaults() Config {
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = defaultMaxBodyBytes
	}
	if c.MaxValidateBytes <= 0 {
		c.MaxValidateBytes = defaultMaxValidateBytes
	}
	if c.MaxBatchSheets <= 0 {
		c.MaxBatchSheets = defaultMaxBatchSheets
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.AuthCacheTTL == 0 {
		c.AuthCacheTTL = defaultAuthCacheTTL
	}
	if c.ImportGate == nil {
		c.ImportGate = xlsx.NewGate(DefaultImportSlots, DefaultImportWait)
	}
	return c
}

// server holds the dependencies of the handlers.
type server struct {
	cfg        Config
	app        *app.App
	log        *slog.Logger
	principals *principalCache
	// standingsJSON: the encoded standings per tournament state (standings.go).
	standingsJSON standingsBytes
}

// NewServer returns the REST service of API.md §4 over db. It sets gin to
// release mode (gin's mode is process-wide) so that gin itself prints
// nothing: the service logs one structured line per request through log.
func NewServer(cfg Config, db *app.DB, log *slog.Logger) http.Handler {
	cfg = cfg.withDefaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ops := cfg.App
	if ops == nil {
		ops = app.New(db, cfg.Now, log)
	}
	s := &server{cfg: cfg, app: ops, log: log, principals: newPrincipalCache(cfg.AuthCacheTTL)}
	// A revoked token is forgotten at once: this process's revocations
	// inside Publish, the other replicas' when their notification arrives
	// (while the bus listens: serve keeps it listening, Bus.Hold); when
	// events may have been missed (Resync of everything), every cached
	// principal goes.
	ops.Events().OnEvent(func(e events.Event) {
		switch {
		case e.Kind == events.TokenRevoked:
			s.principals.forget(e.Token)
		case e.Kind == events.Resync && e.Tournament == "":
			s.principals.purge()
		}
	})
	return s.routes()
}

// routes builds the router. Keep it in step with openapi.yaml: a test fails
// when either has a route the other lacks.
func (s *server) routes() *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	// No redirects: an API client wants a clear 404, not a 301 to follow.
	r.RedirectTrailingSlash = false
	r.RedirectFixedPath = false
	r.HandleMethodNotAllowed = true
	// Path values are taken from the escaped path and unescaped once, so a
	// referee name with an encoded "/" stays one segment.
	r.UseRawPath = true
	r.UnescapePathValues = true
	r.Use(s.negotiateLang, s.logRequests, s.recoverPanics, s.checkRequest)
	r.NoRoute(func(c *gin.Context) {
		s.fail(c, errNotFound(messages.New("api.no_route", c.Request.Method, c.Request.URL.Path)))
	})
	r.NoMethod(s.noMethod)

	r.GET("/healthz", s.healthz)
	r.GET("/readyz", s.readyz)

	v1 := r.Group("/v1")
	// Open routes (API §4: no token).
	v1.GET("/openapi.yaml", s.openAPI)
	v1.GET("/rulesets", s.listRulesets)
	v1.GET("/vp", s.lookupVP)
	v1.POST("/validate", s.validate)
	v1.POST("/rulings", s.ruling)
	v1.GET("/schemas/tournament-export.json", s.tournamentExportSchema)
	v1.GET("/schemas/tournament.json", s.tournamentFileSchema) // api/tournament_file.go
	v1.POST("/verify", s.verifyTournamentFile)
	v1.GET("/templates/scoresheet.xlsx", s.scoresheetTemplate)
	// Public reads (API §4.2, api/public.go): no token.
	v1.GET("/public/tournaments/:tid", s.getPublicTournament)
	v1.GET("/public/tournaments/:tid/standings", s.getPublicStandings)
	v1.GET("/public/tournaments/:tid/rounds/:n", s.getPublicRound)
	v1.GET("/public/tournaments/:tid/events", s.getPublicEvents)

	auth := v1.Group("", s.authenticate)
	auth.POST("/clubs", s.createClub)
	auth.GET("/clubs", s.listClubs)
	auth.GET("/clubs/:cid", s.getClub)
	auth.POST("/tokens", s.createToken)
	auth.GET("/tokens", s.listTokens)
	auth.DELETE("/tokens/:id", s.revokeToken)

	auth.POST("/tournaments", s.createTournament)
	auth.GET("/tournaments", s.listTournaments)
	auth.POST("/tournaments/import", s.importTournamentFile)
	t := auth.Group("/tournaments/:tid")
	t.GET("", s.getTournament)
	t.PATCH("", s.patchTournament)
	t.DELETE("", s.deleteTournament)
	t.PUT("/referees/:name", s.assignReferee)
	t.POST("/entrants", s.addEntrants)
	t.GET("/entrants", s.listEntrants)
	t.PATCH("/entrants/:id", s.patchEntrant)                    // api/fixes.go
	t.DELETE("/entrants/:id", s.withdrawEntrant)                // api/fixes.go
	t.POST("/entrants/:id/substitutions", s.createSubstitution) // api/substitutions.go
	t.GET("/prizes", s.getPrizes)                               // api/prizes.go
	t.PUT("/prizes", s.putPrizes)                               // api/prizes.go
	t.POST("/rounds", s.createRound)
	t.GET("/rounds", s.listRounds)
	t.GET("/rounds/:n", s.getRound)
	t.PATCH("/rounds/:n", s.setRoundState)
	t.PUT("/rounds/:n", s.putRound)             // api/fixes.go
	t.POST("/rounds/generate", s.generateRound) // api/pairings.go
	t.GET("/rounds/:n/check", s.checkRound)
	t.PUT("/rounds/:n/tables/:t/sheet", s.sheetScope(app.SheetReplace), s.putSheet)
	t.GET("/rounds/:n/tables/:t/sheet", s.getSheet)
	t.POST("/rounds/:n/tables/:t/sheet/hands", s.sheetScope(app.SheetWrite), s.appendHand)
	t.POST("/rounds/:n/tables/:t/entry-link", s.issueEntryLink)
	t.PUT("/rounds/:n/tables/:t/lineup", s.putLineup) // api/lineups.go
	t.POST("/rounds/:n/tables/:t/sheet/confirm", s.confirmSheet)
	t.PUT("/rounds/:n/tables/:t/sheet/hands/:h", s.sheetScope(app.SheetWrite), s.editHand)      // api/table_fix.go
	t.DELETE("/rounds/:n/tables/:t/sheet/hands/:h", s.sheetScope(app.SheetWrite), s.removeHand) // api/table_fix.go
	t.POST("/imports", s.tournamentScope(app.TournamentImport), s.createImport)
	t.GET("/imports", s.listImports)       // api/imports_undo.go
	t.DELETE("/imports/:id", s.undoImport) // api/imports_undo.go
	auth.GET("/imports/:id", s.getImport)
	t.POST("/corrections", s.tournamentScope(app.TournamentCorrect), s.createCorrection)
	t.GET("/corrections", s.listCorrections)
	t.GET("/corrections/:cid", s.getCorrection)
	t.POST("/adjustments", s.createAdjustment)
	t.GET("/adjustments", s.listAdjustments)
	t.GET("/adjustments/:aid", s.getAdjustment)
	t.GET("/standings", s.tournamentScope(app.TournamentRead), s.getStandings)
	// Exports (API §6).
	t.GET("/export.xlsx", s.exportTournament)
	t.GET("/export.json", s.exportTournamentJSON)
	t.GET("/tournament.json", s.exportTournamentFile)
	auth.GET("/seasons/:season/export.xlsx", s.exportSeason)
	auth.GET("/seasons/:season/screening", s.seasonScreening) // api/tournament_file.go
	return r
}

// logRequests writes one structured line per request: method, route
// pattern, status, duration, response size, role. Never the token, the
// query or the body (STYLE habit 11). A read or a validate that succeeds
// is logged at DEBUG (off by default: issue 26, the hot path neither
// formats nor writes a line); every write (PUT, POST, DELETE but validate) and every
// answer of 400 or more at INFO, 503 at WARN, other 5xx at ERROR. The
// level is decided first: a line nobody keeps costs no formatting.
func (s *server) logRequests(c *gin.Context) {
	start := s.cfg.Now()
	c.Next()
	status := c.Writer.Status()
	level := requestLevel(c.Request.Method, c.FullPath(), status)
	if !s.log.Enabled(c.Request.Context(), level) {
		return
	}
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	// A fixed array on the stack: no slice growth per request.
	var buf [7]slog.Attr
	attrs := append(buf[:0],
		slog.String("method", c.Request.Method),
		slog.String("route", route),
		slog.Int("status", status),
		slog.Duration("duration", s.cfg.Now().Sub(start)),
		slog.Int("bytes", max(c.Writer.Size(), 0)),
	)
	if p, ok := principalOf(c); ok {
		attrs = append(attrs, slog.String("role", string(p.Role)))
	}
	if v, ok := c.Get(ctxFailure); ok {
		attrs = append(attrs, slog.String("error", fmt.Sprint(v)))
	}
	s.log.LogAttrs(c.Request.Context(), level, "request", attrs...)
}

// requestLevel is the level of a request's log line (logRequests).
func requestLevel(method, route string, status int) slog.Level {
	switch {
	case status == http.StatusServiceUnavailable:
		// The database is down or the client gave up: one warning per
		// request, not an error each (the cause is outside the service).
		return slog.LevelWarn
	case status >= 500:
		return slog.LevelError
	case status >= 400:
		return slog.LevelInfo
	}
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return slog.LevelDebug
	}
	if method == http.MethodPost && route == "/v1/validate" {
		return slog.LevelDebug // stores nothing: a read
	}
	return slog.LevelInfo
}

// recoverPanics turns a panic into a 500 problem that says nothing about
// the internals; the panic and its stack go to the log.
func (s *server) recoverPanics(c *gin.Context) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		if v == http.ErrAbortHandler { //nolint:errorlint // sentinel compared as net/http does
			panic(v)
		}
		s.log.Error("panic", "route", c.FullPath(), "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		c.Set(ctxFailure, "panic")
		if !c.Writer.Written() {
			writeProblem(c, problemFor(errors.New("panic")))
		}
		c.Abort()
	}()
	c.Next()
}

// retryAfterSeconds is how long a client waits before retrying when the
// database is unavailable.
const retryAfterSeconds = "5"

// ctxFailure is the gin context key under which fail leaves the cause of a
// 5xx for the request log line.
const ctxFailure = "segnapunti.failure"

// fail answers with the problem for err and stops the handler chain.
func (s *server) fail(c *gin.Context, err error) {
	p := problemFor(err)
	if p.Status >= 500 {
		c.Set(ctxFailure, err.Error())
	}
	if p.Type == typeStorageFull {
		s.app.NoteWriteFailure(err) // /readyz says not ready until writes work again
	}
	if (p.Type == typeUnavailable || p.Type == typeStorageFull) && c.Writer.Header().Get("Retry-After") == "" {
		c.Header("Retry-After", retryAfterSeconds)
	}
	writeProblem(c, p)
	c.Abort()
}

func writeProblem(c *gin.Context, p problem) {
	if p.Status == http.StatusUnauthorized && c.Writer.Header().Get("WWW-Authenticate") == "" {
		c.Header("WWW-Authenticate", `Bearer realm="segnapunti"`)
	}
	c.Data(p.Status, problemContentType, encodeProblem(localize(p, langOf(c))))
}

// writeJSON answers with an already encoded JSON document.
func writeJSON(c *gin.Context, status int, body []byte) {
	if status < http.StatusOK || status == http.StatusNoContent || status == http.StatusNotModified {
		c.Data(status, "application/json", body) // no body: gin's rules
		return
	}
	// gin's Data makes a new []string for the header on every answer; the
	// shared one is never written through (Header.Set replaces a value,
	// Add appends past its length into a new array).
	if h := c.Writer.Header(); len(h["Content-Type"]) == 0 {
		h["Content-Type"] = jsonContentType
	}
	c.Status(status)
	_, _ = c.Writer.Write(body) // a client gone away is no error of ours
}

var jsonContentType = []string{"application/json"}

// readBody reads a JSON request body of at most limit bytes. A declared
// length over the limit is refused before anything is read.
func readBody(c *gin.Context, limit int64) ([]byte, error) {
	if err := checkJSONContentType(c.Request); err != nil {
		return nil, err
	}
	if c.Request.ContentLength > limit {
		return nil, &http.MaxBytesError{Limit: limit}
	}
	body := http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	data, err := readAllSized(body, c.Request.ContentLength)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, err
		}
		return nil, errMalformed(messages.New("api.body_unreadable"))
	}
	return data, nil
}

// readAllSized is io.ReadAll with the buffer made once at the declared
// length (and one byte more, to see the end without growing it): io.ReadAll
// starts at 512 bytes and grows three times for a 2 KB sheet. The length
// is only a hint: net/http stops the body at it, and a body with none
// grows as in io.ReadAll.
func readAllSized(r io.Reader, declared int64) ([]byte, error) {
	if declared <= 0 {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, declared+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // more than declared: grow
		}
	}
}

// checkJSONContentType accepts a missing Content-Type (curl -d sends a form
// type, but many clients send none) and any JSON media type; anything else
// is a 415.
func checkJSONContentType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" || ct == "application/json" { // the common case: nothing to parse
		return nil
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json")) {
		// JSON is UTF-8 (RFC 8259 §8.1): a body declared in another
		// charset would be read wrongly, so it is refused.
		if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
			return &apiError{status: http.StatusUnsupportedMediaType, typ: typeMediaType,
				msg:    messages.New("api.charset", cs),
				errors: []fieldError{fieldMsg(fieldError{Header: "Content-Type"}, messages.New("api.want_charset"))}}
		}
		return nil
	}
	return &apiError{status: http.StatusUnsupportedMediaType, typ: typeMediaType,
		msg:    messages.New("api.media_json", ct),
		errors: []fieldError{fieldMsg(fieldError{Header: "Content-Type"}, messages.New("api.want_json"))}}
}

func (s *server) healthz(c *gin.Context) {
	writeJSON(c, http.StatusOK, []byte(`{"status":"ok"}`))
}

func (s *server) readyz(c *gin.Context) {
	if err := s.app.Ready(c.Request.Context()); err != nil {
		detail := messages.New("api.db_silent")
		if errors.Is(err, app.ErrStorageFull) {
			detail = messages.New("api.db_full")
		}
		s.fail(c, &apiError{status: http.StatusServiceUnavailable, typ: typeUnavailable, msg: detail, cause: err})
		return
	}
	writeJSON(c, http.StatusOK, []byte(`{"status":"ok"}`))
}
