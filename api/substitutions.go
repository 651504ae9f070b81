package api

import (
	"net/url"

	"github.com/gin-gonic/gin"

	"segnapunti/domain"
)

// substitutionJSON is a substitution on the wire (API §4.3, RULES §12.4).
type substitutionJSON struct {
	FromRound int        `json:"from_round"`
	Out       string     `json:"out"`
	In        playerJSON `json:"in"`
	Reason    string     `json:"reason"`
	Entrant   string     `json:"entrant,omitempty"`
}

// createSubstitution: POST .../entrants/{id}/substitutions.
func (s *server) createSubstitution(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	var req substitutionJSON
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	tid, id := c.Param("tid"), c.Param("id")
	sub, err := s.app.Substitute(c.Request.Context(), mustPrincipal(c), tid, id, domain.Substitution{
		FromRound: req.FromRound, Out: req.Out, In: domain.Player{Name: req.In.Name, Membership: req.In.Membership}, Reason: req.Reason})
	if err != nil {
		s.fail(c, err)
		return
	}
	created201(c, "/v1/tournaments/"+url.PathEscape(tid)+"/entrants/"+url.PathEscape(id)+"/substitutions", substitutionJSON{
		FromRound: sub.FromRound, Out: sub.Out, In: playerJSON{Name: sub.In.Name, Membership: sub.In.Membership}, Reason: sub.Reason, Entrant: sub.Entrant})
}
