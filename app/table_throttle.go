package app

import (
	"context"
	"fmt"
	"time"
)

// Wrong table codes are throttled (UI.md §6): per address, per tournament
// and for the whole service (the limits are in limits.go).

// ErrThrottled: too many wrong codes.
var ErrThrottled = fmt.Errorf("too many wrong codes")

// Throttled is the refusal with the wait before the next try.
type Throttled struct{ RetryAfter time.Duration }

func (e *Throttled) Error() string {
	return fmt.Sprintf("too many wrong table codes: try again in %s", e.RetryAfter.Round(time.Second))
}
func (e *Throttled) Unwrap() error { return ErrThrottled }

// TableEntryFrom is TableEntry for a caller at addr. A caller over an
// allowance is *Throttled before its code is even looked up, so a guess
// made while throttled learns nothing. A wrong code counts against the
// address and, when it is a typed (short) code, against the service's
// global budget; a revoked code counts against its tournament too (the
// only wrong code that names one: someone replaying old printed sheets).
func (a *App) TableEntryFrom(ctx context.Context, addr, code string) (Principal, LinkState, error) {
	now := a.limits.now()
	keys := []limitKey{{&codeByAddr, addressKey(addr)}}
	if _, short := NormalizeShortCode(code); short {
		keys = append(keys, limitKey{&codeAll, ""})
	}
	if w := a.limits.wait(ctx, now, keys...); w > 0 {
		return Principal{}, "", &Throttled{RetryAfter: w}
	}
	p, st, tid, err := a.tableEntry(ctx, code)
	switch {
	case err != nil:
		return p, st, err
	case st == LinkUnknown:
		a.limits.fail(ctx, now, keys...)
	case st == LinkRevoked:
		tk := limitKey{&codeByTournament, tid}
		if w := a.limits.wait(ctx, now, tk); w > 0 {
			return Principal{}, "", &Throttled{RetryAfter: w}
		}
		a.limits.fail(ctx, now, append(keys, tk)...)
	}
	return p, st, nil
}
