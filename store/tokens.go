package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"time"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// TokenInfo is what may be shown of a token (GET /v1/tokens): never its
// secret nor its hash.
type TokenInfo struct {
	ID       string
	Role     domain.Role
	Name     string
	ClubID   string
	Created  time.Time
	LastUsed *time.Time // nil: never used since it was made
}

// tokenListRow reads a token without its hash.
type tokenListRow struct {
	ID       string      `gorm:"column:id"`
	Role     string      `gorm:"column:role"`
	Name     string      `gorm:"column:name"`
	ClubID   *string     `gorm:"column:club_id"`
	Created  instant     `gorm:"column:created_at"`
	LastUsed nullInstant `gorm:"column:last_used_at"`
}

// nullInstant is a nullable timestamp column.
type nullInstant struct {
	t     instant
	valid bool
}

func (n nullInstant) Value() (driver.Value, error) {
	if !n.valid {
		return nil, nil
	}
	return n.t.Value()
}

func (n *nullInstant) Scan(v any) error {
	if v == nil {
		*n = nullInstant{}
		return nil
	}
	n.valid = true
	return n.t.Scan(v)
}

func (r tokenListRow) toInfo() (TokenInfo, error) {
	role, err := domain.ParseRole(r.Role)
	if err != nil {
		return TokenInfo{}, err
	}
	info := TokenInfo{ID: r.ID, Role: role, Name: r.Name, ClubID: deref(r.ClubID), Created: r.Created.time()}
	if r.LastUsed.valid {
		t := r.LastUsed.t.time()
		info.LastUsed = &t
	}
	return info, nil
}

// ListTokens lists the tokens, oldest first; with clubID only that club's
// tokens.
func (db *DB) ListTokens(ctx context.Context, clubID string) ([]TokenInfo, error) {
	q := db.gorm.WithContext(ctx).Table("tokens").Select("id, role, name, club_id, created_at, last_used_at")
	if clubID != "" {
		q = q.Where("club_id = ?", clubID)
	}
	var rows []tokenListRow
	if err := q.Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, translate(err, "list tokens")
	}
	out := make([]TokenInfo, 0, len(rows))
	for _, r := range rows {
		info, err := r.toInfo()
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	return out, nil
}

// GetToken reads one token; an unknown id is ErrNotFound.
func (db *DB) GetToken(ctx context.Context, id string) (TokenInfo, error) {
	var row tokenListRow
	err := db.gorm.WithContext(ctx).Table("tokens").Select("id, role, name, club_id, created_at, last_used_at").
		Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return TokenInfo{}, errorf(domain.ErrNotFound, "token %q", id)
	}
	if err != nil {
		return TokenInfo{}, translate(err, "get token")
	}
	return row.toInfo()
}

// RevokeToken deletes a token: from this moment Authenticate no longer
// finds it. An unknown id is ErrNotFound.
func (db *DB) RevokeToken(ctx context.Context, id string) error {
	res := db.gorm.WithContext(ctx).Where("id = ?", id).Delete(&tokenRow{})
	if res.Error != nil {
		return translate(res.Error, "revoke token")
	}
	if res.RowsAffected == 0 {
		return errorf(domain.ErrNotFound, "token %q", id)
	}
	return nil
}

// lastUsedResolution is how precise TokenInfo.LastUsed is: a token used
// again within it is not written again (no write per request).
const lastUsedResolution = time.Minute

// touchToken records that a token was just used.
func (db *DB) touchToken(ctx context.Context, id string) error {
	now := db.stamp()
	err := db.gorm.WithContext(ctx).Model(&tokenRow{}).
		Where("id = ? AND (last_used_at IS NULL OR last_used_at < ?)", id, instant(now.Add(-lastUsedResolution))).
		Update("last_used_at", instant(now)).Error
	return translate(err, "record token use")
}
