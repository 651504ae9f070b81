package app

import (
	"context"

	"segnapunti/domain"
	"segnapunti/tournamentfile"
)

// The fields of the open tournament file that belong to RULES §12 (API
// §4.3: the plan, sessions, withdrawals, interruption, substitutions and
// who sat, team matches and line-ups) and to the prizes (issue 22:
// categories, the prize list, the players' sex and birth year), with the
// referees and the public flag, are written here and only here, from
// what the store holds. ImportTournamentFile stores them back
// (importTwelve), so that export → import → export is the same file.

// filePlan is the plan announced before round 1 (RULES §12.1); nil when
// none was announced (the file then says nothing, and API §4.3's default
// applies).
func filePlan(t domain.Tournament) *tournamentfile.Plan {
	if t.Plan.FirstRound == "" {
		return nil
	}
	out := &tournamentfile.Plan{FirstRound: string(t.Plan.FirstRound), Sessions: t.Plan.Sessions}
	for _, ph := range t.Plan.Phases {
		out.Phases = append(out.Phases, tournamentfile.PlanPhase{FromRound: ph.FromRound, System: string(ph.System)})
	}
	return out
}

// fileInterruption is interrupted_after_round, void and the reason (FITAB
// art. 39, RULES §12.6); nil when the tournament was not interrupted.
func fileInterruption(t domain.Tournament, ft *tournamentfile.Tournament) {
	if t.InterruptedAfterRound == nil {
		return
	}
	k := *t.InterruptedAfterRound
	ft.InterruptedAfterRound, ft.InterruptionReason = &k, t.InterruptionReason
	if ruling, ok := t.Interruption(); ok {
		ft.Void = new(!ruling.Valid)
	}
}

// fileSession is the session round r belongs to (RULES §12.1).
func fileSession(t domain.Tournament, r domain.Round) int {
	return t.EffectivePlan().SessionOf(r.Number)
}

// fileWithdrawn is the round an entrant withdrew from (RULES §12.3).
func fileWithdrawn(e domain.Entrant) *int { return e.WithdrawnFromRound }

// fileMatch is the team match a table belongs to (RULES §12.5); nil
// outside team tournaments.
func fileMatch(_ domain.Round, ta domain.TableAssignment) *int {
	if ta.Match == 0 {
		return nil
	}
	m := ta.Match
	return &m
}

func filePlayer(p domain.Player) tournamentfile.Player {
	return tournamentfile.Player{Name: p.Name, Membership: p.Membership, Sex: p.Sex, BirthYear: p.BirthYear}
}

// fileTwelve writes the referees, the substitutions and who sat in each
// round, the line-ups, the prize categories and the prize list, and the
// team matches the standings count (st).
func (a *App) fileTwelve(ctx context.Context, t domain.Tournament, f *tournamentfile.File, entrants []domain.Entrant, rounds []domain.Round, st StandingsTable) error {
	refs, err := a.db.ListReferees(ctx, t.ID)
	if err != nil {
		return err
	}
	if len(refs) > 0 {
		f.Tournament.Referees = refs
	}
	subs, err := a.db.ListSubstitutions(ctx, t.ID)
	if err != nil {
		return err
	}
	for _, s := range subs {
		f.Substitutions = append(f.Substitutions, tournamentfile.Substitution{Entrant: s.Entrant, FromRound: s.FromRound, Out: s.Out,
			In: filePlayer(s.In), Reason: s.Reason})
	}
	for i, r := range rounds {
		if len(subs) > 0 {
			for _, e := range entrants {
				sat := domain.PlayersAt(e, subs, r.Number)
				changed := false
				for j := range sat {
					changed = changed || sat[j] != e.Players[j]
				}
				if !changed {
					continue
				}
				fs := tournamentfile.Seated{Entrant: e.ID}
				for _, p := range sat {
					fs.Players = append(fs.Players, filePlayer(p))
				}
				f.Rounds[i].Seated = append(f.Rounds[i].Seated, fs)
			}
		}
		if t.Kind != domain.KindTeams {
			continue
		}
		lineups, err := a.db.ListLineups(ctx, t.ID, r.Number)
		if err != nil {
			return err
		}
		for _, l := range lineups {
			f.Rounds[i].Lineups = append(f.Rounds[i].Lineups, tournamentfile.Lineup{Table: l.Table, NS: l.NS, EO: l.EO})
		}
	}
	for _, m := range st.TeamMatches {
		f.TeamMatches = append(f.TeamMatches, tournamentfile.TeamMatch{Round: m.Round, Match: m.Match, Tables: m.Tables, Teams: m.Teams,
			Totals: m.Totals, MP: m.MP, VP: m.VP})
	}
	prizes, err := a.prizesOf(ctx, t)
	if err != nil {
		return err
	}
	for _, c := range prizes.Categories {
		f.Tournament.PrizeCategories = append(f.Tournament.PrizeCategories, tournamentfile.PrizeCategory{ID: c.ID, Kind: string(c.Kind),
			Label: c.Label, Places: c.Places, BornBy: c.BornBy, Club: c.Club, Attribute: string(c.Attribute), Value: c.Value, Cumulative: c.Cumulative})
	}
	for _, aw := range prizes.Awards {
		f.Prizes = append(f.Prizes, tournamentfile.Prize{Category: aw.Category, Place: aw.Place, Entrant: aw.Standing.Entrant.ID})
	}
	return nil
}
