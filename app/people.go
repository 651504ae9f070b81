package app

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"segnapunti/domain"
)

// People, clubs, tokens, sessions and the first run (API §4, UI.md §2):
// the admin's business, and signing in. Each operation checks its caller's
// role itself, so that both doors refuse alike.

// CreateClub stores a club (an admin's). An empty id is generated; an id
// taken is a conflict.
func (a *App) CreateClub(ctx context.Context, p Principal, club domain.Club) (domain.Club, error) {
	if err := RequireRole(p, domain.RoleAdmin); err != nil {
		return domain.Club{}, err
	}
	var errs []FieldError
	if club.ID != "" {
		errs = appendErr(errs, checkIDSyntax("/id", club.ID))
	}
	errs = appendErr(errs, checkText("/name", club.Name, MaxNameLength, true))
	if len(errs) > 0 {
		return domain.Club{}, invalid(errs)
	}
	club.Name = strings.TrimSpace(club.Name)
	created, err := a.db.CreateClub(ctx, club)
	if errors.Is(err, domain.ErrConflict) {
		return domain.Club{}, conflict("api.club_exists", club.ID)
	}
	return created, err
}

// Clubs lists the clubs: the admin's, and the federation's, which reads
// everything.
func (a *App) Clubs(ctx context.Context, p Principal) ([]domain.Club, error) {
	if err := RequireRole(p, domain.RoleAdmin, domain.RoleFederation); err != nil {
		return nil, err
	}
	return a.db.ListClubs(ctx)
}

// Club returns one club: to an admin and the federation any club, to a
// club its own; another club's is not found, as an unknown id.
func (a *App) Club(ctx context.Context, p Principal, id string) (domain.Club, error) {
	nf := notFound("api.no_club", id)
	switch p.Role {
	case domain.RoleAdmin, domain.RoleFederation:
	case domain.RoleClub:
		if p.ClubID != id {
			return domain.Club{}, nf
		}
	default:
		return domain.Club{}, RequireRole(p, domain.RoleAdmin, domain.RoleFederation, domain.RoleClub)
	}
	if !ValidID(id) {
		return domain.Club{}, nf
	}
	club, err := a.db.GetClub(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Club{}, nf
	}
	return club, err
}

// NewToken is what an admin asks of a new API token.
type NewToken struct {
	Role string
	Name string
	// Club is the club of a club token; nil or empty for other roles.
	Club *string
}

// CreateToken makes an API token (an admin's) and returns its secret,
// shown once, and what it acts as. A club token needs an existing club
// (API §4); a referee's token name is the referee's name, the one that
// PUT .../referees/{name} assigns.
func (a *App) CreateToken(ctx context.Context, p Principal, req NewToken) (string, Principal, error) {
	if err := RequireRole(p, domain.RoleAdmin); err != nil {
		return "", Principal{}, err
	}
	var errs []FieldError
	role, err := domain.ParseRole(req.Role)
	if err != nil {
		errs = append(errs, domainError("/role", err))
	}
	errs = appendErr(errs, checkText("/name", req.Name, MaxNameLength, true))
	clubID := ""
	switch {
	case role == domain.RoleClub && (req.Club == nil || *req.Club == ""):
		errs = append(errs, field("/club", "field.club_token"))
	case role == domain.RoleClub:
		clubID = *req.Club
	case req.Club != nil && role != "":
		errs = append(errs, field("/club", "field.club_only", role))
	}
	if len(errs) > 0 {
		return "", Principal{}, invalid(errs)
	}
	if clubID != "" {
		if err := a.clubExists(ctx, "/club", clubID, "; create it first with POST /v1/clubs"); err != nil {
			return "", Principal{}, err
		}
	}
	return a.db.CreateToken(ctx, role, strings.TrimSpace(req.Name), clubID)
}

// clubExists refuses, as a field error at ptr, a club id nobody created.
func (a *App) clubExists(ctx context.Context, ptr, id, hint string) error {
	if !ValidID(id) {
		return invalid([]FieldError{field(ptr, "field.no_club", id)})
	}
	_, err := a.db.GetClub(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return invalid([]FieldError{field(ptr, "field.no_club_hint", id, hint)})
	}
	return err
}

// People lists everyone who signs in (an admin's).
func (a *App) People(ctx context.Context, p Principal) ([]Person, error) {
	if err := RequireRole(p, domain.RoleAdmin); err != nil {
		return nil, err
	}
	return a.db.ListPeople(ctx, "")
}

// Person returns one person and their open sessions (an admin's).
func (a *App) Person(ctx context.Context, p Principal, id string) (Person, []Session, error) {
	if err := RequireRole(p, domain.RoleAdmin); err != nil {
		return Person{}, nil, err
	}
	person, err := a.db.GetPerson(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return Person{}, nil, notFound("api.no_person", id)
	}
	if err != nil {
		return Person{}, nil, err
	}
	sessions, err := a.db.ListSessions(ctx, person.ID)
	return person, sessions, err
}

// NewPerson is what an admin asks of a new person.
type NewPerson struct {
	Name     string
	Role     domain.Role
	ClubID   string
	Password string
}

// CreatePerson stores a person (an admin's). A club person needs a club
// that exists (they act for it, API §4 roles); a name taken is a conflict.
func (a *App) CreatePerson(ctx context.Context, p Principal, np NewPerson) (Person, error) {
	if err := RequireRole(p, domain.RoleAdmin); err != nil {
		return Person{}, err
	}
	var errs []FieldError
	errs = appendErr(errs, checkText("/name", np.Name, MaxNameLength, true))
	if _, err := domain.ParseRole(string(np.Role)); err != nil {
		errs = append(errs, domainError("/role", err))
	}
	if np.Role == domain.RoleClub && np.ClubID == "" {
		errs = append(errs, field("/club", "field.club_person"))
	}
	if len(errs) > 0 {
		return Person{}, invalid(errs)
	}
	if np.Role != domain.RoleClub {
		np.ClubID = ""
	}
	if np.ClubID != "" {
		if err := a.clubExists(ctx, "/club", np.ClubID, ""); err != nil {
			return Person{}, err
		}
	}
	person, err := a.db.CreatePerson(ctx, strings.TrimSpace(np.Name), np.Role, np.ClubID, np.Password)
	if errors.Is(err, domain.ErrConflict) {
		return Person{}, conflict("api.name_taken", np.Name)
	}
	return person, err
}

// SetPassword gives a person a new password (an admin's); their sessions
// end.
func (a *App) SetPassword(ctx context.Context, p Principal, id, password string) error {
	if err := RequireRole(p, domain.RoleAdmin); err != nil {
		return err
	}
	return a.db.SetPassword(ctx, id, password)
}

// ErrDisableSelf: an admin may not disable the person they are signed in
// as, which would lock the last admin out with nobody to let them back.
var ErrDisableSelf = func() *Error {
	e := refusal(domain.ErrInvalid, "field.disable_self")
	e.Code, e.Fields = "DISABLE_SELF", []FieldError{field("/disabled", "field.disable_self")}
	return e
}()

// SetDisabled disables (or enables again) a person (an admin's); their
// sessions end at once. The caller may not disable themselves.
func (a *App) SetDisabled(ctx context.Context, p Principal, id string, disabled bool) error {
	if err := RequireRole(p, domain.RoleAdmin); err != nil {
		return err
	}
	if disabled && p.PersonID != "" && p.PersonID == id {
		return ErrDisableSelf
	}
	return a.db.SetDisabled(ctx, id, disabled)
}

// RevokeSession ends one session of a person at once (an admin's).
func (a *App) RevokeSession(ctx context.Context, p Principal, personID, sessionID string) error {
	if err := RequireRole(p, domain.RoleAdmin); err != nil {
		return err
	}
	return a.db.RevokeSession(ctx, personID, sessionID)
}

// CheckPassword returns the person whose name and password these are;
// anything else is ErrBadCredentials (a name that is not text is nobody's,
// and PostgreSQL refuses to compare it). The sign-in limits are
// SignInWait, SignInFailed and SignInSucceeded.
func (a *App) CheckPassword(ctx context.Context, name, password string) (Person, error) {
	if !utf8.ValidString(name) {
		return Person{}, ErrBadCredentials
	}
	return a.db.CheckPassword(ctx, name, password)
}

// StartSession signs person in for ttl and returns the session's token,
// whose hash alone is stored.
func (a *App) StartSession(ctx context.Context, person Person, ttl time.Duration, userAgent, address string) (string, error) {
	token, _, err := a.db.CreateSession(ctx, person.ID, ttl, userAgent, address)
	return token, err
}

// SessionPerson returns the session of a token and its person
// (domain.ErrNotFound when revoked, expired or unknown).
func (a *App) SessionPerson(ctx context.Context, token string) (Session, Person, error) {
	return a.db.SessionPerson(ctx, token)
}

// EndSession signs a session out, at once for every replica.
func (a *App) EndSession(ctx context.Context, token string) error {
	return a.db.EndSession(ctx, token)
}

// FirstRunLink returns the one-time /setup?code=… path when nobody exists
// yet (UI.md §2), and false once people exist.
func (a *App) FirstRunLink(ctx context.Context) (string, bool, error) {
	return FirstRunLink(ctx, a.db)
}

// FirstRunLink is App.FirstRunLink over db, for serve before the
// operations start.
func FirstRunLink(ctx context.Context, db *DB) (string, bool, error) {
	n, err := db.CountPeople(ctx)
	if err != nil || n > 0 {
		return "", false, err
	}
	code, err := db.NewSetupCode(ctx)
	if err != nil {
		return "", false, err
	}
	return "/setup?code=" + code, true, nil
}

// SetupOpen reports whether code is the current first-run code.
func (a *App) SetupOpen(ctx context.Context, code string) (bool, error) {
	return a.db.SetupOpen(ctx, code)
}

// CreateFirstAdmin uses the first-run code once: it creates an admin and
// spends the code. A wrong or used code is not found.
func (a *App) CreateFirstAdmin(ctx context.Context, code, name, password string) (Person, error) {
	return a.db.CreateFirstAdmin(ctx, code, name, password)
}
