package domain

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MatchResult is one line's result of one match as it counts in the
// standings: the VP and MP of its sheet, or the score a referee set for it
// (a bye, an awarded match, RULES §7).
type MatchResult struct {
	Round int
	// Entrant is the pair or team credited, Opponent the one it met ("" for
	// a bye). Individual tournaments use Players and OpponentPlayers
	// instead.
	Entrant  string
	Opponent string
	// Players and OpponentPlayers are, in individual tournaments, the
	// entrant ids of the players of each line: VP follow the player, so the
	// result is credited to each player of the line (RULES §8).
	Players         []string
	OpponentPlayers []string
	VP              int
	MP              int
	// Bye marks a rest score: it counts in the totals, it is not a win and
	// not a meeting (RULES §8).
	Bye bool
	// Awarded marks a match awarded to this line (lateness, abandonment):
	// it counts as a win (RULES §8).
	Awarded bool
}

// StandingsInput is what the standings are computed from.
type StandingsInput struct {
	Kind        Kind // individual: results are credited to Players; "" is pairs
	Entrants    []Entrant
	Results     []MatchResult
	Adjustments []Adjustment // VP and MP added to an entrant's totals
	// AfterRound limits the standings to results and adjustments of rounds
	// 1..AfterRound (adjustments of round 0 always count); 0 means every
	// round.
	AfterRound int
}

// Standing is one row of the standings (classifica).
type Standing struct {
	Rank        int // tied entrants that share a place share the rank
	Entrant     Entrant
	VP          int
	MP          int
	Wins        int
	Adjustments []Adjustment // those counted in VP and MP
	// Tiebreak states the tie-breaks of RULES §8 that placed the entrant
	// among those level with it on VP and MP, one note a step, e.g.
	// {tie.h2h_beat 12 5 150} ("head-to-head: 12 beat 5 (+150 MP)"); nil
	// when it was level with nobody. Worded outside domain (package
	// messages), in the reader's language.
	Tiebreak []Note
}

// Note is a statement of the rules as a message code and its arguments
// (strings, numbers, other notes or lists of notes), worded outside
// domain in the reader's language (package messages). domain itself
// writes no sentence for people.
type Note struct {
	Code string
	Args []any
}

func note(code string, args ...any) Note { return Note{Code: code, Args: args} }

// Standings ranks the entrants (RULES §8): by VP, then MP, then the
// tie-breaks of FITAB art. 18 "punteggio ex-aequo" — head-to-head, the best
// won match, the number of wins — and finally a shared place. Results and
// adjustments naming an unknown entrant, rounds below 1, VP outside 0..20
// and an entrant with two results in one round are errors wrapping
// ErrInvalid that name the offending field.
func Standings(in StandingsInput) ([]Standing, error) {
	t, err := tallyStandings(in)
	if err != nil {
		return nil, err
	}
	order := make([]int, len(t.entrants))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		x, y := &t.tallies[a], &t.tallies[b]
		if c := cmp.Compare(y.vp, x.vp); c != 0 {
			return c
		}
		if c := cmp.Compare(y.mp, x.mp); c != 0 {
			return c
		}
		return t.compareNumbers(a, b)
	})

	rows := make([]Standing, 0, len(order))
	emit := func(members []int, rank int, tiebreak []Note) {
		for _, i := range members {
			x := &t.tallies[i]
			rows = append(rows, Standing{
				Rank: rank, Entrant: t.entrants[i], VP: x.vp, MP: x.mp, Wins: x.wins,
				Adjustments: x.adjustments, Tiebreak: tiebreak,
			})
		}
	}
	for start := 0; start < len(order); {
		end := start + 1
		a := &t.tallies[order[start]]
		for end < len(order) && t.tallies[order[end]].vp == a.vp && t.tallies[order[end]].mp == a.mp {
			end++
		}
		if end-start == 1 {
			emit(order[start:end], start+1, nil)
		} else {
			t.breakTie(order[start:end], 0, nil, func(members []int, tiebreak []Note) {
				emit(members, len(rows)+1, tiebreak)
			})
		}
		start = end
	}
	return rows, nil
}

// tally is one entrant's totals and what the tie-breaks read.
type tally struct {
	vp, mp, wins int
	hasWin       bool
	bestWinVP    int // highest VP in a won match
	bestWinMP    int // highest MP margin in a won match
	meetings     []meeting
	adjustments  []Adjustment
}

// meeting is one match against one or more entrants (two in individual
// tournaments).
type meeting struct {
	opponents []int
	mp        int
}

type standingsTally struct {
	entrants []Entrant
	tallies  []tally
	num      []int64 // numeric entrant id
	isNum    []bool
	mark     []int // scratch for group membership, by generation
	gen      int
}

func tallyStandings(in StandingsInput) (*standingsTally, error) {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, a...)...))
	}
	if in.Kind != "" && !slices.Contains(Kinds, in.Kind) {
		bad("kind: unknown kind %q", in.Kind)
	}
	if in.AfterRound < 0 {
		bad("after_round: %d is negative", in.AfterRound)
	}
	n := len(in.Entrants)
	t := &standingsTally{
		entrants: in.Entrants,
		tallies:  make([]tally, n),
		num:      make([]int64, n),
		isNum:    make([]bool, n),
		mark:     make([]int, n),
	}
	index := make(map[string]int, n)
	for i, e := range in.Entrants {
		if e.ID == "" {
			bad("entrants[%d].id: empty", i)
			continue
		}
		if _, dup := index[e.ID]; dup {
			bad("entrants[%d].id: %q entered twice", i, e.ID)
			continue
		}
		index[e.ID] = i
		if v, err := strconv.ParseInt(e.ID, 10, 64); err == nil {
			t.num[i], t.isNum[i] = v, true
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	individual := in.Kind == KindIndividual
	played := make(map[[2]int]int, len(in.Results)) // (entrant, round) → result index
	// One backing array for every meeting's opponents, and one scratch
	// slice for the credited entrants: the standings of a large tournament
	// are computed without an allocation per result.
	oppBuf := make([]int, 0, len(in.Results))
	var credited []int
	for ri, r := range in.Results {
		nerr := len(errs)
		if r.Round < 1 {
			bad("results[%d].round: %d (rounds start at 1)", ri, r.Round)
		}
		if r.VP < 0 || r.VP > MaxVP {
			bad("results[%d].vp: %d (want 0..%d)", ri, r.VP, MaxVP)
		}
		if r.Bye && r.Awarded {
			bad("results[%d]: a result cannot be both a bye and an awarded match", ri)
		}
		credited = credited[:0]
		oppStart := len(oppBuf)
		if individual {
			if len(r.Players) == 0 {
				bad("results[%d].players: required in individual tournaments", ri)
			}
			for pi, id := range r.Players {
				if i, ok := index[id]; ok {
					credited = append(credited, i)
				} else {
					bad("results[%d].players[%d]: unknown entrant %q", ri, pi, id)
				}
			}
			for pi, id := range r.OpponentPlayers {
				if i, ok := index[id]; ok {
					oppBuf = append(oppBuf, i)
				} else {
					bad("results[%d].opponent_players[%d]: unknown entrant %q", ri, pi, id)
				}
			}
		} else {
			if i, ok := index[r.Entrant]; ok {
				credited = append(credited, i)
			} else if r.Entrant == "" {
				bad("results[%d].entrant: required", ri)
			} else {
				bad("results[%d].entrant: unknown entrant %q", ri, r.Entrant)
			}
			if r.Opponent != "" {
				if i, ok := index[r.Opponent]; ok {
					oppBuf = append(oppBuf, i)
				} else {
					bad("results[%d].opponent: unknown entrant %q", ri, r.Opponent)
				}
			}
		}
		opponents := oppBuf[oppStart:len(oppBuf):len(oppBuf)]
		if r.Bye && len(opponents) > 0 {
			bad("results[%d]: a bye has no opponent", ri)
		}
		for _, c := range credited {
			if slices.Contains(opponents, c) {
				bad("results[%d]: entrant %q cannot meet itself", ri, in.Entrants[c].ID)
			}
			key := [2]int{c, r.Round}
			if prev, dup := played[key]; dup {
				bad("results[%d]: entrant %q already has a result in round %d (results[%d])", ri, in.Entrants[c].ID, r.Round, prev)
			}
			played[key] = ri
		}
		if len(errs) > nerr || (in.AfterRound > 0 && r.Round > in.AfterRound) {
			continue
		}
		won := countsAsWin(r)
		for _, c := range credited {
			x := &t.tallies[c]
			x.vp += r.VP
			x.mp += r.MP
			if won {
				x.wins++
				if !x.hasWin || r.VP > x.bestWinVP {
					x.bestWinVP = r.VP
				}
				if !x.hasWin || r.MP > x.bestWinMP {
					x.bestWinMP = r.MP
				}
				x.hasWin = true
			}
			if !r.Bye && len(opponents) > 0 {
				x.meetings = append(x.meetings, meeting{opponents: opponents, mp: r.MP})
			}
		}
	}
	for ai, a := range in.Adjustments {
		i, ok := index[a.Entrant]
		if !ok {
			bad("adjustments[%d].entrant: unknown entrant %q", ai, a.Entrant)
		}
		if a.Round < 0 {
			bad("adjustments[%d].round: %d is negative", ai, a.Round)
			ok = false
		}
		if !slices.Contains(AdjustmentReasons, a.Reason) {
			bad("adjustments[%d].reason: unknown adjustment reason %q", ai, a.Reason)
			ok = false
		}
		if !ok || (in.AfterRound > 0 && a.Round > in.AfterRound) {
			continue
		}
		x := &t.tallies[i]
		x.vp += a.VP
		x.mp += a.MP
		x.adjustments = append(x.adjustments, a)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return t, nil
}

// countsAsWin says whether a result is a win for RULES §8 steps 2 and 3: a
// match with MP > 0. [INTERP] (RULES §8 step 3): a match awarded after
// lateness or abandonment counts as a win whatever its MP; a bye never does,
// although its rest score has positive MP.
func countsAsWin(r MatchResult) bool {
	if r.Bye {
		return false
	}
	return r.Awarded || r.MP > 0
}

// compareNumbers orders entrants by their number: numeric ids by value,
// before any other id, which go in text order. [INTERP] (RULES §8 step 4):
// entrants that share a place are listed by entrant number.
func (t *standingsTally) compareNumbers(a, b int) int {
	switch {
	case t.isNum[a] && t.isNum[b]:
		if c := cmp.Compare(t.num[a], t.num[b]); c != 0 {
			return c
		}
	case t.isNum[a]:
		return -1
	case t.isNum[b]:
		return 1
	}
	return strings.Compare(t.entrants[a].ID, t.entrants[b].ID)
}

func (t *standingsTally) id(i int) string { return t.entrants[i].ID }

// tieStep is one tie-break of RULES §8. It gives each member of the group a
// key (higher ranks first), or ok=false with a note when it does not apply.
type tieStep struct {
	keys     func(t *standingsTally, group []int) (keys []int, ok bool, why Note)
	describe func(t *standingsTally, group []int, keys map[int]int) Note
	level    func(t *standingsTally, group []int, key int) Note
}

// tieSteps are the tie-breaks of RULES §8 (FITAB art. 18 "punteggio
// ex-aequo"), in order.
var tieSteps = []tieStep{
	{keys: headToHeadKeys, describe: describeHeadToHead, level: levelHeadToHead},
	{
		// [INTERP] (RULES §8 step 2): "chi ha vinto … la partita con il
		// punteggio più alto" is the highest VP in a won match first…
		keys: winKeys(func(x *tally) int { return x.bestWinVP }),
		describe: describeValues("tie.best_vp", func(t *standingsTally, i int) any {
			return winValue(t, i, t.tallies[i].bestWinVP)
		}),
		level: func(t *standingsTally, group []int, key int) Note {
			return note("tie.best_vp_level", winValue(t, group[0], key))
		},
	},
	{
		// … then the highest MP margin in a won match.
		keys: winKeys(func(x *tally) int { return x.bestWinMP }),
		describe: describeValues("tie.best_mp", func(t *standingsTally, i int) any {
			return winValue(t, i, t.tallies[i].bestWinMP)
		}),
		level: func(t *standingsTally, group []int, key int) Note {
			return note("tie.best_mp_level", winValue(t, group[0], key))
		},
	},
	{
		keys: func(t *standingsTally, group []int) ([]int, bool, Note) {
			keys := make([]int, len(group))
			for k, i := range group {
				keys[k] = t.tallies[i].wins
			}
			return keys, true, Note{}
		},
		describe: describeValues("tie.wins", func(t *standingsTally, i int) any {
			return strconv.Itoa(t.tallies[i].wins)
		}),
		level: func(t *standingsTally, group []int, key int) Note {
			return note("tie.wins_level", strconv.Itoa(key))
		},
	},
}

// noWin ranks an entrant without a won match below any that has one.
const noWin = -1 << 31

func winKeys(value func(*tally) int) func(*standingsTally, []int) ([]int, bool, Note) {
	return func(t *standingsTally, group []int) ([]int, bool, Note) {
		keys := make([]int, len(group))
		for k, i := range group {
			keys[k] = noWin
			if x := &t.tallies[i]; x.hasWin {
				keys[k] = value(x)
			}
		}
		return keys, true, Note{}
	}
}

// winValue is a won match's value, or the note that there is none.
func winValue(t *standingsTally, i, v int) any {
	if !t.tallies[i].hasWin {
		return note("tie.no_win")
	}
	return strconv.Itoa(v)
}

func describeValues(code string, value func(t *standingsTally, i int) any) func(*standingsTally, []int, map[int]int) Note {
	return func(t *standingsTally, group []int, _ map[int]int) Note {
		parts := make([]Note, len(group))
		for k, i := range group {
			parts[k] = note("tie.had", t.id(i), value(t, i))
		}
		return note(code, parts)
	}
}

// headToHeadKeys is RULES §8 step 1 (FITAB art. 18 "se c'è stato lo scontro
// diretto, chi ha vinto"): it applies only if every two of the tied entrants
// met, and ranks them by the sum of their MP in the matches among them.
// [INTERP]: a drawn meeting decides nothing — equal sums stay tied and go on
// to the next step.
func headToHeadKeys(t *standingsTally, group []int) ([]int, bool, Note) {
	t.gen++
	for _, i := range group {
		t.mark[i] = t.gen
	}
	keys := make([]int, len(group))
	met := make([]bool, len(group))
	pos := make(map[int]int, len(group))
	for k, i := range group {
		pos[i] = k
	}
	for k, i := range group {
		clear(met)
		for _, m := range t.tallies[i].meetings {
			among := false
			for _, o := range m.opponents {
				if t.mark[o] == t.gen {
					met[pos[o]] = true
					among = true
				}
			}
			if among {
				keys[k] += m.mp
			}
		}
		for k2, j := range group {
			if k2 != k && !met[k2] {
				a, b := i, j
				if t.compareNumbers(a, b) > 0 {
					a, b = b, a
				}
				return nil, false, note("tie.h2h_not_met", t.id(a), t.id(b))
			}
		}
	}
	return keys, true, Note{}
}

func describeHeadToHead(t *standingsTally, group []int, keys map[int]int) Note {
	if len(group) == 2 {
		return note("tie.h2h_beat", t.id(group[0]), t.id(group[1]), keys[group[0]])
	}
	parts := make([]Note, len(group))
	for k, i := range group {
		parts[k] = note("tie.h2h_mp", t.id(i), keys[i])
	}
	return note("tie.h2h_among", t.idList(group), parts)
}

func levelHeadToHead(t *standingsTally, group []int, _ int) Note {
	if len(group) == 2 {
		return note("tie.h2h_drew", t.id(group[0]), t.id(group[1]))
	}
	return note("tie.h2h_level", t.idList(group))
}

// maxListedIDs caps the entrant ids a tie-break reason names, so that a
// large tie does not repeat the whole field on every row.
const maxListedIDs = 10

// idList names the entrants of a group, at most maxListedIDs of them.
func (t *standingsTally) idList(group []int) Note {
	n := min(len(group), maxListedIDs)
	ids := make([]string, n)
	for k, i := range group[:n] {
		ids[k] = t.id(i)
	}
	if more := len(group) - n; more > 0 {
		return note("tie.ids_more", strings.Join(ids, ", "), more)
	}
	return note("tie.ids", strings.Join(ids, ", "))
}

// breakTie orders a group of entrants level on VP and MP by the tie-breaks
// from step on, calling emit for each run of entrants in rank order with the
// reason that placed it. A run still level after a step goes on to the next
// step (steps are not applied again to it); after the last, it shares its
// place (RULES §8 step 4).
func (t *standingsTally) breakTie(group []int, step int, notes []Note, emit func(members []int, tiebreak []Note)) {
	group = slices.Clone(group)
	slices.SortFunc(group, t.compareNumbers)
	if step == len(tieSteps) {
		emit(group, append(slices.Clip(notes), note("tie.shared", t.idList(group))))
		return
	}
	s := tieSteps[step]
	keys, ok, note := s.keys(t, group)
	if !ok {
		t.breakTie(group, step+1, append(slices.Clip(notes), note), emit)
		return
	}
	byMember := make(map[int]int, len(group))
	for k, i := range group {
		byMember[i] = keys[k]
	}
	// Highest key first; entrant number keeps the order stable.
	slices.SortStableFunc(group, func(a, b int) int { return cmp.Compare(byMember[b], byMember[a]) })
	if byMember[group[0]] == byMember[group[len(group)-1]] {
		t.breakTie(group, step+1, append(slices.Clip(notes), s.level(t, group, byMember[group[0]])), emit)
		return
	}
	notes = append(slices.Clip(notes), s.describe(t, group, byMember))
	for start := 0; start < len(group); {
		end := start + 1
		for end < len(group) && byMember[group[end]] == byMember[group[start]] {
			end++
		}
		if end-start == 1 {
			emit(group[start:end], notes)
		} else {
			t.breakTie(group[start:end], step+1, notes, emit)
		}
		start = end
	}
}
