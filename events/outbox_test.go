package events

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The packing at the byte: a payload of exactly the limit is one payload,
// one byte more is two; a payload of one event is the single-event object.
func TestEncodeBatchAtTheLimit(t *testing.T) {
	tournament := "t_" + strings.Repeat("x", 20)
	// As many events as one payload of at most limit bytes holds.
	events := func(limit int) []Event {
		var list []Event
		for n := 1; ; n++ {
			next := append(list, Event{Tournament: tournament, Kind: Sheet, Round: 1, Table: n})
			if out, _ := encodeBatch(next, 1<<20); len(out[0]) > limit {
				return list
			}
			list = next
		}
	}
	for _, limit := range []int{maxPayload, 500} {
		list := events(limit)
		out, unsent := encodeBatch(list, 1<<20)
		if len(out) != 1 || len(unsent) > 0 {
			t.Fatalf("%d payloads, %d unsent", len(out), len(unsent))
		}
		size := len(out[0])
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			if got, _ := encodeBatch(list, size); len(got) != 1 {
				t.Errorf("%d events in %d bytes, limit %d: %d payloads, want 1", len(list), size, size, len(got))
			}
			got, _ := encodeBatch(list, size-1)
			if len(got) != 2 {
				t.Fatalf("%d bytes, limit %d: %d payloads, want 2", size, size-1, len(got))
			}
			var back []Event
			for _, p := range got {
				if len(p) > size-1 {
					t.Errorf("payload of %d bytes, limit %d", len(p), size-1)
				}
				l, ok := decodePayload(p)
				if !ok {
					t.Fatalf("%.60q not read back", p)
				}
				back = append(back, l...)
			}
			if fmt.Sprint(back) != fmt.Sprint(list) {
				t.Errorf("read back %v, want %v", back, list)
			}
			// The last payload holds the one event that did not fit: the
			// single-event object.
			if last := got[1]; strings.Contains(last, `"e":`) {
				t.Errorf("one event sent in an envelope: %s", last)
			}
		})
	}
	if _, unsent := encodeBatch([]Event{{Tournament: strings.Repeat("x", maxPayload), Kind: Sheet}}, maxPayload); len(unsent) != 1 {
		t.Error("an event longer than a notification was not set aside")
	}
}

// A batch is one payload per tournament, and a replica of the version
// before the batches (which read one Event per payload and refused one
// without a tournament) reads each as a Resync of its tournament.
func TestEncodeBatchForOlderReplicas(t *testing.T) {
	batch := []Event{
		{Tournament: "t_a", Kind: Sheet, Round: 1, Table: 2},
		{Tournament: "t_b", Kind: Round, Round: 3},
		{Tournament: "t_a", Kind: Standings},
	}
	out, _ := encodeBatch(batch, maxPayload)
	if len(out) != 2 {
		t.Fatalf("%d payloads, want 2: %q", len(out), out)
	}
	old := func(p string) (Event, bool) { // events.go before batching
		var e Event
		if err := json.Unmarshal([]byte(p), &e); err != nil || e.Tournament == "" {
			return e, false
		}
		return e, true
	}
	for i, want := range []Event{{Tournament: "t_a", Kind: Resync}, batch[1]} {
		if got, ok := old(out[i]); !ok || got != want {
			t.Errorf("payload %d (%s): the previous version reads %+v %v, want %+v", i, out[i], got, ok, want)
		}
	}
	back := readBack(t, out)
	want := []Event{batch[0], batch[2], batch[1]}
	if fmt.Sprint(back) != fmt.Sprint(want) {
		t.Errorf("read back %v, want %v", back, want)
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
	out, _ := encodeBatch([]Event{{Kind: Resync}}, maxPayload)
	if list, ok := decodePayload(out[0]); !ok || len(list) != 1 || list[0] != (Event{Kind: Resync}) {
		t.Errorf("a Resync of everything (%s) is not read back: %v %v", out[0], list, ok)
	}
}

// Revocations travel without a tournament, one or several; no other
// event does.
func TestDecodeTokenRevocations(t *testing.T) {
	for _, tc := range []struct {
		payload string
		want    []Event
	}{
		{`{"t":"","k":"token","tok":"k_1"}`, []Event{{Kind: TokenRevoked, Token: "k_1"}}},
		{`{"t":"","k":"resync","e":[{"k":"token","tok":"k_1"},{"k":"token","tok":"k_2"}]}`, []Event{{Kind: TokenRevoked, Token: "k_1"}, {Kind: TokenRevoked, Token: "k_2"}}},
		{`{"t":"","k":"token"}`, nil},
		{`{"t":"","k":"sheet","r":1}`, nil},
		{`{"t":"","k":"resync","e":[{"k":"token","tok":"k_1"},{"k":"sheet"}]}`, nil},
	} {
		got, ok := decodePayload(tc.payload)
		if ok != (tc.want != nil) || fmt.Sprint(got) != fmt.Sprint(tc.want) && tc.want != nil {
			t.Errorf("%s: %v %v, want %v", tc.payload, got, ok, tc.want)
		}
	}
	// Packed and read back.
	list := []Event{{Kind: TokenRevoked, Token: "k_1"}, {Tournament: "t_1", Kind: Sheet, Round: 1, Table: 2}, {Kind: TokenRevoked, Token: "k_2"}}
	payloads, unsent := encodeBatch(list, maxPayload)
	back := readBack(t, payloads)
	if len(unsent) > 0 || len(back) != 3 {
		t.Errorf("packed %v as %v, read back %v", list, payloads, back)
	}
}

// readBack decodes payloads, each of which must read.
func readBack(t *testing.T, payloads []string) []Event {
	t.Helper()
	var back []Event
	for _, p := range payloads {
		l, ok := decodePayload(p)
		if !ok {
			t.Fatalf("%s does not read back", p)
		}
		back = append(back, l...)
	}
	return back
}

// FuzzDecodePayload: a notification is text from the database, sent by
// any replica (of this version or an older one): decoding never panics,
// and what it accepts packs and reads back as the same events.
func FuzzDecodePayload(f *testing.F) {
	for _, s := range []string{
		`{"t":"t_1","k":"sheet","r":1,"n":2}`,
		`{"t":"t_1","k":"resync","e":[{"k":"sheet","r":1,"n":2},{"k":"round","r":2}]}`,
		`{"k":"resync"}`, `[]`, `{"t":"","e":[{}]}`, `{"t":"","k":"token","tok":"k_1"}`,
		`{"t":"","k":"resync","e":[{"k":"token","tok":"k_1"},{"k":"token","tok":"k_2"}]}`, `{"t":"","k":"token"}`, `{"t":"t","e":null}`, "\xff", `{"t":"t_1","k":"sheet","r":1e99}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		list, ok := decodePayload(p)
		if !ok {
			return
		}
		payloads, unsent := encodeBatch(list, 1<<20)
		if len(unsent) > 0 {
			t.Fatalf("%q: %d events not packed", p, len(unsent))
		}
		var again []Event
		for _, q := range payloads {
			l, ok := decodePayload(q)
			if !ok {
				t.Fatalf("%q packed as %q, which does not read back", p, q)
			}
			again = append(again, l...)
		}
		if fmt.Sprint(dedupe(list)) != fmt.Sprint(dedupe(again)) {
			t.Fatalf("%q: %v packed and read back as %v", p, list, again)
		}
	})
}

// dedupe is the events in order without repeats (packing may merge
// identical events).
func dedupe(list []Event) []Event {
	seen := map[Event]bool{}
	var out []Event
	for _, e := range list {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}
