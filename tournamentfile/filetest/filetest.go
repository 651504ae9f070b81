// Package filetest makes consistent tournament files for tests and
// benchmarks (verifier, cmd, api).
package filetest

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"segnapunti/domain"
	"segnapunti/importers/sheetjson"
	"segnapunti/tournamentfile"
)

// GroupSize is the size of the groups of a gironi round Generate seats.
const GroupSize = 4

// Generate makes a consistent file of a pairs tournament: n pairs, the
// given systems per round (seated by the pairing engine), one sheet per
// table with hands whose written bottom is the computed one, and the
// standings after the last round. The figures are made by the domain
// functions the verifier calls; the tests then edit the file and expect
// the verifier to name the edit.
func Generate(tb testing.TB, n int, systems []domain.PairingSystem, seed uint64) tournamentfile.File {
	tb.Helper()
	return GeneratePlanned(tb, n, systems, nil, seed)
}

// GeneratePlanned is Generate with a plan of the given sessions (RULES
// §12.1: rounds per session; nil is no plan): each round is seated with
// the rests counted from its session's first round, and carries its
// session.
func GeneratePlanned(tb testing.TB, n int, systems []domain.PairingSystem, sessions []int, seed uint64) tournamentfile.File {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	t := domain.Tournament{ID: "t_gen", Name: "Generato", Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), ClubID: "c1",
		Level: domain.LevelRegional, Ruleset: domain.FITAB2025, Kind: domain.KindPairs, RoundsPlanned: len(systems), HandsPerRound: 3}
	f := tournamentfile.File{Format: tournamentfile.Format, Version: tournamentfile.Version, ExportedAt: "2026-11-21T23:00:00Z",
		Tournament: tournamentfile.Tournament{ID: t.ID, Name: t.Name, Date: "2026-11-21", Club: &tournamentfile.Club{ID: "c1", Name: "Uno"},
			Level: string(t.Level), Ruleset: string(t.Ruleset), Kind: string(t.Kind), RoundsPlanned: t.RoundsPlanned, HandsPerRound: 3}}
	plan := t.EffectivePlan()
	if sessions != nil {
		plan = domain.Plan{FirstRound: systems[0], Phases: []domain.PlanPhase{{FromRound: 1, System: systems[min(1, len(systems)-1)]}}, Sessions: sessions}
		f.Tournament.Plan = &tournamentfile.Plan{FirstRound: string(plan.FirstRound), Sessions: sessions,
			Phases: []tournamentfile.PlanPhase{{FromRound: 1, System: string(plan.Phases[0].System)}}}
	}
	var entrants []domain.Entrant
	var ids []string
	for i := 1; i <= n; i++ {
		id := fmt.Sprint(i)
		ids = append(ids, id)
		e := domain.Entrant{ID: id, Players: []domain.Player{{Name: "A" + id, Membership: "FT" + id}, {Name: "B" + id}}}
		entrants = append(entrants, e)
		f.Entrants = append(f.Entrants, tournamentfile.Entrant{ID: id, Players: []tournamentfile.Player{{Name: "A" + id, Membership: "FT" + id}, {Name: "B" + id}}})
	}
	var rounds []domain.Round
	var previous []domain.PairedRound
	var results []domain.TableResult
	standingsAfter := func(after int) []string {
		st, err := domain.OfficialStandings(domain.OfficialStandingsInput{Tournament: t, Entrants: entrants, Rounds: rounds, Results: results, AfterRound: after})
		if err != nil {
			tb.Fatal(err)
		}
		var out []string
		for _, r := range st.Rows {
			out = append(out, r.Entrant.ID)
		}
		return out
	}
	for k, system := range systems {
		number := k + 1
		req := domain.PairingRequest{Ruleset: t.Ruleset, Kind: t.Kind, System: system, Round: number, RoundsPlanned: t.RoundsPlanned,
			Entrants: ids, Previous: previous, SessionStart: plan.SessionStart(number)}
		if system == domain.SystemDanese || system == domain.SystemDaneseModificato {
			req.Standings = standingsAfter(number - 1)
		}
		if system == domain.SystemGironi { // RULES §12.1: groups of GroupSize from the standings before the phase
			req.GroupSize = GroupSize
			req.Standings = standingsAfter(domain.PhaseStart(req) - 1)
		}
		pr, err := domain.GeneratePairing(req)
		if err != nil {
			tb.Fatalf("round %d: %v", number, err)
		}
		phase := domain.PhaseDanese
		switch {
		case system == domain.SystemMitchell:
			phase = domain.PhaseMitchell
		case system == domain.SystemGironi && domain.PhaseStart(req) == number:
			phase = domain.PhaseGironi
		case system == domain.SystemGironi:
			phase = domain.PhaseItaliana
		}
		r := domain.Round{Number: number, HandsPlanned: 3, Phase: phase, State: domain.RoundNextPairingPublished, System: pr.System, Seed: pr.Seed, Byes: pr.Byes,
			Groups: pr.Groups}
		fr := tournamentfile.Round{Number: number, HandsPlanned: 3, Phase: string(phase), Session: plan.SessionOf(number), System: string(pr.System), Seed: pr.Seed,
			State: string(r.State), Byes: pr.Byes, Groups: pr.Groups}
		for _, pt := range pr.Tables {
			ta := domain.TableAssignment{Table: pt.Table}
			ta.SetLine(domain.NS, pt.NS)
			ta.SetLine(domain.EO, pt.EO)
			r.Tables = append(r.Tables, ta)
			fr.Tables = append(fr.Tables, tournamentfile.Table{Table: pt.Table, NS: pt.NS, EO: pt.EO})
		}
		rounds = append(rounds, r)
		f.Rounds = append(f.Rounds, fr)
		previous = append(previous, pr)
		for _, ta := range r.Tables {
			s := genSheet(rng, t, r, ta)
			raw, err := sheetjson.Encode(s)
			if err != nil {
				tb.Fatal(err)
			}
			m := domain.OfficialResult(s, domain.Validate(s))
			line := func(r domain.LineResult) tournamentfile.LineResult {
				return tournamentfile.LineResult{Total: r.Total, MP: r.MP, VP: r.VP}
			}
			f.Sheets = append(f.Sheets, tournamentfile.Sheet{Round: number, Table: ta.Table, Sheet: raw,
				Official: tournamentfile.Result{NS: line(m.Lines[0].Official), EO: line(m.Lines[1].Official)},
				Computed: tournamentfile.Result{NS: line(m.Lines[0].Computed), EO: line(m.Lines[1].Computed)},
				StoredAt: "2026-11-21T21:00:00Z"})
			results = append(results, domain.TableResult{Round: number, Table: ta.Table, NS: ta.NS, EO: ta.EO,
				Official: [2]domain.LineResult{m.Lines[0].Official, m.Lines[1].Official},
				Computed: [2]domain.LineResult{m.Lines[0].Computed, m.Lines[1].Computed}})
		}
	}
	st, err := domain.OfficialStandings(domain.OfficialStandingsInput{Tournament: t, Entrants: entrants, Rounds: rounds, Results: results})
	if err != nil {
		tb.Fatal(err)
	}
	f.Standings = tournamentfile.StandingsOf(st.AfterRound, st.Rows)
	return f
}

// genSheet is a sheet of plausible hands (bases of whole burrachi, points
// multiples of 5) with its bottom written as the hands give it.
func genSheet(rng *rand.Rand, t domain.Tournament, r domain.Round, ta domain.TableAssignment) domain.Sheet {
	s := domain.Sheet{Ruleset: t.Ruleset, HandsPlanned: r.HandsPlanned, Kind: t.Kind, Round: r.Number, Table: ta.Table,
		Sides: [2]domain.Side{{ID: ta.NS}, {ID: ta.EO}}}
	for range r.HandsPlanned {
		var h domain.Hand
		h.End = domain.EndClosed
		closer := rng.IntN(2)
		for l := range 2 {
			base := 100 * rng.IntN(4)
			if l == closer {
				base = 200 + 100*rng.IntN(3) // a burraco and the closing
			}
			h.Lines[l] = domain.LineScore{Base: base, Points: 5 * (rng.IntN(60) - 10)}
		}
		s.Hands = append(s.Hands, h)
	}
	return s
}
