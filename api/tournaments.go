package api

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/messages"
)

// Tournaments, their referees, entrants and rounds (API §4, §4.1; RULES §10).

type tournamentRequest struct {
	Name          string  `json:"name"`
	Date          string  `json:"date"`
	Level         string  `json:"level"`
	Ruleset       string  `json:"ruleset"`
	Kind          string  `json:"kind"`
	RoundsPlanned int     `json:"rounds_planned"`
	HandsPerRound int     `json:"hands_per_round"`
	VPTable       *string `json:"vp_table"`
	Club          *string `json:"club"`
	// Plan: RULES §12.1, API §4.3 (api/plan.go).
	Plan *planJSON `json:"plan"`
	// TimeZone: the hall's clock, an IANA name (issue 22); absent is
	// Europe/Rome.
	TimeZone string `json:"time_zone"`
}

type tournamentJSON struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Date          string  `json:"date"`
	Club          string  `json:"club"`
	Level         string  `json:"level"`
	Ruleset       string  `json:"ruleset"`
	Kind          string  `json:"kind"`
	RoundsPlanned int     `json:"rounds_planned"`
	HandsPerRound int     `json:"hands_per_round"`
	VPTable       *string `json:"vp_table"`
	Public        bool    `json:"public"`
	// Plan is the plan in force: the announced one or the default.
	Plan planJSON `json:"plan"`
	// RULES §12.6: an interrupted tournament (FITAB art. 39).
	InterruptedAfterRound *int  `json:"interrupted_after_round,omitempty"`
	Void                  *bool `json:"void,omitempty"`
	// TimeZone is the zone of every time its pages and exports show.
	TimeZone string `json:"time_zone"`
}

type tournamentsResponse struct {
	Tournaments []tournamentJSON `json:"tournaments"`
}

// dateLayout is the tournament date, a calendar day (RFC 3339 full-date).
const dateLayout = time.DateOnly

const (
	maxRoundsPlanned = app.MaxRoundsPlanned
	maxTables        = app.MaxTables
	maxEntrants      = app.MaxEntrants
)

func toTournamentJSON(t domain.Tournament) tournamentJSON {
	out := tournamentJSON{
		ID: t.ID, Name: t.Name, Date: t.Date.Format(dateLayout), Club: t.ClubID,
		Level: string(t.Level), Ruleset: string(t.Ruleset), Kind: string(t.Kind),
		RoundsPlanned: t.RoundsPlanned, HandsPerRound: t.HandsPerRound, Public: t.Public,
		Plan: toPlanJSON(t.EffectivePlan()), TimeZone: t.Zone(),
	}
	if !t.VPTable.IsZero() {
		id := t.VPTable.ID()
		out.VPTable = &id
	}
	if t.InterruptedAfterRound != nil {
		k, void := *t.InterruptedAfterRound, t.Void()
		out.InterruptedAfterRound, out.Void = &k, &void
	}
	return out
}

// createTournament: a club creates its own; an admin or the federation
// names the organising club (API §4.1; app.CreateTournament).
func (s *server) createTournament(c *gin.Context) {
	var req tournamentRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	in := app.TournamentInput{Name: req.Name, Date: req.Date, Level: req.Level, Ruleset: req.Ruleset, Kind: req.Kind,
		RoundsPlanned: req.RoundsPlanned, HandsPerRound: req.HandsPerRound, VPTable: req.VPTable, Club: req.Club, Plan: req.Plan.toDomain(), TimeZone: req.TimeZone}
	created, err := s.app.CreateTournament(c.Request.Context(), mustPrincipal(c), in)
	if err != nil {
		s.fail(c, err)
		return
	}
	created201(c, "/v1/tournaments/"+url.PathEscape(created.ID), toTournamentJSON(created))
}

// listTournaments lists what the caller may read.
func (s *server) listTournaments(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	ts, err := s.app.ListTournaments(c.Request.Context(), mustPrincipal(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	out := tournamentsResponse{Tournaments: make([]tournamentJSON, 0, len(ts))}
	for _, t := range ts {
		out.Tournaments = append(out.Tournaments, toTournamentJSON(t))
	}
	ok200(c, out)
}

func (s *server) getTournament(c *gin.Context) {
	t, err := s.app.Tournament(c.Request.Context(), mustPrincipal(c), c.Param("tid"))
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toTournamentJSON(t))
}

// assignReferee: PUT .../referees/{name}, by the organising club or an
// admin (API §4). Idempotent.
func (s *server) assignReferee(c *gin.Context) {
	if err := s.app.AssignReferee(c.Request.Context(), mustPrincipal(c), c.Param("tid"), c.Param("name")); err != nil {
		s.fail(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

type entrantsRequest struct {
	Entrants []entrantJSON `json:"entrants"`
}

type playerJSON struct {
	Name       string `json:"name"`
	Membership string `json:"membership"`
	// Sex ("F"/"M") and BirthYear: optional, for the prize categories;
	// shown only in the entrants list, never on public answers.
	Sex       string `json:"sex,omitempty"`
	BirthYear int    `json:"birth_year,omitempty"`
}

// toPlayer reads a player from the wire.
func (p playerJSON) toPlayer() domain.Player {
	return domain.Player{Name: p.Name, Membership: p.Membership, Sex: p.Sex, BirthYear: p.BirthYear}
}

type entrantJSON struct {
	ID      string       `json:"id"`
	Players []playerJSON `json:"players"`
	Team    *string      `json:"team"`
	Club    *string      `json:"club"`
	// WithdrawnFromRound: RULES §12.3, null when not withdrawn; read only
	// (PATCH .../entrants/{id} sets it).
	WithdrawnFromRound *int `json:"withdrawn_from_round"`
}

type entrantsResponse struct {
	Entrants []entrantJSON `json:"entrants"`
}

func toEntrantJSON(e domain.Entrant) entrantJSON {
	out := entrantJSON{ID: e.ID, Players: make([]playerJSON, 0, len(e.Players))}
	for _, p := range e.Players {
		out.Players = append(out.Players, playerJSON{Name: p.Name, Membership: p.Membership, Sex: p.Sex, BirthYear: p.BirthYear})
	}
	if e.Team != "" {
		out.Team = &e.Team
	}
	if e.Club != "" {
		out.Club = &e.Club
	}
	out.WithdrawnFromRound = e.WithdrawnFromRound
	return out
}

// addEntrants: POST .../entrants, in bulk and in one transaction: all or
// nothing.
func (s *server) addEntrants(c *gin.Context) {
	var req entrantsRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	in := make([]app.EntrantInput, 0, len(req.Entrants))
	for _, e := range req.Entrants {
		ei := app.EntrantInput{ID: e.ID, Team: e.Team, Club: e.Club}
		for _, p := range e.Players {
			ei.Players = append(ei.Players, p.toPlayer())
		}
		in = append(in, ei)
	}
	tid := c.Param("tid")
	es, err := s.app.AddEntrants(c.Request.Context(), mustPrincipal(c), tid, in)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := entrantsResponse{Entrants: make([]entrantJSON, 0, len(es))}
	for _, e := range es {
		out.Entrants = append(out.Entrants, toEntrantJSON(e))
	}
	created201(c, "/v1/tournaments/"+url.PathEscape(tid)+"/entrants", out)
}

func (s *server) listEntrants(c *gin.Context) {
	listOfTournament(s, c, s.app.Entrants, toEntrantJSON, func(l []entrantJSON) any { return entrantsResponse{Entrants: l} })
}

// listOfTournament answers GET of one of a tournament's lists: one
// operation (which checks read access), convert each item, wrap.
func listOfTournament[T, J any](s *server, c *gin.Context, load func(context.Context, app.Principal, string) ([]T, error), conv func(T) J, wrap func([]J) any) {
	items, err := load(c.Request.Context(), mustPrincipal(c), c.Param("tid"))
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]J, 0, len(items))
	for _, it := range items {
		out = append(out, conv(it))
	}
	ok200(c, wrap(out))
}

type roundRequest struct {
	Number       int            `json:"number"`
	HandsPlanned int            `json:"hands_planned"`
	Phase        string         `json:"phase"`
	Tables       []tableRequest `json:"tables"`
	Byes         []string       `json:"byes"`
	// Vacated: alone, their fixed-calendar opponent withdrawn (RULES §12.3).
	Vacated []string `json:"vacated"`
}

// tableJSON is a table of a round: ns and eo are an entrant id, or the two
// player ids of an individual line (api/lines.go).
type tableJSON struct {
	Table int      `json:"table"`
	Match int      `json:"match,omitempty"` // teams: the match (RULES §12.5)
	NS    lineJSON `json:"ns"`
	EO    lineJSON `json:"eo"`
	// Players: each line's players as they sat (RULES §12.4), in GET
	// .../rounds/{n}.
	Players *seatedJSON `json:"players,omitempty"`
}

type seatedJSON struct {
	NS []playerJSON `json:"ns"`
	EO []playerJSON `json:"eo"`
}

type roundJSON struct {
	Number       int         `json:"number"`
	HandsPlanned int         `json:"hands_planned"`
	Phase        string      `json:"phase"`
	State        string      `json:"state"`
	Tables       []tableJSON `json:"tables"`
	Byes         []string    `json:"byes"`
	// System and Seed: how the round was seated (api/pairings.go).
	System string  `json:"system,omitempty"`
	Seed   *uint64 `json:"seed,omitempty"`
	// Session is the session of the plan the round is played in; Groups
	// the groups a gironi round formed (RULES §12.1, API §4.3).
	Session int        `json:"session,omitempty"`
	Groups  [][]string `json:"groups,omitempty"`
	// Vacated: the entrants alone because their opponent withdrew (RULES
	// §12.3): the bye score, not a rest.
	Vacated []string `json:"vacated,omitempty"`
}

type roundsResponse struct {
	Rounds []roundJSON `json:"rounds"`
}

func toRoundJSON(r domain.Round) roundJSON {
	out := roundJSON{Number: r.Number, HandsPlanned: r.HandsPlanned, Phase: string(r.Phase), State: string(r.State),
		Tables: make([]tableJSON, 0, len(r.Tables)), Byes: append([]string{}, r.Byes...), System: string(r.System), Seed: r.Seed,
		Session: r.Session, Groups: r.Groups, Vacated: r.Vacated}
	for _, t := range r.Tables {
		tj := tableJSON{Table: t.Table, Match: t.Match, NS: t.Line(domain.NS), EO: t.Line(domain.EO)}
		if r.Seated != nil && t.NS2 == "" && t.EO2 == "" { // pairs and teams: one entrant a line
			tj.Players = &seatedJSON{NS: playersJSON(r.Seated[t.NS]), EO: playersJSON(r.Seated[t.EO])}
		}
		out.Tables = append(out.Tables, tj)
	}
	return out
}

func (s *server) createRound(c *gin.Context) {
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
	tid := c.Param("tid")
	r, err := s.app.CreateRound(c.Request.Context(), mustPrincipal(c), tid, in)
	if err != nil {
		s.fail(c, err)
		return
	}
	created201(c, roundPath(tid, r.Number), toRoundJSON(r))
}

func roundPath(tid string, n int) string {
	return "/v1/tournaments/" + url.PathEscape(tid) + "/rounds/" + strconv.Itoa(n)
}

func (s *server) listRounds(c *gin.Context) {
	listOfTournament(s, c, s.app.Rounds, toRoundJSON, func(l []roundJSON) any { return roundsResponse{Rounds: l} })
}

func (s *server) getRound(c *gin.Context) {
	n, err := pathNumber(c, "n", maxRoundsPlanned)
	if err != nil {
		s.fail(c, err)
		return
	}
	r, err := s.app.Round(c.Request.Context(), mustPrincipal(c), c.Param("tid"), n)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toRoundJSON(r))
}

// pathNumber reads a positive integer path parameter (a round or table
// number); anything else is a 400 naming the parameter.
func pathNumber(c *gin.Context, name string, limit int) (int, error) {
	v := c.Param(name)
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > limit || strconv.Itoa(n) != v {
		return 0, errParam(name, messages.New("api.whole_range", name, limit, v))
	}
	return n, nil
}

type roundStateRequest struct {
	State string `json:"state"`
}

// setRoundState: PATCH .../rounds/{n} moves a round forward through the
// states of RULES §10 (app.SetRoundState).
func (s *server) setRoundState(c *gin.Context) {
	n, err := pathNumber(c, "n", maxRoundsPlanned)
	if err != nil {
		s.fail(c, err)
		return
	}
	var req roundStateRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	r, err := s.app.SetRoundState(c.Request.Context(), mustPrincipal(c), c.Param("tid"), n, req.State)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toRoundJSON(r))
}

func playersJSON(ps []domain.Player) []playerJSON {
	out := make([]playerJSON, len(ps))
	for i, p := range ps {
		out[i] = playerJSON{Name: p.Name, Membership: p.Membership}
	}
	return out
}
