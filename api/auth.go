package api

import (
	"context"
	"crypto/sha256"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
)

// ctxPrincipal is the gin context key of the authenticated caller.
const ctxPrincipal = "segnapunti.principal"

// maxTokenLength bounds what is hashed and looked up: a real token is
// "sp_" + 43 characters.
const maxTokenLength = 256

// authenticate reads "Authorization: Bearer <token>" (API §4) and stores the
// caller. Missing or unknown tokens are a 401 with a WWW-Authenticate
// challenge (RFC 6750 §3).
func (s *server) authenticate(c *gin.Context) {
	h := c.GetHeader("Authorization")
	scheme, token, _ := strings.Cut(strings.TrimSpace(h), " ")
	token = strings.TrimSpace(token)
	if h == "" || !strings.EqualFold(scheme, "Bearer") || token == "" {
		c.Header("WWW-Authenticate", `Bearer realm="segnapunti"`)
		s.fail(c, &apiError{status: http.StatusUnauthorized, typ: typeUnauthorized,
			detail: "this route needs a token: send Authorization: Bearer <token>"})
		return
	}
	var p store.Principal
	err := domain.ErrNotFound
	if len(token) <= maxTokenLength {
		p, err = s.principals.authenticate(c.Request.Context(), s.db, token)
	}
	if err != nil {
		if !errors.Is(err, domain.ErrNotFound) {
			s.fail(c, err)
			return
		}
		if len(token) <= maxTokenLength { // perhaps a table's entry code (table_entry.go)
			if p, ok := s.authenticateTableCode(c, token); ok {
				c.Set(ctxPrincipal, p)
				c.Next()
			}
			return
		}
		c.Header("WWW-Authenticate", `Bearer realm="segnapunti", error="invalid_token"`)
		s.fail(c, &apiError{status: http.StatusUnauthorized, typ: typeUnauthorized,
			detail: "the token is not valid"})
		return
	}
	c.Set(ctxPrincipal, p)
	c.Next()
}

// principalCache remembers recent successful authentications for a short
// while, so that a client typing a tournament's sheets does not cost a
// token lookup per request. Keys are SHA-256 hashes, never tokens. Unknown
// tokens are never cached. A token is trusted for at most ttl after it was
// last looked up: the bound on how late a future revocation takes effect.
type principalCache struct {
	ttl     time.Duration
	now     func() time.Time
	mu      sync.Mutex
	entries map[[sha256.Size]byte]cachedPrincipal
}

type cachedPrincipal struct {
	p       store.Principal
	expires time.Time
}

// maxCachedPrincipals bounds the cache; when full it starts afresh.
const maxCachedPrincipals = 10000

func (pc *principalCache) authenticate(ctx context.Context, db *store.DB, token string) (store.Principal, error) {
	if pc == nil || pc.ttl <= 0 {
		return db.Authenticate(ctx, token)
	}
	key := sha256.Sum256([]byte(token))
	now := pc.now()
	pc.mu.Lock()
	e, ok := pc.entries[key]
	pc.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.p, nil
	}
	p, err := db.Authenticate(ctx, token)
	if err != nil {
		return p, err
	}
	pc.mu.Lock()
	if pc.entries == nil || len(pc.entries) >= maxCachedPrincipals {
		pc.entries = make(map[[sha256.Size]byte]cachedPrincipal)
	}
	pc.entries[key] = cachedPrincipal{p: p, expires: now.Add(pc.ttl)}
	pc.mu.Unlock()
	return p, nil
}

func principalOf(c *gin.Context) (store.Principal, bool) {
	v, ok := c.Get(ctxPrincipal)
	if !ok {
		return store.Principal{}, false
	}
	p, ok := v.(store.Principal)
	return p, ok
}

// mustPrincipal returns the caller of a route behind authenticate.
func mustPrincipal(c *gin.Context) store.Principal {
	p, _ := principalOf(c)
	return p
}

// requireRole refuses callers whose role is not listed.
func requireRole(p store.Principal, roles ...domain.Role) error {
	return app.RequireRole(p, roles...)
}

// validID: see app.ValidID.
func validID(id string) bool { return app.ValidID(id) }

const maxIDLength = app.MaxIDLength
