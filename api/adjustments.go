package api

import (
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
)

// Referee adjustments (RULES §7): POST and GET
// /v1/tournaments/{tid}/adjustments, GET .../adjustments/{aid}.

// adjustmentRequest is the body of API §4.1 — entrant, round, reason, note,
// vp, mp — plus what some reasons need to know:
//
//   - party: the entrant's side of a lateness or abandonment (offender,
//     innocent, both, later_opponent); forced_removal takes innocent;
//   - played: forced_removal, the innocent line's result against the
//     removed pair (when left out, read from the round's stored sheet);
//   - at_interruption: abandonments, the innocent line's score when play
//     stopped, when the referee established one;
//   - advantage: the usual score would bring the line an advantage it
//     might not have earned (late_over_10, abandon_temporary,
//     abandon_justified): it scores 0.
//
// vp and mp are the referee score of referee_score and nothing else: every
// other reason's score follows from RULES §7.
type adjustmentRequest struct {
	Entrant        string        `json:"entrant"`
	Round          *int          `json:"round"`
	Reason         string        `json:"reason"`
	Note           string        `json:"note"`
	VP             *int          `json:"vp"`
	MP             *int          `json:"mp"`
	Party          *string       `json:"party"`
	Played         *scoreRequest `json:"played"`
	AtInterruption *scoreRequest `json:"at_interruption"`
	Advantage      bool          `json:"advantage"`
}

type scoreRequest struct {
	VP *int `json:"vp"`
	MP *int `json:"mp"`
}

// maxNoteLength bounds a free-text note or reason (the app's limit).
const maxNoteLength = app.MaxNoteLength

// input is the request as the app operation takes it.
func (r adjustmentRequest) input() app.AdjustmentInput {
	score := func(s *scoreRequest) *app.ScoreInput {
		if s == nil {
			return nil
		}
		return &app.ScoreInput{VP: s.VP, MP: s.MP}
	}
	return app.AdjustmentInput{Entrant: r.Entrant, Round: r.Round, Reason: r.Reason, Note: r.Note, VP: r.VP, MP: r.MP,
		Party: r.Party, Played: score(r.Played), AtInterruption: score(r.AtInterruption), Advantage: r.Advantage}
}

func (s *server) createAdjustment(c *gin.Context) {
	// The tournament first: an unreadable one is 404 whatever the body.
	t, err := s.app.AdjustTournament(c.Request.Context(), mustPrincipal(c), c.Param("tid"))
	if err != nil {
		s.fail(c, err)
		return
	}
	var req adjustmentRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	stored, err := s.app.CreateAdjustment(c.Request.Context(), mustPrincipal(c), t.ID, req.input())
	if err != nil {
		s.fail(c, err)
		return
	}
	created201(c, adjustmentsPath(t.ID)+"/"+strconv.FormatInt(stored.ID, 10), toAdjustmentJSON(stored))
}

func adjustmentsPath(tid string) string {
	return "/v1/tournaments/" + url.PathEscape(tid) + "/adjustments"
}

type adjustmentsResponse struct {
	Adjustments []adjustmentJSON `json:"adjustments"`
}

func (s *server) listAdjustments(c *gin.Context) {
	listOfTournament(s, c, s.app.Adjustments, toAdjustmentJSON, func(l []adjustmentJSON) any { return adjustmentsResponse{Adjustments: l} })
}

func (s *server) getAdjustment(c *gin.Context) {
	id, err := strconv.ParseInt(c.Param("aid"), 10, 64)
	if err != nil {
		id = 0 // not a number: no such adjustment
	}
	adj, err := s.app.Adjustment(c.Request.Context(), mustPrincipal(c), c.Param("tid"), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toAdjustmentJSON(adj))
}

type scoreJSON struct {
	VP int `json:"vp"`
	MP int `json:"mp"`
}

func toScoreJSON(s *domain.MatchScore) *scoreJSON {
	if s == nil {
		return nil
	}
	return &scoreJSON{VP: s.VP, MP: s.MP}
}

// adjustmentJSON is a stored adjustment: who, when, why, and what it does.
// vp and mp are what it adds to the entrant's standings (null when
// nothing); effect says how.
type adjustmentJSON struct {
	ID             int64      `json:"id"`
	Entrant        string     `json:"entrant"`
	Round          *int       `json:"round"`
	Reason         string     `json:"reason"`
	Party          *string    `json:"party"`
	Note           string     `json:"note"`
	VP             *int       `json:"vp"`
	MP             *int       `json:"mp"`
	Played         *scoreJSON `json:"played,omitempty"`
	AtInterruption *scoreJSON `json:"at_interruption,omitempty"`
	Advantage      bool       `json:"advantage"`
	WarningsBefore int        `json:"warnings_before"`
	ByesBefore     int        `json:"byes_before"`
	Effect         effectJSON `json:"effect"`
	Author         string     `json:"author"`
	At             string     `json:"at"`
}

// effectJSON is domain.AdjustmentEffect: result (in place of the round's
// match, or null), bye/awarded (how that result counts in the standings),
// delta (added to the totals), late_points (the credit the sheet's
// late_points carry, RULES §6 — the adjustment does not write the sheet),
// warning (this counts as a warning), flags, rules, reason.
type effectJSON struct {
	Result     *scoreJSON `json:"result"`
	Bye        bool       `json:"bye"`
	Awarded    bool       `json:"awarded"`
	Delta      scoreJSON  `json:"delta"`
	LatePoints int        `json:"late_points"`
	Warning    bool       `json:"warning"`
	Flags      []string   `json:"flags"`
	Rules      []string   `json:"rules"`
	Reason     string     `json:"reason"`
}

func toAdjustmentJSON(a app.Adjustment) adjustmentJSON {
	out := adjustmentJSON{
		ID: a.ID, Entrant: a.Entrant, Reason: string(a.Case.Reason), Note: a.Case.Note,
		Played: toScoreJSON(a.Case.Played), AtInterruption: toScoreJSON(a.Case.AtInterruption), Advantage: a.Case.Advantage,
		WarningsBefore: a.Case.WarningsBefore, ByesBefore: a.Case.ByesBefore,
		Author: a.Author, At: a.At.UTC().Format(time.RFC3339Nano),
	}
	if a.Round > 0 {
		out.Round = new(a.Round)
	}
	if a.Case.Party != domain.PartyNone {
		out.Party = new(string(a.Case.Party))
	}
	if s, ok := a.Score(); ok {
		out.VP, out.MP = new(s.VP), new(s.MP)
	}
	e := a.Effect
	out.Effect = effectJSON{
		Result: toScoreJSON(e.Result), Bye: e.Bye, Awarded: e.Awarded,
		Delta: scoreJSON{VP: e.Delta.VP, MP: e.Delta.MP}, LatePoints: e.LatePoints, Warning: e.Warning,
		Flags: []string{}, Rules: append([]string{}, e.Rules...), Reason: e.Reason,
	}
	for _, f := range e.Flags {
		out.Effect.Flags = append(out.Effect.Flags, string(f))
	}
	return out
}
