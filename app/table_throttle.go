package app

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Wrong table codes are throttled per address (UI.md §6): a short code has
// about 40 bits, so guessing must be slow. Each address may get
// codeFreeFailures wrong codes, then one more per codeRefill. In memory:
// each replica counts its own, which still slows guessing enough.
const (
	codeFreeFailures = 20
	codeRefill       = 3 * time.Second
	codeMaxAddresses = 100_000
)

// ErrThrottled: too many wrong codes from the caller's address.
var ErrThrottled = fmt.Errorf("too many wrong codes")

// Throttled is the refusal with the wait before the next try.
type Throttled struct{ RetryAfter time.Duration }

func (e *Throttled) Error() string {
	return fmt.Sprintf("too many wrong table codes from this address: try again in %s", e.RetryAfter.Round(time.Second))
}
func (e *Throttled) Unwrap() error { return ErrThrottled }

type codeThrottle struct {
	mu    sync.Mutex
	addrs map[string]*codeBucket
}

type codeBucket struct {
	used float64 // failures not yet refilled
	last time.Time
}

// wait is how long addr must wait before trying a code; 0 lets it try.
func (c *codeThrottle) wait(addr string, now time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.addrs[addr]
	if b == nil {
		return 0
	}
	c.refill(b, now)
	if b.used < codeFreeFailures {
		return 0
	}
	return time.Duration((b.used - codeFreeFailures + 1) * float64(codeRefill))
}

func (c *codeThrottle) refill(b *codeBucket, now time.Time) {
	if el := now.Sub(b.last); el > 0 {
		b.used -= float64(el) / float64(codeRefill)
		if b.used < 0 {
			b.used = 0
		}
		b.last = now
	}
}

func (c *codeThrottle) fail(addr string, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.addrs == nil || len(c.addrs) >= codeMaxAddresses {
		c.addrs = map[string]*codeBucket{}
	}
	b := c.addrs[addr]
	if b == nil {
		b = &codeBucket{last: now}
		c.addrs[addr] = b
	}
	c.refill(b, now)
	b.used++
}

// TableEntryFrom is TableEntry for a caller at addr: wrong codes count
// against the address, and an address over its allowance is *Throttled
// before its code is even looked up.
func (a *App) TableEntryFrom(ctx context.Context, addr, code string) (Principal, LinkState, error) {
	now := time.Now() // wall time even under a test's fixed clock
	if w := a.codes.wait(addr, now); w > 0 {
		return Principal{}, "", &Throttled{RetryAfter: w}
	}
	p, st, err := a.TableEntry(ctx, code)
	if err == nil && st == LinkUnknown {
		a.codes.fail(addr, now)
	}
	return p, st, err
}
