package app

import (
	"context"
	"errors"
	"sync"
	"time"

	"segnapunti/domain"
	"segnapunti/events"
	"segnapunti/store"
)

// Public reads (UI.md §7, API §4.2): no principal, only tournaments their
// club made public; any other id — private, unknown, malformed — is
// domain.ErrNotFound, alike, so that private tournaments cannot be probed.
//
// A hall of phones refreshing must cost the database nothing: everything a
// public page shows of a tournament is read and computed once per state of
// the tournament (a PublicTournament, keyed by its store.StandingsStamp)
// and kept in memory. While this process hears the live-update events the
// snapshot is trusted until an event of its tournament arrives; otherwise
// its stamp is checked again (one small query) after publicRecheck.

// publicRecheck is how long a snapshot is trusted without events.
const publicRecheck = time.Second

// PublicPatch is the public switch of a tournament (PATCH
// /v1/tournaments/{tid} {"public": …}); nil is no change asked.
type PublicPatch struct {
	Public *bool
	// TimeZone sets the tournament's time zone (issue 22): any time, as
	// it changes how times are shown, not what was recorded.
	TimeZone *string
}

// PatchTournament changes a tournament's settings: its club or an admin.
// Making it public (API §4.2) opens its public pages and reads; false
// hides them again.
func (a *App) PatchTournament(ctx context.Context, p Principal, tid string, in PublicPatch) (domain.Tournament, error) {
	t, err := a.managed(ctx, p, tid, "changes the tournament's settings")
	if err != nil {
		return domain.Tournament{}, err
	}
	if in.Public == nil && in.TimeZone == nil {
		return domain.Tournament{}, invalid([]FieldError{field("/public", "field.public_required")})
	}
	// Both settings in one write, one transaction; only what changes.
	var public *bool
	var zone *string
	if in.TimeZone != nil {
		if fe := checkTimeZone(*in.TimeZone); fe != nil {
			return domain.Tournament{}, invalid([]FieldError{*fe})
		}
		if t.Zone() != *in.TimeZone {
			zone = in.TimeZone
		}
	}
	if in.Public != nil && t.Public != *in.Public {
		public = in.Public
	}
	if public == nil && zone == nil {
		return t, nil
	}
	if err := a.db.SetTournamentSettings(ctx, t.ID, public, zone); err != nil {
		return domain.Tournament{}, err
	}
	a.changed(ctx, t.ID, events.Tournament, 0, 0)
	if public != nil {
		t.Public = *public
	}
	if zone != nil {
		t.TimeZone = *zone
	}
	return t, nil
}

// PublicTournament is what the public pages and reads show of a public
// tournament, in one state of it. It is shared: read it, never change it.
type PublicTournament struct {
	Tournament domain.Tournament
	// Version names this state (the ETag of the public pages and reads).
	Version  string
	Entrants []domain.Entrant
	Rounds   []PublicRound
	// Latest is the last round counted by the current standings (0: none).
	Latest    int
	standings map[int]StandingsTable // by after_round, 1..Latest; 0 the current ones
	byID      map[string]int         // entrant id → index in Entrants
}

// PublicRound is a round with its tables' results so far.
type PublicRound struct {
	Round  domain.Round
	Tables []TableResult // in table order
}

// TableResult is one table of a round: who sits there and what its stored
// sheet computes (the VP and MP the standings count, RULES §6).
type TableResult struct {
	Table    domain.TableAssignment
	Hands    int  // hands entered
	HasSheet bool // a sheet is stored
	Complete bool // all the planned hands are in
	Lines    [2]domain.LineResult
}

// PublicTournament is the public view of tournament tid.
func (a *App) PublicTournament(ctx context.Context, tid string) (*PublicTournament, error) {
	nf := notFound("api.no_public_tournament", tid)
	if !ValidID(tid) {
		return nil, nf
	}
	pt, err := a.public.get(ctx, tid, func(stamp store.StandingsStamp) (*PublicTournament, error) {
		return a.loadPublic(ctx, tid, stamp)
	}, a.db.StandingsStamp)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, nf
	}
	if err != nil {
		return nil, err
	}
	if !pt.Tournament.Public {
		return nil, nf
	}
	return pt, nil
}

// Standings are the standings after round after (0: the current ones)
// and whether they are provisional (Provisional: until the standings of
// every round they count are published).
func (pt *PublicTournament) Standings(after int) (StandingsTable, bool, error) {
	if after < 0 || after > pt.Tournament.RoundsPlanned {
		return StandingsTable{}, false, paramError("after_round", "api.int_range", "after_round", 1, pt.Tournament.RoundsPlanned)
	}
	st, ok := pt.standings[after]
	if !ok {
		// A round with no result yet: the standings of the last one that has.
		st = pt.standings[0]
		if after < pt.Latest {
			st = pt.standings[after]
		}
		if after > pt.Latest {
			st.AfterRound = after
		}
	}
	return st, pt.provisional(st.AfterRound), nil
}

func (pt *PublicTournament) provisional(after int) bool {
	rounds := make([]domain.Round, len(pt.Rounds))
	for i, r := range pt.Rounds {
		rounds[i] = r.Round
	}
	return Provisional(rounds, after)
}

// Round is round n, or domain.ErrNotFound.
func (pt *PublicTournament) Round(n int) (PublicRound, error) {
	for _, r := range pt.Rounds {
		if r.Round.Number == n {
			return r, nil
		}
	}
	return PublicRound{}, notFound("api.no_round", pt.Tournament.ID, n)
}

// Entrant is the entrant with id, or false.
func (pt *PublicTournament) Entrant(id string) (domain.Entrant, bool) {
	i, ok := pt.byID[id]
	if !ok {
		return domain.Entrant{}, false
	}
	return pt.Entrants[i], true
}

// NextRound is the round the venue screen shows the seating of: the last
// published round that is still being played, else the last round.
func (pt *PublicTournament) NextRound() (PublicRound, bool) {
	for i := len(pt.Rounds) - 1; i >= 0; i-- {
		if pt.Rounds[i].Round.State == domain.RoundPlaying {
			return pt.Rounds[i], true
		}
	}
	if len(pt.Rounds) == 0 {
		return PublicRound{}, false
	}
	return pt.Rounds[len(pt.Rounds)-1], true
}

// CardRow is one round of an entrant's card.
type CardRow struct {
	Round    int
	Table    int    // 0: a bye
	Line     string // "ns" or "eo"
	Opponent string // entrant id, "" for a bye (individual: the first opposing player)
	// Opponents are the entrant ids of the opposing line: one, or the two
	// players of an individual line.
	Opponents []string
	Own       int // the line's total
	Against   int // the opponent's total
	MP, VP    int
	Played    bool // a sheet is stored for the table
	Bye       bool
	Rank      int // rank in the standings after the round (0: not counted yet)
}

// EntrantCard is one entrant's card: every round, with the totals.
type EntrantCard struct {
	Entrant domain.Entrant
	Rows    []CardRow
	Current domain.Standing // in the current standings
}

// Card is the card of entrant id, or domain.ErrNotFound.
func (pt *PublicTournament) Card(id string) (EntrantCard, error) {
	e, ok := pt.Entrant(id)
	if !ok {
		return EntrantCard{}, notFound("api.no_entrant", pt.Tournament.ID, id)
	}
	card := EntrantCard{Entrant: e}
	rankAfter := func(n int) int {
		st, ok := pt.standings[n]
		if !ok {
			return 0
		}
		for _, row := range st.Rows {
			if row.Entrant.ID == id {
				return row.Rank
			}
		}
		return 0
	}
	for _, r := range pt.Rounds {
		row := CardRow{Round: r.Round.Number, Rank: rankAfter(r.Round.Number)}
		found := false
		for _, tb := range r.Tables {
			own, seated := tb.Table.LineOf(id) // individual: either player of a line
			if !seated {
				continue
			}
			opp := own.Other()
			row.Opponents = tb.Table.Line(opp)
			row.Opponent = row.Opponents[0]
			found = true
			row.Table, row.Line, row.Played = tb.Table.Table, own.String(), tb.HasSheet
			if tb.HasSheet {
				row.Own, row.Against = tb.Lines[own].Total, tb.Lines[opp].Total
				row.MP, row.VP = tb.Lines[own].MP, tb.Lines[own].VP
			}
		}
		if !found {
			for _, b := range r.Round.Byes {
				if b == id {
					row.Bye, found = true, true
				}
			}
		}
		if found {
			card.Rows = append(card.Rows, row)
		}
	}
	for _, row := range pt.standings[0].Rows {
		if row.Entrant.ID == id {
			card.Current = row
		}
	}
	return card, nil
}

// loadPublic reads and computes a tournament's public view at stamp.
func (a *App) loadPublic(ctx context.Context, tid string, stamp store.StandingsStamp) (*PublicTournament, error) {
	t, err := a.db.GetTournament(ctx, tid)
	if err != nil {
		return nil, err
	}
	pt := &PublicTournament{Tournament: t, Version: string(stamp), standings: map[int]StandingsTable{}, byID: map[string]int{}}
	if !t.Public {
		return pt, nil // nothing else is shown of it
	}
	if pt.Entrants, err = a.db.ListEntrants(ctx, tid); err != nil {
		return nil, err
	}
	for i, e := range pt.Entrants {
		pt.byID[e.ID] = i
	}
	rounds, err := a.db.ListRounds(ctx, tid)
	if err != nil {
		return nil, err
	}
	adjustments, err := a.db.ListAdjustments(ctx, tid)
	if err != nil {
		return nil, err
	}
	var sheets []store.SheetAt
	for sh, err := range a.db.EachSheet(ctx, tid) {
		if err != nil {
			return nil, err
		}
		sheets = append(sheets, sh)
	}
	type key struct{ round, table int }
	results := map[key]TableResult{}
	for _, sh := range sheets {
		rep := domain.Validate(sh.Sheet)
		results[key{sh.Round, sh.Table}] = TableResult{Hands: len(sh.Sheet.Hands), HasSheet: true,
			Complete: len(sh.Sheet.Hands) >= sh.Sheet.HandsPlanned, Lines: rep.Computed.Lines}
	}
	for _, r := range rounds {
		pr := PublicRound{Round: r}
		for _, tb := range r.Tables {
			res := results[key{r.Number, tb.Table}]
			res.Table = tb
			pr.Tables = append(pr.Tables, res)
		}
		pt.Rounds = append(pt.Rounds, pr)
	}
	// The same computation as the signed-in standings (Standings), so the
	// public figures equal them.
	cur, err := computeStandings(t, pt.Entrants, rounds, resultsOf(rounds, sheets), adjustments, 0)
	if err != nil {
		return nil, err
	}
	pt.standings[0], pt.Latest = cur, cur.AfterRound
	for n := 1; n <= cur.AfterRound; n++ {
		st, err := computeStandings(t, pt.Entrants, rounds, resultsOf(rounds, sheets), adjustments, n)
		if err != nil {
			return nil, err
		}
		pt.standings[n] = st
	}
	return pt, nil
}

// publicCache keeps one PublicTournament per tournament.
type publicCache struct {
	bus *events.Bus
	now func() time.Time

	mu      sync.Mutex
	entries map[string]*publicEntry
	seq     map[string]uint64 // events heard per tournament
	resyncs uint64
}

type publicEntry struct {
	fill    sync.Mutex // one computation at a time per tournament
	pt      *PublicTournament
	checked time.Time // when the stamp was last read
	seq     uint64    // the tournament's event count when read
	resyncs uint64
	epoch   uint64 // the bus's listening epoch when read
}

func newPublicCache(bus *events.Bus) *publicCache {
	c := &publicCache{bus: bus, now: time.Now, entries: map[string]*publicEntry{}, seq: map[string]uint64{}}
	bus.OnEvent(func(e events.Event) {
		if e.Kind == events.TokenRevoked {
			return // no tournament's pages change
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if e.Tournament == "" {
			c.resyncs++
			return
		}
		c.seq[e.Tournament]++
	})
	return c
}

// get returns the tournament's snapshot: the cached one while no event
// says it changed (or its stamp is unchanged), else load's.
func (c *publicCache) get(ctx context.Context, tid string, load func(store.StandingsStamp) (*PublicTournament, error), stampOf func(context.Context, string) (store.StandingsStamp, error)) (*PublicTournament, error) {
	c.mu.Lock()
	e := c.entries[tid]
	if e == nil {
		e = &publicEntry{}
		c.entries[tid] = e
	}
	c.mu.Unlock()

	e.fill.Lock()
	defer e.fill.Unlock()
	listening, epoch := c.bus.Listening()
	c.mu.Lock()
	seq, resyncs := c.seq[tid], c.resyncs
	c.mu.Unlock()
	now := c.now()
	if e.pt != nil && e.seq == seq && e.resyncs == resyncs {
		if listening && e.epoch == epoch {
			return e.pt, nil // heard no change since it was read
		}
		if now.Sub(e.checked) < publicRecheck {
			return e.pt, nil
		}
	}
	stamp, err := stampOf(ctx, tid)
	if errors.Is(err, domain.ErrNotFound) {
		// Unknown ids leave nothing behind (they may be probes).
		c.mu.Lock()
		if c.entries[tid] == e && e.pt == nil {
			delete(c.entries, tid)
		}
		c.mu.Unlock()
	}
	if err != nil {
		return nil, err
	}
	if e.pt == nil || e.pt.Version != string(stamp) {
		pt, err := load(stamp)
		if err != nil {
			return nil, err
		}
		e.pt = pt
	}
	e.checked, e.seq, e.resyncs, e.epoch = now, seq, resyncs, epoch
	return e.pt, nil
}

// StillPublic reports whether an open event stream of tid may go on: false
// once the tournament is no longer public (or is gone), so that a stream
// opened while it was public does not outlive PATCH {"public": false}. A
// database that cannot be read keeps the stream (it says nothing new).
func (a *App) StillPublic(ctx context.Context, tid string) bool {
	// The database itself, not the public snapshot nor the tournament
	// cache: the snapshot is kept while its standings stamp is unchanged,
	// and making a tournament private changes no standings.
	public, err := a.db.TournamentIsPublic(ctx, tid)
	if errors.Is(err, domain.ErrNotFound) {
		return false
	}
	return err != nil || public
}
