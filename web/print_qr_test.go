package web

import (
	"fmt"
	"testing"
)

// A text's kept QR code is the first one drawn for it, on every later
// view (go-qrcode may choose another of the equally good masks on another
// draw: kept, the printed sheet and the page on the screen agree), each
// text keeps its own, and the kept codes stay within maxQRCodes.
func TestQRCodesKeepTheFirstDrawn(t *testing.T) {
	var c qrCodes
	first := map[string]string{}
	for i := range maxQRCodes + 3 {
		text := fmt.Sprintf("https://example.org/table/%d", i)
		for range 2 { // drawn, then kept
			got, err := c.svg(text)
			if err != nil {
				t.Fatal(err)
			}
			if f, ok := first[text]; ok && string(got) != f {
				t.Fatalf("%s: the kept code differs from the one drawn first", text)
			}
			first[text] = string(got)
		}
		if len(c.drawn.values) > maxQRCodes {
			t.Fatalf("%d codes kept, at most %d", len(c.drawn.values), maxQRCodes)
		}
	}
	a, _ := c.svg("https://example.org/table/1")
	b, _ := c.svg("https://example.org/table/2")
	if a == b {
		t.Fatal("two texts share one code")
	}
}

// A part is computed once per version of its slot; a new version takes
// the old one's place, so a slot keeps one value however many states its
// tournament goes through.
func TestKeptOneVersionPerSlot(t *testing.T) {
	var k kept[string]
	computed := 0
	get := func(slot, version string) string {
		v, err := k.get(slot, version, 8, func() (string, error) { computed++; return slot + "@" + version, nil })
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		slot, version string
		computed      int
	}{{"a", "1", 1}, {"a", "1", 1}, {"a", "2", 2}, {"b", "1", 3}, {"a", "2", 3}, {"a", "1", 4}} {
		if v := get(c.slot, c.version); v != c.slot+"@"+c.version || computed != c.computed {
			t.Errorf("%s at %s: %q after %d computations, want %d", c.slot, c.version, v, computed, c.computed)
		}
	}
	if len(k.values) != 2 {
		t.Errorf("%d slots kept, want 2", len(k.values))
	}
}
