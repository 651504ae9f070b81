// Package app is the layer of operations under both doors of the service:
// the JSON API (package api) and the web pages (package web). An operation
// takes the caller's identity, checks what that caller may do, talks to the
// store and the domain, and returns domain values or errors (STYLE habit
// 13). Nothing here knows HTTP, gin or JSON bodies, so that a rule of
// access or of workflow lives in one place and both doors obey it alike.
package app

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"segnapunti/events"
	"segnapunti/importers/xlsx"
	"segnapunti/store"
)

// Principal is the caller of an operation: an API token's or a web
// session's role, name and club. A person and a token with the same role
// and name act alike.
type Principal = store.Principal

// App holds the operations' dependencies.
type App struct {
	db  *store.DB
	now func() time.Time
	log *slog.Logger
	// standings caches the standings per tournament state (standings.go).
	standings store.StandingsCache[StandingsTable]
	// standingsFacts caches the entrants and rounds the standings read,
	// per tournament version (standings.go).
	standingsFacts store.StandingsCache[standingsFacts]
	// standingsResults keeps the results the standings read, per
	// tournament and round, by round stamp (standings.go).
	standingsResults resultsByRound
	// reviewCache caches the review queue's sheets per tournament state
	// (review.go).
	reviewCache store.StandingsCache[reviewSheets]
	// roundSheets caches a round's validated sheets per tournament state,
	// keyed by round number (table_status.go).
	roundSheets store.StandingsCache[map[int]roundSheet]
	// bus carries the live-update events (app/events.go); public caches
	// the public reads (app/public.go).
	bus    *events.Bus
	public *publicCache

	// limits counts wrong passwords and wrong table codes (limits.go).
	limits *limiter

	// codeLookups counts the table codes looked up (TableCodeLookups).
	codeLookups atomic.Int64

	gateOnce sync.Once // the upload gate (imports.go)
	gate     *xlsx.Gate
}

// New returns the operations over db. now is the clock (nil: time.Now);
// log takes warnings about stored data that cannot be read (nil: none).
func New(db *store.DB, now func() time.Time, log *slog.Logger) *App {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	a := &App{db: db, now: now, log: log}
	a.bus = newBus(db, log)
	a.public = newPublicCache(a.bus)
	a.limits = newLimiter(db, log)
	return a
}
