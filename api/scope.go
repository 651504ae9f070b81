package api

import (
	"github.com/gin-gonic/gin"

	"segnapunti/app"
)

// Authorization is the first step of a route that acts on one object
//: a middleware resolves who may do what to it through one app
// call and keeps the scope for the handler, before any body is read. A
// caller who may not see the object gets its 404 whatever the body.

// scopeKey is where a route's resolved scope is kept in the gin context.
const scopeKey = "segnapunti/scope"

// sheetScope resolves the table of the path (…/rounds/{n}/tables/{t})
// for use: app.SheetScope.
func (s *server) sheetScope(use app.SheetUse) gin.HandlerFunc {
	return func(c *gin.Context) {
		round, table, err := tableParams(c)
		if err != nil {
			s.fail(c, err)
			return
		}
		sc, err := s.app.SheetScope(c.Request.Context(), mustPrincipal(c), c.Param("tid"), round, table, use)
		if err != nil {
			s.fail(c, err)
			return
		}
		c.Set(scopeKey, sc)
	}
}

// sheetScopeOf is the scope sheetScope resolved (a zero scope, which
// every operation refuses, when the route has none).
func sheetScopeOf(c *gin.Context) app.SheetScope {
	v, _ := c.Get(scopeKey)
	sc, _ := v.(app.SheetScope)
	return sc
}

// tournamentScope resolves the tournament of the path for use:
// app.TournamentScope.
func (s *server) tournamentScope(use app.TournamentUse) gin.HandlerFunc {
	return func(c *gin.Context) {
		sc, err := s.app.TournamentScope(c.Request.Context(), mustPrincipal(c), c.Param("tid"), use)
		if err != nil {
			s.fail(c, err)
			return
		}
		c.Set(scopeKey, sc)
	}
}

// tournamentScopeOf is the scope tournamentScope resolved (a zero scope,
// which every operation refuses, when the route has none).
func tournamentScopeOf(c *gin.Context) app.TournamentScope {
	v, _ := c.Get(scopeKey)
	sc, _ := v.(app.TournamentScope)
	return sc
}
