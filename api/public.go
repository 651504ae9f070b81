package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/events"
	"segnapunti/events/sse"
)

// Public reads (API §4.2): no token; only tournaments their club made
// public, any other id a 404. Answers carry the tournament's version as
// ETag and may be cached by anyone (304 on If-None-Match).

// publicMaxAge is how long a client or proxy may keep a public answer
// without asking again; the live events tell the pages sooner.
const publicMaxAge = 5

// publicOf loads the public tournament of the path and answers 304 when
// the client has this version; false when it answered.
func (s *server) publicOf(c *gin.Context, known ...string) (*app.PublicTournament, bool) {
	if err := onlyParams(c.Request.URL.Query(), known...); err != nil {
		s.fail(c, err)
		return nil, false
	}
	pt, err := s.app.PublicTournament(c.Request.Context(), c.Param("tid"))
	if err != nil {
		s.fail(c, err)
		return nil, false
	}
	etag := `"p` + pt.Version + `"`
	c.Header("ETag", etag)
	c.Header("Cache-Control", fmt.Sprintf("public, max-age=%d", publicMaxAge))
	if inm := c.GetHeader("If-None-Match"); inm != "" && etagMatches(inm, etag) {
		c.Status(http.StatusNotModified)
		return nil, false
	}
	return pt, true
}

// etagMatches reports whether an If-None-Match list names etag (weak
// comparison, RFC 9110 §13.1.2).
func etagMatches(header, etag string) bool {
	for _, part := range splitComma(header) {
		if part == "*" || part == etag || part == "W/"+etag {
			return true
		}
	}
	return false
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			part := s[start:i]
			for len(part) > 0 && (part[0] == ' ' || part[0] == '\t') {
				part = part[1:]
			}
			for len(part) > 0 && (part[len(part)-1] == ' ' || part[len(part)-1] == '\t') {
				part = part[:len(part)-1]
			}
			if part != "" {
				out = append(out, part)
			}
			start = i + 1
		}
	}
	return out
}

// The public answers carry what the public pages show (UI.md §7) and
// nothing more: no membership numbers, no club of an entrant, no referee's
// notes or discrepancies — a test holds each against its page.

type publicTournamentJSON struct {
	ID            string              `json:"id"`
	Name          string              `json:"name"`
	Date          string              `json:"date"`
	Level         string              `json:"level"`
	Ruleset       string              `json:"ruleset"`
	Kind          string              `json:"kind"`
	RoundsPlanned int                 `json:"rounds_planned"`
	HandsPerRound int                 `json:"hands_per_round"`
	Entrants      []publicEntrantJSON `json:"entrants"`
	Rounds        []publicRoundBrief  `json:"rounds"`
}

type publicPlayerJSON struct {
	Name string `json:"name"`
}

type publicEntrantJSON struct {
	ID      string             `json:"id"`
	Players []publicPlayerJSON `json:"players"`
	Team    *string            `json:"team"`
}

func toPublicEntrantJSON(e domain.Entrant) publicEntrantJSON {
	out := publicEntrantJSON{ID: e.ID, Players: publicPlayers(e.Players)}
	if e.Team != "" {
		out.Team = new(e.Team)
	}
	return out
}

func publicPlayers(ps []domain.Player) []publicPlayerJSON {
	out := make([]publicPlayerJSON, 0, len(ps))
	for _, p := range ps {
		out = append(out, publicPlayerJSON{Name: p.Name})
	}
	return out
}

type publicRoundBrief struct {
	Number int    `json:"number"`
	State  string `json:"state"`
}

// getPublicTournament: GET /v1/public/tournaments/{tid}.
func (s *server) getPublicTournament(c *gin.Context) {
	pt, ok := s.publicOf(c)
	if !ok {
		return
	}
	t := pt.Tournament
	out := publicTournamentJSON{ID: t.ID, Name: t.Name, Date: t.Date.Format(dateLayout), Level: string(t.Level),
		Ruleset: string(t.Ruleset), Kind: string(t.Kind), RoundsPlanned: t.RoundsPlanned, HandsPerRound: t.HandsPerRound,
		Entrants: make([]publicEntrantJSON, 0, len(pt.Entrants)), Rounds: make([]publicRoundBrief, 0, len(pt.Rounds))}
	for _, e := range pt.Entrants {
		out.Entrants = append(out.Entrants, toPublicEntrantJSON(e))
	}
	for _, r := range pt.Rounds {
		out.Rounds = append(out.Rounds, publicRoundBrief{Number: r.Round.Number, State: string(r.Round.State)})
	}
	ok200(c, out)
}

type publicStandingsJSON struct {
	AfterRound  int                  `json:"after_round"`
	Provisional bool                 `json:"provisional"`
	Standings   []publicStandingJSON `json:"standings"`
}

// publicStandingJSON is a standings row as the public page shows it: the
// figures, and whether a referee's adjustment is in them (the page's "*"),
// not what the adjustment was for.
type publicStandingJSON struct {
	Rank     int                `json:"rank"`
	Entrant  string             `json:"entrant"`
	Players  []publicPlayerJSON `json:"players"`
	VP       int                `json:"vp"`
	MP       int                `json:"mp"`
	Adjusted bool               `json:"adjusted"`
	// Team and Matches: team tournaments (RULES §12.5), as in the
	// signed-in standings.
	Team    *string         `json:"team,omitempty"`
	Matches []teamMatchJSON `json:"matches,omitempty"`
}

func toPublicStandingsJSON(st app.StandingsTable, provisional bool) publicStandingsJSON {
	out := publicStandingsJSON{AfterRound: st.AfterRound, Provisional: provisional, Standings: make([]publicStandingJSON, 0, len(st.Rows))}
	for _, r := range st.Rows {
		row := publicStandingJSON{Rank: r.Rank, Entrant: r.Entrant.ID, Players: publicPlayers(r.Entrant.Players),
			VP: r.VP, MP: r.MP, Adjusted: len(st.Adjustments[r.Entrant.ID]) > 0}
		if st.Teams {
			team := r.Entrant.Team
			row.Team, row.Matches = &team, teamMatchesJSON(r.Entrant.ID, st.TeamMatches)
		}
		out.Standings = append(out.Standings, row)
	}
	return out
}

// getPublicStandings: GET /v1/public/tournaments/{tid}/standings
// ?after_round=n — the same figures as the signed-in standings.
func (s *server) getPublicStandings(c *gin.Context) {
	pt, ok := s.publicOf(c, "after_round")
	if !ok {
		return
	}
	after, err := intParam(c.Request.URL.Query(), "after_round", 1, pt.Tournament.RoundsPlanned, false)
	if err != nil {
		s.fail(c, err)
		return
	}
	st, provisional, err := pt.Standings(after)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toPublicStandingsJSON(st, provisional))
}

type publicTableJSON struct {
	Table    int             `json:"table"`
	Match    int             `json:"match,omitempty"` // teams (RULES §12.5)
	NS       lineJSON        `json:"ns"`
	EO       lineJSON        `json:"eo"`
	Hands    int             `json:"hands"`
	Complete bool            `json:"complete"`
	Result   *publicResultJS `json:"result"`
}

type publicResultJS struct {
	NS lineResultJSON `json:"ns"`
	EO lineResultJSON `json:"eo"`
}

type publicRoundJSON struct {
	Number       int               `json:"number"`
	HandsPlanned int               `json:"hands_planned"`
	Phase        string            `json:"phase"`
	State        string            `json:"state"`
	Tables       []publicTableJSON `json:"tables"`
	Byes         []string          `json:"byes"`
}

// getPublicRound: GET /v1/public/tournaments/{tid}/rounds/{n} — the
// seating and the results so far.
func (s *server) getPublicRound(c *gin.Context) {
	n, err := pathNumber(c, "n", maxRoundsPlanned)
	if err != nil {
		s.fail(c, err)
		return
	}
	pt, ok := s.publicOf(c)
	if !ok {
		return
	}
	r, err := pt.Round(n)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := publicRoundJSON{Number: r.Round.Number, HandsPlanned: r.Round.HandsPlanned, Phase: string(r.Round.Phase),
		State: string(r.Round.State), Tables: make([]publicTableJSON, 0, len(r.Tables)), Byes: append([]string{}, r.Round.Byes...)}
	for _, tb := range r.Tables {
		row := publicTableJSON{Table: tb.Table.Table, Match: tb.Table.Match, NS: tb.Table.Line(domain.NS), EO: tb.Table.Line(domain.EO), Hands: tb.Hands, Complete: tb.Complete}
		if tb.HasSheet {
			l := tb.Lines
			row.Result = &publicResultJS{
				NS: lineResultJSON{Total: l[domain.NS].Total, MP: l[domain.NS].MP, VP: l[domain.NS].VP},
				EO: lineResultJSON{Total: l[domain.EO].Total, MP: l[domain.EO].MP, VP: l[domain.EO].VP},
			}
		}
		out.Tables = append(out.Tables, row)
	}
	ok200(c, out)
}

// getPublicEvents: GET /v1/public/tournaments/{tid}/events, a
// text/event-stream of "sheet", "standings" and "round" events with the
// change as JSON data; a comment line every sse.Heartbeat; the stream ends
// when the client goes, the service shuts down or the tournament stops
// being public.
func (s *server) getPublicEvents(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	tid := c.Param("tid")
	if _, err := s.app.PublicTournament(c.Request.Context(), tid); err != nil {
		s.fail(c, err)
		return
	}
	ch, cancel := s.app.Events().Subscribe(tid)
	defer cancel()
	sse.Stream{
		Events:    ch,
		StillOpen: func(ctx context.Context) bool { return s.app.StillPublic(ctx, tid) },
		Data: func(e events.Event) []byte {
			data, _ := json.Marshal(publicEvent{Tournament: tid, Kind: string(e.Kind), Round: e.Round, Table: e.Table})
			return data
		},
	}.Serve(c.Request.Context(), c.Writer)
}

// publicEvent is the data of one API stream event.
type publicEvent struct {
	Tournament string `json:"tournament"`
	Kind       string `json:"kind"`
	Round      int    `json:"round"`
	Table      int    `json:"table"`
}
