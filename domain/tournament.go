package domain

import (
	"fmt"
	"slices"
	"time"
)

// Level is a tournament's level (RULES §10); corrections depend on it (§9).
type Level string

const (
	LevelClub       Level = "club"
	LevelProvincial Level = "provincial"
	LevelRegional   Level = "regional"
	LevelNational   Level = "national"
	LevelEvent      Level = "event"
)

// Levels lists every level.
var Levels = []Level{LevelClub, LevelProvincial, LevelRegional, LevelNational, LevelEvent}

// ParseLevel returns the level with the given id.
func ParseLevel(id string) (Level, error) {
	if l := Level(id); slices.Contains(Levels, l) {
		return l, nil
	}
	return "", fmt.Errorf("%w: unknown level %q (want club, provincial, regional, national or event)", ErrInvalid, id)
}

// Phase is how a round is paired (RULES §10).
type Phase string

const (
	PhaseMitchell         Phase = "mitchell"
	PhaseDanese           Phase = "danese"
	PhaseDaneseModificato Phase = "danese_modificato"
	PhaseItaliana         Phase = "italiana"
	PhaseGironi           Phase = "gironi"
)

// Phases lists every phase.
var Phases = []Phase{PhaseMitchell, PhaseDanese, PhaseDaneseModificato, PhaseItaliana, PhaseGironi}

// ParsePhase returns the phase with the given id.
func ParsePhase(id string) (Phase, error) {
	if p := Phase(id); slices.Contains(Phases, p) {
		return p, nil
	}
	return "", fmt.Errorf("%w: unknown phase %q (want mitchell, danese, danese_modificato, italiana or gironi)", ErrInvalid, id)
}

// ScoreIndependent reports whether the pairing of the phase does not depend
// on the scores (Mitchell, Italian round robin): a correction never
// disturbs it (FITAB art. 20, FIBur-INT art. 19).
func (p Phase) ScoreIndependent() bool { return p == PhaseMitchell || p == PhaseItaliana }

// RoundState is where a round is in its life (RULES §10).
type RoundState string

const (
	// RoundProposed is a generated seating not yet published (RULES §10,
	// §11). It is not one of RoundStates: a proposed round is not yet a
	// round of the tournament, and publishing it makes it playing.
	RoundProposed             RoundState = "proposed"
	RoundPlaying              RoundState = "playing"
	RoundSheetsDelivered      RoundState = "sheets_delivered"
	RoundStandingsPublished   RoundState = "standings_published"
	RoundNextPairingPublished RoundState = "next_pairing_published"
)

// RoundStates lists the states in order; a round only moves forward.
var RoundStates = []RoundState{RoundPlaying, RoundSheetsDelivered, RoundStandingsPublished, RoundNextPairingPublished}

// ParseRoundState returns the state with the given id.
func ParseRoundState(id string) (RoundState, error) {
	if s := RoundState(id); slices.Contains(RoundStates, s) {
		return s, nil
	}
	return "", fmt.Errorf("%w: unknown round state %q (want playing, sheets_delivered, standings_published or next_pairing_published)", ErrInvalid, id)
}

// Order is the state's position in the life of a round.
func (s RoundState) Order() int { return slices.Index(RoundStates, s) }

// CanMoveTo reports whether a round may go from s to next: forward only.
func (s RoundState) CanMoveTo(next RoundState) bool { return next.Order() > s.Order() }

// Role is what a token may do (API §4).
type Role string

const (
	RoleClub       Role = "club"
	RoleReferee    Role = "referee"
	RoleFederation Role = "federation"
	RoleAdmin      Role = "admin"
)

// Roles lists every role.
var Roles = []Role{RoleClub, RoleReferee, RoleFederation, RoleAdmin}

// ParseRole returns the role with the given id.
func ParseRole(id string) (Role, error) {
	if r := Role(id); slices.Contains(Roles, r) {
		return r, nil
	}
	return "", fmt.Errorf("%w: unknown role %q (want club, referee, federation or admin)", ErrInvalid, id)
}

// Club organises tournaments.
type Club struct {
	ID   string
	Name string
}

// Tournament is one event: its rules and its plan.
type Tournament struct {
	ID            string
	Name          string
	Date          time.Time // the day it is played (date only, UTC)
	ClubID        string
	Level         Level
	Ruleset       Ruleset
	Kind          Kind
	RoundsPlanned int
	HandsPerRound int
	VPTable       VPTable // pinned, zero when not pinned
	// Public: its club lets everybody read the standings, rounds and
	// cards without signing in (UI.md §7).
	Public bool
	// Plan is the plan announced before round 1 (RULES §12.1); the zero
	// Plan is none announced: EffectivePlan gives the default.
	Plan Plan
	// InterruptedAfterRound is the last completed round of a tournament
	// interrupted by force majeure (RULES §12.6, FITAB art. 39); nil when
	// not interrupted. InterruptionReason is the referee's reason.
	InterruptedAfterRound *int
	InterruptionReason    string
	// TimeZone is the IANA name of the hall's wall clock, the zone of
	// every time its pages, workbooks and CSV show (issue 22); "" is
	// DefaultTimeZone. app.TournamentZone loads it.
	TimeZone string
}

// DefaultTimeZone is a tournament's time zone when none is set: the
// federations are Italian.
const DefaultTimeZone = "Europe/Rome"

// Zone is the tournament's time zone name, DefaultTimeZone when unset.
func (t Tournament) Zone() string {
	if t.TimeZone == "" {
		return DefaultTimeZone
	}
	return t.TimeZone
}

// Interruption is the ruling on the tournament's interruption (FITAB art.
// 39); false when it was not interrupted.
func (t Tournament) Interruption() (Interruption, bool) {
	if t.InterruptedAfterRound == nil {
		return Interruption{}, false
	}
	r, err := RuleInterruption(t.Ruleset, t.RoundsPlanned, *t.InterruptedAfterRound)
	if err != nil {
		return Interruption{}, false
	}
	return r, true
}

// Void reports whether the tournament was interrupted before it could be
// valid (FITAB art. 39): no final standings, left out of the season.
func (t Tournament) Void() bool {
	r, ok := t.Interruption()
	return ok && !r.Valid
}

// EffectivePlan is the tournament's plan, or the default plan (API §4.3:
// entry_order, one danese phase, one session) when it announced none.
func (t Tournament) EffectivePlan() Plan {
	if t.Plan.FirstRound == "" {
		d := DefaultPlan(t.RoundsPlanned)
		if t.Kind == KindIndividual {
			d.Phases = nil
		}
		return d
	}
	return t.Plan
}

// Player is one person entered in a tournament.
type Player struct {
	Name       string
	Membership string // federation membership number, may be empty
	// Sex is "F" or "M", "" when not given; BirthYear is 0 when not given.
	// Both are optional and serve only the prize categories.
	Sex       string
	BirthYear int
}

// Entrant is what a tournament ranks: a pair, a player or a team, with the
// tournament's own number as its id.
type Entrant struct {
	ID      string
	Players []Player
	Team    string // team name in team tournaments
	Club    string // club of the entrant, free text
	// WithdrawnFromRound is the first round the entrant no longer plays
	// (RULES §12.3); nil when it has not withdrawn.
	WithdrawnFromRound *int
	WithdrawnReason    string
}

// Round is one round of a tournament.
type Round struct {
	Number       int
	HandsPlanned int
	Phase        Phase
	State        RoundState
	Tables       []TableAssignment
	Byes         []string // entrant ids without an opponent this round
	// System is how the round was seated (RULES §11); "" for a round
	// entered by hand, read as choice.
	System PairingSystem
	// Seed is the seed a draw used (nil for the other systems).
	Seed *uint64
	// Groups are the groups a gironi round formed (RULES §12.1), nil for
	// the other rounds.
	Groups [][]string
	// Session is the session of the plan the round belongs to (RULES
	// §12.1), filled when the round is read with its tournament; 0 when
	// not known.
	Session int
	// Vacated are the entrants left alone in a fixed calendar because
	// their opponent withdrew (RULES §12.3): the bye score, not a rest.
	Vacated []string
	// Seated are, by entrant id, the players who sat in the round (RULES
	// §12.4, substitutions applied); filled when a round is read for
	// showing, nil otherwise.
	Seated map[string][]Player
}

// TableAssignment says who sits where in one round. In pairs and team
// tournaments a line is one entrant (NS, EO); in an individual tournament a
// line is two players, NS and NS2, EO and EO2 (RULES §11, API §4.2). NS2
// and EO2 are "" for pairs and teams, and for the rounds of individual
// tournaments stored before migration 00013 (one player a line).
type TableAssignment struct {
	Table int
	NS    string // entrant id of the NS line (its first player when individual)
	EO    string // entrant id of the EO line (its first player when individual)
	NS2   string // individual: the second player of the NS line
	EO2   string // individual: the second player of the EO line
	// Match is the team match the table belongs to (RULES §12.5): the two
	// tables of a match share it; 0 outside team tournaments.
	Match int
}

// Line is the entrant ids seated at line l: one entrant, or the line's
// players in an individual tournament.
func (t TableAssignment) Line(l Line) []string {
	first, second := t.NS, t.NS2
	if l == EO {
		first, second = t.EO, t.EO2
	}
	if second == "" {
		return []string{first}
	}
	return []string{first, second}
}

// SetLine seats ids at line l: the first id as the line's entrant, the
// second (individual) as its second player.
func (t *TableAssignment) SetLine(l Line, ids []string) {
	var first, second string
	if len(ids) > 0 {
		first = ids[0]
	}
	if len(ids) > 1 {
		second = ids[1]
	}
	if l == EO {
		t.EO, t.EO2 = first, second
	} else {
		t.NS, t.NS2 = first, second
	}
}

// Seated is every entrant id at the table, NS line first.
func (t TableAssignment) Seated() []string {
	return append(t.Line(NS), t.Line(EO)...)
}

// LineOf is the line id sits at, false when it is not at the table.
func (t TableAssignment) LineOf(id string) (Line, bool) {
	switch id {
	case "":
		return NS, false
	case t.NS, t.NS2:
		return NS, true
	case t.EO, t.EO2:
		return EO, true
	}
	return NS, false
}

// Assignment finds the table with the given number.
func (r Round) Assignment(table int) (TableAssignment, bool) {
	for _, t := range r.Tables {
		if t.Table == table {
			return t, true
		}
	}
	return TableAssignment{}, false
}
