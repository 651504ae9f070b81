package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"

	"segnapunti/domain"
)

// StandingsStamp names one state of everything a tournament's standings
// are computed from: the tournament's version (its, its rounds' and its
// entrants' state), the stored results (count and the sum of their sheet
// versions: every sheet write, hand and applied correction adds one) and
// the adjustments (count and highest id). Equal stamps, equal standings.
type StandingsStamp string

// StandingsStamp reads the tournament's stamp in one query. An unknown
// tournament is ErrNotFound.
func (db *DB) StandingsStamp(ctx context.Context, tournamentID string) (StandingsStamp, error) {
	// One pass over each table (count and sum together), the stamp built
	// by the database: "version/results/versions/adjustments/max id".
	var rows []string
	err := db.readDB(ctx).Raw(`SELECT t.version || '/' ||
		(SELECT count(*) || '/' || coalesce(sum(m.sheet_version), 0) FROM match_results m WHERE m.tournament_id = t.id) || '/' ||
		(SELECT count(*) || '/' || coalesce(max(a.id), 0) FROM adjustments a WHERE a.tournament_id = t.id)
		FROM tournaments t WHERE t.id = ?`, tournamentID).Scan(&rows).Error
	if err != nil {
		return "", translate(err, "standings stamp")
	}
	if len(rows) == 0 {
		return "", errorf(domain.ErrNotFound, "tournament %q", tournamentID)
	}
	return StandingsStamp(rows[0]), nil
}

// TournamentPart is the part of the stamp that names the tournament's
// own version (its, its rounds' and its entrants' state, touchTournament):
// what entrants and rounds read at this stamp are keyed by.
func (s StandingsStamp) TournamentPart() StandingsStamp {
	if i := strings.IndexByte(string(s), '/'); i >= 0 {
		return s[:i]
	}
	return s
}

// StandingsCache keeps, per tournament and after_round, the last computed
// standings with the stamp they were computed at (for the public pages).
// V is whatever the caller computes (e.g. domain.OfficialStandingsResult).
type StandingsCache[V any] struct {
	mu      sync.Mutex
	entries map[standingsKey]standingsEntry[V]
}

type standingsKey struct {
	tournament string
	afterRound int
}

type standingsEntry[V any] struct {
	stamp StandingsStamp
	value V
}

// Get returns the cached value when its stamp equals stamp, else computes,
// stores and returns it. An error is returned and not cached.
func (c *StandingsCache[V]) Get(tournamentID string, afterRound int, stamp StandingsStamp, compute func() (V, error)) (V, error) {
	k := standingsKey{tournamentID, afterRound}
	c.mu.Lock()
	if e, ok := c.entries[k]; ok && e.stamp == stamp {
		c.mu.Unlock()
		return e.value, nil
	}
	c.mu.Unlock()
	v, err := compute()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[standingsKey]standingsEntry[V]{}
	}
	c.entries[k] = standingsEntry[V]{stamp: stamp, value: v}
	return v, nil
}

// RoundStamp names one state of one round's stored results: their count
// and the sum of their sheet versions (the tournament stamp's results
// part, round by round).
type RoundStamp struct {
	Count, Versions int64
}

// StandingsStampByRound is StandingsStamp (the same stamp) with its
// results part round by round, in one query: what a reader that keeps
// results per round (app: the standings' results) needs to read again
// only the rounds that changed. Equal round stamps (at an equal
// tournament version), equal results of that round, as for the whole.
func (db *DB) StandingsStampByRound(ctx context.Context, tournamentID string) (StandingsStamp, map[int]RoundStamp, error) {
	type row struct {
		Version     int64
		Round       *int64
		Count       *int64
		Versions    *int64
		Adjustments string
	}
	var rows []row
	// The rounds' parts grouped on match_results alone (its index is by
	// tournament and round: no sort), then joined to the tournament's row.
	err := db.readDB(ctx).Raw(`SELECT t.version AS version, m.round_no AS round, m.count AS count, m.versions AS versions,
		(SELECT count(*) || '/' || coalesce(max(a.id), 0) FROM adjustments a WHERE a.tournament_id = t.id) AS adjustments
		FROM tournaments t LEFT JOIN (SELECT round_no, count(*) AS count, sum(sheet_version) AS versions
			FROM match_results WHERE tournament_id = @id GROUP BY round_no) m ON true
		WHERE t.id = @id`, sql.Named("id", tournamentID)).Scan(&rows).Error
	if err != nil {
		return "", nil, translate(err, "standings stamp")
	}
	if len(rows) == 0 {
		return "", nil, errorf(domain.ErrNotFound, "tournament %q", tournamentID)
	}
	byRound := make(map[int]RoundStamp, len(rows))
	var count, versions int64
	for _, r := range rows {
		if r.Round == nil {
			continue // no result yet: the LEFT JOIN's one row
		}
		byRound[int(*r.Round)] = RoundStamp{*r.Count, *r.Versions}
		count += *r.Count
		versions += *r.Versions
	}
	// As StandingsStamp builds it: "version/results/versions/adjustments/max id".
	stamp := strconv.FormatInt(rows[0].Version, 10) + "/" + strconv.FormatInt(count, 10) + "/" +
		strconv.FormatInt(versions, 10) + "/" + rows[0].Adjustments
	return StandingsStamp(stamp), byRound, nil
}
