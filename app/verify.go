package app

import (
	"context"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/tournamentfile"
	"segnapunti/verifier"
)

// VerifyFile verifies a tournament file from the file alone (API §4.4):
// no caller, nothing stored. A file that cannot be read or does not hold
// together is a field error naming its JSON pointer.
func (a *App) VerifyFile(data []byte, lang domain.Lang) (verifier.Report, error) {
	rep, err := verifier.File(data, lang)
	if err != nil {
		return verifier.Report{}, fileError(err)
	}
	return rep, nil
}

// VerifyTournament is the verification of a stored tournament p may read,
// from its own tournament file: what the federation will see when the
// club sends it.
func (a *App) VerifyTournament(ctx context.Context, p Principal, tid string, lang domain.Lang) (domain.Tournament, verifier.Report, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return t, verifier.Report{}, err
	}
	f, err := a.tournamentFile(ctx, t)
	if err != nil {
		return t, verifier.Report{}, err
	}
	c, err := tournamentfile.Check(f)
	if err != nil {
		return t, verifier.Report{}, err
	}
	return t, verifier.Verify(f, c, lang), nil
}

// TournamentVerification is one tournament's line in the federation's
// list of verification statuses: what the verifier says of its own file.
type TournamentVerification struct {
	Tournament domain.Tournament
	ClubName   string
	// OK: every figure re-derives; StandingsOK: the published standings
	// do; Differences counts what does not.
	OK, StandingsOK bool
	Differences     int
	// Unreadable is set when the tournament's own file does not hold
	// together (tournamentfile.Check): the field and why.
	Unreadable string
}

// MaxSeasonVerifications bounds one list: a page verifies every
// tournament it shows, and a season of a whole federation is filtered by
// club before it is read whole.
const MaxSeasonVerifications = 300

// SeasonVerifications is the verification status of every stored
// tournament of a season (FederationFilter's "2026" or "2025-2026"),
// of one club when clubID is not empty, in date order: for the federation
// and admins. More — the list stops at MaxSeasonVerifications.
func (a *App) SeasonVerifications(ctx context.Context, p Principal, season, clubID string, lang domain.Lang) (list []TournamentVerification, more bool, err error) {
	if err := RequireRole(p, domain.RoleFederation, domain.RoleAdmin); err != nil {
		return nil, false, forbidden("api.verification_federation")
	}
	from, to, err := ParseSeason(season)
	if err != nil {
		return nil, false, err
	}
	clubs := map[string]string{}
	for t, err := range a.db.SeasonTournaments(ctx, store.SeasonFilter{From: from, To: to, ClubID: clubID}) {
		if err != nil {
			return nil, false, err
		}
		if len(list) == MaxSeasonVerifications {
			return list, true, nil
		}
		v := TournamentVerification{Tournament: t}
		if name, ok := clubs[t.ClubID]; ok {
			v.ClubName = name
		} else if c, err := a.db.GetClub(ctx, t.ClubID); err == nil {
			v.ClubName, clubs[t.ClubID] = c.Name, c.Name
		}
		f, err := a.tournamentFile(ctx, t)
		if err != nil {
			return nil, false, err
		}
		c, err := tournamentfile.Check(f)
		if err != nil {
			v.Unreadable = err.Error()
			list = append(list, v)
			continue
		}
		rep := verifier.Verify(f, c, lang)
		v.OK, v.StandingsOK, v.Differences = rep.OK, rep.StandingsOK, len(rep.Differences)
		list = append(list, v)
	}
	return list, false, nil
}
