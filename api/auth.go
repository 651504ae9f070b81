package api

import (
	"context"
	"crypto/sha256"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/hashicorp/golang-lru/v2/expirable"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/messages"
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
		s.fail(c, &apiError{status: http.StatusUnauthorized, typ: typeUnauthorized, msg: messages.New("api.token_needed")})
		return
	}
	var p app.Principal
	err := domain.ErrNotFound
	// A table code is not looked up as a token first: that was one of the
	// two lookups of every hand entered at a table (issue 11).
	if app.MayBeToken(token) {
		p, err = s.principals.authenticate(c.Request.Context(), s.app, token)
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
		s.fail(c, &apiError{status: http.StatusUnauthorized, typ: typeUnauthorized, msg: messages.New("api.token_invalid")})
		return
	}
	c.Set(ctxPrincipal, p)
	c.Next()
}

// principalCache remembers recent successful authentications for a short
// while, so that a client typing a tournament's sheets does not cost a
// token lookup per request. Keys are SHA-256 hashes, never tokens. Unknown
// tokens are never cached. A revocation (events.TokenRevoked) purges the
// token on every replica whose bus listens (serve keeps it listening): the
// revoked token fails on the very next request here, and there as soon
// as the notification arrives. Should a replica miss it (its listening
// connection lost), it purges everything when it listens again, and
// trusts a cached token for at most ttl after it looked it up
// (Config.AuthCacheTTL) in between.
type principalCache struct {
	lru *expirable.LRU[[sha256.Size]byte, app.Principal]
}

// maxCachedPrincipals bounds the cache; the least recently used entry goes
// first.
const maxCachedPrincipals = 10000

// newPrincipalCache is nil (no cache) when ttl is not positive.
func newPrincipalCache(ttl time.Duration) *principalCache {
	if ttl <= 0 {
		return nil
	}
	return &principalCache{lru: expirable.NewLRU[[sha256.Size]byte, app.Principal](maxCachedPrincipals, nil, ttl)}
}

func (pc *principalCache) authenticate(ctx context.Context, db *app.App, token string) (app.Principal, error) {
	if pc == nil {
		return db.Authenticate(ctx, token)
	}
	key := sha256.Sum256([]byte(token))
	if p, ok := pc.lru.Get(key); ok {
		return p, nil
	}
	p, err := db.Authenticate(ctx, token)
	if err != nil {
		return p, err
	}
	pc.lru.Add(key, p)
	return p, nil
}

// purge drops every cached principal.
func (pc *principalCache) purge() {
	if pc != nil {
		pc.lru.Purge()
	}
}

// forget drops every cached principal of a token id (after a revocation).
func (pc *principalCache) forget(tokenID string) {
	if pc == nil {
		return
	}
	for _, k := range pc.lru.Keys() {
		if p, ok := pc.lru.Peek(k); ok && p.TokenID == tokenID {
			pc.lru.Remove(k)
		}
	}
}

func principalOf(c *gin.Context) (app.Principal, bool) {
	v, ok := c.Get(ctxPrincipal)
	if !ok {
		return app.Principal{}, false
	}
	p, ok := v.(app.Principal)
	return p, ok
}

// mustPrincipal returns the caller of a route behind authenticate.
func mustPrincipal(c *gin.Context) app.Principal {
	p, _ := principalOf(c)
	return p
}

// requireRole refuses callers whose role is not listed.
func requireRole(p app.Principal, roles ...domain.Role) error {
	return app.RequireRole(p, roles...)
}

// validID: see app.ValidID.
func validID(id string) bool { return app.ValidID(id) }

const maxIDLength = app.MaxIDLength
