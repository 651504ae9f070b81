package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"segnapunti/domain"
)

// Principal is who a token speaks for (API §4).
type Principal struct {
	TokenID string
	// PersonID is the signed-in person of a web session; empty for tokens.
	PersonID string
	Role     domain.Role
	Name     string
	ClubID   string    // the club of a club token; may be set for others
	Entry    EntryLink // a table's entry code (API §4.2): that table's hands only; Role is empty
}

// TableEntry reports whether p is a table's entry code.
func (p Principal) TableEntry() bool { return p.Entry.ID != "" }

// CreateClub stores a club. An empty ID is generated ("c_" + random); an
// ID already taken is ErrConflict.
func (db *DB) CreateClub(ctx context.Context, c domain.Club) (domain.Club, error) {
	if c.ID == "" {
		c.ID = newID("c_")
	}
	row := clubToRow(c, instant(db.stamp()))
	if err := db.gorm.WithContext(ctx).Create(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return domain.Club{}, errorf(domain.ErrConflict, "club %q already exists", c.ID)
		}
		return domain.Club{}, translate(err, "create club")
	}
	return row.toDomain(), nil
}

// ListClubs returns every club by name.
func (db *DB) ListClubs(ctx context.Context) ([]domain.Club, error) {
	var rows []clubRow
	if err := db.gorm.WithContext(ctx).Order("name, id").Find(&rows).Error; err != nil {
		return nil, translate(err, "list clubs")
	}
	out := make([]domain.Club, len(rows))
	for i, r := range rows {
		out[i] = r.toDomain()
	}
	return out, nil
}

// GetClub returns one club; unknown is ErrNotFound.
func (db *DB) GetClub(ctx context.Context, id string) (domain.Club, error) {
	var row clubRow
	err := db.gorm.WithContext(ctx).Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return domain.Club{}, errorf(domain.ErrNotFound, "club %q", id)
	}
	if err != nil {
		return domain.Club{}, translate(err, "get club")
	}
	return row.toDomain(), nil
}

// tokenHash is what is stored of a token: its SHA-256, hex. A random
// 256-bit token needs no salt or slow hash.
func tokenHash(plaintext string) string {
	sum := sha256.Sum256([]byte(plaintext))
	return hex.EncodeToString(sum[:])
}

// CreateToken makes a token for role, stores only its hash and returns the
// plaintext, which cannot be recovered later. A club token needs clubID; a
// clubID that names no club is ErrInvalid.
func (db *DB) CreateToken(ctx context.Context, role domain.Role, name, clubID string) (string, Principal, error) {
	plaintext := newTokenPlaintext()
	row := tokenRow{ID: newID("k_"), Hash: tokenHash(plaintext), Role: string(role), Name: name, ClubID: nullString(clubID), Created: instant(db.stamp())}
	if err := db.gorm.WithContext(ctx).Create(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrForeignKeyViolated) {
			return "", Principal{}, errorf(domain.ErrInvalid, "club %q does not exist", clubID)
		}
		return "", Principal{}, translate(err, "create token")
	}
	p, err := row.toDomain()
	if err != nil {
		return "", Principal{}, err
	}
	return plaintext, p, nil
}

// Authenticate returns the principal of a token; an unknown token is
// ErrNotFound.
func (db *DB) Authenticate(ctx context.Context, plaintext string) (Principal, error) {
	var row tokenRow
	err := db.gorm.WithContext(ctx).Where("hash = ?", tokenHash(plaintext)).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Principal{}, errorf(domain.ErrNotFound, "unknown token") // never echo the token
	}
	if err != nil {
		return Principal{}, translate(err, "authenticate")
	}
	// GET /v1/tokens shows when a token was last used; the API's cache of
	// principals makes this one write per token per cache period.
	if err := db.touchToken(ctx, row.ID); err != nil {
		return Principal{}, err
	}
	return row.toDomain()
}

// AssignReferee makes refereeName a referee of the tournament; assigning
// twice is no error. An unknown tournament is ErrNotFound.
func (db *DB) AssignReferee(ctx context.Context, tournamentID, refereeName string) error {
	row := refereeRow{TournamentID: tournamentID, RefereeName: refereeName, Created: instant(db.stamp())}
	err := db.gorm.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error
	if errors.Is(err, gorm.ErrForeignKeyViolated) {
		return errorf(domain.ErrNotFound, "tournament %q", tournamentID)
	}
	return translate(err, fmt.Sprintf("assign referee to tournament %s", tournamentID))
}

// IsReferee reports whether refereeName is assigned to the tournament.
func (db *DB) IsReferee(ctx context.Context, tournamentID, refereeName string) (bool, error) {
	var n int64
	err := db.gorm.WithContext(ctx).Model(&refereeRow{}).
		Where("tournament_id = ? AND referee_name = ?", tournamentID, refereeName).Count(&n).Error
	if err != nil {
		return false, translate(err, "check referee")
	}
	return n > 0, nil
}
