package api

import (
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/messages"
)

// Standings (RULES §8): GET /v1/tournaments/{tid}/standings?after_round=n,
// ranked by app from the stored (written) match results, the rounds' byes
// and the referee adjustments, cached per tournament state — a correction
// or an adjustment shows at once.

type standingJSON struct {
	Rank        int              `json:"rank"`
	Entrant     string           `json:"entrant"`
	Players     []playerJSON     `json:"players"`
	VP          int              `json:"vp"`
	MP          int              `json:"mp"`
	Wins        int              `json:"wins"`
	Adjustments []adjustmentJSON `json:"adjustments"`
	Tiebreak    *string          `json:"tiebreak"`
	// Discrepancies: the counted matches whose official (written) result
	// is not the computed one (RULES §8), and whether a correction is
	// still allowed (RULES §9).
	Discrepancies []discrepancyJSON `json:"discrepancies"`
	// WithdrawnFromRound: RULES §12.3, the standings keep a withdrawn
	// entrant with what it earned, marked; null otherwise.
	WithdrawnFromRound *int `json:"withdrawn_from_round"`
	// Team and Matches: team tournaments (RULES §12.5, API §4.3): the
	// team's name and its counted matches.
	Team    *string         `json:"team,omitempty"`
	Matches []teamMatchJSON `json:"matches,omitempty"`
}

// teamMatchJSON is one counted match of a team (RULES §12.5): the team
// totals (the sum of its two lines' final totals), the team MP and the
// fibur-teams VP.
type teamMatchJSON struct {
	Round         int    `json:"round"`
	Match         int    `json:"match"`
	Tables        []int  `json:"tables"`
	Opponent      string `json:"opponent"`
	Total         int    `json:"total"`
	OpponentTotal int    `json:"opponent_total"`
	MP            int    `json:"mp"`
	VP            int    `json:"vp"`
}

// teamMatchesJSON is team's matches, from its own side.
func teamMatchesJSON(team string, all []domain.TeamMatchResult) []teamMatchJSON {
	out := []teamMatchJSON{}
	for _, m := range domain.TeamMatchesOf(team, all) {
		i := 0
		if m.Teams[1] == team {
			i = 1
		}
		out = append(out, teamMatchJSON{Round: m.Round, Match: m.Match, Tables: m.Tables[:], Opponent: m.Teams[1-i],
			Total: m.Totals[i], OpponentTotal: m.Totals[1-i], MP: m.MP[i], VP: m.VP[i]})
	}
	return out
}

type lineResultJSON struct {
	Total int `json:"total"`
	MP    int `json:"mp"`
	VP    int `json:"vp"`
}

type discrepancyJSON struct {
	Round       int            `json:"round"`
	Table       int            `json:"table"`
	Line        string         `json:"line"`
	Official    lineResultJSON `json:"official"`
	Computed    lineResultJSON `json:"computed"`
	Kind        string         `json:"kind"`
	Correctable string         `json:"correctable"`
}

type standingsResponse struct {
	AfterRound int            `json:"after_round"`
	Standings  []standingJSON `json:"standings"`
	// RULES §12.6: an interrupted tournament's standings say so.
	InterruptedAfterRound *int  `json:"interrupted_after_round,omitempty"`
	Void                  *bool `json:"void,omitempty"`
}

func toStandingsResponse(st app.StandingsTable) standingsResponse {
	out := standingsResponse{AfterRound: st.AfterRound, Standings: make([]standingJSON, 0, len(st.Rows)), InterruptedAfterRound: st.InterruptedAfterRound}
	if st.InterruptedAfterRound != nil {
		void := st.Void
		out.Void = &void
	}
	for _, r := range st.Rows {
		row := standingJSON{
			Rank: r.Rank, Entrant: r.Entrant.ID, Players: make([]playerJSON, 0, len(r.Entrant.Players)),
			VP: r.VP, MP: r.MP, Wins: r.Wins, Adjustments: []adjustmentJSON{}, WithdrawnFromRound: r.Entrant.WithdrawnFromRound,
			Discrepancies: make([]discrepancyJSON, 0, len(st.Discrepancies[r.Entrant.ID])),
		}
		if st.Teams {
			team := r.Entrant.Team
			row.Team = &team
			row.Matches = teamMatchesJSON(r.Entrant.ID, st.TeamMatches)
		}
		for _, d := range st.Discrepancies[r.Entrant.ID] {
			row.Discrepancies = append(row.Discrepancies, discrepancyJSON{
				Round: d.Round, Table: d.Table, Line: d.Line.String(),
				Official: lineResultJSON(d.Official), Computed: lineResultJSON(d.Computed),
				Kind: string(d.Kind), Correctable: string(d.Correctable),
			})
		}
		for _, p := range r.Entrant.Players {
			row.Players = append(row.Players, playerJSON{Name: p.Name, Membership: p.Membership})
		}
		for _, a := range st.Adjustments[r.Entrant.ID] {
			row.Adjustments = append(row.Adjustments, toAdjustmentJSON(a))
		}
		if len(r.Tiebreak) > 0 {
			row.Tiebreak = new(messages.Notes(domain.English, r.Tiebreak))
		}
		out.Standings = append(out.Standings, row)
	}
	return out
}

// getStandings: GET .../standings?after_round=n, for whoever may read the
// tournament (its club, its referees, the federation, an admin).
func (s *server) getStandings(c *gin.Context) {
	q := c.Request.URL.Query()
	if err := onlyParams(q, "after_round"); err != nil {
		s.fail(c, err)
		return
	}
	scope := tournamentScopeOf(c) // resolved first: s.tournamentScope(app.TournamentRead)
	after, err := intParam(q, "after_round", 1, scope.Tournament.RoundsPlanned, false)
	if err != nil {
		s.fail(c, err)
		return
	}
	tid := c.Param("tid")
	st, err := s.app.StandingsAfter(c.Request.Context(), scope, after)
	if err != nil {
		s.fail(c, err)
		return
	}
	writeJSON(c, http.StatusOK, s.standingsJSON.get(tid, st))
}

// standingsBytes keeps the last encoded answer per tournament and counted
// round with the stamp it was computed at: the answer is a function of
// the tournament's state and the last round counted alone (the same for
// every reader, in every language), so a table is encoded once per state
// and the bytes are served until the state changes.
type standingsBytes struct {
	mu sync.Mutex
	m  map[standingsBytesKey]standingsBytesEntry
}

type standingsBytesKey struct {
	tid   string
	after int
}

type standingsBytesEntry struct {
	stamp app.StandingsStamp
	body  []byte
}

func (sb *standingsBytes) get(tid string, st app.StandingsTable) []byte {
	k := standingsBytesKey{tid, st.AfterRound}
	sb.mu.Lock()
	e, ok := sb.m[k]
	sb.mu.Unlock()
	if ok && st.Stamp != "" && e.stamp == st.Stamp {
		return e.body
	}
	// Room for the answer at once: the last one's size (the answer grows
	// little from a state to the next), else a guess per row.
	size := len(e.body) + len(e.body)/16
	if !ok {
		size = 256 * (len(st.Rows) + 1)
	}
	b, err := appendStandings(make([]byte, 0, size), st)
	if err != nil {
		panic(err) // plain data; recovered as a 500
	}
	if st.Stamp != "" {
		sb.mu.Lock()
		if sb.m == nil {
			sb.m = map[standingsBytesKey]standingsBytesEntry{}
		}
		sb.m[k] = standingsBytesEntry{stamp: st.Stamp, body: b}
		sb.mu.Unlock()
	}
	return b
}
