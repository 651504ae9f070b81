package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"segnapunti/domain"
	"segnapunti/events"
	"segnapunti/store"
)

// Tournaments, their referees, entrants and rounds (API §4, §4.1; RULES
// §10). The inputs are plain values as a JSON body or a form gives them;
// each bad field is named by its JSON pointer, which is also the name of
// the form field that fills it (UI.md).

// TournamentInput is a new tournament as the caller writes it.
type TournamentInput struct {
	Name          string
	Date          string // YYYY-MM-DD
	Level         string
	Ruleset       string
	Kind          string
	RoundsPlanned int
	HandsPerRound int
	VPTable       *string
	Club          *string // the organising club; a club caller may leave it out
	// Plan is the plan announced before round 1 (RULES §12.1); nil
	// announces none (the default plan).
	Plan *domain.PlanInput
	// TimeZone is the IANA name of the hall's clock (issue 22); "" is
	// domain.DefaultTimeZone.
	TimeZone string
}

// DateLayout is the tournament date, a calendar day (RFC 3339 full-date).
const DateLayout = time.DateOnly

// toDomain checks every field and names each bad one.
func (r TournamentInput) toDomain() (domain.Tournament, []FieldError) {
	var errs []FieldError
	t := domain.Tournament{Name: strings.TrimSpace(r.Name), RoundsPlanned: r.RoundsPlanned, HandsPerRound: r.HandsPerRound}
	errs = appendErr(errs, checkText("/name", r.Name, MaxNameLength, true))
	if r.Date == "" {
		errs = append(errs, field("/date", "field.date_required"))
	} else if d, err := time.Parse(DateLayout, r.Date); err != nil {
		errs = append(errs, field("/date", "field.date_shape", r.Date))
	} else {
		t.Date = d
	}
	var err error
	if r.Level == "" {
		errs = append(errs, field("/level", "field.level_required"))
	} else if t.Level, err = domain.ParseLevel(r.Level); err != nil {
		errs = append(errs, domainError("/level", err))
	}
	if r.Ruleset == "" {
		errs = append(errs, field("/ruleset", "field.ruleset_required"))
	} else if t.Ruleset, err = domain.ParseRuleset(r.Ruleset); err != nil {
		errs = append(errs, domainError("/ruleset", err))
	}
	if t.Kind, err = domain.ParseKind(r.Kind); err != nil {
		errs = append(errs, domainError("/kind", err))
	}
	if r.RoundsPlanned < 1 || r.RoundsPlanned > MaxRoundsPlanned {
		errs = append(errs, field("/rounds_planned", "field.rounds_required", MaxRoundsPlanned))
	}
	if r.HandsPerRound < MinPlannedHands || r.HandsPerRound > MaxHands {
		errs = append(errs, field("/hands_per_round", "field.hands_required"))
	}
	if r.VPTable != nil {
		if t.VPTable, err = domain.ParseVPTable(*r.VPTable); err != nil {
			errs = append(errs, domainError("/vp_table", err))
		}
	}
	if r.TimeZone != "" {
		t.TimeZone = r.TimeZone
		errs = appendErr(errs, checkTimeZone(r.TimeZone))
	}
	if r.Plan != nil && len(errs) == 0 { // the plan is read against the fields above
		t.Plan, errs = parsePlan(*r.Plan, t)
	}
	return t, errs
}

// CreateTournament: a club creates its own; an admin or the federation
// names the organising club (API §4.1).
func (a *App) CreateTournament(ctx context.Context, p Principal, in TournamentInput) (domain.Tournament, error) {
	if err := RequireRole(p, domain.RoleClub, domain.RoleAdmin, domain.RoleFederation); err != nil {
		return domain.Tournament{}, err
	}
	t, errs := in.toDomain()
	switch {
	case p.Role == domain.RoleClub && in.Club != nil && *in.Club != p.ClubID:
		return domain.Tournament{}, forbidden("api.club_own", p.ClubID)
	case p.Role == domain.RoleClub:
		t.ClubID = p.ClubID
	case in.Club == nil || *in.Club == "":
		errs = append(errs, field("/club", "field.club_required"))
	default:
		t.ClubID = *in.Club
		if !ValidID(t.ClubID) {
			errs = append(errs, field("/club", "field.no_club", t.ClubID))
		} else if _, err := a.db.GetClub(ctx, t.ClubID); errors.Is(err, domain.ErrNotFound) {
			errs = append(errs, field("/club", "field.no_club", t.ClubID))
		} else if err != nil {
			return domain.Tournament{}, err
		}
	}
	if len(errs) > 0 {
		return domain.Tournament{}, invalid(errs)
	}
	return a.db.CreateTournament(ctx, t)
}

// ListTournaments lists what p may read: a club its own, a referee those
// it is assigned to, the federation and an admin all.
func (a *App) ListTournaments(ctx context.Context, p Principal) ([]domain.Tournament, error) {
	var f store.TournamentFilter
	switch p.Role {
	case domain.RoleAdmin, domain.RoleFederation:
	case domain.RoleClub:
		f.ClubID = p.ClubID
	case domain.RoleReferee:
		f.RefereeName = p.Name
	default:
		return nil, nil
	}
	if (p.Role == domain.RoleClub && f.ClubID == "") || (p.Role == domain.RoleReferee && f.RefereeName == "") {
		// An empty filter means "all": never hand it to a restricted role.
		return nil, nil
	}
	return a.db.ListTournaments(ctx, f)
}

// Tournament is one tournament p may read.
func (a *App) Tournament(ctx context.Context, p Principal, tid string) (domain.Tournament, error) {
	return a.readable(ctx, p, tid)
}

// TournamentDetail is a tournament with what a page shows of it.
type TournamentDetail struct {
	Tournament domain.Tournament
	Access     Access
	// Entrants and Rounds are shared by every reader of this version of
	// the tournament: read them, never change them.
	Entrants []domain.Entrant
	Rounds   []domain.Round
	Referees []string
	// Version names the state of the tournament, its entrants and rounds
	// they were read at: equal versions, equal Entrants and Rounds (what
	// a page renders from them alone can be kept by it).
	Version string
}

// TournamentDetail is a tournament p may read with its entrants, rounds
// and referees, and what p may do with it (for a page's buttons). The
// entrants and rounds come from the cache per tournament version that the
// standings read (one query when the tournament has not changed).
func (a *App) TournamentDetail(ctx context.Context, p Principal, tid string) (TournamentDetail, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return TournamentDetail{}, err
	}
	d := TournamentDetail{Tournament: t, Access: acc}
	facts, stamp, err := a.factsNow(ctx, t.ID)
	if err != nil {
		return TournamentDetail{}, err
	}
	d.Entrants, d.Rounds, d.Version = facts.entrants, facts.rounds, string(stamp.TournamentPart())
	if d.Referees, err = a.db.ListReferees(ctx, t.ID); err != nil {
		return TournamentDetail{}, err
	}
	return d, nil
}

// AssignReferee names a referee of the tournament, by the organising club
// or an admin (API §4). Idempotent.
func (a *App) AssignReferee(ctx context.Context, p Principal, tid, name string) error {
	t, err := a.managed(ctx, p, tid, "assigns referees")
	if err != nil {
		return err
	}
	if fe := checkText("", name, MaxNameLength, true); fe != nil || strings.TrimSpace(name) != name {
		return paramError("name", "api.referee_name")
	}
	return a.db.AssignReferee(ctx, t.ID, name)
}

// EntrantInput is one entrant as the caller writes it; nil Team or Club
// is left out.
type EntrantInput struct {
	ID      string
	Players []domain.Player
	Team    *string
	Club    *string
}

// playersPerEntrant is how many players an entrant of each kind has (RULES
// §10): a pair two, an individual entrant one, a team at least four.
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

func entrantsToDomain(in []EntrantInput, k domain.Kind, existing map[string]bool) ([]domain.Entrant, []FieldError) {
	var errs []FieldError
	if len(in) == 0 {
		return nil, []FieldError{field("/entrants", "field.no_entrant")}
	}
	if len(in) > MaxEntrants {
		return nil, []FieldError{field("/entrants", "field.too_many_entrants", MaxEntrants)}
	}
	lo, hi := playersPerEntrant(k)
	seen := map[string]int{}
	out := make([]domain.Entrant, 0, len(in))
	for i, e := range in {
		at := fmt.Sprintf("/entrants/%d", i)
		if fe := checkIDSyntax(at+"/id", e.ID); fe != nil {
			errs = append(errs, *fe)
		} else if j, dup := seen[e.ID]; dup {
			errs = append(errs, field(at+"/id", "field.entrant_twice", e.ID, j))
		} else if existing[e.ID] {
			errs = append(errs, field(at+"/id", "field.entrant_entered", e.ID))
		}
		seen[e.ID] = i
		if n := len(e.Players); n < lo || n > hi {
			if hi != lo {
				errs = append(errs, field(at+"/players", "field.players_range", k, lo, hi, n))
			} else {
				errs = append(errs, field(at+"/players", "field.players", k, lo, n))
			}
		}
		d := domain.Entrant{ID: e.ID}
		for j, pl := range e.Players {
			pat := fmt.Sprintf("%s/players/%d", at, j)
			errs = appendErr(errs, checkText(pat+"/name", pl.Name, MaxNameLength, true))
			errs = appendErr(errs, checkMembership(pat+"/membership", pl.Membership))
			sex := strings.ToUpper(strings.TrimSpace(pl.Sex))
			if !domain.ValidPlayerSex(sex) {
				errs = append(errs, field(pat+"/sex", "field.sex", pl.Sex))
			}
			if !domain.ValidBirthYear(pl.BirthYear) {
				errs = append(errs, field(pat+"/birth_year", "field.birth_year"))
			}
			d.Players = append(d.Players, domain.Player{Name: strings.TrimSpace(pl.Name), Membership: strings.TrimSpace(pl.Membership),
				Sex: sex, BirthYear: pl.BirthYear})
		}
		if e.Team != nil {
			errs = appendErr(errs, checkText(at+"/team", *e.Team, MaxNameLength, true))
			d.Team = strings.TrimSpace(*e.Team)
		} else if k == domain.KindTeams {
			errs = append(errs, field(at+"/team", "field.team_required"))
		}
		if e.Club != nil {
			errs = appendErr(errs, checkText(at+"/club", *e.Club, MaxNameLength, false))
			d.Club = strings.TrimSpace(*e.Club)
		}
		out = append(out, d)
	}
	return out, errs
}

// enteredIDs is the set of the tournament's entrant ids.
func (a *App) enteredIDs(ctx context.Context, tid string) (map[string]bool, error) {
	es, err := a.db.ListEntrants(ctx, tid)
	if err != nil {
		return nil, err
	}
	ids := make(map[string]bool, len(es))
	for _, e := range es {
		ids[e.ID] = true
	}
	return ids, nil
}

// AddEntrants enters entrants in bulk, in one transaction: all or nothing.
func (a *App) AddEntrants(ctx context.Context, p Principal, tid string, in []EntrantInput) ([]domain.Entrant, error) {
	t, err := a.managed(ctx, p, tid, "enters entrants")
	if err != nil {
		return nil, err
	}
	existing, err := a.enteredIDs(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	es, errs := entrantsToDomain(in, t.Kind, existing)
	if len(errs) > 0 {
		return nil, invalid(errs)
	}
	if err := a.db.AddEntrants(ctx, t.ID, es); errors.Is(err, domain.ErrConflict) {
		// Someone entered one of them between the check and the write.
		return nil, conflict("api.entrant_race")
	} else if err != nil {
		return nil, err
	}
	a.changed(ctx, t.ID, events.Standings, 0, 0)
	return es, nil
}

// Entrants lists a tournament's entrants.
func (a *App) Entrants(ctx context.Context, p Principal, tid string) ([]domain.Entrant, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return nil, err
	}
	return a.db.ListEntrants(ctx, t.ID)
}

// RoundInput is a round with its manual seating, as the caller writes it.
type RoundInput struct {
	Number       int
	HandsPlanned int // 0: the tournament's hands_per_round
	Phase        string
	Tables       []domain.TableAssignment
	Byes         []string
	// Vacated are the entrants alone this round because the opponent a
	// fixed calendar gave them has withdrawn (RULES §12.3, FITAB art. 37):
	// the bye score, not counted as a rest.
	Vacated []string
	// Written, when not nil, is each table's two lines (NS, EO) as the
	// caller wrote them, parallel to Tables, whose NS/EO fields it then
	// replaces: the API passes it so that a line of the wrong shape for the
	// tournament's kind is refused naming the field. Without it a line is
	// a list of players when it has a second player (NS2, EO2).
	Written [][2]LineInput
}

// LineInput is who sits at a line as written: one entrant id (pairs,
// teams: "ns": "1") or a list of player ids (individual: "ns": ["3",
// "11"], API §4.2). List says which shape the caller used, so that the
// wrong one is refused naming the field.
type LineInput struct {
	IDs  []string
	List bool
}

// One is a line written as one entrant id.
func One(id string) LineInput { return LineInput{IDs: []string{id}} }

// Players is a line written as a list of player ids.
func Players(ids ...string) LineInput { return LineInput{IDs: ids, List: true} }

// toDomain checks a round against its tournament and entrants: the number
// within the plan, hands 2..4 (the tournament's when left out), a known
// phase, and every entrant entered and seated at most once (RULES §10).
func (r RoundInput) toDomain(t domain.Tournament, entered map[string]bool) (domain.Round, []FieldError) {
	var errs []FieldError
	out := domain.Round{Number: r.Number, HandsPlanned: r.HandsPlanned, State: domain.RoundPlaying}
	if r.Number < 1 || r.Number > t.RoundsPlanned {
		errs = append(errs, field("/number", "field.round_number", t.RoundsPlanned))
	}
	if r.HandsPlanned == 0 {
		out.HandsPlanned = t.HandsPerRound
	} else if r.HandsPlanned < MinPlannedHands || r.HandsPlanned > MaxHands {
		errs = append(errs, field("/hands_planned", "field.hands_planned"))
	}
	var err error
	if r.Phase == "" {
		out.Phase = t.EffectivePlan().PhaseOf(r.Number) // RULES §12.1: the plan's phase of the round
	} else if out.Phase, err = domain.ParsePhase(r.Phase); err != nil {
		errs = append(errs, domainError("/phase", err))
	}
	if len(r.Tables) == 0 {
		errs = append(errs, field("/tables", "field.no_table"))
	}
	if len(r.Tables) > MaxTables {
		return out, append(errs, field("/tables", "field.too_many_tables", MaxTables))
	}
	seated := map[string]string{} // entrant id → pointer where it sits
	teams := t.Kind == domain.KindTeams
	atTables := map[string]int{} // teams: the tables an entrant sits at
	seat := func(ptr, id string) {
		switch {
		case id == "":
			errs = append(errs, field(ptr, "field.seat_required"))
		case !entered[id]:
			errs = append(errs, field(ptr, "field.not_entered", id))
		case teams && strings.HasPrefix(ptr, "/tables/") && atTables[id] == 1 && !strings.HasPrefix(seated[id], "/byes/"):
			// RULES §12.5: a team sits at the two tables of its match;
			// domain.ValidateTeamRound checks they are one match.
			atTables[id]++
		case seated[id] != "":
			key := "field.seated_twice"
			if strings.HasPrefix(seated[id], "/byes/") { // seated first among the byes
				key = "field.seated_and_bye"
			}
			errs = append(errs, field(ptr, key, id, seated[id]))
		default:
			seated[id] = ptr
			if strings.HasPrefix(ptr, "/tables/") {
				atTables[id]++
			}
		}
	}
	individual := t.Kind == domain.KindIndividual
	line := func(ptr string, in LineInput) []string {
		switch {
		case individual && !in.List:
			errs = append(errs, field(ptr, "api.line_want_array"))
			return nil
		case individual && len(in.IDs) != domain.PlayersPerIndividualLine:
			errs = append(errs, field(ptr, "api.line_two", len(in.IDs)))
			return nil
		case individual:
			for j, id := range in.IDs {
				seat(fmt.Sprintf("%s/%d", ptr, j), id)
			}
			return in.IDs
		case in.List:
			errs = append(errs, field(ptr, "api.line_want_string", kindName(t.Kind)))
			return nil
		}
		id := ""
		if len(in.IDs) > 0 {
			id = in.IDs[0]
		}
		seat(ptr, id)
		return []string{id}
	}
	tables := map[int]int{}
	for i, tb := range r.Tables {
		at := fmt.Sprintf("/tables/%d", i)
		if tb.Table < 1 || tb.Table > MaxTables {
			errs = append(errs, field(at+"/table", "field.table_range", MaxTables))
		} else if j, dup := tables[tb.Table]; dup {
			errs = append(errs, field(at+"/table", "field.table_twice", tb.Table, j))
		} else {
			tables[tb.Table] = i
		}
		var lines [2]LineInput
		if i < len(r.Written) {
			lines = r.Written[i]
		} else {
			for _, l := range domain.Lines {
				lines[l] = LineInput{IDs: tb.Line(l), List: len(tb.Line(l)) > 1}
			}
		}
		ta := domain.TableAssignment{Table: tb.Table, Match: tb.Match}
		if tb.Match != 0 && !teams {
			errs = append(errs, field(at+"/match", "api.no_matches", kindName(t.Kind)))
		}
		ta.SetLine(domain.NS, line(at+"/ns", lines[domain.NS]))
		ta.SetLine(domain.EO, line(at+"/eo", lines[domain.EO]))
		out.Tables = append(out.Tables, ta)
	}
	for i, id := range r.Byes {
		seat(fmt.Sprintf("/byes/%d", i), id)
	}
	out.Byes = append([]string{}, r.Byes...)
	for i, id := range r.Vacated {
		seat(fmt.Sprintf("/vacated/%d", i), id)
	}
	if len(r.Vacated) > 0 {
		out.Vacated = append([]string{}, r.Vacated...)
	}
	if teams && len(errs) == 0 {
		errs = append(errs, teamRoundErrors(t.Ruleset, out, tables)...)
	}
	slices.SortFunc(out.Tables, func(a, b domain.TableAssignment) int { return a.Table - b.Table })
	return out, errs
}

// CreateRound publishes a round with its seating, by the organising club
// or an admin.
func (a *App) CreateRound(ctx context.Context, p Principal, tid string, in RoundInput) (domain.Round, error) {
	t, err := a.managed(ctx, p, tid, "publishes rounds")
	if err != nil {
		return domain.Round{}, err
	}
	entered, err := a.enteredIDs(ctx, t.ID)
	if err != nil {
		return domain.Round{}, err
	}
	r, errs := in.toDomain(t, entered)
	if len(errs) > 0 {
		return domain.Round{}, invalid(errs)
	}
	if err := a.checkVacated(ctx, t, r); err != nil {
		return domain.Round{}, err
	}
	if err := a.db.CreateRound(ctx, t.ID, r); errors.Is(err, domain.ErrConflict) {
		return domain.Round{}, conflict("api.round_exists", r.Number)
	} else if err != nil {
		return domain.Round{}, err
	}
	a.changed(ctx, t.ID, events.Round, r.Number, 0)
	return r, nil
}

// Rounds lists a tournament's rounds.
func (a *App) Rounds(ctx context.Context, p Principal, tid string) ([]domain.Round, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return nil, err
	}
	rounds, err := a.db.ListRounds(ctx, t.ID)
	plan := t.EffectivePlan()
	for i := range rounds {
		rounds[i].Session = plan.SessionOf(rounds[i].Number) // RULES §12.1
	}
	return rounds, err
}

// Round is one round of a tournament p may read.
func (a *App) Round(ctx context.Context, p Principal, tid string, n int) (domain.Round, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return domain.Round{}, err
	}
	r, err := a.round(ctx, t, n)
	if err != nil {
		return r, err
	}
	// RULES §12.4: the players who sat, substitutions applied. The
	// entrants come from the cache per tournament version (read, never
	// changed), as the tournament's pages read them.
	facts, _, err := a.factsNow(ctx, t.ID)
	if err != nil {
		return r, err
	}
	entrants := facts.entrants
	subs, err := a.db.ListSubstitutions(ctx, t.ID)
	if err != nil {
		return r, err
	}
	seated := map[string]bool{}
	for _, tb := range r.Tables {
		for _, id := range tb.Seated() {
			seated[id] = true
		}
	}
	r.Seated = map[string][]domain.Player{}
	for _, e := range entrants {
		if seated[e.ID] {
			r.Seated[e.ID] = domain.PlayersAt(e, subs, r.Number)
		}
	}
	return r, nil
}

func (a *App) round(ctx context.Context, t domain.Tournament, n int) (domain.Round, error) {
	if n < 1 || n > MaxRoundsPlanned {
		return domain.Round{}, paramError("n", "api.whole_range_n", "n", MaxRoundsPlanned, n)
	}
	r, err := a.db.GetRound(ctx, t.ID, n)
	if errors.Is(err, domain.ErrNotFound) {
		r, err = a.db.ProposedRound(ctx, t.ID, n) // a generated round not yet published (app/pairings.go)
	}
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Round{}, notFound("api.no_round", t.ID, n)
	}
	r.Session = t.EffectivePlan().SessionOf(r.Number) // RULES §12.1
	return r, err
}

// SetRoundState moves a round forward through the states of RULES §10;
// backward is a conflict; the same state again changes nothing (a retry).
// The state is compare-and-set, so two referees pressing at once cannot
// both move it. state is the name of the wanted state (field /state).
func (a *App) SetRoundState(ctx context.Context, p Principal, tid string, n int, state string) (domain.Round, error) {
	t, err := a.refereed(ctx, p, tid, "changes round states")
	if err != nil {
		return domain.Round{}, err
	}
	if r, done, err := a.publishProposal(ctx, t, n, state); done { // app/pairings.go
		return r, err
	}
	r, err := a.round(ctx, t, n)
	if err != nil {
		return domain.Round{}, err
	}
	next, err := domain.ParseRoundState(state)
	if err != nil {
		return domain.Round{}, invalid([]FieldError{domainError("/state", err)})
	}
	if next == domain.RoundPlaying && r.State == domain.RoundPlaying && r.System != "" {
		return domain.Round{}, conflict("api.round_published_art", r.Number) // a generated round: app/pairings.go
	}
	if next == r.State {
		return r, nil
	}
	if !r.State.CanMoveTo(next) {
		return domain.Round{}, conflict("api.round_backwards", r.Number, r.State, next)
	}
	if r.State.Order() < domain.RoundSheetsDelivered.Order() {
		if err := a.checkDelivered(ctx, t, r); err != nil { // RULES §12.2
			return domain.Round{}, err
		}
	}
	if err := a.db.SetRoundState(ctx, t.ID, r.Number, r.State, next); errors.Is(err, domain.ErrConflict) {
		return domain.Round{}, conflict("api.round_state_race", r.Number)
	} else if err != nil {
		return domain.Round{}, err
	}
	r.State = next
	a.changed(ctx, t.ID, events.Round, r.Number, 0)
	return r, nil
}

// teamRoundErrors checks a hand-posted team round's matches (RULES §12.5,
// API §4.3: a match is exactly two tables with the same match number whose
// ns/eo are the same two teams swapped), naming the table's pointer.
func teamRoundErrors(rs domain.Ruleset, r domain.Round, index map[int]int) []FieldError {
	mts := make([]domain.MatchTable, len(r.Tables))
	for i, tb := range r.Tables {
		mts[i] = domain.MatchTable{Table: tb.Table, Match: tb.Match, NS: tb.NS, EO: tb.EO}
	}
	table, err := domain.TeamRoundProblem(rs, mts, r.Byes)
	if err == nil {
		return nil
	}
	ptr := "/byes"
	if table > 0 {
		ptr = fmt.Sprintf("/tables/%d", index[table])
	}
	return []FieldError{domainField(ptr, err)}
}

// checkVacated refuses a round that leaves an entrant alone as vacated
// (RULES §12.3) when no entrant has withdrawn by then, or that seats a
// withdrawn entrant as vacated: an entrant alone for any other reason
// rests (byes, §7 and §11).
func (a *App) checkVacated(ctx context.Context, t domain.Tournament, r domain.Round) error {
	if len(r.Vacated) == 0 {
		return nil
	}
	entrants, err := a.db.ListEntrants(ctx, t.ID)
	if err != nil {
		return err
	}
	withdrawn := map[string]bool{}
	for _, e := range entrants {
		if e.WithdrawnFromRound != nil && *e.WithdrawnFromRound <= r.Number {
			withdrawn[e.ID] = true
		}
	}
	var errs []FieldError
	for i, id := range r.Vacated {
		switch {
		case withdrawn[id]:
			errs = append(errs, field(fmt.Sprintf("/vacated/%d", i), "field.vacated_withdrawn", id, r.Number))
		case len(withdrawn) == 0:
			errs = append(errs, field(fmt.Sprintf("/vacated/%d", i), "field.vacated_none", r.Number))
		}
	}
	if len(errs) > 0 {
		return invalid(errs)
	}
	return nil
}
