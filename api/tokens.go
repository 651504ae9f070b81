package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
)

// tokenJSON is a token as GET /v1/tokens shows it: never the secret.
type tokenJSON struct {
	ID       string     `json:"id"`
	Role     string     `json:"role"`
	Name     string     `json:"name"`
	Club     *string    `json:"club"`
	Created  time.Time  `json:"created"`
	LastUsed *time.Time `json:"last_used"`
}

type tokensResponse struct {
	Tokens []tokenJSON `json:"tokens"`
}

func toTokenJSON(t app.TokenInfo) tokenJSON {
	out := tokenJSON{ID: t.ID, Role: string(t.Role), Name: t.Name, Created: t.Created}
	if t.ClubID != "" {
		club := t.ClubID
		out.Club = &club
	}
	if t.LastUsed != nil {
		u := *t.LastUsed
		out.LastUsed = &u
	}
	return out
}

// listTokens: an admin every token, a club its own club's.
func (s *server) listTokens(c *gin.Context) {
	tokens, err := s.app.Tokens(c.Request.Context(), mustPrincipal(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	out := tokensResponse{Tokens: make([]tokenJSON, 0, len(tokens))}
	for _, t := range tokens {
		out.Tokens = append(out.Tokens, toTokenJSON(t))
	}
	c.Header("Cache-Control", "no-store")
	ok200(c, out)
}

// revokeToken deletes a token; it is refused from the next request on
// (every replica's cache forgets it: app.RevokeToken publishes
// events.TokenRevoked, which the cache hears — NewServer).
func (s *server) revokeToken(c *gin.Context) {
	if _, err := s.app.RevokeToken(c.Request.Context(), mustPrincipal(c), c.Param("id")); err != nil {
		s.fail(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
