package domain

import (
	"fmt"
	"slices"
	"strings"
)

// PairingCode names a way a published round departs from its system.
type PairingCode string

const (
	PairingEntrantTwice    PairingCode = "ENTRANT_TWICE"
	PairingUnknownEntrant  PairingCode = "UNKNOWN_ENTRANT"
	PairingMissingEntrant  PairingCode = "MISSING_ENTRANT"
	PairingLineSize        PairingCode = "LINE_SIZE"
	PairingTableTwice      PairingCode = "TABLE_TWICE"
	PairingRematch         PairingCode = "REMATCH"
	PairingWrongOrder      PairingCode = "WRONG_ORDER"
	PairingSecondRest      PairingCode = "SECOND_REST"
	PairingMovementBroken  PairingCode = "MOVEMENT_BROKEN"
	PairingRepeatedPartner PairingCode = "REPEATED_PARTNER"
	PairingWrongRest       PairingCode = "WRONG_REST"
	PairingNotDerivable    PairingCode = "NOT_DERIVABLE"
	// PairingWithdrawnSeated: an entrant withdrawn from the round is
	// seated in it (RULES §12.3).
	PairingWithdrawnSeated PairingCode = "WITHDRAWN_SEATED"
)

// PairingProblem is one departure of a round from its system. Table is 0
// for a problem of no single table (a rest, a missing entrant).
type PairingProblem struct {
	Table    int
	Code     PairingCode
	Detail   string // English
	DetailIT string // Italian
	Rule     string
}

// Message returns the detail in the given language.
func (p PairingProblem) Message(l Lang) string {
	if l == Italian {
		return p.DetailIT
	}
	return p.Detail
}

// PairingCheck is the verdict on one published round (API §4.2).
type PairingCheck struct {
	System   PairingSystem
	OK       bool
	Problems []PairingProblem
}

type checker struct {
	req  PairingRequest
	rep  PairingCheck
	rule string
}

func (c *checker) add(table int, code PairingCode, rule, en, it string) {
	c.rep.Problems = append(c.rep.Problems, PairingProblem{Table: table, Code: code, Detail: en, DetailIT: it, Rule: rule})
}

// CheckRound lists where a published round departs from the system of req
// (RULES §11, in the manner of FIDE's external pairings checkers): an
// entrant seated twice, unknown or missing; a line of the wrong size; a
// rematch the system forbids; a second rest in the session; and, by
// re-deriving the round from req (the entrants, the previous rounds, the
// standings, the seed), a wrong Danish order, a broken Mitchell or
// round-robin movement, a wrong rest. req.Round is taken from the published
// round. A request that cannot be derived at all (bad standings, a system
// the ruleset refuses) is reported as NOT_DERIVABLE.
func CheckRound(req PairingRequest, published PairedRound) PairingCheck {
	req.Round = published.Number
	if req.Kind == "" {
		req.Kind = KindPairs
	}
	if req.Kind == KindTeams {
		return checkTeamRound(req, published)
	}
	if len(req.Previous) == req.Round-1 && PhaseStart(req) == req.Round {
		switch {
		case req.System == SystemGironi && req.GroupSize == 0 && len(published.Groups) > 0:
			// RULES §12.1: the round that formed the groups recorded them;
			// the checker reads the group size back.
			req.GroupSize = len(published.Groups[0])
		case req.System == SystemItaliana && published.Seed != nil:
			// a calendar on a drawn order: replay the recorded draw.
			req.Draw, req.Seed = true, published.Seed
		}
	}
	c := &checker{req: req, rep: PairingCheck{System: req.System}, rule: pairingRule(req.Ruleset)}
	c.structure(published)
	c.rests(published)
	c.history(published)
	if req.System != SystemChoice && !(req.System == SystemDraw && req.Seed == nil) {
		c.derive(published)
	}
	c.rep.OK = len(c.rep.Problems) == 0
	return c.rep
}

// structure: every entrant once, lines of the right size, tables once.
func (c *checker) structure(r PairedRound) {
	entrants := make(map[string]bool, len(c.req.Entrants))
	for _, e := range c.req.Entrants {
		entrants[e] = true
	}
	size := 1
	if c.req.Kind == KindIndividual {
		size = 2
	}
	seen := map[string]int{} // id → table (-1 bye)
	tables := map[int]bool{}
	see := func(table int, id string) {
		where := func(t int) (string, string) {
			if t < 0 {
				return "the byes", "i riposi"
			}
			return fmt.Sprintf("table %d", t), fmt.Sprintf("tavolo %d", t)
		}
		if !entrants[id] {
			c.add(max(table, 0), PairingUnknownEntrant, c.rule,
				fmt.Sprintf("%q is not an entrant of the tournament", id),
				fmt.Sprintf("%q non è iscritto al torneo", id))
			return
		}
		if prev, ok := seen[id]; ok {
			pe, pi := where(prev)
			ne, ni := where(table)
			c.add(max(table, 0), PairingEntrantTwice, c.rule,
				fmt.Sprintf("%s appears twice in round %d: in %s and in %s", id, r.Number, pe, ne),
				fmt.Sprintf("%s compare due volte nel turno %d: in %s e in %s", id, r.Number, pi, ni))
			return
		}
		seen[id] = table
	}
	for _, t := range r.Tables {
		if tables[t.Table] || t.Table < 1 {
			c.add(t.Table, PairingTableTwice, c.rule,
				fmt.Sprintf("table number %d is used twice or is not a table number", t.Table),
				fmt.Sprintf("il numero di tavolo %d è usato due volte o non è valido", t.Table))
		}
		tables[t.Table] = true
		for _, line := range []struct {
			name string
			ids  []string
		}{{"NS", t.NS}, {"EO", t.EO}} {
			if len(line.ids) != size {
				c.add(t.Table, PairingLineSize, c.rule,
					fmt.Sprintf("the %s line has %d entrants, a line of a %s tournament has %d", line.name, len(line.ids), c.req.Kind, size),
					fmt.Sprintf("la linea %s ha %d iscritti, in un torneo %s una linea ne ha %d", line.name, len(line.ids), c.req.Kind, size))
			}
			for _, id := range line.ids {
				see(t.Table, id)
			}
		}
	}
	for _, b := range r.Byes {
		see(-1, b)
	}
	for _, b := range r.Vacated { // RULES §12.3: alone, their opponent withdrawn
		see(-1, b)
	}
	gone := c.req.withdrawnAt()
	for id := range gone {
		if t, ok := seen[id]; ok {
			c.add(max(t, 0), PairingWithdrawnSeated, c.rule,
				fmt.Sprintf("%s withdrew from round %d and is seated in round %d", id, c.req.Withdrawn[id], r.Number),
				fmt.Sprintf("%s si è ritirato dal turno %d ed è seduto nel turno %d", id, c.req.Withdrawn[id], r.Number))
		}
	}
	for _, e := range c.req.Entrants {
		if gone[e] {
			continue
		}
		if _, ok := seen[e]; !ok {
			c.add(0, PairingMissingEntrant, c.rule,
				fmt.Sprintf("%s is neither seated nor resting in round %d", e, r.Number),
				fmt.Sprintf("%s non è né seduto né a riposo nel turno %d", e, r.Number))
		}
	}
	// An odd pairs field has one rest; an individual field rests n mod 4;
	// a round robin rests one per odd group (compared when re-derived).
	active := len(c.req.Entrants) - len(gone)
	want := active % 2
	if c.req.Kind == KindIndividual {
		want = active % 4
	}
	roundRobin := c.req.Kind != KindIndividual && (c.req.System == SystemItaliana || c.req.System == SystemGironi)
	fixed := len(gone) > 0 && c.req.System == SystemMitchell // the calendar's rests stay (compared when re-derived)
	if len(r.Byes) != want && !roundRobin && !fixed {
		c.add(0, PairingWrongRest, restRule(c.req.Ruleset),
			fmt.Sprintf("%d entrants rest in round %d; with %d entrants exactly %d must", len(r.Byes), r.Number, len(c.req.Entrants), want),
			fmt.Sprintf("%d iscritti riposano nel turno %d; con %d iscritti devono essere esattamente %d", len(r.Byes), r.Number, len(c.req.Entrants), want))
	}
}

// rests: a line rests at most once per session (FITAB art. 38, FIBur-INT
// art. 34).
// A round robin's rests are flagged too unless roundRobinRestExempt.
func (c *checker) rests(r PairedRound) {
	if roundRobinRestExempt && c.req.Kind != KindIndividual && (c.req.System == SystemItaliana || c.req.System == SystemGironi) {
		return
	}
	rested := c.req.sessionRests(r.Number)
	for _, b := range r.Byes {
		if n, ok := rested[b]; ok {
			c.add(0, PairingSecondRest, restRule(c.req.Ruleset),
				fmt.Sprintf("%s rests in round %d but already rested in round %d; a line rests at most once per session", b, r.Number, n),
				fmt.Sprintf("%s riposa nel turno %d ma ha già riposato nel turno %d; una coppia può riposare solo una volta per sessione", b, r.Number, n))
		}
	}
}

// history: rematches the system forbids, repeated partners.
func (c *checker) history(r PairedRound) {
	if c.req.Kind == KindIndividual {
		partners := map[[2]string]int{}
		for _, p := range c.req.Previous {
			for _, t := range p.Tables {
				for _, l := range [][]string{t.NS, t.EO} {
					if len(l) == 2 {
						partners[sortedPair(l[0], l[1])] = p.Number
					}
				}
			}
		}
		for _, t := range r.Tables {
			for _, l := range [][]string{t.NS, t.EO} {
				if len(l) != 2 {
					continue
				}
				if n, ok := partners[sortedPair(l[0], l[1])]; ok {
					c.add(t.Table, PairingRepeatedPartner, individualRule(c.req.Ruleset),
						fmt.Sprintf("%s and %s were already partners in round %d; partners change every round", l[0], l[1], n),
						fmt.Sprintf("%s e %s sono già stati in coppia nel turno %d; il partner cambia a ogni turno", l[0], l[1], n))
				}
			}
		}
		return
	}
	var from int // rounds whose meetings the system forbids again: from..Round-1
	switch c.req.System {
	case SystemDaneseModificato:
		if c.req.RoundsPlanned > 0 && r.Number == c.req.RoundsPlanned {
			return
		}
		from = r.Number - 1
	case SystemMitchell, SystemItaliana, SystemGironi:
		from = PhaseStart(c.req)
		if c.req.System == SystemMitchell && from > 1 {
			from-- // the round that set the Mitchell seating
		}
	default:
		return
	}
	met := map[[2]string]int{}
	for _, p := range c.req.Previous {
		if p.Number < from {
			continue
		}
		for _, t := range p.Tables {
			if len(t.NS) == 1 && len(t.EO) == 1 {
				met[sortedPair(t.NS[0], t.EO[0])] = p.Number
			}
		}
	}
	for _, t := range r.Tables {
		if len(t.NS) != 1 || len(t.EO) != 1 {
			continue
		}
		if n, ok := met[sortedPair(t.NS[0], t.EO[0])]; ok {
			c.add(t.Table, PairingRematch, c.rule,
				fmt.Sprintf("%s and %s already met in round %d; %s forbids meeting again", t.NS[0], t.EO[0], n, c.req.System),
				fmt.Sprintf("%s e %s si sono già incontrati nel turno %d; il sistema %s non consente di reincontrarsi", t.NS[0], t.EO[0], n, c.req.System))
		}
	}
}

func sortedPair(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// derive re-derives the round and compares it table by table.
func (c *checker) derive(r PairedRound) {
	if c.req.Kind == KindIndividual {
		return // the schedule is a search: checked by its rules above, not replayed
	}
	req := c.req
	want, err := GeneratePairing(req)
	if err != nil {
		c.add(0, PairingNotDerivable, c.rule,
			fmt.Sprintf("round %d cannot be derived by %s: %s", r.Number, req.System, strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")),
			fmt.Sprintf("il turno %d non si può ricavare con il sistema %s: %s", r.Number, req.System, strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")))
		return
	}
	code := PairingWrongOrder
	en, it := "the %s system seats %s at table %d, the published round %s", "il sistema %s pone %s al tavolo %d, il turno pubblicato %s"
	switch req.System {
	case SystemMitchell, SystemItaliana, SystemGironi:
		code = PairingMovementBroken
	}
	wantAt := map[int]PairedTable{}
	for _, t := range want.Tables {
		wantAt[t.Table] = t
	}
	got := map[int]PairedTable{}
	for _, t := range r.Tables {
		got[t.Table] = t
	}
	nums := make([]int, 0, len(wantAt)+len(got))
	for n := range wantAt {
		nums = append(nums, n)
	}
	for n := range got {
		if _, ok := wantAt[n]; !ok {
			nums = append(nums, n)
		}
	}
	slices.Sort(nums)
	desc := func(t PairedTable, ok bool, lang Lang) string {
		if !ok {
			if lang == Italian {
				return "nessuno"
			}
			return "nobody"
		}
		return strings.Join(t.NS, "+") + " NS v " + strings.Join(t.EO, "+") + " EO"
	}
	for _, n := range nums {
		w, wok := wantAt[n]
		g, gok := got[n]
		if wok && gok && slices.Equal(w.NS, g.NS) && slices.Equal(w.EO, g.EO) {
			continue
		}
		c.add(n, code, c.rule,
			fmt.Sprintf(en, req.System, desc(w, wok, English), n, desc(g, gok, English)),
			fmt.Sprintf(it, req.System, desc(w, wok, Italian), n, desc(g, gok, Italian)))
	}
	wb, gb := slices.Sorted(slices.Values(want.Byes)), slices.Sorted(slices.Values(r.Byes))
	wv, gv := slices.Sorted(slices.Values(want.Vacated)), slices.Sorted(slices.Values(r.Vacated))
	if !slices.Equal(wv, gv) {
		c.add(0, PairingWrongRest, restRule(req.Ruleset),
			fmt.Sprintf("the withdrawals leave %s alone, the published round %s", listOr(wv, "nobody"), listOr(gv, "nobody")),
			fmt.Sprintf("i ritiri lasciano soli %s, il turno pubblicato %s", listOr(wv, "nessuno"), listOr(gv, "nessuno")))
	}
	if !slices.Equal(wb, gb) {
		c.add(0, PairingWrongRest, restRule(req.Ruleset),
			fmt.Sprintf("the %s system rests %s, the published round %s", req.System, listOr(wb, "nobody"), listOr(gb, "nobody")),
			fmt.Sprintf("il sistema %s fa riposare %s, il turno pubblicato %s", req.System, listOr(wb, "nessuno"), listOr(gb, "nessuno")))
	}
}

func listOr(l []string, none string) string {
	if len(l) == 0 {
		return none
	}
	return strings.Join(l, ", ")
}
