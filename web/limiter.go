package web

import (
	"sync"
	"time"
)

// Sign-in slow-down (UI.md §2): after loginFreeFailures wrong passwords for
// a name or from an address, each further try must wait a delay that
// doubles from loginBaseDelay up to loginMaxDelay. A success clears the
// name's count. Counts are forgotten after loginForget without failures.
// In memory: each replica counts its own, which still slows guessing.
const (
	loginFreeFailures = 5
	loginBaseDelay    = 2 * time.Second
	loginMaxDelay     = 15 * time.Minute
	loginForget       = time.Hour
	loginMaxKeys      = 100_000
)

type loginLimiter struct {
	mu   sync.Mutex
	now  func() time.Time
	keys map[string]*failures
}

type failures struct {
	count int
	last  time.Time
	until time.Time // no try before this
}

func newLoginLimiter(now func() time.Time) *loginLimiter {
	return &loginLimiter{now: now, keys: map[string]*failures{}}
}

// wait is how long a try with these keys must still wait; 0 lets it in.
func (l *loginLimiter) wait(keys ...string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	var longest time.Duration
	for _, k := range keys {
		if f, ok := l.keys[k]; ok && f.until.After(now) {
			longest = max(longest, f.until.Sub(now))
		}
	}
	return longest
}

// fail records a wrong password for each key.
func (l *loginLimiter) fail(keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if len(l.keys) >= loginMaxKeys {
		l.forgetOld(now)
	}
	for _, k := range keys {
		f, ok := l.keys[k]
		if !ok || now.Sub(f.last) > loginForget {
			f = &failures{}
			l.keys[k] = f
		}
		f.count++
		f.last = now
		if over := f.count - loginFreeFailures; over > 0 {
			d := loginBaseDelay << min(over-1, 20)
			f.until = now.Add(min(d, loginMaxDelay))
		}
	}
}

// succeed clears a key (the name that just signed in).
func (l *loginLimiter) succeed(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.keys, key)
}

func (l *loginLimiter) forgetOld(now time.Time) {
	for k, f := range l.keys {
		if now.Sub(f.last) > loginForget && !f.until.After(now) {
			delete(l.keys, k)
		}
	}
}
