package api

import (
	"github.com/gin-gonic/gin"

	"segnapunti/app"
)

// Authorization is the first step of a route that acts on one object: a
// middleware resolves who may do what to it through one app call and
// keeps the scope for the handler, before any body is read. A caller who
// may not see the object gets its 404 whatever the body.

// scopeKey is where a route's resolved scope is kept in the gin context.
const scopeKey = "segnapunti/scope"

// scoped is the middleware of one kind of scope: resolve makes it from
// the request, or refuses.
func scoped[S any](s *server, resolve func(c *gin.Context, p app.Principal) (S, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		sc, err := resolve(c, mustPrincipal(c))
		if err != nil {
			s.fail(c, err)
			return
		}
		c.Set(scopeKey, sc)
	}
}

// scopeOf is the scope the route's middleware resolved (a zero scope,
// which every operation refuses, when the route has none).
func scopeOf[S any](c *gin.Context) S {
	v, _ := c.Get(scopeKey)
	sc, _ := v.(S)
	return sc
}

// sheetScope resolves the table of the path (…/rounds/{n}/tables/{t})
// for use: app.SheetScope.
func (s *server) sheetScope(use app.SheetUse) gin.HandlerFunc {
	return scoped(s, func(c *gin.Context, p app.Principal) (app.SheetScope, error) {
		round, table, err := tableParams(c)
		if err != nil {
			return app.SheetScope{}, err
		}
		return s.app.SheetScope(c.Request.Context(), p, c.Param("tid"), round, table, use)
	})
}

// tournamentScope resolves the tournament of the path for use:
// app.TournamentScope.
func (s *server) tournamentScope(use app.TournamentUse) gin.HandlerFunc {
	return scoped(s, func(c *gin.Context, p app.Principal) (app.TournamentScope, error) {
		return s.app.TournamentScope(c.Request.Context(), p, c.Param("tid"), use)
	})
}

// sheetScopeOf and tournamentScopeOf are the scopes of sheetScope and
// tournamentScope.
func sheetScopeOf(c *gin.Context) app.SheetScope { return scopeOf[app.SheetScope](c) }

func tournamentScopeOf(c *gin.Context) app.TournamentScope { return scopeOf[app.TournamentScope](c) }
