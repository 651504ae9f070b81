package domain

// Every reading of ambiguous pairing text (RULES §11 [INTERP]) lives in this
// file, one named constant or function each, with its reference. Change a
// reading here and the generator and the checker follow.

// Articles the pairing code cites.
const (
	rulePairingFITAB    = "FITAB art. 2"
	rulePairingFIBur    = "FIBur-INT art. 2"
	ruleRestFITAB       = "FITAB art. 38"
	ruleRestFIBur       = "FIBur-INT art. 34"
	ruleIndividualFITAB = "FITAB art. 2.3"
)

// pairingRule is the article on systems and movements under the ruleset.
func pairingRule(r Ruleset) string {
	if r.Federation() == FITAB {
		return rulePairingFITAB
	}
	return rulePairingFIBur
}

// restRule is the article "una coppia può riposare solo una volta per
// sessione" under the ruleset.
func restRule(r Ruleset) string {
	if r.Federation() == FITAB {
		return ruleRestFITAB
	}
	return ruleRestFIBur
}

// individualRule is the article that makes partners change every round.
func individualRule(r Ruleset) string {
	if r.Federation() == FITAB {
		return ruleIndividualFITAB
	}
	return rulePairingFIBur
}

// daneseModificatoAllowed: FITAB art. 2 B marks the modified Danish system
// "ATTUALMENTE NON IN FUNZIONE"; FIBur-INT art. 2 b) allows it (RULES §11).
func daneseModificatoAllowed(r Ruleset) bool { return r.Federation() != FITAB }

// entryOrderSeating [INTERP RULES §11 entry_order, FITAB art. 2 "in base
// all'ordine d'iscrizione"]: the first half of the lines (rounded up) sit NS
// at tables 1..T, the second half EO at tables 1..T in the same order. With
// an odd number of lines the last table has no EO line (the incomplete
// table) and its NS line rests. It returns, per table, the indexes of the NS
// and EO lines (EO -1 for the incomplete table).
func entryOrderSeating(lines int) (ns, eo []int) {
	tables := (lines + 1) / 2
	ns = make([]int, tables)
	eo = make([]int, tables)
	for t := range tables {
		ns[t] = t
		eo[t] = tables + t
		if eo[t] >= lines {
			eo[t] = -1
		}
	}
	return ns, eo
}

// individualEntryLines [INTERP RULES §11 entry_order for individual
// tournaments]: players form lines in entry order (1-2, 3-4, ...); the
// players left over when the number is not a multiple of 4 are the last
// entered, and rest.
const individualEntryLinesConsecutive = true

// mitchellStep [INTERP RULES §11 mitchell "direction and step"]: EO lines
// move up one table each round, table T goes to table 1; NS lines stay.
const mitchellStep = 1

// mitchellEOFrom is the table whose EO line comes to table t (1..T) after
// one move.
func mitchellEOFrom(t, tables int) int {
	return (t-1-mitchellStep+tables)%tables + 1
}

// mitchellSwapRoles [INTERP RULES §11 mitchell "the rest moves with the
// missing EO line" against FITAB art. 38, FIBur-INT art. 34 "Nei tornei con
// tavolo incompleto una coppia può riposare solo una volta per sessione"]:
// in a Mitchell phase only fixed lines rest (the missing EO line of the
// incomplete table moves with the mobile lines and rests the fixed line it
// reaches), and a mobile line never rests. The roles are set once, in the
// first round of the phase, from the round before it: at each table the NS
// line stays and the EO line moves, except that a table whose NS line has
// already rested in the session and whose EO line has not swaps them (the
// EO line stays, the NS line moves), so the rest the movement brings there
// falls on a line that has not rested. The movement itself (mitchellStep)
// and where the missing EO line starts (the incomplete table) are
// unchanged. When both lines of a table the missing EO line reaches have
// rested, no role keeps the rule and that round is refused citing the
// article (the referee seats it by choice); the checker re-derives the same
// roles, so it flags exactly what the generator refuses (SECOND_REST).
func mitchellSwapRoles(nsRested, eoRested bool) bool { return nsRested && !eoRested }

// roundRobinRestExempt [INTERP RULES §11 italiana/gironi against FITAB
// art. 38, FIBur-INT art. 34]: a round robin of an odd group gives every
// entrant of the group one rest (Berger), so an entrant that rested before
// the phase would rest twice. The articles admit no exception (the proviso
// "salvo che la formula non renda necessaria..." next to them is about the
// bye score, not the rest), so false: a round robin is not exempt. The
// generator postpones the rest of those entrants (roundRobinOrder) and
// refuses, citing the article, the round in which one of them would rest
// again; the checker flags such a published round (SECOND_REST). An odd
// group in which r entrants rested before the phase thus plays at most
// n − r of its n rounds in the session: after a first round with one rest,
// an odd italiana of n plays n − 1 rounds, so the session (n rounds) rests
// every entrant exactly once. True would let the Berger rest fall on anyone
// and make the checker stop flagging it for italiana and gironi.
const roundRobinRestExempt = false

// roundRobinOrder [INTERP RULES §11 italiana "Berger tables", with
// roundRobinRestExempt]: the order in which an odd group takes the Berger
// numbers 1..n, entrant i resting in round i of the phase (bergerRound):
// the entrants that have not rested before the phase first, then those that
// have, each part in the group's own order (entry order for italiana,
// standings for gironi). rested holds who rested before the phase's first
// round, so the calendar is fixed for the whole phase. An even group has no
// rest and keeps its order.
func roundRobinOrder(group []string, rested map[string]int) []string {
	if len(group)%2 == 0 {
		return group
	}
	out := make([]string, 0, len(group))
	var later []string
	for _, e := range group {
		if rested[e] > 0 {
			later = append(later, e)
		} else {
			out = append(out, e)
		}
	}
	return append(out, later...)
}

// daneseBetterPlacedNS [INTERP RULES §11 danese]: at each table the
// better-placed entrant sits NS.
const daneseBetterPlacedNS = true

// daneseRestFromBottom [INTERP RULES §11 incomplete table]: in the Danish
// systems the lowest-placed entrant that has not rested yet in the session
// rests.
const daneseRestFromBottom = true

// gironiMinGroup [INTERP RULES §11 gironi]: groups are blocks of
// consecutive places 1..g, g+1..2g, ...; a last block with fewer than this
// many entrants is merged into the block above it (a group of one would
// never play).
const gironiMinGroup = 2

// individualRestRandom [INTERP RULES §11 individual]: the players left over
// are drawn (from the round's seed) among those who have not rested yet.
const individualRestRandom = true

// Individual schedule weights [INTERP RULES §11 individual "minimise
// repeated opponents, then repeated table-mates"]: a repeated partner is
// forbidden; one repeated opponent outweighs any number of repeated
// table-mates at one table.
const (
	individualCostPartner   = 1_000_000
	individualCostOpponent  = 100
	individualCostTableMate = 1
)

// individualSystems [INTERP RULES §11 individual, LUG "secondo uno schema
// randomizzato dal sistema"]: individual rounds after the first are seated
// by the randomised schedule, asked for as system "draw"; the Danish,
// Mitchell and round-robin systems pair lines that do not exist in an
// individual tournament and are refused.
func individualSystemAllowed(s PairingSystem, round int) bool {
	switch s {
	case SystemDraw:
		return true
	case SystemChoice, SystemEntryOrder:
		return round == 1 || s == SystemChoice
	}
	return false
}

// bergerRound [INTERP RULES §11 italiana "Berger tables"]: the circle
// method. With n entrants (a dummy added when n is odd, so N is even), in
// round k (1..N-1) the last entrant is fixed and the others rotate by k-1;
// the entrant paired with the dummy rests. The first-listed of each pair
// sits NS; the fixed entrant alternates NS/EO by round. It returns index
// pairs into the group (NS, EO), -1 for the dummy.
func bergerRound(n, k int) [][2]int {
	N := n
	if N%2 == 1 {
		N++
	}
	idx := func(i int) int {
		if i >= n {
			return -1
		}
		return i
	}
	m := N - 1
	rot := func(i int) int { return (k - 1 + i) % m }
	out := make([][2]int, 0, N/2)
	fixed, first := idx(N-1), idx(rot(0))
	if k%2 == 1 {
		out = append(out, [2]int{first, fixed})
	} else {
		out = append(out, [2]int{fixed, first})
	}
	for i := 1; i < N/2; i++ {
		out = append(out, [2]int{idx(rot(i)), idx(rot(m - i))})
	}
	return out
}

// planPhaseIndividual [INTERP RULES §12.1 "a round's phase is the system of
// the phase it belongs to", for individual tournaments, whose every round
// is seated by the randomised schedule and whose plan has no phase]: their
// rounds are recorded as danese, the strictest phase for corrections
// (§9.1 rule 6, §9.2 rule 7), as the service recorded a round seated by
// choice, entry_order or draw before plans existed.
const planPhaseIndividual = PhaseDanese

// namedSystemPhase [INTERP RULES §12.1 "naming another system than the
// plan's is allowed for the referee and recorded"]: a round the referee
// seats by a later-round system other than the plan's is played by that
// system, so that system is its phase (the corrections of §9 read it: a
// Mitchell round seated in a Danish phase is score-independent); the
// plan's phase stays for a system that is no phase. The system itself is
// recorded with the round.
func namedSystemPhase(named PairingSystem, planned Phase) Phase {
	if ph, err := ParsePhase(string(named)); err == nil {
		return ph
	}
	return planned
}
