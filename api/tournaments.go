package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/domain"
	"segnapunti/store"
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
}

type tournamentsResponse struct {
	Tournaments []tournamentJSON `json:"tournaments"`
}

// dateLayout is the tournament date, a calendar day (RFC 3339 full-date).
const dateLayout = time.DateOnly

// maxRoundsPlanned bounds a tournament: RULES §10 kinds play 3 to 7 rounds;
// 30 leaves room for multi-session events.
const maxRoundsPlanned = 30

func toTournamentJSON(t domain.Tournament) tournamentJSON {
	out := tournamentJSON{
		ID: t.ID, Name: t.Name, Date: t.Date.Format(dateLayout), Club: t.ClubID,
		Level: string(t.Level), Ruleset: string(t.Ruleset), Kind: string(t.Kind),
		RoundsPlanned: t.RoundsPlanned, HandsPerRound: t.HandsPerRound,
	}
	if !t.VPTable.IsZero() {
		id := t.VPTable.ID()
		out.VPTable = &id
	}
	return out
}

// toDomain checks every field and names each bad one.
func (r tournamentRequest) toDomain() (domain.Tournament, []fieldError) {
	var errs []fieldError
	t := domain.Tournament{Name: strings.TrimSpace(r.Name), RoundsPlanned: r.RoundsPlanned, HandsPerRound: r.HandsPerRound}
	errs = appendErr(errs, checkText("/name", r.Name, maxNameLength, true))
	if r.Date == "" {
		errs = append(errs, fieldError{Pointer: "/date", Detail: "required: the day of the tournament, YYYY-MM-DD"})
	} else if d, err := time.Parse(dateLayout, r.Date); err != nil {
		errs = append(errs, fieldError{Pointer: "/date", Detail: fmt.Sprintf("want a date YYYY-MM-DD, got %q", r.Date)})
	} else {
		t.Date = d
	}
	var err error
	if r.Level == "" {
		errs = append(errs, fieldError{Pointer: "/level", Detail: "required: club, provincial, regional, national or event"})
	} else if t.Level, err = domain.ParseLevel(r.Level); err != nil {
		errs = append(errs, fieldError{Pointer: "/level", Detail: domainDetail(err)})
	}
	if r.Ruleset == "" {
		errs = append(errs, fieldError{Pointer: "/ruleset", Detail: "required: fitab-2025, fitab-int, fibur-ita or fibur-int"})
	} else if t.Ruleset, err = domain.ParseRuleset(r.Ruleset); err != nil {
		errs = append(errs, fieldError{Pointer: "/ruleset", Detail: domainDetail(err)})
	}
	if t.Kind, err = domain.ParseKind(r.Kind); err != nil {
		errs = append(errs, fieldError{Pointer: "/kind", Detail: domainDetail(err)})
	}
	if r.RoundsPlanned < 1 || r.RoundsPlanned > maxRoundsPlanned {
		errs = append(errs, fieldError{Pointer: "/rounds_planned", Detail: fmt.Sprintf("required: 1 to %d rounds", maxRoundsPlanned)})
	}
	if r.HandsPerRound < minPlannedHands || r.HandsPerRound > maxHands {
		errs = append(errs, fieldError{Pointer: "/hands_per_round", Detail: "required: 2, 3 or 4 hands (API §1 hands_planned)"})
	}
	if r.VPTable != nil {
		if t.VPTable, err = domain.ParseVPTable(*r.VPTable); err != nil {
			errs = append(errs, fieldError{Pointer: "/vp_table", Detail: domainDetail(err)})
		}
	}
	return t, errs
}

// createTournament: a club creates its own; an admin or the federation
// names the organising club (API §4.1).
func (s *server) createTournament(c *gin.Context) {
	p := mustPrincipal(c)
	if err := requireRole(p, domain.RoleClub, domain.RoleAdmin, domain.RoleFederation); err != nil {
		s.fail(c, err)
		return
	}
	var req tournamentRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	t, errs := req.toDomain()
	ctx := c.Request.Context()
	switch {
	case p.Role == domain.RoleClub && req.Club != nil && *req.Club != p.ClubID:
		s.fail(c, errForbidden(fmt.Sprintf("a club creates tournaments for itself only; leave club out or give %q", p.ClubID)))
		return
	case p.Role == domain.RoleClub:
		t.ClubID = p.ClubID
	case req.Club == nil || *req.Club == "":
		errs = append(errs, fieldError{Pointer: "/club", Detail: "required for an admin or federation token: the id of the organising club"})
	default:
		t.ClubID = *req.Club
		if !validID(t.ClubID) {
			errs = append(errs, fieldError{Pointer: "/club", Detail: fmt.Sprintf("no club %q", t.ClubID)})
		} else if _, err := s.db.GetClub(ctx, t.ClubID); errors.Is(err, domain.ErrNotFound) {
			errs = append(errs, fieldError{Pointer: "/club", Detail: fmt.Sprintf("no club %q", t.ClubID)})
		} else if err != nil {
			s.fail(c, err)
			return
		}
	}
	if len(errs) > 0 {
		s.fail(c, invalidFields(errs))
		return
	}
	created, err := s.db.CreateTournament(ctx, t)
	if err != nil {
		s.fail(c, err)
		return
	}
	created201(c, "/v1/tournaments/"+url.PathEscape(created.ID), toTournamentJSON(created))
}

// listTournaments lists what the caller may read: a club its own, a referee
// those it is assigned to, federation and admin all.
func (s *server) listTournaments(c *gin.Context) {
	p := mustPrincipal(c)
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	var f store.TournamentFilter
	switch p.Role {
	case domain.RoleClub:
		f.ClubID = p.ClubID
	case domain.RoleReferee:
		f.RefereeName = p.Name
	}
	if (p.Role == domain.RoleClub && f.ClubID == "") || (p.Role == domain.RoleReferee && f.RefereeName == "") {
		// An empty filter means "all": never hand it to a restricted role.
		ok200(c, tournamentsResponse{Tournaments: []tournamentJSON{}})
		return
	}
	ts, err := s.db.ListTournaments(c.Request.Context(), f)
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
	t, _, err := s.tournamentAccess(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toTournamentJSON(t))
}

// assignReferee: PUT .../referees/{name}, by the organising club or an
// admin (API §4). Idempotent.
func (s *server) assignReferee(c *gin.Context) {
	t, a, err := s.tournamentAccess(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	if !a.manage() {
		s.fail(c, errForbidden("only the organising club or an admin assigns referees"))
		return
	}
	name := c.Param("name")
	if fe := checkText("", name, maxNameLength, true); fe != nil || strings.TrimSpace(name) != name {
		s.fail(c, errParam("name", "the referee name must be 1 to 200 characters, without control characters or surrounding spaces"))
		return
	}
	if err := s.db.AssignReferee(c.Request.Context(), t.ID, name); err != nil {
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
}

type entrantJSON struct {
	ID      string       `json:"id"`
	Players []playerJSON `json:"players"`
	Team    *string      `json:"team"`
	Club    *string      `json:"club"`
}

type entrantsResponse struct {
	Entrants []entrantJSON `json:"entrants"`
}

// maxEntrants bounds one tournament's bulk entry.
const maxEntrants = 2000

// playersPerEntrant is how many players an entrant of each kind has (RULES
// §10): a pair two, an individual entrant one, a team at least four (teams
// may bring reserves, up to maxTeamPlayers).
func playersPerEntrant(k domain.Kind) (lo, hi int) {
	switch k {
	case domain.KindIndividual:
		return 1, 1
	case domain.KindTeams:
		return 4, maxTeamPlayers
	default:
		return 2, 2
	}
}

const maxTeamPlayers = 8

func toEntrantJSON(e domain.Entrant) entrantJSON {
	out := entrantJSON{ID: e.ID, Players: make([]playerJSON, 0, len(e.Players))}
	for _, p := range e.Players {
		out.Players = append(out.Players, playerJSON{Name: p.Name, Membership: p.Membership})
	}
	if e.Team != "" {
		out.Team = &e.Team
	}
	if e.Club != "" {
		out.Club = &e.Club
	}
	return out
}

func (r entrantsRequest) toDomain(k domain.Kind, existing map[string]bool) ([]domain.Entrant, []fieldError) {
	var errs []fieldError
	if len(r.Entrants) == 0 {
		return nil, []fieldError{{Pointer: "/entrants", Detail: "required: at least one entrant"}}
	}
	if len(r.Entrants) > maxEntrants {
		return nil, []fieldError{{Pointer: "/entrants", Detail: fmt.Sprintf("at most %d entrants at once", maxEntrants)}}
	}
	lo, hi := playersPerEntrant(k)
	seen := map[string]int{}
	out := make([]domain.Entrant, 0, len(r.Entrants))
	for i, e := range r.Entrants {
		at := fmt.Sprintf("/entrants/%d", i)
		if fe := checkIDSyntax(at+"/id", e.ID); fe != nil {
			errs = append(errs, *fe)
		} else if j, dup := seen[e.ID]; dup {
			errs = append(errs, fieldError{Pointer: at + "/id", Detail: fmt.Sprintf("entrant %q is listed twice (also at /entrants/%d)", e.ID, j)})
		} else if existing[e.ID] {
			errs = append(errs, fieldError{Pointer: at + "/id", Detail: fmt.Sprintf("entrant %q is already entered", e.ID)})
		}
		seen[e.ID] = i
		if n := len(e.Players); n < lo || n > hi {
			want := strconv.Itoa(lo)
			if hi != lo {
				want = fmt.Sprintf("%d to %d", lo, hi)
			}
			errs = append(errs, fieldError{Pointer: at + "/players", Detail: fmt.Sprintf("a %s entrant has %s players, not %d", k, want, n)})
		}
		d := domain.Entrant{ID: e.ID}
		for j, p := range e.Players {
			pat := fmt.Sprintf("%s/players/%d", at, j)
			errs = appendErr(errs, checkText(pat+"/name", p.Name, maxNameLength, true))
			errs = appendErr(errs, checkText(pat+"/membership", p.Membership, maxMembershipLength, false))
			d.Players = append(d.Players, domain.Player{Name: strings.TrimSpace(p.Name), Membership: strings.TrimSpace(p.Membership)})
		}
		if e.Team != nil {
			errs = appendErr(errs, checkText(at+"/team", *e.Team, maxNameLength, true))
			d.Team = strings.TrimSpace(*e.Team)
		} else if k == domain.KindTeams {
			errs = append(errs, fieldError{Pointer: at + "/team", Detail: "required in a team tournament: the team's name"})
		}
		if e.Club != nil {
			errs = appendErr(errs, checkText(at+"/club", *e.Club, maxNameLength, false))
			d.Club = strings.TrimSpace(*e.Club)
		}
		out = append(out, d)
	}
	return out, errs
}

// enteredIDs is the set of the tournament's entrant ids.
func (s *server) enteredIDs(ctx context.Context, tid string) (map[string]bool, error) {
	es, err := s.db.ListEntrants(ctx, tid)
	if err != nil {
		return nil, err
	}
	ids := make(map[string]bool, len(es))
	for _, e := range es {
		ids[e.ID] = true
	}
	return ids, nil
}

// addEntrants: POST .../entrants, in bulk and in one transaction: all or
// nothing.
func (s *server) addEntrants(c *gin.Context) {
	t, a, err := s.tournamentAccess(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	if !a.manage() {
		s.fail(c, errForbidden("only the organising club or an admin enters entrants"))
		return
	}
	var req entrantsRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	existing, err := s.enteredIDs(ctx, t.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	es, errs := req.toDomain(t.Kind, existing)
	if len(errs) > 0 {
		s.fail(c, invalidFields(errs))
		return
	}
	if err := s.db.AddEntrants(ctx, t.ID, es); errors.Is(err, domain.ErrConflict) {
		// Someone entered one of them between the check and the write.
		s.fail(c, errConflict("an entrant of the request was entered meanwhile; nothing was written"))
		return
	} else if err != nil {
		s.fail(c, err)
		return
	}
	out := entrantsResponse{Entrants: make([]entrantJSON, 0, len(es))}
	for _, e := range es {
		out.Entrants = append(out.Entrants, toEntrantJSON(e))
	}
	created201(c, "/v1/tournaments/"+url.PathEscape(t.ID)+"/entrants", out)
}

func (s *server) listEntrants(c *gin.Context) {
	listOfTournament(s, c, s.db.ListEntrants, toEntrantJSON, func(l []entrantJSON) any { return entrantsResponse{Entrants: l} })
}

// listOfTournament answers GET of one of a tournament's lists: read access
// to the tournament, load, convert each item, wrap.
func listOfTournament[T, J any](s *server, c *gin.Context, load func(context.Context, string) ([]T, error), conv func(T) J, wrap func([]J) any) {
	t, _, err := s.tournamentAccess(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	items, err := load(c.Request.Context(), t.ID)
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
	Number       int         `json:"number"`
	HandsPlanned int         `json:"hands_planned"`
	Phase        string      `json:"phase"`
	Tables       []tableJSON `json:"tables"`
	Byes         []string    `json:"byes"`
}

type tableJSON struct {
	Table int    `json:"table"`
	NS    string `json:"ns"`
	EO    string `json:"eo"`
}

type roundJSON struct {
	Number       int         `json:"number"`
	HandsPlanned int         `json:"hands_planned"`
	Phase        string      `json:"phase"`
	State        string      `json:"state"`
	Tables       []tableJSON `json:"tables"`
	Byes         []string    `json:"byes"`
}

type roundsResponse struct {
	Rounds []roundJSON `json:"rounds"`
}

// maxTables bounds one round: a thousand tables seat 4000 players.
const maxTables = 1000

func toRoundJSON(r domain.Round) roundJSON {
	out := roundJSON{Number: r.Number, HandsPlanned: r.HandsPlanned, Phase: string(r.Phase), State: string(r.State),
		Tables: make([]tableJSON, 0, len(r.Tables)), Byes: append([]string{}, r.Byes...)}
	for _, t := range r.Tables {
		out.Tables = append(out.Tables, tableJSON{Table: t.Table, NS: t.NS, EO: t.EO})
	}
	return out
}

// toDomain checks a round against its tournament and entrants: the number
// within the plan, hands 2..4 (the tournament's when left out), a known
// phase, and every entrant entered and seated at most once (RULES §10).
func (r roundRequest) toDomain(t domain.Tournament, entered map[string]bool) (domain.Round, []fieldError) {
	var errs []fieldError
	out := domain.Round{Number: r.Number, HandsPlanned: r.HandsPlanned, State: domain.RoundPlaying}
	if r.Number < 1 || r.Number > t.RoundsPlanned {
		errs = append(errs, fieldError{Pointer: "/number", Detail: fmt.Sprintf("required: a round from 1 to %d (the tournament's rounds_planned)", t.RoundsPlanned)})
	}
	if r.HandsPlanned == 0 {
		out.HandsPlanned = t.HandsPerRound
	} else if r.HandsPlanned < minPlannedHands || r.HandsPlanned > maxHands {
		errs = append(errs, fieldError{Pointer: "/hands_planned", Detail: "2, 3 or 4 hands (left out: the tournament's hands_per_round)"})
	}
	var err error
	if r.Phase == "" {
		errs = append(errs, fieldError{Pointer: "/phase", Detail: "required: mitchell, danese, danese_modificato, italiana or gironi"})
	} else if out.Phase, err = domain.ParsePhase(r.Phase); err != nil {
		errs = append(errs, fieldError{Pointer: "/phase", Detail: domainDetail(err)})
	}
	if len(r.Tables) == 0 {
		errs = append(errs, fieldError{Pointer: "/tables", Detail: "required: at least one table"})
	}
	if len(r.Tables) > maxTables {
		return out, append(errs, fieldError{Pointer: "/tables", Detail: fmt.Sprintf("at most %d tables", maxTables)})
	}
	seated := map[string]string{} // entrant id → pointer where it sits
	seat := func(ptr, id string) {
		switch {
		case id == "":
			errs = append(errs, fieldError{Pointer: ptr, Detail: "required: an entrant id"})
		case !entered[id]:
			errs = append(errs, fieldError{Pointer: ptr, Detail: fmt.Sprintf("entrant %q is not entered in the tournament", id)})
		case seated[id] != "":
			errs = append(errs, fieldError{Pointer: ptr, Detail: fmt.Sprintf("entrant %q appears twice in the round (also at %s); RULES §10", id, seated[id])})
		default:
			seated[id] = ptr
		}
	}
	tables := map[int]int{}
	for i, tb := range r.Tables {
		at := fmt.Sprintf("/tables/%d", i)
		if tb.Table < 1 || tb.Table > maxTables {
			errs = append(errs, fieldError{Pointer: at + "/table", Detail: fmt.Sprintf("a table number from 1 to %d", maxTables)})
		} else if j, dup := tables[tb.Table]; dup {
			errs = append(errs, fieldError{Pointer: at + "/table", Detail: fmt.Sprintf("table %d is listed twice (also at /tables/%d)", tb.Table, j)})
		} else {
			tables[tb.Table] = i
		}
		seat(at+"/ns", tb.NS)
		seat(at+"/eo", tb.EO)
		out.Tables = append(out.Tables, domain.TableAssignment{Table: tb.Table, NS: tb.NS, EO: tb.EO})
	}
	for i, id := range r.Byes {
		seat(fmt.Sprintf("/byes/%d", i), id)
	}
	out.Byes = append([]string{}, r.Byes...)
	slices.SortFunc(out.Tables, func(a, b domain.TableAssignment) int { return a.Table - b.Table })
	return out, errs
}

func (s *server) createRound(c *gin.Context) {
	t, a, err := s.tournamentAccess(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	if !a.manage() {
		s.fail(c, errForbidden("only the organising club or an admin publishes rounds"))
		return
	}
	var req roundRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	entered, err := s.enteredIDs(ctx, t.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	r, errs := req.toDomain(t, entered)
	if len(errs) > 0 {
		s.fail(c, invalidFields(errs))
		return
	}
	if err := s.db.CreateRound(ctx, t.ID, r); errors.Is(err, domain.ErrConflict) {
		s.fail(c, errConflict(fmt.Sprintf("round %d exists already", r.Number)))
		return
	} else if err != nil {
		s.fail(c, err)
		return
	}
	created201(c, roundPath(t.ID, r.Number), toRoundJSON(r))
}

func roundPath(tid string, n int) string {
	return "/v1/tournaments/" + url.PathEscape(tid) + "/rounds/" + strconv.Itoa(n)
}

func (s *server) listRounds(c *gin.Context) {
	listOfTournament(s, c, s.db.ListRounds, toRoundJSON, func(l []roundJSON) any { return roundsResponse{Rounds: l} })
}

func (s *server) getRound(c *gin.Context) {
	t, _, err := s.tournamentAccess(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	r, err := s.round(c, t)
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
		return 0, errParam(name, fmt.Sprintf("%s must be a whole number from 1 to %d, not %q", name, limit, v))
	}
	return n, nil
}

// round loads the round of the path.
func (s *server) round(c *gin.Context, t domain.Tournament) (domain.Round, error) {
	n, err := pathNumber(c, "n", maxRoundsPlanned)
	if err != nil {
		return domain.Round{}, err
	}
	r, err := s.db.GetRound(c.Request.Context(), t.ID, n)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Round{}, errNotFound(fmt.Sprintf("tournament %q has no round %d", t.ID, n))
	}
	return r, err
}

type roundStateRequest struct {
	State string `json:"state"`
}

// setRoundState: PATCH .../rounds/{n} moves a round forward through the
// states of RULES §10; backward is a 409. The state is compare-and-set, so
// two referees pressing at once cannot both move it.
func (s *server) setRoundState(c *gin.Context) {
	t, a, err := s.tournamentAccess(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	if !a.changeRoundState(t) {
		detail := "only a referee of the tournament or an admin changes round states"
		if t.Level == domain.LevelClub {
			detail = "only a referee of the tournament, the organising club or an admin changes round states"
		}
		s.fail(c, errForbidden(detail))
		return
	}
	r, err := s.round(c, t)
	if err != nil {
		s.fail(c, err)
		return
	}
	var req roundStateRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	next, err := domain.ParseRoundState(req.State)
	if err != nil {
		s.fail(c, invalidFields([]fieldError{{Pointer: "/state", Detail: domainDetail(err)}}))
		return
	}
	if next == r.State {
		ok200(c, toRoundJSON(r)) // a retried PATCH changes nothing
		return
	}
	if !r.State.CanMoveTo(next) {
		s.fail(c, errConflict(fmt.Sprintf("round %d is %s; a round only moves forward (RULES §10), not back to %s", r.Number, r.State, next)))
		return
	}
	if err := s.db.SetRoundState(c.Request.Context(), t.ID, r.Number, r.State, next); errors.Is(err, domain.ErrConflict) {
		s.fail(c, errConflict(fmt.Sprintf("round %d changed state meanwhile; read it again", r.Number)))
		return
	} else if err != nil {
		s.fail(c, err)
		return
	}
	r.State = next
	ok200(c, toRoundJSON(r))
}
