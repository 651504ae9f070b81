package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"segnapunti/domain"
)

// Person is someone who signs in to the web pages (UI.md §2). Name is the
// name the API uses for them: a referee person named anna.rossi is the
// referee that PUT …/referees/anna.rossi assigns.
type Person struct {
	ID       string
	Name     string
	Role     domain.Role
	ClubID   string // the club of a club person
	Disabled bool
	Created  time.Time
}

// Principal is what the person acts as: what an API token of the same role
// and name produces, and the person's id (an admin may not disable
// themselves).
func (p Person) Principal() Principal {
	return Principal{PersonID: p.ID, Role: p.Role, Name: p.Name, ClubID: p.ClubID}
}

// PasswordCost is bcrypt's work factor for stored passwords: about 50-80 ms
// per check on the machines we run on, which makes guessing slow.
const PasswordCost = bcrypt.DefaultCost

// MinPasswordLength is the shortest password accepted; bcrypt reads at
// most 72 bytes, so longer ones are refused rather than silently cut.
const (
	MinPasswordLength = 8
	MaxPasswordLength = 72
)

// dummyHash is compared against when a name is unknown, so that an unknown
// name costs as much time as a wrong password (no name probing by timing).
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("segnapunti-no-such-person"), PasswordCost)

type personRow struct {
	ID           string  `gorm:"column:id;primaryKey"`
	Name         string  `gorm:"column:name"`
	Role         string  `gorm:"column:role"`
	ClubID       *string `gorm:"column:club_id"`
	PasswordHash string  `gorm:"column:password_hash"`
	Disabled     bool    `gorm:"column:disabled"`
	Created      instant `gorm:"column:created_at"`
}

func (personRow) TableName() string { return "people" }

func (r personRow) toDomain() (Person, error) {
	role, err := domain.ParseRole(r.Role)
	if err != nil {
		return Person{}, errorf(domain.ErrInvalid, "stored person %s: %v", r.ID, err)
	}
	return Person{ID: r.ID, Name: r.Name, Role: role, ClubID: deref(r.ClubID), Disabled: r.Disabled, Created: r.Created.time()}, nil
}

type setupCodeRow struct {
	Hash    string  `gorm:"column:hash;primaryKey"`
	Created instant `gorm:"column:created_at"`
}

func (setupCodeRow) TableName() string { return "setup_codes" }

// checkPassword refuses passwords bcrypt cannot take whole.
func checkPassword(password string) error {
	switch {
	case len(password) < MinPasswordLength:
		return errorf(domain.ErrInvalid, "password: at least %d characters", MinPasswordLength)
	case len(password) > MaxPasswordLength:
		return errorf(domain.ErrInvalid, "password: at most %d bytes", MaxPasswordLength)
	}
	return nil
}

// checkPersonFields validates a new person's name, role and club.
func checkPersonFields(name string, role domain.Role, clubID string) error {
	if strings.TrimSpace(name) == "" || name != strings.TrimSpace(name) {
		return errorf(domain.ErrInvalid, "name: required, without leading or trailing spaces")
	}
	if _, err := domain.ParseRole(string(role)); err != nil {
		return errorf(domain.ErrInvalid, "role: %v", err)
	}
	if role == domain.RoleClub && clubID == "" {
		return errorf(domain.ErrInvalid, "club: a club person needs a club")
	}
	return nil
}

// GeneratePassword returns a random password of 16 URL-safe characters
// (96 bits), for `segnapunti user create` and password resets.
func GeneratePassword() string {
	b := make([]byte, 12)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// CreatePerson stores a person with a bcrypt hash of password. A name
// already taken is ErrConflict; a club that does not exist, a club person
// without a club, a bad role or a too short password is ErrInvalid.
func (db *DB) CreatePerson(ctx context.Context, name string, role domain.Role, clubID, password string) (Person, error) {
	if err := checkPersonFields(name, role, clubID); err != nil {
		return Person{}, err
	}
	if err := checkPassword(password); err != nil {
		return Person{}, err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), PasswordCost)
	if err != nil {
		return Person{}, err
	}
	row := personRow{ID: newID("u_"), Name: name, Role: string(role), ClubID: nullString(clubID), PasswordHash: string(hash), Created: instant(db.stamp())}
	return db.insertPerson(db.gorm.WithContext(ctx), row)
}

func (db *DB) insertPerson(tx *gorm.DB, row personRow) (Person, error) {
	if err := tx.Create(&row).Error; err != nil {
		switch {
		case errors.Is(err, gorm.ErrDuplicatedKey):
			return Person{}, errorf(domain.ErrConflict, "name: %q is already taken", row.Name)
		case errors.Is(err, gorm.ErrForeignKeyViolated):
			return Person{}, errorf(domain.ErrInvalid, "club: %q does not exist", deref(row.ClubID))
		}
		return Person{}, translate(err, "create person")
	}
	return row.toDomain()
}

// CountPeople is how many people exist (first run: none).
func (db *DB) CountPeople(ctx context.Context) (int64, error) {
	var n int64
	if err := db.gorm.WithContext(ctx).Model(&personRow{}).Count(&n).Error; err != nil {
		return 0, translate(err, "count people")
	}
	return n, nil
}

// ListPeople returns everybody by name; role "" means every role.
func (db *DB) ListPeople(ctx context.Context, role domain.Role) ([]Person, error) {
	var rows []personRow
	q := db.gorm.WithContext(ctx).Order("name")
	if role != "" {
		q = q.Where("role = ?", string(role))
	}
	if err := q.Find(&rows).Error; err != nil {
		return nil, translate(err, "list people")
	}
	out := make([]Person, 0, len(rows))
	for _, r := range rows {
		p, err := r.toDomain()
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// GetPerson returns one person by id; unknown is ErrNotFound.
func (db *DB) GetPerson(ctx context.Context, id string) (Person, error) {
	var row personRow
	err := db.gorm.WithContext(ctx).Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Person{}, errorf(domain.ErrNotFound, "person %q", id)
	}
	if err != nil {
		return Person{}, translate(err, "get person")
	}
	return row.toDomain()
}

// ErrBadCredentials is what CheckPassword returns for an unknown name, a
// wrong password and a disabled person alike: the caller cannot tell
// which, and neither can the person trying.
var ErrBadCredentials = errorf(domain.ErrNotFound, "wrong name or password")

// CheckPassword returns the person whose name and password these are. An
// unknown name costs the same time as a wrong password.
func (db *DB) CheckPassword(ctx context.Context, name, password string) (Person, error) {
	var row personRow
	err := db.gorm.WithContext(ctx).Where("name = ?", name).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		bcrypt.CompareHashAndPassword(dummyHash, []byte(password))
		return Person{}, ErrBadCredentials
	}
	if err != nil {
		return Person{}, translate(err, "check password")
	}
	if bcrypt.CompareHashAndPassword([]byte(row.PasswordHash), []byte(password)) != nil || row.Disabled {
		return Person{}, ErrBadCredentials
	}
	return row.toDomain()
}

// SetPassword replaces a person's password and ends all their sessions.
func (db *DB) SetPassword(ctx context.Context, personID, password string) error {
	if err := checkPassword(password); err != nil {
		return err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), PasswordCost)
	if err != nil {
		return err
	}
	return db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&personRow{}).Where("id = ?", personID).Update("password_hash", string(hash))
		if res.Error != nil {
			return translate(res.Error, "set password")
		}
		if res.RowsAffected == 0 {
			return errorf(domain.ErrNotFound, "person %q", personID)
		}
		return translate(tx.Where("person_id = ?", personID).Delete(&sessionRow{}).Error, "end sessions")
	})
}

// SetDisabled disables (or enables again) a person; disabling ends all
// their sessions at once.
func (db *DB) SetDisabled(ctx context.Context, personID string, disabled bool) error {
	return db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&personRow{}).Where("id = ?", personID).Update("disabled", disabled)
		if res.Error != nil {
			return translate(res.Error, "disable person")
		}
		if res.RowsAffected == 0 {
			return errorf(domain.ErrNotFound, "person %q", personID)
		}
		if !disabled {
			return nil
		}
		return translate(tx.Where("person_id = ?", personID).Delete(&sessionRow{}).Error, "end sessions")
	})
}

// NewSetupCode makes the one-time first-run code (UI.md §2) while nobody
// exists yet and returns it; an earlier code stops working. With people in
// the database it is ErrConflict.
func (db *DB) NewSetupCode(ctx context.Context) (string, error) {
	code := strings.TrimPrefix(newTokenPlaintext(), "sp_")
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&personRow{}).Count(&n).Error; err != nil {
			return translate(err, "count people")
		}
		if n > 0 {
			return errorf(domain.ErrConflict, "setup is done: people exist")
		}
		if err := tx.Where("1 = 1").Delete(&setupCodeRow{}).Error; err != nil {
			return translate(err, "clear setup codes")
		}
		return translate(tx.Create(&setupCodeRow{Hash: tokenHash(code), Created: instant(db.stamp())}).Error, "store setup code")
	})
	if err != nil {
		return "", err
	}
	return code, nil
}

// SetupOpen reports whether code is the current first-run code.
func (db *DB) SetupOpen(ctx context.Context, code string) (bool, error) {
	if code == "" {
		return false, nil
	}
	var n int64
	err := db.gorm.WithContext(ctx).Model(&setupCodeRow{}).Where("hash = ?", tokenHash(code)).Count(&n).Error
	return n > 0, translate(err, "check setup code")
}

// CreateFirstAdmin uses the first-run code once: it creates an admin and
// deletes the code. A wrong or used code is ErrNotFound; two concurrent
// calls create one admin.
func (db *DB) CreateFirstAdmin(ctx context.Context, code, name, password string) (Person, error) {
	if err := checkPersonFields(name, domain.RoleAdmin, ""); err != nil {
		return Person{}, err
	}
	if err := checkPassword(password); err != nil {
		return Person{}, err
	}
	if code == "" {
		return Person{}, errorf(domain.ErrNotFound, "setup code")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), PasswordCost)
	if err != nil {
		return Person{}, err
	}
	var p Person
	err = db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Where("hash = ?", tokenHash(code)).Delete(&setupCodeRow{})
		if res.Error != nil {
			return translate(res.Error, "use setup code")
		}
		if res.RowsAffected == 0 {
			return errorf(domain.ErrNotFound, "setup code")
		}
		row := personRow{ID: newID("u_"), Name: name, Role: string(domain.RoleAdmin), PasswordHash: string(hash), Created: instant(db.stamp())}
		var err error
		p, err = db.insertPerson(tx, row)
		return err
	})
	return p, err
}
