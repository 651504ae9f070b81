package domain

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// PairingSystem is how a round is seated (RULES §11, FITAB art. 2, FIBur-INT
// art. 2). It can only be built valid: use ParsePairingSystem.
type PairingSystem string

const (
	SystemChoice           PairingSystem = "choice"      // the referee's list
	SystemEntryOrder       PairingSystem = "entry_order" // order of entry
	SystemDraw             PairingSystem = "draw"        // seeded random draw
	SystemMitchell         PairingSystem = "mitchell"
	SystemDanese           PairingSystem = "danese"
	SystemDaneseModificato PairingSystem = "danese_modificato"
	SystemItaliana         PairingSystem = "italiana"
	SystemGironi           PairingSystem = "gironi"
)

// PairingSystems lists every system in the order of API §4.2.
var PairingSystems = []PairingSystem{SystemChoice, SystemEntryOrder, SystemDraw, SystemMitchell,
	SystemDanese, SystemDaneseModificato, SystemItaliana, SystemGironi}

// ParsePairingSystem returns the system with the given API name; an unknown
// name is an error wrapping ErrInvalid.
func ParsePairingSystem(id string) (PairingSystem, error) {
	if s := PairingSystem(id); slices.Contains(PairingSystems, s) {
		return s, nil
	}
	return "", fmt.Errorf("%w: unknown pairing system %q (want choice, entry_order, draw, mitchell, danese, danese_modificato, italiana or gironi)", ErrInvalid, id)
}

// FirstRound reports whether the system seats a first round ("formazione
// dei tavoli al primo turno", FITAB art. 2).
func (s PairingSystem) FirstRound() bool {
	return s == SystemChoice || s == SystemEntryOrder || s == SystemDraw
}

// usesStandings reports whether the system pairs from the standings.
func (s PairingSystem) usesStandings() bool {
	return s == SystemDanese || s == SystemDaneseModificato || s == SystemGironi
}

// PairedTable is one table of a round. NS and EO hold one entrant id for
// pairs and teams, two player ids for individual tournaments.
type PairedTable struct {
	Table int
	NS    []string
	EO    []string
	// Match is the team match the table belongs to (RULES §12.5): two
	// tables share it; 0 outside team tournaments.
	Match int
}

// PairedRound is a seating: the tables and who rests (RULES §10, §11).
type PairedRound struct {
	Number int
	System PairingSystem
	// Seed is the seed a draw used, so that anyone can replay it; nil for
	// the systems that draw nothing.
	Seed   *uint64
	Tables []PairedTable
	Byes   []string
	// Groups are the groups a gironi round formed, each in its seating
	// order (RULES §12.1: "it records the group size and each group's
	// members"); the later rounds of the phase and the checker read them
	// back. nil for the other rounds.
	Groups [][]string
	// Vacated are the entrants whose opponent of a fixed calendar
	// (mitchell, italiana, gironi) has withdrawn (RULES §12.3): they get
	// the bye score, and that rest is not a rest of §11 (not flagged, not
	// counted).
	Vacated []string
}

// PairingRequest is everything a round's seating is derived from.
type PairingRequest struct {
	Ruleset Ruleset
	Kind    Kind // "" is pairs
	System  PairingSystem
	Round   int // the number of the round to seat, from 1
	// RoundsPlanned is the number of rounds of the session; the modified
	// Danish system lifts its rule in the last one. 0: unknown (never last).
	RoundsPlanned int
	// Entrants are the ids (pairs, teams, or players) in order of entry.
	Entrants []string
	// Previous are the rounds 1..Round-1 of the session, in order.
	Previous []PairedRound
	// Standings are the entrant ids in standings order (RULES §8) after the
	// previous round: danese and danese_modificato pair from them. For
	// gironi they are the standings the groups are formed from: those after
	// the round before the phase's first round (PhaseStart).
	Standings []string
	// Seed drives draw (and the individual schedule); nil draws a fresh one,
	// returned in the PairedRound.
	Seed *uint64
	// GroupSize is the size g of the gironi groups.
	GroupSize int
	// Choice is the referee's seating for system choice.
	Choice *PairedRound
	// SessionStart is the first round of Round's session (RULES §12.1): a
	// line rests at most once per session, so only the rests of rounds
	// SessionStart..Round-1 count. 0 or 1: the whole tournament is one
	// session.
	SessionStart int
	// Withdrawn maps an entrant that left for good to the first round it
	// no longer plays (RULES §12.3, FITAB art. 37, FIBur-INT art. 33): from
	// that round on no generated round seats it.
	Withdrawn map[string]int
	// Draw: a round robin that starts at Round (italiana from round 1 in a
	// plan whose first_round is draw) takes its calendar order from a draw
	// of the entrants with Seed, recorded with the round; later rounds of
	// the phase replay it from the seed of the phase's first round.
	Draw bool
}

// MaxIndividualPlayers bounds an individual schedule (its memory grows with
// the square of the players).
const MaxIndividualPlayers = 4000

// PhaseStart is the first round of the phase the requested round belongs
// to: the earliest round r such that rounds r..Round-1 all used the
// requested system (a round-robin calendar counts from there).
func PhaseStart(req PairingRequest) int {
	start := req.Round
	for i := len(req.Previous) - 1; i >= 0; i-- {
		if req.Previous[i].System != req.System {
			break
		}
		start = req.Previous[i].Number
	}
	return start
}

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// Refusal is a rule's refusal of its input (it wraps ErrInvalid): the
// input field it is about ("round", "system") and a note, worded outside
// domain (package messages) in the reader's language. Error gives the
// code and arguments, for logs.
type Refusal struct {
	Field string
	Note
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("%v: %s: %s %v", ErrInvalid, r.Field, r.Code, r.Args)
}

func (r *Refusal) Unwrap() error { return ErrInvalid }

// refuse is a Refusal of field by the note code with args.
func refuse(field, code string, args ...any) error {
	return &Refusal{Field: field, Note: note(code, args...)}
}

// GeneratePairing seats a round by its system (RULES §11). Input that
// cannot be seated (an unknown entrant, a system the ruleset refuses, more
// Mitchell rounds than tables, ...) is an error wrapping ErrInvalid that
// names the field or the article.
func GeneratePairing(req PairingRequest) (PairedRound, error) {
	if err := req.validate(); err != nil {
		return PairedRound{}, err
	}
	out := PairedRound{Number: req.Round, System: req.System}
	if req.Kind == KindTeams {
		return generateTeams(req)
	}
	if req.Kind == KindIndividual {
		return generateIndividual(req.withoutWithdrawn())
	}
	var err error
	switch req.System {
	case SystemChoice:
		out = *req.Choice
		out.Number, out.System = req.Round, SystemChoice
		out.Tables = slices.Clone(out.Tables)
		out.Byes = slices.Clone(out.Byes)
		err = validateChoice(req, out)
	case SystemEntryOrder:
		out.Tables, out.Byes = seatInOrder(req.withoutWithdrawn().Entrants)
	case SystemDraw:
		seed := drawSeed(req.Seed)
		out.Seed = &seed
		out.Tables, out.Byes = seatInOrder(drawOrder(req.withoutWithdrawn().Entrants, seed))
	case SystemMitchell:
		out.Tables, out.Byes, err = mitchell(req)
	case SystemDanese, SystemDaneseModificato:
		out.Tables, out.Byes, err = danese(req.withoutWithdrawn())
	case SystemItaliana:
		var order []string
		order, out.Seed = italianaOrder(req)
		out.Tables, out.Byes, err = roundRobin(req, [][]string{order})
	case SystemGironi:
		if PhaseStart(req) == req.Round {
			req.Standings = req.withoutWithdrawn().Standings // the groups are formed without them
		}
		out.Groups = phaseGroups(req)
		out.Tables, out.Byes, err = roundRobin(req, out.Groups)
		if PhaseStart(req) != req.Round {
			out.Groups = nil // recorded once, by the round that forms them
		}
	}
	if err != nil {
		return PairedRound{}, err
	}
	if req.System == SystemMitchell || req.System == SystemItaliana || req.System == SystemGironi {
		out.Tables, out.Vacated = vacate(out.Tables, req.withdrawnAt())
		out.Byes = slices.DeleteFunc(out.Byes, func(id string) bool { return req.withdrawnAt()[id] })
	}
	return out, nil
}

// withdrawnAt is the set of entrants withdrawn from Round or earlier.
func (req PairingRequest) withdrawnAt() map[string]bool {
	out := map[string]bool{}
	for id, r := range req.Withdrawn {
		if r <= req.Round {
			out[id] = true
		}
	}
	return out
}

// withoutWithdrawn is req without the entrants withdrawn from Round or
// earlier: the systems that seat whoever is there (entry order, draw,
// danese, the individual schedule) simply leave them out (RULES §12.3:
// "in danese it is simply left out; an odd field then rests one line as
// usual").
func (req PairingRequest) withoutWithdrawn() PairingRequest {
	gone := req.withdrawnAt()
	if len(gone) == 0 {
		return req
	}
	keep := func(l []string) []string {
		return slices.DeleteFunc(slices.Clone(l), func(id string) bool { return gone[id] })
	}
	req.Entrants, req.Standings = keep(req.Entrants), keep(req.Standings)
	return req
}

// vacate takes the withdrawn entrants out of a fixed calendar's tables
// (mitchell, italiana, gironi): each would-be opponent sits alone and gets
// the bye score without it counting as a rest (RULES §12.3, FITAB art. 37
// "alle coppie con cui avrebbero dovuto giocare nei turni successivi è
// attribuito il punteggio per riposo").
func vacate(tables []PairedTable, gone map[string]bool) ([]PairedTable, []string) {
	if len(gone) == 0 {
		return tables, nil
	}
	var vacated []string
	out := tables[:0:0]
	for _, t := range tables {
		nsGone, eoGone := len(t.NS) == 1 && gone[t.NS[0]], len(t.EO) == 1 && gone[t.EO[0]]
		switch {
		case nsGone && eoGone:
		case nsGone:
			vacated = append(vacated, t.EO[0])
		case eoGone:
			vacated = append(vacated, t.NS[0])
		default:
			out = append(out, t)
		}
	}
	return out, vacated
}

func (req *PairingRequest) validate() error {
	if _, err := ParseRuleset(string(req.Ruleset)); err != nil {
		return fmt.Errorf("ruleset: %w", err)
	}
	if req.Kind == "" {
		req.Kind = KindPairs
	}
	if _, err := ParseKind(string(req.Kind)); err != nil {
		return fmt.Errorf("kind: %w", err)
	}
	if _, err := ParsePairingSystem(string(req.System)); err != nil {
		return fmt.Errorf("system: %w", err)
	}
	if req.Round < 1 {
		return invalidf("round: %d is not a round number (from 1)", req.Round)
	}
	if req.RoundsPlanned < 0 || (req.RoundsPlanned > 0 && req.Round > req.RoundsPlanned) {
		return invalidf("round: %d is beyond rounds_planned %d", req.Round, req.RoundsPlanned)
	}
	if len(req.Previous) != req.Round-1 {
		return invalidf("previous: round %d needs the %d rounds before it, got %d", req.Round, req.Round-1, len(req.Previous))
	}
	for i, p := range req.Previous {
		if p.Number != i+1 {
			return invalidf("previous[%d]: round number %d, want %d", i, p.Number, i+1)
		}
	}
	min := 2
	if req.Kind == KindIndividual {
		min = 4
	}
	if len(req.Entrants) < min {
		return invalidf("entrants: %d, at least %d are needed", len(req.Entrants), min)
	}
	seen := make(map[string]bool, len(req.Entrants))
	for i, id := range req.Entrants {
		if strings.TrimSpace(id) == "" {
			return invalidf("entrants[%d]: empty id", i)
		}
		if seen[id] {
			return invalidf("entrants[%d]: %q entered twice", i, id)
		}
		seen[id] = true
	}
	if req.Kind == KindIndividual {
		if len(req.Entrants) > MaxIndividualPlayers {
			return invalidf("entrants: %d players, at most %d in an individual schedule", len(req.Entrants), MaxIndividualPlayers)
		}
		if !individualSystemAllowed(req.System, req.Round) {
			return invalidf("system: %s does not seat individual tournaments, whose partners change every round by a randomised schedule (%s; use draw)", req.System, individualRule(req.Ruleset))
		}
	}
	if req.System == SystemDaneseModificato && !daneseModificatoAllowed(req.Ruleset) {
		return invalidf("system: danese_modificato is refused under %s: %s marks it \"attualmente non in funzione\"", req.Ruleset, rulePairingFITAB)
	}
	if req.System.FirstRound() {
		if req.System == SystemEntryOrder && req.Round != 1 {
			return invalidf("system: entry_order seats the first round only (%s), not round %d", pairingRule(req.Ruleset), req.Round)
		}
		if req.System == SystemDraw && req.Round != 1 && req.Kind != KindIndividual {
			return invalidf("system: draw seats the first round only (%s), not round %d", pairingRule(req.Ruleset), req.Round)
		}
	} else if req.Round == 1 && req.System != SystemItaliana {
		// RULES §12.1: italiana may seat round 1 (FITAB art. 2 D "secondo
		// un calendario prestabilito"); the other systems pair from a
		// previous round.
		return invalidf("system: %s pairs rounds after the first; the first round is seated by choice, entry_order or draw, or by the italiana calendar (%s)", req.System, pairingRule(req.Ruleset))
	}
	if req.Draw && req.System != SystemItaliana {
		return invalidf("system: only an italiana calendar is seated on a drawn order, not %s", req.System)
	}
	if req.SessionStart > req.Round {
		return invalidf("round: session starts at round %d, after round %d", req.SessionStart, req.Round)
	}
	if req.System == SystemChoice && req.Choice == nil {
		return invalidf("choice: the referee's seating is missing")
	}
	if req.System.usesStandings() {
		if err := samePeople("standings", req.Standings, req.Entrants); err != nil {
			return err
		}
	}
	if req.System == SystemGironi && req.GroupSize < 2 && !groupsRecorded(*req) {
		return invalidf("group_size: %d, a group needs at least 2 entrants", req.GroupSize)
	}
	return nil
}

// samePeople checks that list holds every entrant exactly once.
func samePeople(field string, list, entrants []string) error {
	in := make(map[string]bool, len(entrants))
	for _, e := range entrants {
		in[e] = true
	}
	seen := make(map[string]bool, len(list))
	for i, id := range list {
		if !in[id] {
			return invalidf("%s[%d]: %q is not an entrant", field, i, id)
		}
		if seen[id] {
			return invalidf("%s[%d]: %q listed twice", field, i, id)
		}
		seen[id] = true
	}
	if len(seen) != len(in) {
		for _, e := range entrants {
			if !seen[e] {
				return invalidf("%s: entrant %q is missing", field, e)
			}
		}
	}
	return nil
}

// validateChoice refuses a referee's seating that the checker would flag
// for its structure (an entrant twice, unknown or missing, a second rest).
func validateChoice(req PairingRequest, r PairedRound) error {
	rep := CheckRound(req, r)
	for _, p := range rep.Problems {
		return invalidf("choice: table %d: %s", p.Table, p.Detail)
	}
	return nil
}

func one(id string) []string { return []string{id} }

// seatInOrder seats lines by entryOrderSeating: the NS line of the
// incomplete table rests.
func seatInOrder(lines []string) ([]PairedTable, []string) {
	ns, eo := entryOrderSeating(len(lines))
	tables := make([]PairedTable, 0, len(ns))
	var byes []string
	for t := range ns {
		if eo[t] < 0 {
			byes = append(byes, lines[ns[t]])
			continue
		}
		tables = append(tables, PairedTable{Table: t + 1, NS: one(lines[ns[t]]), EO: one(lines[eo[t]])})
	}
	return tables, byes
}

// drawSeed returns the given seed or a fresh one.
func drawSeed(s *uint64) uint64 {
	if s != nil {
		return *s
	}
	return rand.Uint64()
}

// newDrawRand is the documented, stable generator of every draw: math/rand/v2
// PCG seeded with (seed, seed), so a recorded seed replays the draw.
func newDrawRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed)) }

// drawOrder shuffles the entrants (Fisher-Yates, rand.Rand.Shuffle) with
// the seed; the order is then seated as in entry_order.
func drawOrder(entrants []string, seed uint64) []string {
	out := slices.Clone(entrants)
	r := newDrawRand(seed)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// positions of a pairs round: NS and EO by table number, counting the
// incomplete table (the table number missing from 1..T, or T+1) whose NS
// rests.
type lineSeats struct {
	tables int
	ns, eo map[int]string // table → entrant ("" for none)
}

func seatsOf(r PairedRound) (lineSeats, error) {
	s := lineSeats{ns: map[int]string{}, eo: map[int]string{}}
	for _, t := range r.Tables {
		if len(t.NS) != 1 || len(t.EO) != 1 {
			return s, invalidf("round %d table %d: a line is one entrant", r.Number, t.Table)
		}
		s.ns[t.Table], s.eo[t.Table] = t.NS[0], t.EO[0]
	}
	s.tables = len(r.Tables) + len(r.Byes)
	if len(r.Byes) > 1 {
		return s, invalidf("round %d: %d byes, a pairs round has at most one incomplete table", r.Number, len(r.Byes))
	}
	for _, b := range r.Byes {
		free := 0
		for t := 1; t <= s.tables; t++ {
			if _, ok := s.ns[t]; !ok {
				free = t
				break
			}
		}
		if free == 0 {
			return s, invalidf("round %d: tables are not numbered 1..%d", r.Number, s.tables)
		}
		s.ns[free] = b
	}
	for t := 1; t <= s.tables; t++ {
		if _, ok := s.ns[t]; !ok {
			return s, invalidf("round %d: tables are not numbered 1..%d", r.Number, s.tables)
		}
	}
	return s, nil
}

// mitchellFull is the previous round as the movement reads it: a Mitchell
// round of this phase that left lines alone because their opponent
// withdrew (RULES §12.3: Vacated, the withdrawn entrant's table taken
// out) is seated again as the movement seated it, withdrawn entrants
// included, so that the movement goes on (FITAB art. 37: the later
// would-be opponents rest too). Any other round is read as recorded.
func mitchellFull(req PairingRequest) PairedRound {
	last := len(req.Previous) - 1
	prev := req.Previous[last]
	if len(prev.Vacated) == 0 || last == 0 || prev.Number < PhaseStart(req) {
		return prev
	}
	sub := req
	sub.Round, sub.Previous = prev.Number, req.Previous[:last]
	tables, byes, err := mitchell(sub)
	if err != nil {
		return prev // read as recorded: the check names what is wrong
	}
	return PairedRound{Number: prev.Number, System: prev.System, Tables: tables, Byes: byes}
}

// mitchell moves the EO lines of the previous round up one table (RULES §11):
// NS stay; the incomplete table's missing EO line moves too, so the NS it
// reaches rests. In the first round of the phase the roles are set by
// mitchellSwapRoles; a rest the movement would give a second time is refused
// (FITAB art. 38, FIBur-INT art. 34).
func mitchell(req PairingRequest) ([]PairedTable, []string, error) {
	prev := mitchellFull(req)
	s, err := seatsOf(prev)
	if err != nil {
		return nil, nil, fmt.Errorf("previous: %w", err)
	}
	if want := (len(req.Entrants) + 1) / 2; s.tables != want {
		return nil, nil, invalidf("previous: round %d has %d tables, %d entrants need %d", prev.Number, s.tables, len(req.Entrants), want)
	}
	start := PhaseStart(req)
	base := max(start-1, 1)
	if moved := req.Round - base; moved >= s.tables {
		return nil, nil, refuse("round", "rule.mitchell_rounds", s.tables, s.tables, base, req.Round, pairingRule(req.Ruleset))
	}
	rested := req.sessionRests(req.Round)
	if req.Round == start { // the previous round is the one before the phase
		for t := 1; t <= s.tables; t++ {
			if ns, eo := s.ns[t], s.eo[t]; eo != "" && mitchellSwapRoles(rested[ns] > 0, rested[eo] > 0) {
				s.ns[t], s.eo[t] = eo, ns
			}
		}
	}
	var tables []PairedTable
	var byes []string
	for t := 1; t <= s.tables; t++ {
		eo := s.eo[mitchellEOFrom(t, s.tables)]
		if eo == "" {
			if n := rested[s.ns[t]]; n > 0 {
				return nil, nil, invalidf("round: the Mitchell movement brings the incomplete table to table %d in round %d, where %s stays, who already rested in round %d; a line rests at most once per session (%s) and the roles set from round %d leave no other line to rest there: seat round %d by choice",
					t, req.Round, s.ns[t], n, restRule(req.Ruleset), base, req.Round)
			}
			byes = append(byes, s.ns[t])
			continue
		}
		tables = append(tables, PairedTable{Table: t, NS: one(s.ns[t]), EO: one(eo)})
	}
	return tables, byes, nil
}

// sessionRests maps who rested in the rounds of Round's session before
// round upTo to the first round they rested in (RULES §12.1: a rest in
// another session is not a second rest).
func (req PairingRequest) sessionRests(upTo int) map[string]int {
	from := max(req.SessionStart, 1)
	out := map[string]int{}
	for _, p := range req.Previous {
		if p.Number < from || p.Number >= upTo {
			continue
		}
		for _, b := range p.Byes {
			if _, ok := out[b]; !ok {
				out[b] = p.Number
			}
		}
	}
	return out
}

// restRounds maps who rested in the given rounds to the first round they
// rested in.
func restRounds(prev []PairedRound) map[string]int {
	out := map[string]int{}
	for _, p := range prev {
		for _, b := range p.Byes {
			if _, ok := out[b]; !ok {
				out[b] = p.Number
			}
		}
	}
	return out
}

// danese pairs 1st v 2nd, 3rd v 4th ... from the standings (RULES §11); the
// modified system keeps apart the entrants that met in the previous round,
// except in the last round, by backtracking.
func danese(req PairingRequest) ([]PairedTable, []string, error) {
	order := req.Standings
	var byes []string
	if len(order)%2 == 1 {
		rested := req.sessionRests(req.Round)
		bye := -1
		for k := range order {
			i := k // from the top…
			if daneseRestFromBottom {
				i = len(order) - 1 - k // …or from the bottom of the standings
			}
			if rested[order[i]] == 0 {
				bye = i
				break
			}
		}
		if bye < 0 {
			return nil, nil, invalidf("round: every entrant has rested once; none may rest again (%s)", restRule(req.Ruleset))
		}
		byes = []string{order[bye]}
		order = slices.Concat(order[:bye], order[bye+1:])
	}
	pairs := make([][2]int, 0, len(order)/2)
	if req.System == SystemDaneseModificato && !(req.RoundsPlanned > 0 && req.Round == req.RoundsPlanned) {
		met := lastOpponents(req.Previous)
		var ok bool
		if pairs, ok = pairAvoiding(order, met); !ok {
			return nil, nil, invalidf("round: no pairing keeps apart every two entrants that met in round %d (%s danese modificato)", req.Round-1, pairingRule(req.Ruleset))
		}
	} else {
		for i := 0; i+1 < len(order); i += 2 {
			pairs = append(pairs, [2]int{i, i + 1})
		}
	}
	tables := make([]PairedTable, len(pairs))
	for k, p := range pairs {
		ns, eo := order[p[0]], order[p[1]]
		if !daneseBetterPlacedNS {
			ns, eo = eo, ns
		}
		tables[k] = PairedTable{Table: k + 1, NS: one(ns), EO: one(eo)}
	}
	return tables, byes, nil
}

// lastOpponents maps each entrant to its opponent in the last previous
// round.
func lastOpponents(prev []PairedRound) map[string]string {
	out := map[string]string{}
	if len(prev) == 0 {
		return out
	}
	for _, t := range prev[len(prev)-1].Tables {
		if len(t.NS) == 1 && len(t.EO) == 1 {
			out[t.NS[0]], out[t.EO[0]] = t.EO[0], t.NS[0]
		}
	}
	return out
}

// pairAvoiding pairs the best unpaired entrant with the next one below it
// that it did not meet (met), backtracking when that leaves the rest
// unpairable (RULES §11). Each entrant has at most one forbidden opponent,
// so the search only ever backtracks near the bottom of the list.
func pairAvoiding(order []string, met map[string]string) ([][2]int, bool) {
	n := len(order)
	paired := make([]bool, n)
	pairs := make([][2]int, 0, n/2)
	var solve func(from int) bool
	solve = func(from int) bool {
		for from < n && paired[from] {
			from++
		}
		if from == n {
			return true
		}
		paired[from] = true
		for j := from + 1; j < n; j++ {
			if paired[j] || met[order[from]] == order[j] {
				continue
			}
			paired[j] = true
			pairs = append(pairs, [2]int{from, j})
			if solve(from + 1) {
				return true
			}
			pairs = pairs[:len(pairs)-1]
			paired[j] = false
		}
		paired[from] = false
		return false
	}
	return pairs, solve(0)
}

// italianaOrder is the order a round-robin calendar numbers the entrants
// in (RULES §12.1): entry order, or a draw of it when the phase's first
// round drew one — the seed is drawn (or given) in that round and read back
// from it in the later rounds. It returns the seed to record with Round
// (nil but in a drawn phase's first round).
func italianaOrder(req PairingRequest) ([]string, *uint64) {
	start := PhaseStart(req)
	if start == req.Round {
		if !req.Draw {
			return req.Entrants, nil
		}
		seed := drawSeed(req.Seed)
		return drawOrder(req.Entrants, seed), &seed
	}
	if first := req.Previous[start-1]; first.Seed != nil {
		return drawOrder(req.Entrants, *first.Seed), nil
	}
	return req.Entrants, nil
}

// groupsRecorded reports whether Round continues a gironi phase whose
// first round recorded its groups.
func groupsRecorded(req PairingRequest) bool {
	start := PhaseStart(req)
	return start < req.Round && start >= 1 && len(req.Previous[start-1].Groups) > 0
}

// phaseGroups are the groups of a gironi phase: formed from the standings
// in its first round, read back from that round afterwards (RULES §12.1),
// or formed again from the standings before the phase when that round
// recorded none (rounds stored before groups were).
func phaseGroups(req PairingRequest) [][]string {
	start := PhaseStart(req)
	if start < req.Round {
		if g := req.Previous[start-1].Groups; len(g) > 0 {
			return g
		}
	}
	return gironiGroups(req.Standings, req.GroupSize)
}

// gironiGroups cuts the standings into blocks of g consecutive places
// (RULES §11 gironi); a last block under gironiMinGroup joins the one above.
func gironiGroups(standings []string, g int) [][]string {
	var groups [][]string
	for i := 0; i < len(standings); i += g {
		groups = append(groups, standings[i:min(i+g, len(standings))])
	}
	if k := len(groups); k > 1 && len(groups[k-1]) < gironiMinGroup {
		groups[k-2] = slices.Concat(groups[k-2], groups[k-1])
		groups = groups[:k-1]
	}
	return groups
}

// roundRobin seats round k of the phase in each group by Berger's tables
// (RULES §11 italiana), each odd group in roundRobinOrder; tables are
// numbered on across groups. A Berger rest on an entrant that has already
// rested in the session is refused (roundRobinRestExempt).
func roundRobin(req PairingRequest, groups [][]string) ([]PairedTable, []string, error) {
	start := PhaseStart(req)
	k := req.Round - start + 1
	before := req.sessionRests(start)
	rested := req.sessionRests(req.Round)
	var tables []PairedTable
	var byes []string
	for gi, g := range groups {
		rounds := len(g) - 1
		if len(g)%2 == 1 {
			rounds = len(g)
		}
		if k > rounds {
			return nil, nil, invalidf("round: round %d of the round robin, but a group of %d plays %d rounds (group %d; %s)", k, len(g), rounds, gi+1, pairingRule(req.Ruleset))
		}
		g = roundRobinOrder(g, before)
		rest := func(id string) error {
			if n := rested[id]; n > 0 && !roundRobinRestExempt {
				again := 0
				for _, e := range g {
					if before[e] > 0 {
						again++
					}
				}
				return invalidf("round: round %d of the round robin rests %s (group %d), who already rested in round %d; a line rests at most once per session (%s), so an odd group of %d in which %d rested before the phase plays at most %d rounds from round %d",
					req.Round, id, gi+1, n, restRule(req.Ruleset), len(g), again, len(g)-again, start)
			}
			byes = append(byes, id)
			return nil
		}
		for _, p := range bergerRound(len(g), k) {
			switch {
			case p[0] < 0:
				if err := rest(g[p[1]]); err != nil {
					return nil, nil, err
				}
			case p[1] < 0:
				if err := rest(g[p[0]]); err != nil {
					return nil, nil, err
				}
			default:
				tables = append(tables, PairedTable{Table: len(tables) + 1, NS: one(g[p[0]]), EO: one(g[p[1]])})
			}
		}
	}
	return tables, byes, nil
}

// errNoSchedule is returned when no individual seating avoids a repeated
// partner or a second rest.
var errNoSchedule = errors.New("no seating")
