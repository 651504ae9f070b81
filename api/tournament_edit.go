package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/messages"
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
	// TimeZone is the hall's clock (issue 22), an IANA name; like public
	// it may change at any time.
	TimeZone *string `json:"time_zone"`
	// InterruptedAfterRound and Reason: the tournament was interrupted by
	// force majeure after that round (RULES §12.6, FITAB art. 39); alone
	// in the body.
	InterruptedAfterRound *int    `json:"interrupted_after_round"`
	Reason                *string `json:"reason"`
}

// interruptionResponse is the tournament with the ruling on its
// interruption (API §4.3).
type interruptionResponse struct {
	tournamentJSON
	Valid    bool   `json:"valid"`
	Rule     string `json:"rule"`
	Ruling   string `json:"ruling"`
	MinRound int    `json:"min_round"`
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
	if req.InterruptedAfterRound != nil || req.Reason != nil {
		s.interruptTournament(c, req)
		return
	}
	fields := req.toApp()
	if fields == (app.TournamentPatch{}) && req.Public == nil && req.TimeZone == nil {
		s.fail(c, errInvalid(messages.New("api.tournament_nothing"), fieldAt("/public", "api.tournament_public")))
		return
	}
	// One request, one operation, one transaction: the fields and public
	// change together or not at all.
	if fields == (app.TournamentPatch{}) {
		t, err = s.app.PatchTournament(ctx, p, tid, app.PublicPatch{Public: req.Public, TimeZone: req.TimeZone})
	} else {
		fields.Public, fields.TimeZone = req.Public, req.TimeZone
		t, err = s.app.EditTournament(ctx, p, tid, fields)
	}
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

// interruptTournament: PATCH /v1/tournaments/{tid} {"interrupted_after_round":
// k, "reason": "..."} → the tournament and the ruling of FITAB art. 39.
func (s *server) interruptTournament(c *gin.Context, req tournamentPatch) {
	var errs []fieldError
	if req.InterruptedAfterRound == nil {
		errs = append(errs, fieldAt("/interrupted_after_round", "api.interrupt_round"))
	}
	if req.Reason == nil {
		errs = append(errs, fieldAt("/reason", "api.interrupt_reason"))
	}
	if req.toApp() != (app.TournamentPatch{}) || req.Public != nil || req.TimeZone != nil {
		errs = append(errs, fieldAt("/interrupted_after_round", "api.interrupt_alone"))
	}
	if len(errs) > 0 {
		s.fail(c, invalidFields(errs))
		return
	}
	t, ruling, err := s.app.InterruptTournament(c.Request.Context(), mustPrincipal(c), c.Param("tid"), *req.InterruptedAfterRound, *req.Reason)
	if err != nil {
		s.fail(c, err)
		return
	}
	reason := ruling.Reason
	if langOf(c) == domain.Italian {
		reason = ruling.ReasonIT
	}
	ok200(c, interruptionResponse{tournamentJSON: toTournamentJSON(t), Valid: ruling.Valid, Rule: ruling.Rule, Ruling: reason, MinRound: ruling.MinRounds})
}
