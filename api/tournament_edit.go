package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
)

// tournamentPatch is the body of PATCH /v1/tournaments/{tid}: every member
// optional, an absent one left as it is. Other members (public) are added
// to this struct by their own feature.
type tournamentPatch struct {
	Name          *string `json:"name"`
	Date          *string `json:"date"`
	Level         *string `json:"level"`
	Ruleset       *string `json:"ruleset"`
	Kind          *string `json:"kind"`
	RoundsPlanned *int    `json:"rounds_planned"`
	HandsPerRound *int    `json:"hands_per_round"`
	VPTable       *string `json:"vp_table"`
}

func (b tournamentPatch) toApp() app.TournamentPatch {
	return app.TournamentPatch{Name: b.Name, Date: b.Date, Level: b.Level, Ruleset: b.Ruleset, Kind: b.Kind,
		RoundsPlanned: b.RoundsPlanned, HandsPerRound: b.HandsPerRound, VPTable: b.VPTable}
}

// patchTournament: the organising club or an admin changes the fields of
// a tournament while no score sheet is entered.
func (s *server) patchTournament(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	var req tournamentPatch
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	t, err := s.app.EditTournament(c.Request.Context(), mustPrincipal(c), c.Param("tid"), req.toApp())
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toTournamentJSON(t))
}

// deleteTournament: the organising club or an admin deletes a tournament
// with no entrants and no rounds (one created by mistake).
func (s *server) deleteTournament(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	if err := s.app.DeleteTournament(c.Request.Context(), mustPrincipal(c), c.Param("tid")); err != nil {
		s.fail(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
