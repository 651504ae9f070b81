package verifier

import (
	"fmt"
	"slices"
	"strings"

	"segnapunti/domain"
)

// The re-checks of what RULES §12 and the prizes add to a file: the
// withdrawals (§12.3), the interruption (§12.6, FITAB art. 39), the team
// matches and line-ups (§12.5), who sat after a substitution (§12.4) and
// the prize list (issue 22). Their differences keep the codes of API
// §4.4, with a sub-code first in the detail as PAIRING does with the
// checker's: STANDINGS_DIFFER "WITHDRAWN_COUNTED", "INTERRUPTION",
// "PRIZE"; VP_DIFFER and MP_DIFFER on a team match; PAIRING "LINEUP",
// "SEATED".

// Sub-codes at the head of a difference's detail.
const (
	SubWithdrawnCounted = "WITHDRAWN_COUNTED"
	SubInterruption     = "INTERRUPTION"
	SubPrize            = "PRIZE"
	SubLineup           = "LINEUP"
	SubSeated           = "SEATED"
	SubSession          = "SESSION"
)

// teamRule is the article of team matches (RULES §12.5).
func teamRule(rs domain.Ruleset) string {
	if rs.Federation() == domain.FITAB {
		return "FITAB art. 2.2"
	}
	return "FIBur-INT art. 17"
}

func (v *verification) sub(code, sub string, d Difference, en, it string) {
	d.Code, d.Detail = code, sub+": "+say(v.lang, en, it)
	v.add(d)
}

// midRoundWithdrawals are the entrants withdrawn during the round they
// withdrew from (RULES §12.3: "a withdrawal during a round being played
// is also an abandon of that round"): those with an abandon_justified or
// abandon_unjustified adjustment in that round. They sat in it.
func (v *verification) midRoundWithdrawals() map[string]bool {
	from := map[string]int{}
	for _, e := range v.c.Entrants {
		if e.WithdrawnFromRound != nil {
			from[e.ID] = *e.WithdrawnFromRound
		}
	}
	out := map[string]bool{}
	for _, a := range v.c.Adjustments {
		if r, ok := from[a.Entrant]; ok && a.Round == r && isAbandon(a.Case.Reason) {
			out[a.Entrant] = true
		}
	}
	return out
}

func isAbandon(r domain.AdjustmentReason) bool {
	return r == domain.ReasonAbandonJustified || r == domain.ReasonAbandonUnjustified
}

// withdrawals: an entrant withdrawn from round r (RULES §12.3: "restano
// confermati i risultati conseguiti", counted in no later table) has no
// sheet and no result-giving adjustment from round r on — but for the
// abandon of a withdrawal during round r, which takes the place of that
// round's result (FITAB art. 37); its seating in a later round is the
// pairing checker's (WITHDRAWN_SEATED). False: such a result is counted
// in the standings.
func (v *verification) withdrawals() bool {
	from := map[string]int{}
	for _, e := range v.c.Entrants {
		if e.WithdrawnFromRound != nil {
			from[e.ID] = *e.WithdrawnFromRound
		}
	}
	if len(from) == 0 {
		return true
	}
	mid := v.midRoundWithdrawals()
	n := len(v.out)
	rule := domain.SubstitutionRule(v.rs)
	for _, tr := range v.results {
		for _, l := range domain.Lines {
			for _, id := range tr.Players(l) {
				if r, ok := from[id]; ok && tr.Round >= r && !(tr.Round == r && mid[id]) {
					v.sub(CodeStandingsDiffer, SubWithdrawnCounted, Difference{Round: tr.Round, Table: tr.Table, Entrant: id, Rule: rule},
						fmt.Sprintf("%s withdrew from round %d and has a result at table %d of round %d", id, r, tr.Table, tr.Round),
						fmt.Sprintf("%s si è ritirato dal turno %d e ha un risultato al tavolo %d del turno %d", id, r, tr.Table, tr.Round))
				}
			}
		}
	}
	for _, a := range v.c.Adjustments {
		if r, ok := from[a.Entrant]; ok && a.Round >= r && a.Effect.Result != nil && !(a.Round == r && isAbandon(a.Case.Reason)) {
			v.sub(CodeStandingsDiffer, SubWithdrawnCounted, Difference{Round: a.Round, Entrant: a.Entrant, Rule: rule},
				fmt.Sprintf("%s withdrew from round %d and an adjustment (%s) gives it a result in round %d", a.Entrant, r, a.Case.Reason, a.Round),
				fmt.Sprintf("%s si è ritirato dal turno %d e un provvedimento (%s) gli dà un risultato nel turno %d", a.Entrant, r, a.Case.Reason, a.Round))
		}
	}
	return len(v.out) == n
}

// interruption rules again on an interrupted tournament (FITAB art. 39,
// RULES §12.6: valid only if k ≥ rounds_planned − 2, and with 4 rounds
// planned k ≥ 3, the seed's own case): the file's void must be the
// ruling's, a valid one's standings are those after round k, and no
// round after k has a sheet. False: the published standings are not the
// ruling's.
func (v *verification) interruption() bool {
	t := v.c.Tournament
	ruling, ok := t.Interruption()
	if !ok {
		return true
	}
	n := len(v.out)
	k := ruling.AfterRound
	d := Difference{Round: k, Rule: ruling.Rule}
	if claimed := v.f.Tournament.Void; claimed == nil || *claimed == ruling.Valid {
		said := "nothing"
		if claimed != nil {
			said = fmt.Sprint(*claimed)
		}
		v.sub(CodeStandingsDiffer, SubInterruption, d,
			fmt.Sprintf("the file says void %s; %s", said, ruling.Reason),
			fmt.Sprintf("il file dice annullato %s; %s", said, ruling.ReasonIT))
	}
	if ruling.Valid && v.f.Standings.AfterRound != k {
		v.sub(CodeStandingsDiffer, SubInterruption, d,
			fmt.Sprintf("the final standings of a tournament interrupted after round %d are those after round %d, not after round %d", k, k, v.f.Standings.AfterRound),
			fmt.Sprintf("la classifica finale di un torneo interrotto dopo il turno %d è quella dopo il turno %d, non dopo il turno %d", k, k, v.f.Standings.AfterRound))
	}
	for _, s := range v.c.Sheets {
		if s.Round > k {
			v.sub(CodeStandingsDiffer, SubInterruption, Difference{Round: s.Round, Table: s.Table, Rule: ruling.Rule},
				fmt.Sprintf("round %d has a sheet at table %d, but the tournament was interrupted after round %d", s.Round, s.Table, k),
				fmt.Sprintf("il turno %d ha uno score al tavolo %d, ma il torneo è stato interrotto dopo il turno %d", s.Round, s.Table, k))
		}
	}
	return len(v.out) == n
}

// teamMatches recomputes every team match from its two tables' official
// totals (RULES §12.5, domain.TeamMatch: team totals, MP difference, VP
// from fibur-teams) and compares the file's team_matches.
func (v *verification) teamMatches() {
	if v.c.Tournament.Kind != domain.KindTeams {
		return
	}
	st, err := v.standingsAfter(0)
	if err != nil {
		return // standings() has said it
	}
	type key struct{ round, match int }
	got := map[key]domain.TeamMatchResult{}
	for _, m := range st.TeamMatches {
		got[key{m.Round, m.Match}] = m
	}
	rule := teamRule(v.rs)
	seen := map[key]bool{}
	for _, c := range v.f.TeamMatches {
		k := key{c.Round, c.Match}
		seen[k] = true
		w, ok := got[k]
		d := Difference{Round: c.Round, Table: c.Tables[0], Entrant: c.Teams[0], Rule: rule}
		if !ok {
			d.Code = CodeVPDiffer
			d.Detail = say(v.lang, fmt.Sprintf("match %d of round %d: the file gives a result, the sheets give none (a table's sheet is missing or the tables are not one match)", c.Match, c.Round),
				fmt.Sprintf("incontro %d del turno %d: il file dà un risultato, gli score nessuno (manca lo score di un tavolo o i tavoli non sono un incontro)", c.Match, c.Round))
			v.add(d)
			continue
		}
		if c.Teams != w.Teams || c.Totals != w.Totals || c.MP != w.MP {
			d.Code = CodeMPDiffer
			d.Detail = say(v.lang,
				fmt.Sprintf("match %d of round %d: the file says %s–%s totals %d–%d, MP %d–%d; the tables give %s–%s %d–%d, MP %d–%d",
					c.Match, c.Round, c.Teams[0], c.Teams[1], c.Totals[0], c.Totals[1], c.MP[0], c.MP[1], w.Teams[0], w.Teams[1], w.Totals[0], w.Totals[1], w.MP[0], w.MP[1]),
				fmt.Sprintf("incontro %d del turno %d: il file dice %s–%s totali %d–%d, MP %d–%d; i tavoli danno %s–%s %d–%d, MP %d–%d",
					c.Match, c.Round, c.Teams[0], c.Teams[1], c.Totals[0], c.Totals[1], c.MP[0], c.MP[1], w.Teams[0], w.Teams[1], w.Totals[0], w.Totals[1], w.MP[0], w.MP[1]))
			v.add(d)
		}
		if c.VP != w.VP {
			d.Code = CodeVPDiffer
			d.Detail = say(v.lang,
				fmt.Sprintf("match %d of round %d: the file says %d–%d VP; the team totals %d–%d give %d–%d VP (fibur-teams)", c.Match, c.Round, c.VP[0], c.VP[1], w.Totals[0], w.Totals[1], w.VP[0], w.VP[1]),
				fmt.Sprintf("incontro %d del turno %d: il file dice %d–%d VP; i totali di squadra %d–%d danno %d–%d VP (fibur-teams)", c.Match, c.Round, c.VP[0], c.VP[1], w.Totals[0], w.Totals[1], w.VP[0], w.VP[1]))
			v.add(d)
		}
	}
	for _, m := range st.TeamMatches {
		if k := (key{m.Round, m.Match}); !seen[k] {
			v.add(Difference{Code: CodeVPDiffer, Round: m.Round, Table: m.Tables[0], Entrant: m.Teams[0], Rule: rule,
				Detail: say(v.lang, fmt.Sprintf("match %d of round %d (%s–%s, %d–%d VP) is missing from team_matches", m.Match, m.Round, m.Teams[0], m.Teams[1], m.VP[0], m.VP[1]),
					fmt.Sprintf("l'incontro %d del turno %d (%s–%s, %d–%d VP) manca da team_matches", m.Match, m.Round, m.Teams[0], m.Teams[1], m.VP[0], m.VP[1]))})
		}
	}
}

// lineups checks every table's line-up (RULES §12.5, domain.ValidateLineup):
// two players of the team seated at the line, as they sat that round
// (§12.4), none at the other table of the match too.
func (v *verification) lineups() {
	entrants := v.entrantsByID()
	for _, r := range v.c.Rounds {
		ls := v.c.Lineups[r.Number]
		for i, l := range ls {
			ta, _ := r.Assignment(l.Table)
			var other *domain.Lineup
			for j := range ls {
				if j != i {
					if o, _ := r.Assignment(ls[j].Table); o.Match == ta.Match {
						other = &ls[j]
					}
				}
			}
			ns, eo := entrants[ta.NS], entrants[ta.EO]
			ns.Players = domain.PlayersAt(ns, v.c.Substitutions, r.Number)
			eo.Players = domain.PlayersAt(eo, v.c.Substitutions, r.Number)
			if err := domain.ValidateLineup(v.rs, ta, ns, eo, l, other); err != nil {
				msg := strings.TrimPrefix(err.Error(), domain.ErrInvalid.Error()+": ")
				v.sub(CodePairing, SubLineup, Difference{Round: r.Number, Table: l.Table, Entrant: ta.NS, Rule: teamRule(v.rs)},
					"line-up: "+msg, "formazione: "+msg)
			}
		}
	}
}

// sessions compares each round's session with the plan's (RULES §12.1:
// the sessions are the rounds of each, in order; a round without one is in
// the first).
func (v *verification) sessions() {
	plan := v.c.Tournament.EffectivePlan()
	for _, w := range v.f.Rounds {
		got, want := max(w.Session, 1), plan.SessionOf(w.Number)
		if got != want {
			v.sub(CodePairing, SubSession, Difference{Round: w.Number, Rule: "RULES §12.1"},
				fmt.Sprintf("round %d is given session %d; the plan's sessions %s put it in session %d", w.Number, got, plan.SessionsText(), want),
				fmt.Sprintf("al turno %d è data la sessione %d; le sessioni del piano %s lo mettono nella sessione %d", w.Number, got, plan.SessionsText(), want))
		}
	}
}

// seated compares who the file says sat in each round with the entrants'
// players and the substitutions (RULES §12.4, domain.PlayersAt).
func (v *verification) seated() {
	entrants := v.entrantsByID()
	rule := domain.SubstitutionRule(v.rs)
	for i, w := range v.f.Rounds {
		claimed := map[string][]string{}
		for _, s := range w.Seated {
			for _, p := range s.Players {
				claimed[s.Entrant] = append(claimed[s.Entrant], p.Name+" "+p.Membership)
			}
		}
		for _, e := range v.c.Entrants {
			want := []string{}
			changed := false
			for j, p := range domain.PlayersAt(entrants[e.ID], v.c.Substitutions, w.Number) {
				want = append(want, p.Name+" "+p.Membership)
				changed = changed || p != e.Players[j]
			}
			got, said := claimed[e.ID]
			if !said {
				if !changed {
					continue
				}
				got = nil
			}
			if !slices.Equal(got, want) {
				v.sub(CodePairing, SubSeated, Difference{Round: v.c.Rounds[i].Number, Entrant: e.ID, Rule: rule},
					fmt.Sprintf("round %d: the file seats %v for %s; its players and substitutions give %v", w.Number, got, e.ID, want),
					fmt.Sprintf("turno %d: il file fa sedere %v per %s; i giocatori e le sostituzioni danno %v", w.Number, got, e.ID, want))
			}
		}
	}
}

func (v *verification) entrantsByID() map[string]domain.Entrant {
	out := make(map[string]domain.Entrant, len(v.c.Entrants))
	for _, e := range v.c.Entrants {
		out[e.ID] = e
	}
	return out
}

// prizes recomputes the prize list from the final standings and the
// categories (domain.AwardPrizes: in the categories' order of value, each
// entrant at most one prize unless the category is cumulative) and
// compares it with the file's, place by place. A void tournament awards
// none.
func (v *verification) prizes() {
	cats := v.c.PrizeCategories
	if len(cats) == 0 && len(v.f.Prizes) == 0 {
		return
	}
	rule := "RULES §8"
	after := v.f.Standings.AfterRound
	var want []domain.Award
	if ruling, ok := v.c.Tournament.Interruption(); !ok || ruling.Valid {
		st, err := v.standingsAfter(after)
		if err != nil {
			return // standings() has said it
		}
		if want, err = domain.AwardPrizes(cats, st.Rows); err != nil {
			return
		}
	}
	type key struct {
		cat   string
		place int
	}
	wanted := map[key]string{}
	for _, a := range want {
		wanted[key{a.Category, a.Place}] = a.Standing.Entrant.ID
	}
	cumulative := map[string]bool{}
	for _, c := range cats {
		cumulative[c.ID] = c.Cumulative
	}
	won := map[string]string{}
	seen := map[key]bool{}
	for _, p := range v.f.Prizes {
		k := key{p.Category, p.Place}
		seen[k] = true
		if !cumulative[p.Category] {
			if first, ok := won[p.Entrant]; ok {
				v.sub(CodeStandingsDiffer, SubPrize, Difference{Entrant: p.Entrant, Round: after, Rule: rule},
					fmt.Sprintf("%s is given a prize in %s and in %s: an entrant wins one prize unless the category is cumulative", p.Entrant, first, p.Category),
					fmt.Sprintf("%s riceve un premio in %s e in %s: un iscritto vince un solo premio, salvo categoria cumulabile", p.Entrant, first, p.Category))
			}
			won[p.Entrant] = p.Category
		}
		if w := wanted[k]; w != p.Entrant {
			if w == "" {
				w = say(v.lang, "nobody", "nessuno")
			}
			v.sub(CodeStandingsDiffer, SubPrize, Difference{Entrant: p.Entrant, Round: after, Rule: rule},
				fmt.Sprintf("prize %d of %s: the file gives it to %s; the standings and the categories give it to %s", p.Place, p.Category, p.Entrant, w),
				fmt.Sprintf("premio %d di %s: il file lo dà a %s; la classifica e le categorie lo danno a %s", p.Place, p.Category, p.Entrant, w))
		}
	}
	for _, a := range want {
		if k := (key{a.Category, a.Place}); !seen[k] {
			id := a.Standing.Entrant.ID
			v.sub(CodeStandingsDiffer, SubPrize, Difference{Entrant: id, Round: after, Rule: rule},
				fmt.Sprintf("prize %d of %s, due to %s, is missing from the file's prizes", a.Place, a.Category, id),
				fmt.Sprintf("il premio %d di %s, spettante a %s, manca dai premi del file", a.Place, a.Category, id))
		}
	}
}
