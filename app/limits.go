package app

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"time"

	"segnapunti/store"
)

// Rate limits: how many failures (wrong passwords, wrong table codes) a
// key may make before it has to wait. Every limit of the service is one
// of the values below, so the figures live in one place.
//
// The failures are shared by the replicas of the service through
// PostgreSQL (table rate_failures): each failure is written there at once,
// and each process reads the other processes' totals at most once a second
// (limitRefresh) while it counts its own in memory — so a check costs no
// query on the request's path, two replicas do not double an attacker's
// budget (beyond one second's worth) and a restart does not reset it. On
// the embedded database the one process keeps them in memory.
//
// golang.org/x/time/rate does not fit this: it is a token bucket held by
// one process, refilled by the clock, with nothing to share across
// replicas or keep across a restart, and it counts requests rather than
// failures. This file is the one limiter of both doors (sign-in, table
// codes).

// rateLimit is the allowance of one kind of key.
type rateLimit struct {
	name   string        // the key's prefix
	window time.Duration // how long one failure counts
	free   int           // failures in the window that cost no wait
	// backoff > 0: past the free failures each further failure doubles the
	// wait, from backoff up to maxWait (sign-in); backoff = 0: a sliding
	// window — once free failures are in it, wait until the oldest leaves
	// (table codes: free per window, sustained).
	backoff, maxWait time.Duration
}

var (
	// Sign-in (UI.md §2, OWASP "account lockout"): per name, per name and
	// address, per address. The name's count slows only addresses that
	// have failed for that name (SignInWait), so knowing a secretary's
	// name does not let anyone keep the secretary out.
	signInByName = rateLimit{name: "signin-name", window: time.Hour, free: 5, backoff: 2 * time.Second, maxWait: 15 * time.Minute}
	signInByPair = rateLimit{name: "signin-pair", window: time.Hour, free: 5, backoff: 2 * time.Second, maxWait: 15 * time.Minute}
	signInByAddr = rateLimit{name: "signin-addr", window: time.Hour, free: 20, backoff: 2 * time.Second, maxWait: 15 * time.Minute}

	// Table codes (UI.md §6): a typed code has about 40 bits, so guessing
	// must be slow from one address, from many, and against one
	// tournament. 20 a minute per address is one typo every 3 seconds
	// sustained; the global budget counts typed (short) codes only — a
	// 256-bit link cannot be guessed, so phones opening their QR link are
	// never slowed by someone else's guessing.
	codeByAddr       = rateLimit{name: "code-addr", window: time.Minute, free: 20}
	codeAll          = rateLimit{name: "code-all", window: time.Minute, free: 300}
	codeByTournament = rateLimit{name: "code-tournament", window: time.Minute, free: 60}
)

const (
	limitRefresh = time.Second // how stale a process's view of the shared failures may be
	limitPurge   = time.Minute // how often expired shared failures are deleted
	limitMaxKeys = 100_000     // keys one process keeps in memory
)

// limitKey is one counted thing: a limit and what it counts (a name, an
// address, a tournament).
type limitKey struct {
	limit *rateLimit
	id    string
}

func (k limitKey) String() string { return k.limit.name + ":" + k.id }

// addressKey is the part of a client address a limit counts: the address
// itself for IPv4, its /64 network for IPv6 (one household or phone gets a
// whole /64, so counting single IPv6 addresses would give an attacker
// billions of fresh ones).
func addressKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		if len(addr) > 64 {
			addr = addr[:64]
		}
		return addr
	}
	a = a.WithZone("").Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// limiter counts failures per key.
type limiter struct {
	db  *store.DB // nil: memory only
	log *slog.Logger
	now func() time.Time // wall time even under a test's fixed app clock

	mu    sync.Mutex
	local map[string][]store.RateFailure // this process's own failures
	snap  map[string]store.RateCount     // the other processes' totals, read at snapAt
	// origin names this process in the shared table: the snapshot holds
	// the other processes' failures, local its own — nothing is counted
	// twice, nothing is lost between a write and a read.
	origin string
	// snapAt is when the snapshot was read; refreshing: a read is under
	// way; purgedAt: when expired rows were last deleted.
	snapAt, purgedAt time.Time
	refreshing       bool
}

func newLimiter(db *store.DB, log *slog.Logger) *limiter {
	l := &limiter{log: log, now: time.Now, local: map[string][]store.RateFailure{}, snap: map[string]store.RateCount{},
		origin: rand.Text()}
	if db != nil && db.SharedRateFailures() {
		l.db = db
	}
	return l
}

// state is what a key's live failures add up to at now.
type limitState struct {
	count       int
	last        time.Time
	firstExpiry time.Time
}

func (l *limiter) stateLocked(key string, now time.Time) limitState {
	var s limitState
	if c, ok := l.snap[key]; ok && c.LastExpiry.After(now) {
		s = limitState{count: c.Count, last: c.Last, firstExpiry: c.FirstExpiry}
	}
	live := l.local[key][:0]
	for _, f := range l.local[key] {
		if !f.Expires.After(now) {
			continue
		}
		live = append(live, f)
		s.count++
		if f.At.After(s.last) {
			s.last = f.At
		}
		if s.firstExpiry.IsZero() || f.Expires.Before(s.firstExpiry) {
			s.firstExpiry = f.Expires
		}
	}
	if len(live) == 0 {
		delete(l.local, key)
	} else {
		l.local[key] = live
	}
	return s
}

// waitFor is how long a key in state s must still wait at now.
func (r *rateLimit) waitFor(s limitState, now time.Time) time.Duration {
	if r.backoff == 0 {
		if s.count < r.free {
			return 0
		}
		return max(0, s.firstExpiry.Sub(now))
	}
	over := s.count - r.free
	if over <= 0 {
		return 0
	}
	d := min(r.backoff<<min(over-1, 20), r.maxWait)
	return max(0, s.last.Add(d).Sub(now))
}

// wait is the longest wait among keys; 0 lets the try in.
func (l *limiter) wait(ctx context.Context, now time.Time, keys ...limitKey) time.Duration {
	l.refresh(ctx, now)
	l.mu.Lock()
	defer l.mu.Unlock()
	var longest time.Duration
	for _, k := range keys {
		longest = max(longest, k.limit.waitFor(l.stateLocked(k.String(), now), now))
	}
	return longest
}

// count is how many live failures a key has.
func (l *limiter) count(ctx context.Context, now time.Time, k limitKey) int {
	l.refresh(ctx, now)
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stateLocked(k.String(), now).count
}

// fail counts one failure against each key.
func (l *limiter) fail(ctx context.Context, now time.Time, keys ...limitKey) {
	fs := make([]store.RateFailure, len(keys))
	l.mu.Lock()
	if len(l.local) >= limitMaxKeys {
		for k := range l.local {
			l.stateLocked(k, now) // drops the expired
		}
		if len(l.local) >= limitMaxKeys {
			l.local = map[string][]store.RateFailure{}
		}
	}
	for i, k := range keys {
		fs[i] = store.RateFailure{Key: k.String(), At: now, Expires: now.Add(k.limit.window)}
		l.local[fs[i].Key] = append(l.local[fs[i].Key], fs[i])
	}
	l.mu.Unlock()
	if l.db == nil {
		return
	}
	if err := l.db.RecordRateFailures(context.WithoutCancel(ctx), l.origin, fs); err != nil {
		l.log.Warn("rate failures not shared with other replicas", "err", err)
	}
}

// clear forgets a key's failures.
func (l *limiter) clear(ctx context.Context, k limitKey) {
	key := k.String()
	l.mu.Lock()
	delete(l.local, key)
	delete(l.snap, key)
	l.mu.Unlock()
	if l.db != nil {
		if err := l.db.ClearRateFailures(context.WithoutCancel(ctx), key); err != nil {
			l.log.Warn("rate failures not cleared for other replicas", "err", err)
		}
	}
}

// refresh reads the shared totals when the snapshot is older than
// limitRefresh: the first time before answering (a fresh process must not
// start with an empty slate), afterwards in the background.
func (l *limiter) refresh(ctx context.Context, now time.Time) {
	if l.db == nil {
		return
	}
	l.mu.Lock()
	if l.refreshing || now.Sub(l.snapAt) < limitRefresh {
		l.mu.Unlock()
		return
	}
	l.refreshing = true
	first := l.snapAt.IsZero()
	purge := now.Sub(l.purgedAt) >= limitPurge
	l.mu.Unlock()
	read := func(ctx context.Context) {
		counts, err := l.db.RateCounts(ctx, l.origin, now, purge)
		l.mu.Lock()
		defer l.mu.Unlock()
		l.refreshing = false
		if err != nil {
			// Keep counting locally; try again in limitRefresh, not at
			// every request while the database is away.
			l.log.Warn("shared rate failures not read; this process counts its own", "err", err)
			l.snapAt = now
			return
		}
		l.snap = make(map[string]store.RateCount, len(counts))
		for _, c := range counts {
			l.snap[c.Key] = c
		}
		l.snapAt = now
		if purge {
			l.purgedAt = now
		}
	}
	if first {
		read(context.WithoutCancel(ctx))
		return
	}
	go read(context.Background())
}

// SignInWait is how long a sign-in for name from addr must still wait
// before its password is even checked; 0 lets it try now. The name's own
// count slows only an address that has failed for that name: a person
// typing the right password from an address with no failure for the name
// always gets in, however many wrong passwords others sent for it.
func (a *App) SignInWait(ctx context.Context, name, addr string) time.Duration {
	now := a.limits.now()
	pair, byAddr, byName := signInKeys(name, addr)
	w := a.limits.wait(ctx, now, pair, byAddr)
	if a.limits.count(ctx, now, pair) > 0 {
		w = max(w, a.limits.wait(ctx, now, byName))
	}
	return w
}

// SignInFailed counts a wrong password for name from addr.
func (a *App) SignInFailed(ctx context.Context, name, addr string) {
	pair, byAddr, byName := signInKeys(name, addr)
	a.limits.fail(ctx, a.limits.now(), pair, byAddr, byName)
}

// SignInSucceeded forgets the failures of name from addr (a person who
// mistyped, then got it right), and the name's count when every failure
// in it came from this address. Failures from elsewhere stay counted: a
// success does not give an attacker fresh tries.
func (a *App) SignInSucceeded(ctx context.Context, name, addr string) {
	pair, _, byName := signInKeys(name, addr)
	now := a.limits.now()
	if a.limits.count(ctx, now, byName) <= a.limits.count(ctx, now, pair) {
		a.limits.clear(ctx, byName)
	}
	a.limits.clear(ctx, pair)
}

func signInKeys(name, addr string) (pair, byAddr, byName limitKey) {
	n := normalizeName(name)
	ak := addressKey(addr)
	return limitKey{&signInByPair, n + "|" + ak}, limitKey{&signInByAddr, ak}, limitKey{&signInByName, n}
}

// normalizeName is a sign-in name as counted: names are matched without
// regard to case, so "Anna" and "anna" are one count; bounded in length.
func normalizeName(name string) string {
	if len(name) > 100 {
		name = name[:100]
	}
	return strings.ToLower(name)
}
