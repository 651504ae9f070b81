package app

import (
	"context"
	"errors"

	"segnapunti/domain"
	"segnapunti/messages"
)

// Who may do what (API §4 roles). Every operation on a tournament starts
// with TournamentAccess; the predicates of Access are the only place that
// says which role may do which kind of thing.

// Access is what a caller may do with one tournament.
type Access struct {
	Admin      bool // an admin may do everything
	Federation bool // the federation reads everything
	OwnClub    bool // a club token or member of the organising club
	Referee    bool // a referee assigned to the tournament
}

// Read: the organising club, its referees, the federation, an admin. Who
// may not read a tournament does not learn that it exists (a 404).
func (a Access) Read() bool { return a.Admin || a.Federation || a.OwnClub || a.Referee }

// Manage: enter entrants, rounds and sheets, assign referees — the
// organising club, or an admin.
func (a Access) Manage() bool { return a.Admin || a.OwnClub }

// Judge: change round states, correct sheets, adjust scores — a referee
// of the tournament or an admin; for club-level events the organising club
// too (a club tournament may have no referee).
func (a Access) Judge(t domain.Tournament) bool {
	return a.Admin || a.Referee || (a.OwnClub && t.Level == domain.LevelClub)
}

// Import: upload a workbook of sheets — the organising club, a referee of
// the tournament, an admin.
func (a Access) Import() bool { return a.Admin || a.OwnClub || a.Referee }

// RefereeOnly is the refusal text of the Judge predicate for one
// tournament: what may do it depends on the tournament's level.
func RefereeOnly(t domain.Tournament, what string) string {
	return messages.Text(domain.English, refereeOnly(t), action(what))
}

// RequireRole refuses callers whose role is not listed (operations that
// are not about one tournament: clubs, tokens, the season export).
func RequireRole(p Principal, roles ...domain.Role) error {
	for _, r := range roles {
		if p.Role == r {
			return nil
		}
	}
	return forbidden("api.role", p.Role)
}

// TournamentAccess loads a tournament and decides what p may do with it. A
// tournament p may not even read is domain.ErrNotFound, exactly as if it
// did not exist, so that ids of other clubs' tournaments cannot be probed.
func (a *App) TournamentAccess(ctx context.Context, p Principal, tid string) (domain.Tournament, Access, error) {
	nf := notFound("api.no_tournament", tid)
	if !ValidID(tid) {
		return domain.Tournament{}, Access{}, nf
	}
	t, err := a.db.GetTournament(ctx, tid)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Tournament{}, Access{}, nf
	}
	if err != nil {
		return domain.Tournament{}, Access{}, err
	}
	var acc Access
	switch p.Role {
	case domain.RoleAdmin:
		acc.Admin = true
	case domain.RoleFederation:
		acc.Federation = true
	case domain.RoleClub:
		acc.OwnClub = p.ClubID != "" && p.ClubID == t.ClubID
	case domain.RoleReferee:
		ok, err := a.db.IsReferee(ctx, t.ID, p.Name)
		if err != nil {
			return domain.Tournament{}, Access{}, err
		}
		acc.Referee = ok
	}
	if !acc.Read() {
		return domain.Tournament{}, Access{}, nf
	}
	return t, acc, nil
}

// readable loads a tournament p may read.
func (a *App) readable(ctx context.Context, p Principal, tid string) (domain.Tournament, error) {
	t, _, err := a.TournamentAccess(ctx, p, tid)
	return t, err
}

// managed loads a tournament p manages; why names the action for the
// refusal ("enters entrants").
func (a *App) managed(ctx context.Context, p Principal, tid, why string) (domain.Tournament, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return t, err
	}
	if !acc.Manage() {
		return t, forbidden("api.manage_only", action(why))
	}
	return t, nil
}

// refereed loads a tournament where p acts as a referee.
func (a *App) refereed(ctx context.Context, p Principal, tid, why string) (domain.Tournament, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return t, err
	}
	if !acc.Judge(t) {
		return t, forbidden(refereeOnly(t), action(why))
	}
	return t, nil
}

// ValidID accepts the ids this service and organisers choose: short,
// printable, no slash. Anything else cannot exist and is not looked up.
func ValidID(id string) bool {
	if id == "" || len(id) > MaxIDLength {
		return false
	}
	for _, r := range id {
		if r < 0x20 || r == 0x7f || r == '/' {
			return false
		}
	}
	return true
}

// TokenScope is which tokens p may list and revoke: every token (admin,
// club ""), its own club's tokens (a club token), or none (ErrForbidden).
func TokenScope(p Principal) (club string, err error) {
	switch {
	case p.Role == domain.RoleAdmin:
		return "", nil
	case p.Role == domain.RoleClub && p.ClubID != "":
		return p.ClubID, nil
	}
	return "", forbidden("api.role_tokens", p.Role)
}
