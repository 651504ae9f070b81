package domain

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// individualHistory is what earlier rounds of an individual tournament
// leave: who partnered, who opposed, who shared a table, who rested.
type individualHistory struct {
	n       int
	index   map[string]int
	partner []bool  // n×n
	opp     []uint8 // n×n: times opponents
	mate    []uint8 // n×n: times at the same table
	rested  []bool
}

func newIndividualHistory(players []string, prev []PairedRound, sessionStart int) *individualHistory {
	n := len(players)
	h := &individualHistory{n: n, index: make(map[string]int, n),
		partner: make([]bool, n*n), opp: make([]uint8, n*n), mate: make([]uint8, n*n), rested: make([]bool, n)}
	for i, p := range players {
		h.index[p] = i
	}
	for _, r := range prev {
		h.addRound(r, r.Number >= sessionStart)
	}
	return h
}

// ids maps ids to indexes, dropping unknown ones (the checker reports them).
func (h *individualHistory) ids(list []string) []int {
	out := make([]int, 0, len(list))
	for _, id := range list {
		if i, ok := h.index[id]; ok {
			out = append(out, i)
		}
	}
	return out
}

// addRound records a previous round; its rests count when inSession
// (RULES §12.1: a rest in another session is not a second rest).
func (h *individualHistory) addRound(r PairedRound, inSession bool) {
	for _, b := range h.ids(r.Byes) {
		h.rested[b] = h.rested[b] || inSession
	}
	for _, t := range r.Tables {
		ns, eo := h.ids(t.NS), h.ids(t.EO)
		for _, line := range [][]int{ns, eo} {
			for i, a := range line {
				for _, b := range line[i+1:] {
					h.partner[a*h.n+b], h.partner[b*h.n+a] = true, true
				}
			}
		}
		for _, a := range ns {
			for _, b := range eo {
				h.opp[a*h.n+b]++
				h.opp[b*h.n+a]++
			}
		}
		all := slices.Concat(ns, eo)
		for i, a := range all {
			for _, b := range all[i+1:] {
				h.mate[a*h.n+b]++
				h.mate[b*h.n+a]++
			}
		}
	}
}

// lineSplits are the three ways to cut four seats into two lines of two.
var lineSplits = [3][4]int{{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}}

// tableCost is the cost of four players at one table with their best split
// into lines, and that split (individualCost* weights).
func (h *individualHistory) tableCost(p [4]int) (int, int) {
	n := h.n
	mates := 0
	for i := range 4 {
		for j := i + 1; j < 4; j++ {
			mates += int(h.mate[p[i]*n+p[j]])
		}
	}
	best, split := -1, 0
	for s, sp := range lineSplits {
		a, b, c, d := p[sp[0]], p[sp[1]], p[sp[2]], p[sp[3]]
		c0 := 0
		if h.partner[a*n+b] {
			c0 += individualCostPartner
		}
		if h.partner[c*n+d] {
			c0 += individualCostPartner
		}
		c0 += individualCostOpponent * int(h.opp[a*n+c]+h.opp[a*n+d]+h.opp[b*n+c]+h.opp[b*n+d])
		if best < 0 || c0 < best {
			best, split = c0, s
		}
	}
	return best + individualCostTableMate*mates, split
}

// generateIndividual seats an individual round (RULES §11): four players a
// table as two lines of two, never two former partners together, repeated
// opponents and then repeated table-mates as few as the search finds; the
// players left over rest, each at most once per session.
func generateIndividual(req PairingRequest) (PairedRound, error) {
	out := PairedRound{Number: req.Round, System: req.System}
	players := req.Entrants
	n := len(players)
	rest := n % 4
	switch req.System {
	case SystemChoice:
		out = *req.Choice
		out.Number, out.System = req.Round, SystemChoice
		return out, validateChoice(req, out)
	case SystemEntryOrder:
		if !individualEntryLinesConsecutive {
			break
		}
		seated := players[:n-rest]
		lines := len(seated) / 2
		for t := range lines / 2 {
			ns, eo := 2*t, 2*(t+lines/2)
			out.Tables = append(out.Tables, PairedTable{Table: t + 1, NS: slices.Clone(seated[ns : ns+2]), EO: slices.Clone(seated[eo : eo+2])})
		}
		out.Byes = slices.Clone(players[n-rest:])
		return out, nil
	}
	seed := drawSeed(req.Seed)
	out.Seed = &seed
	rng := newDrawRand(seed)
	h := newIndividualHistory(players, req.Previous, req.SessionStart)
	var candidates, others []int
	for i := range n {
		if h.rested[i] {
			others = append(others, i)
		} else {
			candidates = append(candidates, i)
		}
	}
	if len(candidates) < rest {
		return PairedRound{}, invalidf("round: %d players must rest but only %d have not rested yet (%s)", rest, len(candidates), restRule(req.Ruleset))
	}
	if individualRestRandom { // else the first in entry order rest
		rng.Shuffle(len(candidates), func(i, j int) { candidates[i], candidates[j] = candidates[j], candidates[i] })
	}
	resting := candidates[:rest]
	seat := slices.Concat(candidates[rest:], others)
	tables, cost := h.search(seat, rng)
	if cost >= individualCostPartner {
		return PairedRound{}, fmt.Errorf("%w (%w): no seating of %d players in round %d keeps every two former partners apart (%s)",
			ErrInvalid, errNoSchedule, n, req.Round, individualRule(req.Ruleset))
	}
	slices.Sort(resting)
	for _, b := range resting {
		out.Byes = append(out.Byes, players[b])
	}
	for t, p := range tables {
		_, s := h.tableCost(p)
		sp := lineSplits[s]
		line := func(a, b int) []string {
			x, y := p[sp[a]], p[sp[b]]
			if x > y {
				x, y = y, x
			}
			return []string{players[x], players[y]}
		}
		out.Tables = append(out.Tables, PairedTable{Table: t + 1, NS: line(0, 1), EO: line(2, 3)})
	}
	return out, nil
}

// search is a seeded local search over seatings: random swaps of two
// players between two tables, kept when the total cost does not rise
// (plateau moves let it wander), with a few restarts while a partner would
// repeat. It returns the tables and their total cost.
func (h *individualHistory) search(seat []int, rng *rand.Rand) ([][4]int, int) {
	m := len(seat) / 4
	var best [][4]int
	bestCost := -1
	// Small fields get restarts (cheap, and their search space is rugged);
	// any field gets more while a partner would repeat.
	restarts := min(max(1, 1_000/max(len(seat), 1)), 50)
	for attempt := 0; bestCost != 0 && (attempt < restarts || (attempt < restarts+8 && bestCost >= individualCostPartner)); attempt++ {
		rng.Shuffle(len(seat), func(i, j int) { seat[i], seat[j] = seat[j], seat[i] })
		tables := make([][4]int, m)
		costs := make([]int, m)
		total := 0
		for t := range tables {
			copy(tables[t][:], seat[4*t:4*t+4])
			costs[t], _ = h.tableCost(tables[t])
			total += costs[t]
		}
		iters := min(400*len(seat), 2_000_000)
		if m < 2 {
			iters = 0
		}
		for it := 0; it < iters && total > 0; it++ {
			a, b := rng.IntN(m), rng.IntN(m-1)
			if b >= a {
				b++
			}
			if costs[a] == 0 && costs[b] == 0 {
				continue
			}
			i, j := rng.IntN(4), rng.IntN(4)
			tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
			ca, _ := h.tableCost(tables[a])
			cb, _ := h.tableCost(tables[b])
			if d := ca + cb - costs[a] - costs[b]; d <= 0 {
				costs[a], costs[b] = ca, cb
				total += d
				continue
			}
			tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
		}
		if bestCost < 0 || total < bestCost {
			best, bestCost = tables, total
		}
	}
	return best, bestCost
}

// IndividualRepeats counts, over the rounds of an individual tournament,
// the repeated partners, repeated opponents and repeated table-mates: for
// every two players, the times beyond the first that they were partners,
// opponents, or at one table.
func IndividualRepeats(players []string, rounds []PairedRound) (partners, opponents, tableMates int) {
	n := len(players)
	index := make(map[string]int, n)
	for i, p := range players {
		index[p] = i
	}
	part, opp, mate := map[[2]int]int{}, map[[2]int]int{}, map[[2]int]int{}
	key := func(a, b string) ([2]int, bool) {
		x, ok1 := index[a]
		y, ok2 := index[b]
		if x > y {
			x, y = y, x
		}
		return [2]int{x, y}, ok1 && ok2
	}
	for _, r := range rounds {
		for _, t := range r.Tables {
			for _, line := range [][]string{t.NS, t.EO} {
				for i := range line {
					for _, b := range line[i+1:] {
						if k, ok := key(line[i], b); ok {
							part[k]++
						}
					}
				}
			}
			for _, a := range t.NS {
				for _, b := range t.EO {
					if k, ok := key(a, b); ok {
						opp[k]++
					}
				}
			}
			all := slices.Concat(t.NS, t.EO)
			for i := range all {
				for _, b := range all[i+1:] {
					if k, ok := key(all[i], b); ok {
						mate[k]++
					}
				}
			}
		}
	}
	extra := func(m map[[2]int]int) int {
		s := 0
		for _, c := range m {
			s += c - 1
		}
		return s
	}
	return extra(part), extra(opp), extra(mate)
}

// IndividualOpponentLowerBound is a simple lower bound on the repeated
// opponents of any schedule where player i plays played[i] rounds among n
// players: each round gives a player two opponents and there are n−1 others,
// so player i repeats at least 2·played[i]−(n−1) times; each repeat is
// counted by both players.
func IndividualOpponentLowerBound(n int, played []int) int {
	s := 0
	for _, p := range played {
		s += max(0, 2*p-(n-1))
	}
	return (s + 1) / 2
}
