package domain

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Plan is what a tournament announces before round 1 (RULES §12.1; FITAB
// art. 2: the systems are chosen "dandone preventiva comunicazione ai
// partecipanti"): how round 1 is seated, the system of each phase, and the
// sessions (FITAB definitions: "SESSIONE — insieme dei turni di gara
// giocati consecutivamente"). Build one with ParsePlan or DefaultPlan.
type Plan struct {
	// FirstRound seats round 1: choice, entry_order or draw.
	FirstRound PairingSystem
	// Phases in order of FromRound; the first starts at round 1.
	Phases []PlanPhase
	// Sessions are the rounds of each session, adding up to the rounds
	// planned.
	Sessions []int
}

// PlanPhase is one phase of the plan: System from round FromRound on.
type PlanPhase struct {
	FromRound int
	System    PairingSystem
}

// DefaultPlan is the plan of a tournament that announces none (API §4.3):
// round 1 in entry order, one Danish phase, one session.
func DefaultPlan(roundsPlanned int) Plan {
	return Plan{FirstRound: SystemEntryOrder, Phases: []PlanPhase{{FromRound: 1, System: SystemDanese}}, Sessions: []int{roundsPlanned}}
}

// PlanProblem is one thing wrong with a plan: the JSON pointer under the
// plan ("/first_round", "/phases/1/from_round", "/sessions") and why.
type PlanProblem struct {
	Pointer string
	Detail  string
}

// PlanError lists what is wrong with a plan; it wraps ErrInvalid.
type PlanError struct{ Problems []PlanProblem }

func (e *PlanError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = "plan" + p.Pointer + ": " + p.Detail
	}
	return ErrInvalid.Error() + ": " + strings.Join(parts, "; ")
}

func (e *PlanError) Unwrap() error { return ErrInvalid }

// PlanInput is a plan as a request writes it, before it is checked.
type PlanInput struct {
	FirstRound string
	Phases     []PlanPhaseInput
	Sessions   []int
}

// PlanPhaseInput is one phase as written.
type PlanPhaseInput struct {
	FromRound int
	System    string
}

// ParsePlan checks a written plan against the tournament (RULES §12.1):
// round 1 is seated by choice, entry_order or draw; the phases start at
// round 1, each later than the one before and within the rounds planned,
// each with a system of the later rounds (§11) the ruleset and kind allow;
// the sessions are positive and add up to the rounds planned. Left-out
// parts take the default (DefaultPlan). Every problem is listed.
func ParsePlan(in PlanInput, rs Ruleset, kind Kind, roundsPlanned int) (Plan, error) {
	def := DefaultPlan(roundsPlanned)
	p := Plan{FirstRound: def.FirstRound, Phases: def.Phases, Sessions: def.Sessions}
	var probs []PlanProblem
	bad := func(ptr, format string, args ...any) {
		probs = append(probs, PlanProblem{Pointer: ptr, Detail: fmt.Sprintf(format, args...)})
	}
	if in.FirstRound != "" {
		s, err := ParsePairingSystem(in.FirstRound)
		switch {
		case err != nil:
			bad("/first_round", "unknown %q (want choice, entry_order or draw)", in.FirstRound)
		case !s.FirstRound():
			bad("/first_round", "%s does not seat a first round; round 1 is seated by choice, entry_order or draw (%s)", s, pairingRule(rs))
		default:
			p.FirstRound = s
		}
	}
	if kind == KindIndividual {
		// Individual rounds are seated by the randomised schedule (RULES
		// §11, individualSystemAllowed): the phases name no system.
		if len(in.Phases) > 0 {
			bad("/phases", "an individual tournament is seated every round by the randomised schedule (%s): it has no phases", individualRule(rs))
		}
		p.Phases = nil
	} else if len(in.Phases) > 0 {
		p.Phases = make([]PlanPhase, 0, len(in.Phases))
		for i, ph := range in.Phases {
			ptr := "/phases/" + strconv.Itoa(i)
			s, err := ParsePairingSystem(ph.System)
			switch {
			case err != nil:
				bad(ptr+"/system", "unknown %q (want mitchell, danese, danese_modificato, italiana or gironi)", ph.System)
			case s.FirstRound():
				bad(ptr+"/system", "%s seats the first round only; a phase has a system of the later rounds (%s)", s, pairingRule(rs))
			case s == SystemDaneseModificato && !daneseModificatoAllowed(rs):
				bad(ptr+"/system", "danese_modificato is refused under %s: %s marks it \"attualmente non in funzione\"", rs, rulePairingFITAB)
			case s == SystemGironi && ph.FromRound == 1:
				bad(ptr+"/system", "gironi forms groups from the standings, and there are none before round 1 (%s); start the groups later, or play italiana from round 1", pairingRule(rs))
			}
			switch {
			case i == 0 && ph.FromRound != 1:
				bad(ptr+"/from_round", "the first phase starts at round 1, not %d", ph.FromRound)
			case i > 0 && ph.FromRound <= in.Phases[i-1].FromRound:
				bad(ptr+"/from_round", "%d does not come after the phase before it (from round %d)", ph.FromRound, in.Phases[i-1].FromRound)
			case ph.FromRound > roundsPlanned:
				bad(ptr+"/from_round", "%d is beyond the %d rounds planned", ph.FromRound, roundsPlanned)
			}
			p.Phases = append(p.Phases, PlanPhase{FromRound: ph.FromRound, System: s})
		}
	}
	if len(in.Sessions) > 0 {
		sum := 0
		for i, n := range in.Sessions {
			if n < 1 {
				bad("/sessions/"+strconv.Itoa(i), "%d: a session has at least one round", n)
			}
			sum += n
		}
		if sum != roundsPlanned {
			bad("/sessions", "the sessions add up to %d rounds, the tournament plans %d", sum, roundsPlanned)
		}
		p.Sessions = slices.Clone(in.Sessions)
	}
	if len(probs) > 0 {
		return Plan{}, &PlanError{Problems: probs}
	}
	return p, nil
}

// phaseAt is the plan's phase round n belongs to (false for an individual
// tournament, which has none).
func (p Plan) phaseAt(n int) (PlanPhase, bool) {
	var out PlanPhase
	ok := false
	for _, ph := range p.Phases {
		if ph.FromRound <= n {
			out, ok = ph, true
		}
	}
	return out, ok
}

// PhaseOf is the phase of round n (RULES §12.1): the system of the phase it
// belongs to, round 1 included (a round 1 seated by draw in a Mitchell
// event is a mitchell round); inside a gironi phase only the round that
// forms the groups is gironi, the later rounds are italiana. Individual
// tournaments have no phase in their plan: PlanPhaseIndividual.
func (p Plan) PhaseOf(n int) Phase {
	ph, ok := p.phaseAt(n)
	if !ok {
		return planPhaseIndividual
	}
	if ph.System == SystemGironi && n > ph.FromRound {
		return PhaseItaliana
	}
	return Phase(ph.System)
}

// SystemFor is the system that seats round n when a generation names none
// (RULES §12.1): round 1 by FirstRound, except that a round robin from
// round 1 starts its calendar there (italiana seats round 1, on entry order
// or, when FirstRound is draw, on a drawn order); later rounds by their
// phase. Individual tournaments: draw.
func (p Plan) SystemFor(n int) PairingSystem {
	ph, ok := p.phaseAt(n)
	if !ok {
		if n == 1 && p.FirstRound != "" {
			return p.FirstRound
		}
		return SystemDraw
	}
	if n == 1 {
		if ph.System == SystemItaliana {
			return SystemItaliana
		}
		return p.FirstRound
	}
	return ph.System
}

// SessionOf is the session (from 1) round n is played in; a round beyond
// the sessions belongs to the last.
func (p Plan) SessionOf(n int) int {
	end := 0
	for i, k := range p.Sessions {
		end += k
		if n <= end {
			return i + 1
		}
	}
	return max(len(p.Sessions), 1)
}

// SessionStart is the first round of the session round n is played in:
// rests are counted from there (FITAB art. 38, FIBur-INT art. 34 "una
// coppia può riposare solo una volta per sessione").
func (p Plan) SessionStart(n int) int {
	start := 1
	for _, k := range p.Sessions {
		if n < start+k {
			return start
		}
		start += k
	}
	return start - p.lastSession()
}

func (p Plan) lastSession() int {
	if len(p.Sessions) == 0 {
		return 0
	}
	return p.Sessions[len(p.Sessions)-1]
}

// SessionsText writes the sessions as the page's field does ("3,2").
func (p Plan) SessionsText() string {
	parts := make([]string, len(p.Sessions))
	for i, n := range p.Sessions {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}

// HandSeatedSystem is the system a round seated by hand is checked
// against (RULES §12.1, §11 "a pairing is checkable"): the plan's system
// for it, or choice when the plan seats it by a first-round system (the
// referee's list, an entry order or a draw with no recorded seed).
func (p Plan) HandSeatedSystem(n int) PairingSystem {
	if s := p.SystemFor(n); !s.FirstRound() {
		return s
	}
	return SystemChoice
}

// PhaseFor is the phase recorded with round n seated by system s, whose
// phase (the run of rounds seated by s) starts at round phaseStart: the
// plan's phase, unless the referee named another system
// (namedSystemPhase).
func (p Plan) PhaseFor(n int, s PairingSystem, phaseStart int) Phase {
	if s == SystemGironi {
		if phaseStart < n {
			return PhaseItaliana // RULES §12.1: the rounds inside the groups
		}
		return PhaseGironi
	}
	if s.FirstRound() || s == p.SystemFor(n) {
		return p.PhaseOf(n)
	}
	return namedSystemPhase(s, p.PhaseOf(n))
}
