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
