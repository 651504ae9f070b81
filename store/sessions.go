package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// Session is one signed-in browser of a person (UI.md §2). Only the hash of
// its token is stored; the token itself lives in the browser's cookie.
type Session struct {
	ID        string
	PersonID  string
	Created   time.Time
	Expires   time.Time
	UserAgent string
	Address   string
}

type sessionRow struct {
	ID        string  `gorm:"column:id;primaryKey"`
	Hash      string  `gorm:"column:hash"`
	PersonID  string  `gorm:"column:person_id"`
	Created   instant `gorm:"column:created_at"`
	Expires   instant `gorm:"column:expires_at"`
	UserAgent string  `gorm:"column:user_agent"`
	Address   string  `gorm:"column:address"`
}

func (sessionRow) TableName() string { return "sessions" }

func (r sessionRow) toDomain() Session {
	return Session{ID: r.ID, PersonID: r.PersonID, Created: r.Created.time(), Expires: r.Expires.time(), UserAgent: r.UserAgent, Address: r.Address}
}

// maxUserAgent bounds what is kept of a browser's User-Agent.
const maxUserAgent = 200

// CreateSession starts a session for a person lasting ttl and returns its
// token (shown once, for the cookie). An unknown person is ErrNotFound.
func (db *DB) CreateSession(ctx context.Context, personID string, ttl time.Duration, userAgent, address string) (string, Session, error) {
	if len(userAgent) > maxUserAgent {
		userAgent = userAgent[:maxUserAgent]
	}
	token := newTokenPlaintext()
	now := db.stamp()
	row := sessionRow{ID: newID("s_"), Hash: tokenHash(token), PersonID: personID, Created: instant(now), Expires: instant(now.Add(ttl)), UserAgent: userAgent, Address: address}
	if err := db.gorm.WithContext(ctx).Create(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrForeignKeyViolated) {
			return "", Session{}, errorf(domain.ErrNotFound, "person %q", personID)
		}
		return "", Session{}, translate(err, "create session")
	}
	return token, row.toDomain(), nil
}

// SessionPerson returns the session of a token and its person. An unknown,
// revoked or expired token, or a disabled person, is ErrNotFound. It reads
// the database every time: a revocation takes effect at the next request.
func (db *DB) SessionPerson(ctx context.Context, token string) (Session, Person, error) {
	if token == "" {
		return Session{}, Person{}, errorf(domain.ErrNotFound, "no session")
	}
	var row sessionRow
	err := db.gorm.WithContext(ctx).Where("hash = ? AND expires_at > ?", tokenHash(token), instant(db.stamp())).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Session{}, Person{}, errorf(domain.ErrNotFound, "unknown or expired session") // never echo the token
	}
	if err != nil {
		return Session{}, Person{}, translate(err, "get session")
	}
	p, err := db.GetPerson(ctx, row.PersonID)
	if err != nil {
		return Session{}, Person{}, err
	}
	if p.Disabled {
		return Session{}, Person{}, errorf(domain.ErrNotFound, "person disabled")
	}
	return row.toDomain(), p, nil
}

// ListSessions returns a person's sessions that have not expired, newest
// first.
func (db *DB) ListSessions(ctx context.Context, personID string) ([]Session, error) {
	var rows []sessionRow
	err := db.gorm.WithContext(ctx).Where("person_id = ? AND expires_at > ?", personID, instant(db.stamp())).
		Order("created_at DESC, id").Find(&rows).Error
	if err != nil {
		return nil, translate(err, "list sessions")
	}
	out := make([]Session, len(rows))
	for i, r := range rows {
		out[i] = r.toDomain()
	}
	return out, nil
}

// RevokeSession ends one session of a person; an unknown one is
// ErrNotFound.
func (db *DB) RevokeSession(ctx context.Context, personID, sessionID string) error {
	res := db.gorm.WithContext(ctx).Where("id = ? AND person_id = ?", sessionID, personID).Delete(&sessionRow{})
	if res.Error != nil {
		return translate(res.Error, "revoke session")
	}
	if res.RowsAffected == 0 {
		return errorf(domain.ErrNotFound, "session %q", sessionID)
	}
	return nil
}

// EndSession ends the session of a token (sign-out); an unknown token is
// no error.
func (db *DB) EndSession(ctx context.Context, token string) error {
	return translate(db.gorm.WithContext(ctx).Where("hash = ?", tokenHash(token)).Delete(&sessionRow{}).Error, "end session")
}

// DeleteExpiredSessions removes sessions past their end; returns how many.
func (db *DB) DeleteExpiredSessions(ctx context.Context) (int64, error) {
	res := db.gorm.WithContext(ctx).Where("expires_at <= ?", instant(db.stamp())).Delete(&sessionRow{})
	return res.RowsAffected, translate(res.Error, "delete expired sessions")
}
