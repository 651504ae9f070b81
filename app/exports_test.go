package app

import (
	"errors"
	"iter"
	"testing"
)

// seq yields 1..n, then err when not nil; closed is set when the
// sequence's function returns (a stopped pass).
func seq(n int, err error, closed *bool) iter.Seq2[int, error] {
	return func(yield func(int, error) bool) {
		defer func() { *closed = true }()
		for i := 1; i <= n; i++ {
			if !yield(i, nil) {
				return
			}
		}
		if err != nil {
			yield(0, err)
		}
	}
}

func TestTee(t *testing.T) {
	t.Run("two readers that take turns see every item, and little is kept", func(t *testing.T) {
		var closed bool
		tt := newTee(seq(100, nil, &closed))
		next, stop := iter.Pull2(tt.reader(1))
		defer stop()
		var a, b []int
		maxBuf := 0
		// As WriteJSON: the second reader is pulled one ahead of the first.
		v, _, okB := next()
		for x, err := range tt.reader(0) {
			if err != nil {
				t.Fatal(err)
			}
			a = append(a, x)
			for okB && v <= x {
				b = append(b, v)
				v, _, okB = next()
			}
			maxBuf = max(maxBuf, len(tt.buf))
		}
		for okB {
			b = append(b, v)
			v, _, okB = next()
		}
		if len(a) != 100 || len(b) != 100 || a[99] != 100 || b[99] != 100 {
			t.Errorf("reader 0 got %d items, reader 1 got %d", len(a), len(b))
		}
		if maxBuf > 2 {
			t.Errorf("kept up to %d items", maxBuf)
		}
		tt.close()
		if !closed {
			t.Error("close did not stop the pass")
		}
	})
	t.Run("the error reaches both readers", func(t *testing.T) {
		var closed bool
		boom := errors.New("boom")
		tt := newTee(seq(3, boom, &closed))
		for i := range 2 {
			var n int
			var got error
			for _, err := range tt.reader(i) {
				if err != nil {
					got = err
					break
				}
				n++
			}
			if n != 3 || !errors.Is(got, boom) {
				t.Errorf("reader %d: %d items, error %v", i, n, got)
			}
		}
		tt.close()
	})
	t.Run("close stops a pass its readers left half way", func(t *testing.T) {
		var closed bool
		tt := newTee(seq(10, nil, &closed))
		for x := range tt.reader(0) {
			if x == 2 {
				break
			}
		}
		if closed {
			t.Error("stopped before close")
		}
		tt.close()
		if !closed {
			t.Error("close did not stop the pass")
		}
	})
}
