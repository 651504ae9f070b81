package store

import (
	"encoding/json"
	"fmt"

	"segnapunti/domain"
)

// Row types mirror the tables of migrations/*/00001_init.sql. They carry the
// gorm tags; the domain types carry none (STYLE §2). toRow/toDomain convert.

type clubRow struct {
	ID      string  `gorm:"column:id;primaryKey"`
	Name    string  `gorm:"column:name"`
	Created instant `gorm:"column:created_at"`
}

func (clubRow) TableName() string { return "clubs" }

func clubToRow(c domain.Club, now instant) clubRow {
	return clubRow{ID: c.ID, Name: c.Name, Created: now}
}

func (r clubRow) toDomain() domain.Club { return domain.Club{ID: r.ID, Name: r.Name} }

type tokenRow struct {
	ID      string  `gorm:"column:id;primaryKey"`
	Hash    string  `gorm:"column:hash"`
	Role    string  `gorm:"column:role"`
	Name    string  `gorm:"column:name"`
	ClubID  *string `gorm:"column:club_id"`
	Created instant `gorm:"column:created_at"`
}

func (tokenRow) TableName() string { return "tokens" }

func (r tokenRow) toDomain() (Principal, error) {
	role, err := domain.ParseRole(r.Role)
	if err != nil {
		return Principal{}, fmt.Errorf("stored token %s: %w", r.ID, err)
	}
	return Principal{TokenID: r.ID, Role: role, Name: r.Name, ClubID: deref(r.ClubID)}, nil
}

type refereeRow struct {
	TournamentID string  `gorm:"column:tournament_id;primaryKey"`
	RefereeName  string  `gorm:"column:referee_name;primaryKey"`
	Created      instant `gorm:"column:created_at"`
}

func (refereeRow) TableName() string { return "referee_assignments" }

type tournamentRow struct {
	ID            string  `gorm:"column:id;primaryKey"`
	Name          string  `gorm:"column:name"`
	PlayDate      day     `gorm:"column:play_date"`
	ClubID        *string `gorm:"column:club_id"`
	Level         string  `gorm:"column:level"`
	Ruleset       string  `gorm:"column:ruleset"`
	Kind          string  `gorm:"column:kind"`
	RoundsPlanned int     `gorm:"column:rounds_planned"`
	HandsPerRound int     `gorm:"column:hands_per_round"`
	VPTable       *string `gorm:"column:vp_table"`
	Public        bool    `gorm:"column:public"`
	Created       instant `gorm:"column:created_at"`
	// Plan: migration 00017 (store/plan.go); NULL is none announced.
	Plan *string `gorm:"column:plan"`
	// Interruption: migration 00017 (FITAB art. 39).
	InterruptedAfterRound *int   `gorm:"column:interrupted_after_round"`
	InterruptedReason     string `gorm:"column:interrupted_reason"`
	// TimeZone: migration 00021.
	TimeZone string `gorm:"column:time_zone"`
}

func (tournamentRow) TableName() string { return "tournaments" }

func tournamentToRow(t domain.Tournament, now instant) tournamentRow {
	return tournamentRow{
		ID:            t.ID,
		Name:          t.Name,
		PlayDate:      dayOf(t.Date),
		ClubID:        nullString(t.ClubID),
		Level:         string(t.Level),
		Ruleset:       string(t.Ruleset),
		Kind:          string(t.Kind),
		RoundsPlanned: t.RoundsPlanned,
		HandsPerRound: t.HandsPerRound,
		VPTable:       vpTableToRow(t.VPTable),
		Public:        t.Public,
		Created:       now,
		Plan:          planText(t.Plan),

		InterruptedAfterRound: t.InterruptedAfterRound,
		InterruptedReason:     t.InterruptionReason,
		TimeZone:              t.Zone(),
	}
}

func (r tournamentRow) toDomain() (domain.Tournament, error) {
	date, err := r.PlayDate.time()
	if err != nil {
		return domain.Tournament{}, fmt.Errorf("stored tournament %s: date: %w", r.ID, err)
	}
	vp, err := vpTableToDomain(r.VPTable)
	if err != nil {
		return domain.Tournament{}, fmt.Errorf("stored tournament %s: %w", r.ID, err)
	}
	plan, err := planValue(r.Plan)
	if err != nil {
		return domain.Tournament{}, fmt.Errorf("stored tournament %s: %w", r.ID, err)
	}
	return domain.Tournament{
		Plan:                  plan,
		InterruptedAfterRound: r.InterruptedAfterRound,
		InterruptionReason:    r.InterruptedReason,
		ID:                    r.ID,
		Name:                  r.Name,
		Date:                  date,
		ClubID:                deref(r.ClubID),
		Level:                 domain.Level(r.Level),
		Ruleset:               domain.Ruleset(r.Ruleset),
		Kind:                  domain.Kind(r.Kind),
		RoundsPlanned:         r.RoundsPlanned,
		HandsPerRound:         r.HandsPerRound,
		VPTable:               vp,
		Public:                r.Public,
		TimeZone:              zoneOf(r.TimeZone),
	}, nil
}

type entrantRow struct {
	TournamentID string `gorm:"column:tournament_id;primaryKey"`
	ID           string `gorm:"column:id;primaryKey"`
	Team         string `gorm:"column:team"`
	Club         string `gorm:"column:club"`
	// Withdrawal: migration 00017, RULES §12.3.
	WithdrawnFromRound *int   `gorm:"column:withdrawn_from_round"`
	WithdrawnReason    string `gorm:"column:withdrawn_reason"`
}

func (entrantRow) TableName() string { return "entrants" }

type entrantPlayerRow struct {
	TournamentID string `gorm:"column:tournament_id;primaryKey"`
	EntrantID    string `gorm:"column:entrant_id;primaryKey"`
	Position     int    `gorm:"column:position;primaryKey;autoIncrement:false"`
	Name         string `gorm:"column:name"`
	Membership   string `gorm:"column:membership"`
	Sex          string `gorm:"column:sex"`        // migration 00020
	BirthYear    int    `gorm:"column:birth_year"` // migration 00020
}

func (entrantPlayerRow) TableName() string { return "entrant_players" }

func entrantToRows(tournamentID string, e domain.Entrant) (entrantRow, []entrantPlayerRow) {
	players := make([]entrantPlayerRow, len(e.Players))
	for i, p := range e.Players {
		players[i] = entrantPlayerRow{TournamentID: tournamentID, EntrantID: e.ID, Position: i + 1, Name: p.Name, Membership: p.Membership,
			Sex: p.Sex, BirthYear: p.BirthYear}
	}
	return entrantRow{TournamentID: tournamentID, ID: e.ID, Team: e.Team, Club: e.Club,
		WithdrawnFromRound: e.WithdrawnFromRound, WithdrawnReason: e.WithdrawnReason}, players
}

// entrantToDomain joins an entrant with its players, in position order.
func entrantToDomain(r entrantRow, players []entrantPlayerRow) domain.Entrant {
	e := domain.Entrant{ID: r.ID, Team: r.Team, Club: r.Club, WithdrawnFromRound: r.WithdrawnFromRound, WithdrawnReason: r.WithdrawnReason}
	for _, p := range players {
		e.Players = append(e.Players, domain.Player{Name: p.Name, Membership: p.Membership, Sex: p.Sex, BirthYear: p.BirthYear})
	}
	return e
}

type roundRow struct {
	TournamentID string `gorm:"column:tournament_id;primaryKey"`
	Number       int    `gorm:"column:number;primaryKey;autoIncrement:false"`
	HandsPlanned int    `gorm:"column:hands_planned"`
	Phase        string `gorm:"column:phase"`
	State        string `gorm:"column:state"`
	// System and Seed: migration 00010 (store/pairings.go).
	System string  `gorm:"column:system"`
	Seed   *string `gorm:"column:seed"`
	// Groups: migration 00017, a gironi round's groups as JSON.
	Groups *string `gorm:"column:groups"`
	// Vacated: migration 00017, RULES §12.3, as JSON.
	Vacated *string `gorm:"column:vacated"`
}

func (roundRow) TableName() string { return "rounds" }

type roundTableRow struct {
	TournamentID string `gorm:"column:tournament_id;primaryKey"`
	RoundNo      int    `gorm:"column:round_no;primaryKey;autoIncrement:false"`
	TableNo      int    `gorm:"column:table_no;primaryKey;autoIncrement:false"`
	NS           string `gorm:"column:ns_entrant"`
	EO           string `gorm:"column:eo_entrant"`
	// NS2 and EO2: the second players of an individual line (migration
	// 00013); NULL for pairs and teams.
	NS2 *string `gorm:"column:ns2_entrant"`
	EO2 *string `gorm:"column:eo2_entrant"`
	// Match: the team match of the table (migration 00019, RULES §12.5);
	// NULL outside team tournaments.
	Match *int `gorm:"column:match_no"`
}

func (roundTableRow) TableName() string { return "round_tables" }

type roundByeRow struct {
	TournamentID string `gorm:"column:tournament_id;primaryKey"`
	RoundNo      int    `gorm:"column:round_no;primaryKey;autoIncrement:false"`
	EntrantID    string `gorm:"column:entrant_id;primaryKey"`
	Position     int    `gorm:"column:position"`
}

func (roundByeRow) TableName() string { return "round_byes" }

func roundToRows(tournamentID string, r domain.Round) (roundRow, []roundTableRow, []roundByeRow) {
	state := r.State
	if state == "" {
		state = domain.RoundPlaying // RULES §10: a round starts being played
	}
	tables := make([]roundTableRow, len(r.Tables))
	for i, t := range r.Tables {
		tables[i] = roundTableRow{TournamentID: tournamentID, RoundNo: r.Number, TableNo: t.Table, NS: t.NS, EO: t.EO,
			NS2: nullString(t.NS2), EO2: nullString(t.EO2), Match: nullMatch(t.Match)}
	}
	byes := make([]roundByeRow, len(r.Byes))
	for i, b := range r.Byes {
		byes[i] = roundByeRow{TournamentID: tournamentID, RoundNo: r.Number, EntrantID: b, Position: i + 1}
	}
	return roundRow{TournamentID: tournamentID, Number: r.Number, HandsPlanned: r.HandsPlanned, Phase: string(r.Phase), State: string(state),
		System: string(r.System), Seed: seedText(r.Seed), Groups: groupsText(r.Groups), Vacated: idsText(r.Vacated)}, tables, byes
}

// roundToDomain joins a round with its tables (in table order) and byes (in
// the order given).
func roundToDomain(r roundRow, tables []roundTableRow, byes []roundByeRow) domain.Round {
	out := domain.Round{Number: r.Number, HandsPlanned: r.HandsPlanned, Phase: domain.Phase(r.Phase), State: domain.RoundState(r.State),
		System: domain.PairingSystem(r.System), Seed: seedValue(r.Seed), Groups: groupsValue(r.Groups), Vacated: idsValue(r.Vacated)}
	for _, t := range tables {
		out.Tables = append(out.Tables, domain.TableAssignment{Table: t.TableNo, NS: t.NS, EO: t.EO, NS2: deref(t.NS2), EO2: deref(t.EO2), Match: derefInt(t.Match)})
	}
	for _, b := range byes {
		out.Byes = append(out.Byes, b.EntrantID)
	}
	return out
}

// sheetRow is the sheet without its hands. Optional numbers are pointers
// (NULL: the sheet does not say).
type sheetRow struct {
	ID               int64   `gorm:"column:id;primaryKey"`
	TournamentID     string  `gorm:"column:tournament_id"`
	RoundNo          int     `gorm:"column:round_no"`
	TableNo          int     `gorm:"column:table_no"`
	Version          int     `gorm:"column:version"`
	Ruleset          string  `gorm:"column:ruleset"`
	HandsPlanned     int     `gorm:"column:hands_planned"`
	Kind             string  `gorm:"column:kind"`
	VPTable          *string `gorm:"column:vp_table"`
	HeaderTournament string  `gorm:"column:header_tournament"`
	HeaderRound      int     `gorm:"column:header_round"`
	HeaderTable      int     `gorm:"column:header_table"`
	NSID             string  `gorm:"column:ns_id"`
	NSPlayers        string  `gorm:"column:ns_players"`
	EOID             string  `gorm:"column:eo_id"`
	EOPlayers        string  `gorm:"column:eo_players"`
	// NSIDs and EOIDs: an individual line's "ids" as a JSON array (migration
	// 00013); NULL when the sheet gives none.
	NSIDs          *string `gorm:"column:ns_ids"`
	EOIDs          *string `gorm:"column:eo_ids"`
	FirstDealer    string  `gorm:"column:first_dealer"`
	LateNS         int     `gorm:"column:late_ns"`
	LateEO         int     `gorm:"column:late_eo"`
	WrittenNSTotal *int    `gorm:"column:written_ns_total"`
	WrittenNSMP    *int    `gorm:"column:written_ns_mp"`
	WrittenNSVP    *int    `gorm:"column:written_ns_vp"`
	WrittenEOTotal *int    `gorm:"column:written_eo_total"`
	WrittenEOMP    *int    `gorm:"column:written_eo_mp"`
	WrittenEOVP    *int    `gorm:"column:written_eo_vp"`
	Cells          *string `gorm:"column:cells"`
	ReportJSON     string  `gorm:"column:report_json"`
	Created        instant `gorm:"column:created_at"`
	Updated        instant `gorm:"column:updated_at"`
}

func (sheetRow) TableName() string { return "sheets" }

// sheetColumns are the columns a write replaces (all but the key, id,
// version and created_at).
var sheetColumns = []string{
	"ruleset", "hands_planned", "kind", "vp_table", "header_tournament", "header_round", "header_table",
	"ns_id", "ns_players", "eo_id", "eo_players", "first_dealer", "late_ns", "late_eo",
	"written_ns_total", "written_ns_mp", "written_ns_vp", "written_eo_total", "written_eo_mp", "written_eo_vp",
	"cells", "report_json", "updated_at",
	"ns_ids", "eo_ids", // migration 00013
}

// handRow is one hand of a sheet: position is 1-based play order.
type handRow struct {
	SheetID   int64       `gorm:"column:sheet_id;primaryKey;autoIncrement:false"`
	Position  int         `gorm:"column:position;primaryKey;autoIncrement:false"`
	End       string      `gorm:"column:hand_end"`
	LostCount bool        `gorm:"column:lost_count"`
	NS        lineColumns `gorm:"embedded;embeddedPrefix:ns_"`
	EO        lineColumns `gorm:"embedded;embeddedPrefix:eo_"`
}

func (handRow) TableName() string { return "sheet_hands" }

// lineColumns is one line's part of a hand row.
type lineColumns struct {
	Base                   int     `gorm:"column:base"`
	Points                 int     `gorm:"column:points"`
	Total                  *int    `gorm:"column:total"`
	RunningTotal           *int    `gorm:"column:running_total"`
	Burrachi               *string `gorm:"column:burrachi"`
	Closed                 *bool   `gorm:"column:closed"`
	Pozzetto               string  `gorm:"column:pozzetto"`
	TablePoints            *int    `gorm:"column:table_points"`
	HandPoints             *int    `gorm:"column:hand_points"`
	PozzettoUnplayedPoints *int    `gorm:"column:pozzetto_unplayed_points"`
	PenaltyPoints          *int    `gorm:"column:penalty_points"`
}

type idempotencyRow struct {
	SheetID      int64   `gorm:"column:sheet_id;primaryKey;autoIncrement:false"`
	Key          string  `gorm:"column:idem_key;primaryKey"`
	HandPosition int     `gorm:"column:hand_position"`
	Created      instant `gorm:"column:created_at"`
	RequestHash  *string `gorm:"column:request_hash"`
}

func (idempotencyRow) TableName() string { return "idempotency_keys" }

// sheetToRow converts the sheet to its row (without key, id and version)
// and its hand rows (without sheet id). Pointers are copied, never shared
// with the caller's sheet.
func sheetToRow(s domain.Sheet, reportJSON []byte, now instant) (sheetRow, []handRow, error) {
	nsPlayers, err := json.Marshal(s.Sides[domain.NS].Players)
	if err != nil {
		return sheetRow{}, nil, err
	}
	eoPlayers, err := json.Marshal(s.Sides[domain.EO].Players)
	if err != nil {
		return sheetRow{}, nil, err
	}
	var cells *string
	if s.Cells != nil {
		b, err := json.Marshal(s.Cells)
		if err != nil {
			return sheetRow{}, nil, err
		}
		cells = new(string(b))
	}
	if len(reportJSON) == 0 {
		return sheetRow{}, nil, fmt.Errorf("%w: the sheet's report JSON is empty", domain.ErrInvalid)
	}
	var lineIDs [2]*string
	for _, l := range domain.Lines {
		if ids := s.Sides[l].IDs; ids != nil {
			b, err := json.Marshal(ids)
			if err != nil {
				return sheetRow{}, nil, err
			}
			lineIDs[l] = new(string(b))
		}
	}
	row := sheetRow{
		Ruleset:          string(s.Ruleset),
		HandsPlanned:     s.HandsPlanned,
		Kind:             string(s.Kind),
		VPTable:          vpTableToRow(s.VPTable),
		HeaderTournament: s.Tournament,
		HeaderRound:      s.Round,
		HeaderTable:      s.Table,
		NSID:             s.Sides[domain.NS].ID,
		NSPlayers:        string(nsPlayers),
		EOID:             s.Sides[domain.EO].ID,
		EOPlayers:        string(eoPlayers),
		NSIDs:            lineIDs[domain.NS],
		EOIDs:            lineIDs[domain.EO],
		FirstDealer:      s.FirstDealer,
		LateNS:           s.LatePoints[domain.NS],
		LateEO:           s.LatePoints[domain.EO],
		WrittenNSTotal:   clone(s.Written[domain.NS].Total),
		WrittenNSMP:      clone(s.Written[domain.NS].MP),
		WrittenNSVP:      clone(s.Written[domain.NS].VP),
		WrittenEOTotal:   clone(s.Written[domain.EO].Total),
		WrittenEOMP:      clone(s.Written[domain.EO].MP),
		WrittenEOVP:      clone(s.Written[domain.EO].VP),
		Cells:            cells,
		ReportJSON:       string(reportJSON),
		Created:          now,
		Updated:          now,
	}
	hands := make([]handRow, len(s.Hands))
	for i, h := range s.Hands {
		hr, err := handToRow(i+1, h)
		if err != nil {
			return sheetRow{}, nil, err
		}
		hands[i] = hr
	}
	return row, hands, nil
}

func handToRow(position int, h domain.Hand) (handRow, error) {
	r := handRow{Position: position, End: string(h.End), LostCount: h.LostCount}
	for _, l := range domain.Lines {
		lc, err := lineToColumns(h.Lines[l])
		if err != nil {
			return handRow{}, fmt.Errorf("hand %d, %s: %w", position, l.Label(), err)
		}
		if l == domain.NS {
			r.NS = lc
		} else {
			r.EO = lc
		}
	}
	return r, nil
}

func lineToColumns(s domain.LineScore) (lineColumns, error) {
	burrachi, err := encodeBurrachi(s.Burrachi)
	if err != nil {
		return lineColumns{}, err
	}
	return lineColumns{
		Base:                   s.Base,
		Points:                 s.Points,
		Total:                  clone(s.Total),
		RunningTotal:           clone(s.RunningTotal),
		Burrachi:               burrachi,
		Closed:                 clone(s.Closed),
		Pozzetto:               string(s.Pozzetto),
		TablePoints:            clone(s.TablePoints),
		HandPoints:             clone(s.HandPoints),
		PozzettoUnplayedPoints: clone(s.PozzettoUnplayedPoints),
		PenaltyPoints:          clone(s.PenaltyPoints),
	}, nil
}

// sheetToDomain rebuilds the sheet from its row and its hands (in position
// order) as it was written.
func sheetToDomain(r sheetRow, hands []handRow) (StoredSheet, error) {
	fail := func(err error) (StoredSheet, error) {
		return StoredSheet{}, fmt.Errorf("stored sheet of tournament %s, round %d, table %d: %w", r.TournamentID, r.RoundNo, r.TableNo, err)
	}
	vp, err := vpTableToDomain(r.VPTable)
	if err != nil {
		return fail(err)
	}
	s := domain.Sheet{
		Ruleset:      domain.Ruleset(r.Ruleset),
		HandsPlanned: r.HandsPlanned,
		Kind:         domain.Kind(r.Kind),
		VPTable:      vp,
		Tournament:   r.HeaderTournament,
		Round:        r.HeaderRound,
		Table:        r.HeaderTable,
		FirstDealer:  r.FirstDealer,
		LatePoints:   [2]int{r.LateNS, r.LateEO},
		Written: [2]domain.WrittenResult{
			{Total: r.WrittenNSTotal, MP: r.WrittenNSMP, VP: r.WrittenNSVP},
			{Total: r.WrittenEOTotal, MP: r.WrittenEOMP, VP: r.WrittenEOVP},
		},
	}
	s.Sides[domain.NS].ID = r.NSID
	s.Sides[domain.EO].ID = r.EOID
	for l, ids := range [2]*string{r.NSIDs, r.EOIDs} {
		if ids != nil {
			if err := json.Unmarshal([]byte(*ids), &s.Sides[l].IDs); err != nil {
				return fail(fmt.Errorf("%s ids: %w", domain.Line(l).Label(), err))
			}
		}
	}
	if err := json.Unmarshal([]byte(r.NSPlayers), &s.Sides[domain.NS].Players); err != nil {
		return fail(fmt.Errorf("NS players: %w", err))
	}
	if err := json.Unmarshal([]byte(r.EOPlayers), &s.Sides[domain.EO].Players); err != nil {
		return fail(fmt.Errorf("EO players: %w", err))
	}
	if r.Cells != nil {
		if err := json.Unmarshal([]byte(*r.Cells), &s.Cells); err != nil {
			return fail(fmt.Errorf("cells: %w", err))
		}
		if s.Cells == nil { // "null" was never written, but keep nil/non-nil as stored
			s.Cells = map[string]string{}
		}
	}
	for i, h := range hands {
		if h.Position != i+1 {
			return fail(fmt.Errorf("hand %d stored at position %d", i+1, h.Position))
		}
		dh, err := handToDomain(h)
		if err != nil {
			return fail(err)
		}
		s.Hands = append(s.Hands, dh)
	}
	return StoredSheet{Sheet: s, Version: r.Version, ReportJSON: []byte(r.ReportJSON), UpdatedAt: r.Updated.time()}, nil
}

func handToDomain(h handRow) (domain.Hand, error) {
	dh := domain.Hand{End: domain.HandEnd(h.End), LostCount: h.LostCount}
	for _, l := range domain.Lines {
		c := h.NS
		if l == domain.EO {
			c = h.EO
		}
		ls, err := columnsToLine(c)
		if err != nil {
			return domain.Hand{}, fmt.Errorf("hand %d, %s: %w", h.Position, l.Label(), err)
		}
		dh.Lines[l] = ls
	}
	return dh, nil
}

func columnsToLine(c lineColumns) (domain.LineScore, error) {
	burrachi, err := decodeBurrachi(c.Burrachi)
	if err != nil {
		return domain.LineScore{}, err
	}
	return domain.LineScore{
		Base:                   c.Base,
		Points:                 c.Points,
		Total:                  c.Total,
		RunningTotal:           c.RunningTotal,
		Burrachi:               burrachi,
		Closed:                 c.Closed,
		Pozzetto:               domain.Pozzetto(c.Pozzetto),
		TablePoints:            c.TablePoints,
		HandPoints:             c.HandPoints,
		PozzettoUnplayedPoints: c.PozzettoUnplayedPoints,
		PenaltyPoints:          c.PenaltyPoints,
	}, nil
}

func vpTableToRow(t domain.VPTable) *string {
	if t.IsZero() {
		return nil
	}
	return new(t.ID())
}

func vpTableToDomain(id *string) (domain.VPTable, error) {
	if id == nil {
		return domain.VPTable{}, nil
	}
	return domain.ParseVPTable(*id)
}

func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// nullMatch stores a team match number, NULL for 0 (not a team table).
func nullMatch(m int) *int {
	if m == 0 {
		return nil
	}
	return &m
}

func derefInt(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// zoneOf is a stored time zone as the domain keeps it: the default
// (every tournament before migration 00021) is "", as a tournament that
// never set one has it.
func zoneOf(stored string) string {
	if stored == domain.DefaultTimeZone {
		return ""
	}
	return stored
}
