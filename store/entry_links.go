package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// Entry links of the tables of a round (UI.md §6, API §4.2): a long code
// (256 random bits, base64url) for the link and the QR code, and a short
// typed code of 8 characters without look-alikes. They are looked up by
// their SHA-256 hashes; a live link's codes are also kept, so
// that every opening of the print page prints the same ones.

// ShortCodeAlphabet has no 0/O, 1/I/L: what is read off paper is typed
// back right.
const ShortCodeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// ShortCodeLength is the length of the typed code.
const ShortCodeLength = 8

// EntryLink is a live link's target: one table of one round.
type EntryLink struct {
	ID           string
	TournamentID string
	Round        int
	Table        int
	RoundState   domain.RoundState
	Revoked      bool
}

// IssuedLink is a freshly issued link with its codes, shown once.
type IssuedLink struct {
	Code  string
	Short string
}

type entryLinkRow struct {
	ID           string   `gorm:"column:id;primaryKey"`
	TournamentID string   `gorm:"column:tournament_id"`
	RoundNo      int      `gorm:"column:round_no"`
	TableNo      int      `gorm:"column:table_no"`
	CodeHash     string   `gorm:"column:code_hash"`
	ShortHash    string   `gorm:"column:short_hash"`
	IssuedBy     string   `gorm:"column:issued_by"`
	Created      instant  `gorm:"column:created_at"`
	Revoked      *instant `gorm:"column:revoked_at"`
	Code         *string  `gorm:"column:code"`
	Short        *string  `gorm:"column:short"`
}

func (entryLinkRow) TableName() string { return "entry_links" }

// newEntryCode is 32 random bytes in unpadded base64url (43 characters).
func newEntryCode() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// newShortCode draws ShortCodeLength characters uniformly from the
// alphabet (rejection sampling, no modulo bias).
func newShortCode() string {
	out := make([]byte, 0, ShortCodeLength)
	var b [16]byte
	for len(out) < ShortCodeLength {
		rand.Read(b[:])
		for _, c := range b {
			if int(c) < 256-256%len(ShortCodeAlphabet) && len(out) < ShortCodeLength {
				out = append(out, ShortCodeAlphabet[int(c)%len(ShortCodeAlphabet)])
			}
		}
	}
	return string(out)
}

// issueAttempts bounds the retries when a new short code collides with a
// live one (31^8 codes: a collision is rare).
const issueAttempts = 5

// IssueEntryLinks issues a new link for each listed table of a round,
// revoking each table's previous link, in one transaction. Unknown tables
// are ErrNotFound and nothing is written.
func (db *DB) IssueEntryLinks(ctx context.Context, tournamentID string, round int, tables []int, issuedBy string) (map[int]IssuedLink, error) {
	for attempt := 1; ; attempt++ {
		out := make(map[int]IssuedLink, len(tables))
		err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			now := instant(db.stamp())
			for _, t := range tables {
				var n int64
				if err := tx.Model(&roundTableRow{}).Where("tournament_id = ? AND round_no = ? AND table_no = ?", tournamentID, round, t).Count(&n).Error; err != nil {
					return translate(err, "find table")
				}
				if n == 0 {
					return errorf(domain.ErrNotFound, "round %d of tournament %s has no table %d", round, tournamentID, t)
				}
				if err := tx.Model(&entryLinkRow{}).Where("tournament_id = ? AND round_no = ? AND table_no = ? AND revoked_at IS NULL", tournamentID, round, t).
					Update("revoked_at", now).Error; err != nil {
					return translate(err, "revoke entry link")
				}
				l := IssuedLink{Code: newEntryCode(), Short: newShortCode()}
				row := entryLinkRow{ID: newID("l_"), TournamentID: tournamentID, RoundNo: round, TableNo: t,
					CodeHash: tokenHash(l.Code), ShortHash: tokenHash(l.Short), IssuedBy: issuedBy, Created: now, Code: &l.Code, Short: &l.Short}
				if err := tx.Create(&row).Error; err != nil {
					return translate(err, "issue entry link")
				}
				out[t] = l
			}
			return nil
		})
		if errors.Is(err, domain.ErrConflict) && attempt < issueAttempts {
			continue // a short code taken by a live link: draw again
		}
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

// LiveEntryLinkTables lists the tables of a round that have a live (not
// revoked) entry link, in table order.
func (db *DB) LiveEntryLinkTables(ctx context.Context, tournamentID string, round int) ([]int, error) {
	var tables []int
	err := db.gorm.WithContext(ctx).Model(&entryLinkRow{}).
		Where("tournament_id = ? AND round_no = ? AND revoked_at IS NULL", tournamentID, round).
		Distinct("table_no").Order("table_no").Pluck("table_no", &tables).Error
	return tables, translate(err, "list live entry links")
}

// LiveEntryLinks returns the live links of a round by table: their codes,
// or a zero IssuedLink for a link issued before codes were kept (it
// cannot be printed again).
func (db *DB) LiveEntryLinks(ctx context.Context, tournamentID string, round int) (map[int]IssuedLink, error) {
	// Three columns scanned by hand: every view of the round's print page
	// reads one row per table (gorm's scanning of the whole row was most
	// of it).
	rows, err := db.readDB(ctx).Raw(`SELECT table_no, code, short FROM entry_links
		WHERE tournament_id = ? AND round_no = ? AND revoked_at IS NULL`, tournamentID, round).Rows()
	if err != nil {
		return nil, translate(err, "list live entry links")
	}
	defer rows.Close()
	out := map[int]IssuedLink{}
	for rows.Next() {
		var table int
		var code, short sql.NullString
		if err := rows.Scan(&table, &code, &short); err != nil {
			return nil, translate(err, "list live entry links")
		}
		var l IssuedLink
		if code.Valid && short.Valid {
			l = IssuedLink{Code: code.String, Short: short.String}
		}
		out[table] = l
	}
	return out, translate(rows.Err(), "list live entry links")
}

// EntryLinkByCode finds the link of a long code, or of a short typed code
// (short = true). Unknown codes are ErrNotFound; a revoked link comes
// back with Revoked set (the page says why it no longer works).
func (db *DB) EntryLinkByCode(ctx context.Context, code string, short bool) (EntryLink, error) {
	col := "code_hash"
	if short {
		col = "short_hash"
	}
	var rows []struct {
		ID           string   `gorm:"column:id"`
		TournamentID string   `gorm:"column:tournament_id"`
		RoundNo      int      `gorm:"column:round_no"`
		TableNo      int      `gorm:"column:table_no"`
		Revoked      *instant `gorm:"column:revoked_at"`
		State        string   `gorm:"column:state"`
	}
	err := db.readDB(ctx).Table("entry_links AS l").
		Select("l.id, l.tournament_id, l.round_no, l.table_no, l.revoked_at, r.state").
		Joins("JOIN rounds r ON r.tournament_id = l.tournament_id AND r.number = l.round_no").
		Where("l."+col+" = ?", tokenHash(code)).
		Order("l.created_at DESC").Limit(1).Scan(&rows).Error
	if err != nil {
		return EntryLink{}, translate(err, "find entry link")
	}
	if len(rows) == 0 {
		return EntryLink{}, errorf(domain.ErrNotFound, "no such table code") // never echo the code
	}
	r := rows[0]
	return EntryLink{ID: r.ID, TournamentID: r.TournamentID, Round: r.RoundNo, Table: r.TableNo,
		RoundState: domain.RoundState(r.State), Revoked: r.Revoked != nil}, nil
}
