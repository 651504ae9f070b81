// Package tournamentfile is the open results format of a whole tournament
// (API §4.4, docs/format.md): one JSON document, "format":
// "segnapunti-tournament", "version": 1, with the tournament's metadata
// and rules, its plan, entrants and players, every round with who sat
// where, every sheet with its hands as written (API §1), the official and
// computed results, corrections with their rulings, adjustments, the
// published standings and the signatures' times.
//
// The package holds the wire types, the encoder (Marshal: the same
// tournament always gives the same bytes) and the decoder (Decode: a file
// from anybody, bounded, strict, every problem named by its JSON pointer),
// and the JSON Schema 2020-12 of the format (Schema). It knows no store
// and no HTTP: app/ fills a File from the records, verifier/ re-derives
// one.
package tournamentfile

import (
	_ "embed"
	"encoding/json"

	"segnapunti/domain"
	"segnapunti/messages"
)

// Format and Version are the values of the file's "format" and "version".
const (
	Format  = "segnapunti-tournament"
	Version = 1
)

// Schema is the JSON Schema (draft 2020-12) of the format, served at
// GET /v1/schemas/tournament.json.
//
//go:embed tournament.schema.json
var Schema []byte

// SchemaID is the schema's $id: the stable URL path it is served at.
const SchemaID = "/v1/schemas/tournament.json"

// File is a whole tournament. Fields are in the order they are written.
type File struct {
	Format      string       `json:"format"`
	Version     int          `json:"version"`
	ExportedAt  string       `json:"exported_at"` // RFC 3339, UTC
	Tournament  Tournament   `json:"tournament"`
	Entrants    []Entrant    `json:"entrants"`
	Rounds      []Round      `json:"rounds"`
	Sheets      []Sheet      `json:"sheets"`
	Corrections []Correction `json:"corrections"`
	Adjustments []Adjustment `json:"adjustments"`
	Standings   Standings    `json:"standings"`
	// Substitutions are the players replaced from a round on (RULES
	// §12.4); absent when none.
	Substitutions []Substitution `json:"substitutions,omitempty"`
	// TeamMatches are the team matches' results (RULES §12.5) the
	// standings count; absent outside team tournaments.
	TeamMatches []TeamMatch `json:"team_matches,omitempty"`
	// Prizes are the prize list (issue 22): who won which prize of
	// tournament.prize_categories; absent when no category is defined.
	Prizes []Prize `json:"prizes,omitempty"`
}

// Tournament is the metadata and rules (API §4.1) and the plan (RULES §12,
// API §4.3).
type Tournament struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Date          string  `json:"date"` // YYYY-MM-DD
	Club          *Club   `json:"club"`
	Level         string  `json:"level"`
	Ruleset       string  `json:"ruleset"`
	Kind          string  `json:"kind"`
	RoundsPlanned int     `json:"rounds_planned"`
	HandsPerRound int     `json:"hands_per_round"`
	VPTable       *string `json:"vp_table"`
	Plan          *Plan   `json:"plan,omitempty"`
	// InterruptedAfterRound and Void: RULES §12 (API §4.3); absent when
	// the tournament was not interrupted.
	InterruptedAfterRound *int  `json:"interrupted_after_round,omitempty"`
	Void                  *bool `json:"void,omitempty"`
	// InterruptionReason is the referee's reason for the interruption.
	InterruptionReason string `json:"interruption_reason,omitempty"`
	// Public: the club lets everybody read the standings (UI.md §7);
	// absent: not public.
	Public bool `json:"public,omitempty"`
	// Referees are the names of the tournament's referees, sorted.
	Referees []string `json:"referees,omitempty"`
	// PrizeCategories are the prize categories in their order of value
	// (issue 22); absent when none.
	PrizeCategories []PrizeCategory `json:"prize_categories,omitempty"`
}

// PrizeCategory is one category of prizes (domain.PrizeCategory).
type PrizeCategory struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"`
	Label      string `json:"label"`
	Places     int    `json:"places"`
	BornBy     int    `json:"born_by,omitempty"`
	Club       string `json:"club,omitempty"`
	Attribute  string `json:"attribute,omitempty"`
	Value      string `json:"value,omitempty"`
	Cumulative bool   `json:"cumulative,omitempty"`
}

// Prize is one award of the prize list: the place-th prize of a category
// to an entrant.
type Prize struct {
	Category string `json:"category"`
	Place    int    `json:"place"`
	Entrant  string `json:"entrant"`
}

// Substitution is a player replaced from a round on (RULES §12.4): in
// plays for the entrant in the place of the player whose membership
// number is out.
type Substitution struct {
	Entrant   string `json:"entrant"`
	FromRound int    `json:"from_round"`
	Out       string `json:"out"`
	In        Player `json:"in"`
	Reason    string `json:"reason,omitempty"`
}

// TeamMatch is one team match's result (RULES §12.5): the two tables,
// the two teams (the NS team of the lower table first), the team totals,
// MP and VP (fibur-teams table).
type TeamMatch struct {
	Round  int       `json:"round"`
	Match  int       `json:"match"`
	Tables [2]int    `json:"tables"`
	Teams  [2]string `json:"teams"`
	Totals [2]int    `json:"totals"`
	MP     [2]int    `json:"mp"`
	VP     [2]int    `json:"vp"`
}

// Club is the organising club.
type Club struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Plan is how the rounds are seated (RULES §12, API §4.3).
type Plan struct {
	FirstRound string      `json:"first_round"`
	Phases     []PlanPhase `json:"phases"`
	Sessions   []int       `json:"sessions"`
}

// PlanPhase is one phase of the plan: its system from a round on.
type PlanPhase struct {
	FromRound int    `json:"from_round"`
	System    string `json:"system"`
}

// Entrant is a pair, a player or a team, with the tournament's own number
// as its id.
type Entrant struct {
	ID      string   `json:"id"`
	Team    *string  `json:"team"`
	Club    string   `json:"club,omitempty"`
	Players []Player `json:"players"`
	// WithdrawnFromRound: RULES §12 (API §4.3); absent when not withdrawn.
	WithdrawnFromRound *int `json:"withdrawn_from_round,omitempty"`
	// WithdrawnReason is why it withdrew; absent when not given.
	WithdrawnReason string `json:"withdrawn_reason,omitempty"`
}

// Player is one person, with the federation membership number ("" when
// not known).
type Player struct {
	Name       string `json:"name"`
	Membership string `json:"membership"`
	// Sex ("F", "M") and BirthYear serve the prize categories; absent
	// when not stored.
	Sex       string `json:"sex,omitempty"`
	BirthYear int    `json:"birth_year,omitempty"`
}

// Round is one round: how it was seated and who sat where.
type Round struct {
	Number       int      `json:"number"`
	HandsPlanned int      `json:"hands_planned"`
	Phase        string   `json:"phase"`
	Session      int      `json:"session,omitempty"` // RULES §12; absent: 1
	System       string   `json:"system"`
	Seed         *uint64  `json:"seed"`
	State        string   `json:"state"`
	Tables       []Table  `json:"tables"`
	Byes         []string `json:"byes"`
	// Groups are the groups a gironi round formed (RULES §12.1).
	Groups [][]string `json:"groups,omitempty"`
	// Vacated are the entrants alone because their opponent withdrew
	// (RULES §12.3): they get the bye score.
	Vacated []string `json:"vacated,omitempty"`
	// Lineups are which players of each team sat at each table (RULES
	// §12.5), by membership number; absent outside team tournaments.
	Lineups []Lineup `json:"lineups,omitempty"`
	// Seated are the entrants whose players in this round are not those
	// entered (RULES §12.4: the substitutions applied).
	Seated []Seated `json:"seated,omitempty"`
}

// Lineup is one table's line-up: membership numbers per line.
type Lineup struct {
	Table int      `json:"table"`
	NS    []string `json:"ns"`
	EO    []string `json:"eo"`
}

// Seated is who sat for an entrant in a round.
type Seated struct {
	Entrant string   `json:"entrant"`
	Players []Player `json:"players"`
}

// Table is one table of a round: the entrant ids of each line (one id; two
// players in an individual tournament).
type Table struct {
	Table int      `json:"table"`
	Match *int     `json:"match,omitempty"` // teams (API §4.3)
	NS    []string `json:"ns"`
	EO    []string `json:"eo"`
}

// Sheet is one match's sheet: the sheet of API §1 as written (hands and
// the written bottom), its official result (RULES §8: the written figures,
// those left empty derived) and its computed result (RULES §6), and the
// lines' signatures.
type Sheet struct {
	Round      int             `json:"round"`
	Table      int             `json:"table"`
	Sheet      json.RawMessage `json:"sheet"`
	Official   Result          `json:"official"`
	Computed   Result          `json:"computed"`
	Signatures []Signature     `json:"signatures"`
	// StoredAt is when the sheet was last stored (entered, or changed by
	// a correction): a sheet stored after its signatures without a
	// correction is a screening flag.
	StoredAt string `json:"stored_at"`
}

// Result is a match's result per line.
type Result struct {
	NS LineResult `json:"ns"`
	EO LineResult `json:"eo"`
}

// LineResult is one line's total, MP and VP.
type LineResult struct {
	Total int `json:"total"`
	MP    int `json:"mp"`
	VP    int `json:"vp"`
}

// Signature is one of a sheet's two signatures (FITAB art. 19, FIBur-INT
// art. 18; UI.md §6): kind "end" by the scoring line, "confirm" by the
// other; signed_by is the line whose own act stored it (the other line
// when a confirmation alone ended the sheet).
type Signature struct {
	Line     string `json:"line"`
	Kind     string `json:"kind"`
	SignedBy string `json:"signed_by"`
	Entrant  string `json:"entrant"`
	By       string `json:"by"`
	At       string `json:"at"`
}

// Correction is one correction request with its ruling (RULES §9).
type Correction struct {
	Round        int             `json:"round"`
	Table        int             `json:"table"`
	Kind         string          `json:"kind"`
	Reason       string          `json:"reason"`
	Situation    Situation       `json:"situation"`
	Ruling       string          `json:"ruling"`
	Rules        []string        `json:"rules"`
	RulingReason string          `json:"ruling_reason"`
	Applied      bool            `json:"applied"`
	Before       json.RawMessage `json:"before"`
	After        json.RawMessage `json:"after"`
	SheetVersion int             `json:"sheet_version"`
	By           string          `json:"by"`
	At           string          `json:"at"`
}

// Situation is what a ruling is decided on, with the fields of POST
// /v1/rulings.
type Situation struct {
	Ruleset              string `json:"ruleset"`
	Kind                 string `json:"kind"`
	Level                string `json:"level"`
	Phase                string `json:"phase"`
	ErrorRound           int    `json:"error_round"`
	CurrentRound         int    `json:"current_round"`
	CurrentRoundStarted  bool   `json:"current_round_started"`
	TournamentClosed     bool   `json:"tournament_closed"`
	StandingsPublished   bool   `json:"standings_published"`
	StandingsContested   bool   `json:"standings_contested"`
	PositionsPublished   bool   `json:"positions_published"`
	BothLinesAcknowledge bool   `json:"both_lines_acknowledge"`
	RefereeCountersigned bool   `json:"referee_countersigned"`
}

// Adjustment is one referee adjustment (RULES §7): the case it was
// assessed on and its effect.
type Adjustment struct {
	Entrant string     `json:"entrant"`
	Round   *int       `json:"round"` // null: not tied to a round
	Case    AdjustCase `json:"case"`
	Effect  Effect     `json:"effect"`
	By      string     `json:"by"`
	At      string     `json:"at"`
}

// AdjustCase is the input of an adjustment (API §4.1 adjustments).
type AdjustCase struct {
	Reason         string `json:"reason"`
	Party          string `json:"party"`
	Ruleset        string `json:"ruleset"`
	Kind           string `json:"kind"`
	HandsPlanned   int    `json:"hands_planned"`
	Phase          string `json:"phase"`
	WarningsBefore int    `json:"warnings_before"`
	ByesBefore     int    `json:"byes_before"`
	LateRound      int    `json:"late_round"`
	Played         *Score `json:"played"`
	AtInterruption *Score `json:"at_interruption"`
	Advantage      bool   `json:"advantage"`
	Referee        *Score `json:"referee"`
	Note           string `json:"note"`
}

// Score is VP and MP.
type Score struct {
	VP int `json:"vp"`
	MP int `json:"mp"`
}

// Effect is what an adjustment does to the entrant.
type Effect struct {
	Result     *Score   `json:"result"`
	Bye        bool     `json:"bye"`
	Awarded    bool     `json:"awarded"`
	Delta      Score    `json:"delta"`
	LatePoints int      `json:"late_points"`
	Warning    bool     `json:"warning"`
	Flags      []string `json:"flags"`
	Rules      []string `json:"rules"`
	Reason     string   `json:"reason"`
}

// Standings are the published standings after the last round counted.
type Standings struct {
	AfterRound int        `json:"after_round"`
	Rows       []Standing `json:"rows"`
}

// Standing is one row of the standings (RULES §8).
type Standing struct {
	Rank     int    `json:"rank"`
	Entrant  string `json:"entrant"`
	VP       int    `json:"vp"`
	MP       int    `json:"mp"`
	Wins     int    `json:"wins"`
	Tiebreak string `json:"tiebreak"`
}

// StandingsOf is the file's form of ranked rows after round afterRound.
func StandingsOf(afterRound int, rows []domain.Standing) Standings {
	out := Standings{AfterRound: afterRound, Rows: make([]Standing, len(rows))}
	for i, r := range rows {
		out.Rows[i] = Standing{Rank: r.Rank, Entrant: r.Entrant.ID, VP: r.VP, MP: r.MP, Wins: r.Wins, Tiebreak: messages.Notes(domain.English, r.Tiebreak)}
	}
	return out
}
