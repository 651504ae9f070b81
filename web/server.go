// Package web serves the pages people use in a browser (UI.md): server-
// rendered html/template pages, templates and static files embedded, beside
// the JSON API in the same binary.
//
// Layout follows miniflux internal/ui: one small file per page action
// (login_show.go shows the form, login_check.go takes it), form parsing in
// web/form, route groups in routes_*.go, messages in package messages (page_*.go). A page
// handler parses its input, calls one operation with the caller's identity,
// and renders a template data struct; templates call no database and
// compute no rule (STYLE §13, §14).
package web

import (
	"context"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/klauspost/compress/gzhttp"

	"segnapunti/app"
	"segnapunti/httperr"
)

// Deps is what the pages need from the rest of the service.
type Deps struct {
	// Store is the database; the pages reach it only through App.
	Store *app.DB
	// App is the layer of operations under both the pages and the API
	// (tournaments, sheets, standings...); nil makes one over Store. Pass the
	// same App to api.Config so that both doors share its caches and bus.
	App *app.App
	// Log gets one line per failed request; nil discards.
	Log *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// SessionTTL is how long a sign-in lasts; 0 means DefaultSessionTTL.
	SessionTTL time.Duration
	// TrustForwardedProto makes "X-Forwarded-Proto: https" count as TLS for
	// the session cookie's Secure flag (set it only behind a proxy that
	// sets the header).
	TrustForwardedProto bool
	// PublicURL is the address players' phones open, fixed by the
	// environment (SEGNAPUNTI_PUBLIC_URL, normalized): QR codes, printed
	// sheets and links carry it. Empty: the address stored on /admin, else
	// LANURL, else the address the request came to.
	PublicURL string
	// LANURL is the machine's LAN address that serve found, used when no
	// public address is set.
	LANURL string
}

// DefaultSessionTTL is how long a sign-in lasts: a tournament day.
const DefaultSessionTTL = 12 * time.Hour

// Server holds the pages' dependencies and parsed templates.
type Server struct {
	app       *app.App
	log       *slog.Logger
	now       func() time.Time
	ttl       time.Duration
	forwarded bool
	publicURL string // Deps.PublicURL
	lanURL    string // Deps.LANURL
	// storedURL caches the public address stored on /admin (public pages
	// read it on every view; public_url.go).
	storedURL cachedSetting
	// qr keeps the QR codes drawn (print pages, table cards, public pages).
	qr qrCodes
	// fragments keeps parts of pages rendered once per version of what
	// they show (entrants_show.go).
	fragments kept[template.HTML]
	templates map[Lang]map[string]*template.Template
	static    *staticFiles
}

// New builds the pages' handler: every page, static file and form behind
// gzip and cross-origin protection for the forms.
func New(deps Deps) (http.Handler, error) {
	s, err := newServer(deps)
	if err != nil {
		return nil, err
	}
	return s.Handler(), nil
}

func newServer(deps Deps) (*Server, error) {
	if deps.Store == nil && deps.App == nil {
		return nil, errors.New("web: Deps.Store or Deps.App is required")
	}
	s := &Server{log: deps.Log, now: deps.Now, ttl: deps.SessionTTL, forwarded: deps.TrustForwardedProto, publicURL: deps.PublicURL, lanURL: deps.LANURL}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.ttl <= 0 {
		s.ttl = DefaultSessionTTL
	}
	var err error
	if s.static, err = newStaticFiles(); err != nil {
		return nil, err
	}
	if s.templates, err = s.parseTemplates(); err != nil {
		return nil, err
	}
	s.app = deps.App
	if s.app == nil {
		s.app = app.New(deps.Store, s.now, s.log)
	}
	return s, nil
}

// Handler is the pages' handler (what New returns).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.routes(mux)
	// Go's cross-origin protection refuses a state-changing request whose
	// Sec-Fetch-Site or Origin says it came from another site (403).
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.renderError(w, r, http.StatusForbidden, "error.cross_origin")
	}))
	var h http.Handler = mux
	h = s.withSession(h)
	h = s.withLang(h)
	h = cop.Handler(h)
	h = securityHeaders(h)
	return gzhttp.GzipHandler(h)
}

// Site composes the whole service: the API at /v1/…, /healthz and /readyz,
// the pages everywhere else.
func Site(apiHandler, pages http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p == "/v1" || strings.HasPrefix(p, "/v1/") || p == "/healthz" || p == "/readyz" {
			apiHandler.ServeHTTP(w, r)
			return
		}
		pages.ServeHTTP(w, r)
	})
}

// FirstRunLink returns the one-time /setup?code=… path when nobody exists
// yet (UI.md §2), and false once people exist.
func FirstRunLink(ctx context.Context, st *app.DB) (string, bool, error) {
	return app.FirstRunLink(ctx, st)
}

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'")
		next.ServeHTTP(w, r)
	})
}

// serverError shows the page for a failure the person cannot fix: the
// database out of reach (503) or its disk full (507), both with
// Retry-After and said in the page's language; anything else is logged
// and shown as the generic error page.
func (s *Server) serverError(w http.ResponseWriter, r *http.Request, err error) {
	switch k := httperr.Of(err); k {
	case httperr.Unavailable:
		s.log.Warn("page: database unavailable", "method", r.Method, "path", r.URL.Path, "err", err)
		w.Header().Set("Retry-After", "5")
		s.renderError(w, r, k.Page, "error.unavailable")
	case httperr.StorageFull:
		s.log.Error("page: the database's disk is full", "method", r.Method, "path", r.URL.Path, "err", err)
		s.app.NoteWriteFailure(err)
		w.Header().Set("Retry-After", "60")
		s.renderError(w, r, k.Page, "error.storage_full")
	default:
		s.log.Error("page failed", "method", r.Method, "path", r.URL.Path, "err", err)
		s.renderError(w, r, httperr.Internal.Page, "error.internal")
	}
}

func (s *Server) renderError(w http.ResponseWriter, r *http.Request, status int, msgID string) {
	data := errorPage{Page: s.page(r, "error.title"), Text: msgID, Status: status}
	s.render(w, r, status, "error", &data)
}

type errorPage struct {
	Page
	Status int
	Text   string // a message id
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.renderError(w, r, http.StatusNotFound, "error.not_found")
}
