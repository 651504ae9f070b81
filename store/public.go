package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/gorm"

	"segnapunti/domain"
)

// SetTournamentPublic makes a tournament public or private (UI.md §7). It
// bumps the tournament's version, so the public pages' ETags change. An
// unknown tournament is ErrNotFound.
func (db *DB) SetTournamentPublic(ctx context.Context, tournamentID string, public bool) error {
	return db.SetTournamentSettings(ctx, tournamentID, &public, nil)
}

// SetTournamentTimeZone sets a tournament's time zone (an IANA name the
// caller has checked; migration 00021). Any time, like the public switch:
// it changes how times are shown, not what was recorded.
func (db *DB) SetTournamentTimeZone(ctx context.Context, tournamentID, zone string) error {
	return db.SetTournamentSettings(ctx, tournamentID, nil, &zone)
}

// SetTournamentSettings writes, in one transaction, the settings of a
// tournament that change no result — whether it is public, its time zone
// (nil: unchanged) — and bumps its version (the public pages' caches).
func (db *DB) SetTournamentSettings(ctx context.Context, tournamentID string, public *bool, zone *string) error {
	values := map[string]any{}
	if public != nil {
		values["public"] = *public
	}
	if zone != nil {
		values["time_zone"] = *zone
	}
	if len(values) == 0 {
		return nil
	}
	err := db.gorm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&tournamentRow{}).Where("id = ?", tournamentID).Updates(values)
		if res.Error != nil {
			return translate(res.Error, "set tournament settings")
		}
		if res.RowsAffected == 0 {
			return errorf(domain.ErrNotFound, "tournament %q", tournamentID)
		}
		return db.touchTournament(tx, tournamentID)
	})
	db.facts.drop(tournamentID)
	return err
}

// ErrNoListen: the database is not PostgreSQL, so there is no LISTEN; the
// caller keeps its events in the process.
var ErrNoListen = errors.New("store: LISTEN/NOTIFY needs PostgreSQL")

// Notify sends payloads on a PostgreSQL channel (pg_notify), all in ONE
// statement: one round trip and one commit, so PostgreSQL takes its
// global NOTIFY lock once for them. It is sent on its own, after the
// writes it announces have committed: a listener that then reads sees
// them. On SQLite it is ErrNoListen.
func (db *DB) Notify(ctx context.Context, channel string, payloads ...string) error {
	if db.dialect != DialectPostgres {
		return ErrNoListen
	}
	switch len(payloads) {
	case 0:
		return nil
	case 1:
		return translate(db.gorm.WithContext(ctx).Exec("SELECT pg_notify(?, ?)", channel, payloads[0]).Error, "notify")
	}
	list, err := json.Marshal(payloads)
	if err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	return translate(db.gorm.WithContext(ctx).Exec("SELECT pg_notify(?, p) FROM json_array_elements_text(?::json) AS p", channel, string(list)).Error, "notify")
}

// Listen holds one connection of the pool for LISTEN channel and calls
// deliver with every notification's payload until ctx ends or the
// connection fails (the error; the caller listens again). ready is called
// once the LISTEN is in place. On SQLite it is ErrNoListen at once.
func (db *DB) Listen(ctx context.Context, channel string, ready func(), deliver func(payload string)) error {
	if db.dialect != DialectPostgres {
		return ErrNoListen
	}
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return translate(err, "listen")
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		sc, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("listen: driver connection is %T, not pgx", driverConn)
		}
		pc := sc.Conn()
		// The channel is an identifier: quoted by pgx.
		if _, err := pc.Exec(ctx, "LISTEN "+quoteIdent(channel)); err != nil {
			return translate(err, "listen")
		}
		// The connection goes back to the pool afterwards: stop listening
		// whatever happens (a broken connection is dropped by the pool).
		defer pc.Exec(context.WithoutCancel(ctx), "UNLISTEN *") //nolint:errcheck
		if ready != nil {
			ready()
		}
		for {
			n, err := pc.WaitForNotification(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return translate(err, "wait for notification")
			}
			deliver(n.Payload)
		}
	})
}

func quoteIdent(s string) string {
	out := []byte{'"'}
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			out = append(out, '"')
		}
		out = append(out, s[i])
	}
	return string(append(out, '"'))
}

// TournamentIsPublic reads a tournament's public flag from the database
// itself, past every cache: an open event stream asks it to learn that
// the tournament was made private (on this replica or another).
func (db *DB) TournamentIsPublic(ctx context.Context, id string) (bool, error) {
	var public []bool
	err := db.readDB(ctx).Raw(`SELECT public FROM tournaments WHERE id = ?`, id).Scan(&public).Error
	if err != nil {
		return false, translate(Unavailable(err), "read the public flag")
	}
	if len(public) == 0 {
		return false, errorf(domain.ErrNotFound, "tournament %q", id)
	}
	return public[0], nil
}
