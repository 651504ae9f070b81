package events

import (
	"fmt"
	"strings"
	"testing"
)

// The packing at the byte: an array of exactly the limit is one payload,
// one byte more is two.
func TestEncodeBatchAtTheLimit(t *testing.T) {
	event := func(tournament string) Event { return Event{Tournament: tournament, Kind: Sheet, Round: 1, Table: 2} }
	size := func(e Event) int { p, _ := encodeBatch([]Event{e}, maxPayload); return len(p[0].text) }
	base := size(event("t"))
	// Two events: 2 brackets, 1 comma.
	pad := func(total int) []Event {
		second := total - 3 - 2*base
		return []Event{event("t"), event("t" + strings.Repeat("x", second))}
	}
	for _, c := range []struct {
		total    int
		payloads int
	}{
		{maxPayload, 1},
		{maxPayload + 1, 2},
	} {
		t.Run(fmt.Sprint(c.total), func(t *testing.T) {
			out, unsent := encodeBatch(pad(c.total), maxPayload)
			if len(unsent) > 0 || len(out) != c.payloads {
				t.Fatalf("%d payloads, %d unsent, want %d payloads", len(out), len(unsent), c.payloads)
			}
			if c.payloads == 1 && len(out[0].text) != c.total {
				t.Errorf("payload of %d bytes, want %d", len(out[0].text), c.total)
			}
			if c.payloads == 2 && (!strings.HasPrefix(out[0].text, "{") || !strings.HasPrefix(out[1].text, "{")) {
				t.Errorf("a payload of one event is not the single-event object: %.40q, %.40q", out[0].text, out[1].text)
			}
			list, ok := decodePayload(out[0].text)
			if !ok || len(list) != 3-c.payloads {
				t.Errorf("decoded %d events (%v)", len(list), ok)
			}
		})
	}
	if _, unsent := encodeBatch([]Event{event(strings.Repeat("x", maxPayload))}, maxPayload); len(unsent) != 1 {
		t.Error("an event longer than a notification was not set aside")
	}
}

// Folding: one Resync per tournament, and one Resync of everything when
// even those would not fit.
func TestFold(t *testing.T) {
	got := fold([]Event{{Tournament: "a", Kind: Sheet, Table: 1}, {Tournament: "b", Kind: Round}, {Tournament: "a", Kind: Sheet, Table: 2}})
	want := []Event{{Tournament: "a", Kind: Resync}, {Tournament: "b", Kind: Resync}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("fold: %v, want %v", got, want)
	}
	var many []Event
	for i := range maxPending {
		many = append(many, Event{Tournament: fmt.Sprint(i), Kind: Standings})
	}
	if got := fold(many); len(got) != 1 || got[0] != (Event{Kind: Resync}) {
		t.Errorf("fold of %d tournaments: %v", maxPending, got)
	}
	if list, ok := decodePayload(`{"k":"resync"}`); !ok || list[0] != (Event{Kind: Resync}) {
		t.Errorf("a Resync of everything is not read: %v %v", list, ok)
	}
}
