package xlsx

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"segnapunti/domain"
)

func TestGateLetsNThroughAndRefusesTheNext(t *testing.T) {
	g := NewGate(2, 0)
	ctx := context.Background()
	r1, err1 := g.Acquire(ctx)
	r2, err2 := g.Acquire(ctx)
	if err1 != nil || err2 != nil {
		t.Fatalf("first two: %v, %v", err1, err2)
	}
	if _, err := g.Acquire(ctx); !errors.Is(err, ErrBusy) || errors.Is(err, domain.ErrInvalid) {
		t.Fatalf("third: %v, want ErrBusy (not an invalid input)", err)
	}
	r1()
	r1() // a second release must not free another slot
	r3, err := g.Acquire(ctx)
	if err != nil {
		t.Fatalf("after a release: %v", err)
	}
	if _, err := g.Acquire(ctx); !errors.Is(err, ErrBusy) {
		t.Fatalf("double release freed a slot: %v", err)
	}
	r2()
	r3()
	if g.Slots() != 2 || g.RetryAfter != DefaultRetryAfter {
		t.Errorf("slots %d, retry after %v", g.Slots(), g.RetryAfter)
	}
}

func TestGateWaitsThenGivesUp(t *testing.T) {
	g := NewGate(1, 50*time.Millisecond)
	release, _ := g.Acquire(context.Background())
	// A slot freed within the wait is taken.
	go func() { time.Sleep(5 * time.Millisecond); release() }()
	r, err := g.Acquire(context.Background())
	if err != nil {
		t.Fatalf("slot freed within the wait: %v", err)
	}
	// None freed: ErrBusy after the wait.
	if _, err := g.Acquire(context.Background()); !errors.Is(err, ErrBusy) {
		t.Fatalf("no slot freed: %v", err)
	}
	// A cancelled context ends the wait with its own error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Acquire(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	r()
}

func TestGateBoundsConcurrency(t *testing.T) {
	g := NewGate(3, time.Second)
	var in, peak atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			release, err := g.Acquire(context.Background())
			if err != nil {
				return
			}
			defer release()
			n := in.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			in.Add(-1)
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 3 || p < 1 {
		t.Errorf("peak %d readers at once through a gate of 3", p)
	}
}

// UploadMemoryBudget holds for a workbook near the row cap: 6,600 matches
// of 3 hands (19,800 hand rows of the 20,000 allowed), read twice; the
// peak heap is sampled while reading.
func TestReadPeakMemoryWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the 1,000-match workbook")
	}
	data, err := generateWorkbook(6600, 3)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
			}
		}
	}()
	for range 2 {
		if _, err := Read(bytes.NewReader(data), int64(len(data)), Options{}); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	used := int64(peak.Load()) - int64(base.HeapInuse)
	t.Logf("%d-byte workbook: peak heap %d MiB over the base", len(data), used>>20)
	if used > UploadMemoryBudget {
		t.Errorf("peak heap %d bytes over UploadMemoryBudget %d", used, UploadMemoryBudget)
	}
}
