package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
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
	// Plan replaces the plan until round 1 is published (RULES §12.1).
	Plan *planJSON `json:"plan"`
	// Public opens or closes the public pages (API §4.2, UI.md §7); it
	// may change at any time, unlike the fields above.
	Public *bool `json:"public"`
}

func (b tournamentPatch) toApp() app.TournamentPatch {
	return app.TournamentPatch{Name: b.Name, Date: b.Date, Level: b.Level, Ruleset: b.Ruleset, Kind: b.Kind,
		RoundsPlanned: b.RoundsPlanned, HandsPerRound: b.HandsPerRound, VPTable: b.VPTable, Plan: b.Plan.toDomain()}
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
	ctx, p, tid := c.Request.Context(), mustPrincipal(c), c.Param("tid")
	var (
		t   domain.Tournament
		err error
	)
	fields := req.toApp()
	if fields == (app.TournamentPatch{}) && req.Public == nil {
		s.fail(c, errInvalid("nothing to change: name at least one member (name, date, level, ruleset, kind, rounds_planned, hands_per_round, vp_table, plan, public)",
			fieldError{Pointer: "/public", Detail: "absent, like every other member: true opens the public pages, false closes them"}))
		return
	}
	if fields != (app.TournamentPatch{}) {
		if t, err = s.app.EditTournament(ctx, p, tid, fields); err != nil {
			s.fail(c, err)
			return
		}
	}
	if req.Public != nil {
		if t, err = s.app.PatchTournament(ctx, p, tid, app.PublicPatch{Public: req.Public}); err != nil {
			s.fail(c, err)
			return
		}
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
