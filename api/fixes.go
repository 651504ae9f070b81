package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/messages"
)

// entrantPatch is the body of PATCH /v1/tournaments/{tid}/entrants/{id}:
// every member optional; players replaces all the players; an empty team
// or club removes it.
type entrantPatch struct {
	Players *[]playerJSON `json:"players"`
	Team    *string       `json:"team"`
	Club    *string       `json:"club"`
	// WithdrawnFromRound and Reason: the entrant leaves for good from that
	// round (RULES §12.3); alone in the body. 0 takes a withdrawal back.
	WithdrawnFromRound *int    `json:"withdrawn_from_round"`
	Reason             *string `json:"reason"`
	// Abandon: "justified" or "unjustified", when the entrant leaves
	// during a round being played (RULES §12.3, §7: also an abandon).
	Abandon *string `json:"abandon"`
}

// patchEntrant: the organising club or an admin corrects an entrant's
// players, team or club.
func (s *server) patchEntrant(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	var req entrantPatch
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	if req.WithdrawnFromRound != nil || req.Reason != nil {
		s.withdrawFromRound(c, req)
		return
	}
	if req.Players == nil && req.Team == nil && req.Club == nil {
		s.fail(c, errInvalid(messages.New("api.entrant_nothing"), fieldAt("/players", "api.entrant_players")))
		return
	}
	pt := app.EntrantPatch{Team: req.Team, Club: req.Club}
	if req.Players != nil {
		ps := make([]domain.Player, 0, len(*req.Players))
		for _, p := range *req.Players {
			ps = append(ps, p.toPlayer())
		}
		pt.Players = &ps
	}
	e, err := s.app.EditEntrant(c.Request.Context(), mustPrincipal(c), c.Param("tid"), c.Param("id"), pt)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toEntrantJSON(e))
}

// withdrawEntrant: the organising club or an admin withdraws an entrant
// seated in no round.
func (s *server) withdrawEntrant(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	if err := s.app.WithdrawEntrant(c.Request.Context(), mustPrincipal(c), c.Param("tid"), c.Param("id")); err != nil {
		s.fail(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// putRound: the organising club or an admin redefines the tables and byes
// of a round being played with no sheet entered (body as POST .../rounds).
func (s *server) putRound(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	n, err := pathNumber(c, "n", maxRoundsPlanned)
	if err != nil {
		s.fail(c, err)
		return
	}
	var req roundRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	in, err := roundInput(req)
	if err != nil {
		s.fail(c, err)
		return
	}
	r, err := s.app.RedefineRound(c.Request.Context(), mustPrincipal(c), c.Param("tid"), n, in)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toRoundJSON(r))
}

// withdrawFromRound: PATCH .../entrants/{id} {"withdrawn_from_round": r,
// "reason": "...", "abandon": "justified"}, the referee's record of a
// withdrawal (RULES §12.3); abandon when it happens during round r.
func (s *server) withdrawFromRound(c *gin.Context, req entrantPatch) {
	switch {
	case req.WithdrawnFromRound == nil:
		s.fail(c, errInvalid(messages.New("api.withdrawal_required"), fieldAt("/withdrawn_from_round", "api.withdrawal_round")))
		return
	case req.Players != nil || req.Team != nil || req.Club != nil:
		s.fail(c, errInvalid(messages.New("api.withdrawal_alone"), fieldAt("/withdrawn_from_round", "api.withdrawal_alone_field")))
		return
	}
	reason := ""
	if req.Reason != nil {
		reason = *req.Reason
	}
	abandon := ""
	if req.Abandon != nil {
		abandon = *req.Abandon
	}
	e, err := s.app.WithdrawFromRound(c.Request.Context(), mustPrincipal(c), c.Param("tid"), c.Param("id"), *req.WithdrawnFromRound, reason, abandon)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toEntrantJSON(e))
}
