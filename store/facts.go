package store

import (
	"context"
	"sync"
	"time"

	"gorm.io/gorm"

	"segnapunti/domain"
)

// The facts a sheet write looks up before writing — the tournament, the
// round and the table — cached in the process, per tournament (
// two lookups of every write). Every change of a tournament's, its rounds'
// or its entrants' state goes through touchTournament, which bumps
// tournaments.version in the changing transaction and drops the cached
// entry after it commits; a fill that raced with a change is not kept (the
// generation check), so in this process a cached fact is never stale
// across a state change. Across processes (two replicas) the writes do
// not trust the cache: the round-open condition is in the write's own
// WHERE (sheetwrite_pg.go), rounds only move forward, and seatings never
// change after a round is created; factsTTL bounds what another replica's
// change can leave here.
//
// A method that changes a tournament, its rounds or its entrants MUST call
// touchTournament inside its transaction and db.facts.drop after commit.

const factsTTL = 30 * time.Second

type factsCache struct {
	mu      sync.Mutex
	entries map[string]*tournamentFacts
	gen     map[string]uint64 // bumped by every drop
}

type tournamentFacts struct {
	loaded     time.Time
	gen        uint64
	tournament domain.Tournament
	rounds     map[int]roundRow
	tables     map[[2]int]roundTableRow
}

func newFactsCache() *factsCache {
	return &factsCache{entries: map[string]*tournamentFacts{}, gen: map[string]uint64{}}
}

// drop forgets the tournament's facts.
func (c *factsCache) drop(tid string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, tid)
	c.gen[tid]++
}

// generation is the drop count of the tournament, read before a fill.
func (c *factsCache) generation(tid string) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen[tid]
}

// entry returns the live entry (nil when none or expired).
func (c *factsCache) entry(tid string, now time.Time) *tournamentFacts {
	e := c.entries[tid]
	if e == nil || now.Sub(e.loaded) > factsTTL {
		return nil
	}
	return e
}

// touchTournament bumps the tournament's version inside tx and drops its
// cached facts; call db.facts.drop again after the commit.
func (db *DB) touchTournament(tx *gorm.DB, tid string) error {
	db.facts.drop(tid)
	return translate(tx.Exec("UPDATE tournaments SET version = version + 1 WHERE id = ?", tid).Error, "bump tournament version")
}

// cachedTournament is GetTournament through the cache.
func (db *DB) cachedTournament(ctx context.Context, id string) (domain.Tournament, error) {
	now := time.Now()
	db.facts.mu.Lock()
	if e := db.facts.entry(id, now); e != nil {
		t := e.tournament
		db.facts.mu.Unlock()
		return t, nil
	}
	db.facts.mu.Unlock()
	gen := db.facts.generation(id)
	t, err := getTournament(ctx, db.gorm, id)
	if err != nil {
		return t, err
	}
	db.facts.mu.Lock()
	defer db.facts.mu.Unlock()
	if db.facts.gen[id] == gen {
		db.facts.entries[id] = &tournamentFacts{loaded: now, gen: gen, tournament: t,
			rounds: map[int]roundRow{}, tables: map[[2]int]roundTableRow{}}
	}
	return t, nil
}

// cachedRoundTable is GetRoundTable through the cache: the round and the
// table rows once loaded are kept in the tournament's entry.
func (db *DB) cachedRoundTable(ctx context.Context, tid string, n, table int) (domain.Round, error) {
	now := time.Now()
	db.facts.mu.Lock()
	if e := db.facts.entry(tid, now); e != nil {
		r, okR := e.rounds[n]
		tb, okT := e.tables[[2]int{n, table}]
		if okR && okT {
			db.facts.mu.Unlock()
			return roundToDomain(r, []roundTableRow{tb}, nil), nil
		}
	}
	db.facts.mu.Unlock()
	gen := db.facts.generation(tid)
	round, tables, err := db.loadRoundTable(ctx, tid, n, table)
	if err != nil || len(tables) == 0 {
		return roundToDomain(round, tables, nil), err
	}
	db.facts.mu.Lock()
	defer db.facts.mu.Unlock()
	if e := db.facts.entry(tid, now); e != nil && e.gen == gen && db.facts.gen[tid] == gen {
		e.rounds[n] = round
		e.tables[[2]int{n, table}] = tables[0]
	}
	return roundToDomain(round, tables, nil), nil
}
