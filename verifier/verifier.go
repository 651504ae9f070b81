// Package verifier re-derives a tournament from its open-format file alone
// (API §4.4, docs/format.md) and lists where the file's figures are not
// what the rules give: every sheet re-validated (RULES §5), every match's
// MP and VP recomputed (§6), every round's seating re-checked against its
// system (§11-§12), every correction's ruling decided again (§9), the
// standings recomputed (§8). The re-derivations are the domain's own
// functions — domain.Validate, domain.OfficialResult, domain.CheckRound,
// domain.Decide, domain.OfficialStandings — the same the service uses.
// Nothing is stored and nothing is trusted: the file is read through
// tournamentfile.Decode and tournamentfile.Check first.
package verifier

import (
	"fmt"
	"slices"
	"strings"

	"segnapunti/domain"
	"segnapunti/tournamentfile"
)

// Difference codes of API §4.4 besides the sheet findings of RULES §5,
// which keep their own codes.
const (
	CodeMPDiffer        = "MP_DIFFER"
	CodeVPDiffer        = "VP_DIFFER"
	CodePairing         = "PAIRING"
	CodeRulingDiffer    = "RULING_DIFFER"
	CodeStandingsDiffer = "STANDINGS_DIFFER"
)

// Difference is one place where the file is not what the rules give.
// Round, Table are 0 and Entrant "" when the difference has none.
type Difference struct {
	Code    string
	Round   int
	Table   int
	Entrant string
	Detail  string
	Rule    string
}

// Report is the verification of one file.
type Report struct {
	// OK: every figure of the file re-derives (no difference).
	OK bool
	// StandingsOK: the published standings are those the file's own
	// records give.
	StandingsOK bool
	Differences []Difference
}

// Verdict is the report's one line on the published standings.
func (r Report) Verdict(lang domain.Lang) string {
	switch {
	case r.StandingsOK && lang == domain.Italian:
		return "La classifica pubblicata è corretta: si ricava dai dati del file."
	case r.StandingsOK:
		return "The published standings are right: they re-derive from the file's records."
	case lang == domain.Italian:
		return "La classifica pubblicata NON è corretta: non si ricava dai dati del file."
	}
	return "The published standings are NOT right: they do not re-derive from the file's records."
}

func say(lang domain.Lang, en, it string) string {
	if lang == domain.Italian {
		return it
	}
	return en
}

// Verify re-derives the file's content c (tournamentfile.Check of f) and
// compares it with what f claims. Messages are in lang.
func Verify(f tournamentfile.File, c tournamentfile.Content, lang domain.Lang) Report {
	v := verification{f: f, c: c, lang: lang, rs: c.Tournament.Ruleset}
	v.sheets()
	standingsOK := v.standings()
	v.pairings()
	v.corrections()
	standingsOK = v.withdrawals() && standingsOK
	standingsOK = v.interruption() && standingsOK
	v.teamMatches()
	v.lineups()
	v.seated()
	v.sessions()
	v.prizes()
	return Report{OK: len(v.out) == 0, StandingsOK: standingsOK, Differences: orEmpty(v.out)}
}

func orEmpty(d []Difference) []Difference {
	if d == nil {
		return []Difference{}
	}
	return d
}

type verification struct {
	f       tournamentfile.File
	c       tournamentfile.Content
	lang    domain.Lang
	rs      domain.Ruleset
	out     []Difference
	results []domain.TableResult
}

func (v *verification) add(d Difference) { v.out = append(v.out, d) }

// sheets re-validates every sheet (RULES §5: each error finding is a
// difference, with its own code) and recomputes its official and computed
// results (RULES §6, §8), set against those the file claims.
func (v *verification) sheets() {
	rounds := make(map[int]domain.Round, len(v.c.Rounds))
	for _, r := range v.c.Rounds {
		rounds[r.Number] = r
	}
	for _, s := range v.c.Sheets {
		rep := domain.Validate(s.Sheet)
		ta, _ := rounds[s.Round].Assignment(s.Table)
		for _, fd := range rep.Findings {
			if fd.Severity != domain.SeverityError {
				continue
			}
			d := Difference{Code: string(fd.Code), Round: s.Round, Table: s.Table, Detail: fd.Message(v.lang), Rule: fd.Rule}
			if fd.Line != nil {
				d.Entrant = ta.Line(*fd.Line)[0]
			}
			v.add(d)
		}
		m := domain.OfficialResult(s.Sheet, rep)
		claimed := v.f.Sheets[s.Index]
		for _, l := range domain.Lines {
			entrant := ta.Line(l)[0]
			v.compareLine(s, l, entrant, say(v.lang, "official", "ufficiale"), claimedLine(claimed.Official, l), m.Lines[l].Official)
			v.compareLine(s, l, entrant, say(v.lang, "computed", "calcolato"), claimedLine(claimed.Computed, l), m.Lines[l].Computed)
		}
		v.results = append(v.results, domain.TableResult{Round: s.Round, Table: s.Table, NS: ta.NS, EO: ta.EO, NS2: ta.NS2, EO2: ta.EO2,
			Official: [2]domain.LineResult{m.Lines[domain.NS].Official, m.Lines[domain.EO].Official},
			Computed: [2]domain.LineResult{m.Lines[domain.NS].Computed, m.Lines[domain.EO].Computed},
			Differs:  m.Differs, Kind: m.Kind})
	}
}

func claimedLine(r tournamentfile.Result, l domain.Line) tournamentfile.LineResult {
	if l == domain.EO {
		return r.EO
	}
	return r.NS
}

func (v *verification) compareLine(s tournamentfile.SheetRecord, l domain.Line, entrant, which string, claimed tournamentfile.LineResult, got domain.LineResult) {
	if claimed.MP != got.MP || claimed.Total != got.Total {
		v.add(Difference{Code: CodeMPDiffer, Round: s.Round, Table: s.Table, Entrant: entrant, Rule: v.rs.ScoringRule(),
			Detail: say(v.lang,
				fmt.Sprintf("%s, %s result: the file says total %d, MP %d; the sheet gives total %d, MP %d", l.Label(), which, claimed.Total, claimed.MP, got.Total, got.MP),
				fmt.Sprintf("%s, risultato %s: il file dice totale %d, MP %d; lo score dà totale %d, MP %d", l.Label(), which, claimed.Total, claimed.MP, got.Total, got.MP))})
	}
	if claimed.VP != got.VP {
		v.add(Difference{Code: CodeVPDiffer, Round: s.Round, Table: s.Table, Entrant: entrant, Rule: v.rs.ScoringRule(),
			Detail: say(v.lang,
				fmt.Sprintf("%s, %s result: the file says %d VP; the sheet gives %d VP", l.Label(), which, claimed.VP, got.VP),
				fmt.Sprintf("%s, risultato %s: il file dice %d VP; lo score dà %d VP", l.Label(), which, claimed.VP, got.VP))})
	}
}

// recordedAdjustments are the file's adjustments as the standings read
// them.
func (v *verification) standingsAfter(after int) (domain.OfficialStandingsResult, error) {
	return domain.OfficialStandings(domain.OfficialStandingsInput{
		Tournament: v.c.Tournament, Entrants: v.c.Entrants, Rounds: v.c.Rounds, Results: v.results,
		Adjustments: v.c.Adjustments, AfterRound: after,
	})
}

// standings recomputes the standings (RULES §8) after the round the file
// publishes them for and compares them row by row: rank, VP, MP, wins.
func (v *verification) standings() bool {
	published := v.f.Standings
	got, err := v.standingsAfter(published.AfterRound)
	rule := v.rs.ScoringRule()
	if err != nil {
		v.add(Difference{Code: CodeStandingsDiffer, Round: published.AfterRound, Rule: rule,
			Detail: say(v.lang, "the standings cannot be derived: "+err.Error(), "la classifica non si ricava: "+err.Error())})
		return false
	}
	if published.AfterRound != got.AfterRound {
		v.add(Difference{Code: CodeStandingsDiffer, Round: published.AfterRound, Rule: rule,
			Detail: say(v.lang,
				fmt.Sprintf("the standings are published after round %d; the results reach round %d", published.AfterRound, got.AfterRound),
				fmt.Sprintf("la classifica è pubblicata dopo il turno %d; i risultati arrivano al turno %d", published.AfterRound, got.AfterRound))})
	}
	ok := published.AfterRound == got.AfterRound
	want := make(map[string]domain.Standing, len(got.Rows))
	for _, r := range got.Rows {
		want[r.Entrant.ID] = r
	}
	seen := map[string]bool{}
	for _, row := range published.Rows {
		w, known := want[row.Entrant]
		seen[row.Entrant] = true
		if !known {
			ok = false
			v.add(Difference{Code: CodeStandingsDiffer, Round: got.AfterRound, Entrant: row.Entrant, Rule: rule,
				Detail: say(v.lang, fmt.Sprintf("entrant %s is ranked but not entered", row.Entrant),
					fmt.Sprintf("%s è in classifica ma non è iscritto", row.Entrant))})
			continue
		}
		if row.Rank == w.Rank && row.VP == w.VP && row.MP == w.MP && row.Wins == w.Wins {
			continue
		}
		ok = false
		v.add(Difference{Code: CodeStandingsDiffer, Round: got.AfterRound, Entrant: row.Entrant, Rule: rule,
			Detail: say(v.lang,
				fmt.Sprintf("entrant %s: published rank %d, %d VP, %d MP, %d wins; the records give rank %d, %d VP, %d MP, %d wins",
					row.Entrant, row.Rank, row.VP, row.MP, row.Wins, w.Rank, w.VP, w.MP, w.Wins),
				fmt.Sprintf("%s: pubblicato %d° con %d VP, %d MP, %d vittorie; i dati danno %d° con %d VP, %d MP, %d vittorie",
					row.Entrant, row.Rank, row.VP, row.MP, row.Wins, w.Rank, w.VP, w.MP, w.Wins))})
	}
	for _, r := range got.Rows {
		if !seen[r.Entrant.ID] {
			ok = false
			v.add(Difference{Code: CodeStandingsDiffer, Round: got.AfterRound, Entrant: r.Entrant.ID, Rule: rule,
				Detail: say(v.lang, fmt.Sprintf("entrant %s is missing from the published standings (rank %d)", r.Entrant.ID, r.Rank),
					fmt.Sprintf("%s manca dalla classifica pubblicata (%d°)", r.Entrant.ID, r.Rank))})
		}
	}
	return ok
}

// pairings re-checks every round against its system with the service's
// checker (domain.CheckRound), from the file's entrants (in entry order),
// earlier rounds and the standings the file's own records give.
func (v *verification) pairings() {
	rounds := slices.Clone(v.c.Rounds)
	slices.SortFunc(rounds, func(a, b domain.Round) int { return a.Number - b.Number })
	entrants := make([]string, len(v.c.Entrants))
	var withdrawn map[string]int
	for i, e := range v.c.Entrants {
		entrants[i] = e.ID
		if e.WithdrawnFromRound != nil { // RULES §12.3
			if withdrawn == nil {
				withdrawn = map[string]int{}
			}
			withdrawn[e.ID] = *e.WithdrawnFromRound
		}
	}
	// An entrant withdrawn during round r sat in it (RULES §12.3): the
	// checker counts it gone from round r + 1 on.
	for id := range v.midRoundWithdrawals() {
		withdrawn[id]++
	}
	plan := v.c.Tournament.EffectivePlan()
	byNumber := map[int]domain.PairedRound{}
	for _, r := range rounds {
		byNumber[r.Number] = pairedOf(r)
	}
	for _, r := range rounds {
		published := byNumber[r.Number]
		// RULES §12.1: rests count per session of the plan; RULES §12.3:
		// a withdrawn entrant is seated by no later round.
		req := domain.PairingRequest{Ruleset: v.rs, Kind: v.c.Tournament.Kind, System: published.System, Round: r.Number,
			RoundsPlanned: v.c.Tournament.RoundsPlanned, Entrants: entrants, Seed: r.Seed,
			SessionStart: plan.SessionStart(r.Number), Withdrawn: withdrawn}
		complete := true
		for i := 1; i < r.Number; i++ {
			p, ok := byNumber[i]
			if !ok {
				complete = false
				break
			}
			req.Previous = append(req.Previous, p)
		}
		if !complete {
			v.add(Difference{Code: CodePairing, Round: r.Number, Rule: "RULES §11",
				Detail: say(v.lang, fmt.Sprintf("%s: a round before round %d is missing from the file", domain.PairingNotDerivable, r.Number),
					fmt.Sprintf("%s: manca un turno precedente al turno %d", domain.PairingNotDerivable, r.Number))})
			continue
		}
		if req.System == domain.SystemGironi {
			// RULES §12.1: the round that formed the groups recorded them;
			// the group size is read back from it.
			start := domain.PhaseStart(req)
			if g := byNumber[start].Groups; len(g) > 0 {
				req.GroupSize = len(g[0])
			}
		}
		after := r.Number - 1
		switch req.System {
		case domain.SystemDanese, domain.SystemDaneseModificato:
		case domain.SystemGironi:
			after = domain.PhaseStart(req) - 1
		default:
			after = 0
		}
		if after >= 1 {
			st, err := v.standingsAfter(after)
			if err == nil {
				for _, row := range st.Rows {
					req.Standings = append(req.Standings, row.Entrant.ID)
				}
			}
		}
		for _, p := range domain.CheckRound(req, published).Problems {
			v.add(Difference{Code: CodePairing, Round: r.Number, Table: p.Table, Rule: p.Rule,
				Detail: string(p.Code) + ": " + p.Message(v.lang)})
		}
	}
}

// pairedOf is a round as the pairing engine reads it; a round seated by
// hand is choice (as app.pairedOf).
func pairedOf(r domain.Round) domain.PairedRound {
	out := domain.PairedRound{Number: r.Number, System: r.System, Seed: r.Seed, Byes: r.Byes, Groups: r.Groups, Vacated: r.Vacated}
	if out.System == "" {
		out.System = domain.SystemChoice
	}
	for _, t := range r.Tables {
		out.Tables = append(out.Tables, domain.PairedTable{Table: t.Table, Match: t.Match, NS: t.Line(domain.NS), EO: t.Line(domain.EO)})
	}
	return out
}

// corrections decides every correction again from its recorded situation
// (RULES §9, domain.Decide) and compares the ruling, and whether it was
// applied, with the file.
func (v *verification) corrections() {
	for _, c := range v.c.Corrections {
		d := domain.Decide(c.Situation)
		rule := strings.Join(d.Rules, ", ")
		if d.Ruling != c.Ruling {
			v.add(Difference{Code: CodeRulingDiffer, Round: c.Round, Table: c.Table, Rule: rule,
				Detail: say(v.lang,
					fmt.Sprintf("the file records the ruling %q; the codes give %q for its situation", c.Ruling, d.Ruling),
					fmt.Sprintf("il file riporta la decisione %q; i regolamenti danno %q per la sua situazione", c.Ruling, d.Ruling))})
			continue
		}
		if c.Applied != (d.Ruling != domain.RulingReject) {
			v.add(Difference{Code: CodeRulingDiffer, Round: c.Round, Table: c.Table, Rule: rule,
				Detail: say(v.lang,
					fmt.Sprintf("the ruling %q was %s", d.Ruling, map[bool]string{true: "applied although it rejects the correction", false: "not applied although it allows the correction"}[c.Applied]),
					fmt.Sprintf("la decisione %q %s", d.Ruling, map[bool]string{true: "è stata applicata benché respinga la correzione", false: "non è stata applicata benché ammetta la correzione"}[c.Applied]))})
		}
	}
}
