package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
)

// SessionCookie holds the session token; the database keeps its hash.
const SessionCookie = "segnapunti_session"

// viewer is the signed-in person of a request and their session.
type viewer struct {
	Person  app.Person
	Session app.Session
}

type viewerKey struct{}

// withSession resolves the session cookie on every request, reading the
// database each time: a revoked session stops working at once (no cache
// longer than the request).
func (s *Server) withSession(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(SessionCookie)
		if err != nil || c.Value == "" || strings.HasPrefix(r.URL.Path, "/static/") {
			next.ServeHTTP(w, r)
			return
		}
		sess, person, err := s.app.SessionPerson(r.Context(), c.Value)
		switch {
		case errors.Is(err, domain.ErrNotFound):
			s.clearSessionCookie(w, r) // revoked or expired: forget it
		case err != nil:
			s.serverError(w, r, err)
			return
		default:
			r = r.WithContext(context.WithValue(r.Context(), viewerKey{}, viewer{Person: person, Session: sess}))
		}
		next.ServeHTTP(w, r)
	})
}

func viewerOf(r *http.Request) (viewer, bool) {
	v, ok := r.Context().Value(viewerKey{}).(viewer)
	return v, ok
}

// principal is who the request speaks for: the same app.Principal an API
// token of that role and name produces. Pass it to the operations of
// package app.
func (s *Server) principal(r *http.Request) (app.Principal, bool) {
	v, ok := viewerOf(r)
	if !ok {
		return app.Principal{}, false
	}
	return v.Person.Principal(), true
}

// requireSignedIn sends a signed-out person to /login, coming back here
// after signing in.
func (s *Server) requireSignedIn(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, ok := viewerOf(r); !ok {
			seeOther(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()))
			return
		}
		h(w, r)
	}
}

// requireRole lets through signed-in people of one of roles; others get
// 403, the signed-out are sent to /login. Object-level access (this
// club's tournament) is the operations' business, not this.
func (s *Server) requireRole(roles ...domain.Role) func(http.HandlerFunc) http.HandlerFunc {
	return func(h http.HandlerFunc) http.HandlerFunc {
		return s.requireSignedIn(func(w http.ResponseWriter, r *http.Request) {
			v, _ := viewerOf(r)
			if !slices.Contains(roles, v.Person.Role) {
				s.renderError(w, r, http.StatusForbidden, "error.forbidden")
				return
			}
			h(w, r)
		})
	}
}

// isTLS: the request came over TLS (or, when configured, through a proxy
// that says so).
func (s *Server) isTLS(r *http.Request) bool {
	return r.TLS != nil || (s.forwarded && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https"))
}

func (s *Server) setSessionCookie(w http.ResponseWriter, r *http.Request, token string) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: token, Path: "/", MaxAge: int(s.ttl.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.isTLS(r)})
}

func (s *Server) clearSessionCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.isTLS(r)})
}

// clientAddress is the peer's IP (no port), the key of the per-address
// sign-in limit.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
