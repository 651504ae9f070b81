package xlsx

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// UploadMemoryBudget is what one Read of an upload within the default
// limits may hold at its peak: the upload itself (DefaultMaxBytes), the
// shared strings (DefaultMaxSharedStringBytes, checked before excelize
// loads them), excelize's in-memory parts (worksheets over 16 MB unpacked
// go to a temporary file) and the cells read (DefaultMaxCells, each at
// most DefaultMaxCellText bytes but in practice a few). Measured by
// TestReadPeakMemoryWithinBudget; a Gate of n slots bounds uploads to
// n × UploadMemoryBudget.
const UploadMemoryBudget = 256 << 20

// DefaultRetryAfter is the wait a busy Gate suggests (Retry-After).
const DefaultRetryAfter = 5 * time.Second

// ErrBusy: every slot of the Gate is taken. It is not the uploader's
// fault: the API answers 503 Service Unavailable with a Retry-After of
// Gate.RetryAfter. It does not wrap domain.ErrInvalid.
var ErrBusy = errors.New("too many workbooks are being read at once; try again shortly")

// Gate bounds the workbooks read at once, so that concurrent uploads cost
// at most Slots × UploadMemoryBudget. Put it before the body is read:
//
//	release, err := gate.Acquire(ctx)
//	if err != nil { /* ErrBusy → 503 + Retry-After; ctx error → give up */ }
//	defer release()
//	wb, err := xlsx.Read(http.MaxBytesReader(w, body, xlsx.DefaultMaxBytes), size, opts)
//
// The zero Gate is unusable; build one with NewGate. A Gate is safe for
// concurrent use.
type Gate struct {
	slots chan struct{}
	wait  time.Duration
	// RetryAfter is what a refused caller is told to wait.
	RetryAfter time.Duration
}

// NewGate returns a gate of n slots (at least 1). A caller that finds them
// all taken waits at most wait (0: not at all) before failing with ErrBusy.
func NewGate(n int, wait time.Duration) *Gate {
	return &Gate{slots: make(chan struct{}, max(n, 1)), wait: max(wait, 0), RetryAfter: DefaultRetryAfter}
}

// Slots is the number of workbooks the gate lets through at once.
func (g *Gate) Slots() int { return cap(g.slots) }

// Acquire takes a slot. It fails with an error wrapping ErrBusy when none
// frees within the gate's wait, or with ctx's error when ctx ends first.
// release gives the slot back; calling it more than once is harmless.
func (g *Gate) Acquire(ctx context.Context) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case g.slots <- struct{}{}:
		return g.releaser(), nil
	default:
	}
	if g.wait > 0 {
		timer := time.NewTimer(g.wait)
		defer timer.Stop()
		select {
		case g.slots <- struct{}{}:
			return g.releaser(), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
		}
	}
	return nil, fmt.Errorf("%w (%d at once)", ErrBusy, cap(g.slots))
}

func (g *Gate) releaser() func() {
	var once sync.Once
	return func() { once.Do(func() { <-g.slots }) }
}
