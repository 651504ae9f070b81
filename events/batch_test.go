package events_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"segnapunti/events"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// The live events: Publish queues, one sender per bus sends
// what is queued as one pg_notify. Every test runs two buses on one real
// PostgreSQL database, two "replicas".

// notifier is the real store with its notifications recorded, one entry
// per statement. While hold is set the next statement says so on held and
// waits for release (so that events gather behind it); while spoil is set
// the next one goes to an empty channel name, which PostgreSQL refuses.
type notifier struct {
	*store.DB
	mu    sync.Mutex
	calls [][]string
	hold  *holding
	spoil bool
}

type holding struct{ held, release chan struct{} }

func (n *notifier) Notify(ctx context.Context, channel string, payloads ...string) error {
	n.mu.Lock()
	n.calls = append(n.calls, payloads)
	hold, spoil := n.hold, n.spoil
	n.hold, n.spoil = nil, false
	n.mu.Unlock()
	if hold != nil {
		close(hold.held)
		<-hold.release
	}
	if spoil {
		channel = ""
	}
	return n.DB.Notify(ctx, channel, payloads...)
}

// statements is how many Notify calls were made.
func (n *notifier) statements() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.calls)
}

// publishHeld publishes e and returns once its notification is in flight
// and held, until release.
func (n *notifier) publishHeld(b *events.Bus, e events.Event) (release func()) {
	h := &holding{held: make(chan struct{}), release: make(chan struct{})}
	n.mu.Lock()
	n.hold = h
	n.mu.Unlock()
	b.Publish(context.Background(), e)
	<-h.held
	var once sync.Once
	return func() { once.Do(func() { close(h.release) }) }
}

// sent is every payload, in order.
func (n *notifier) sent() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for _, c := range n.calls {
		out = append(out, c...)
	}
	return out
}

// heard records what a bus's hooks hear (every tournament), the Resyncs
// of a new listening connection aside.
type heard struct {
	mu   sync.Mutex
	list []events.Event
}

func (h *heard) add(e events.Event) {
	if e.Kind == events.Resync && e.Tournament == "" {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.list = append(h.list, e)
}

func (h *heard) events() []events.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]events.Event(nil), h.list...)
}

// waitFor waits until the hooks heard n events.
func (h *heard) waitFor(t *testing.T, n int) []events.Event {
	t.Helper()
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(5 * time.Millisecond) {
		if got := h.events(); len(got) >= n {
			return got
		}
	}
	got := h.events()
	t.Fatalf("heard %d events within 10 s, want %d", len(got), n)
	return got
}

// replicas opens two stores on one database: one publishes through a
// recording notifier, two listens (a subscriber keeps it listening) and
// records what it hears.
func replicas(t *testing.T, log *slog.Logger) (one *events.Bus, sent *notifier, two *events.Bus, got *heard) {
	t.Helper()
	url := dbtest.PostgresURL(t)
	sent = &notifier{DB: openReplica(t, url)}
	one, two = events.New(sent, log), events.New(openReplica(t, url), nil)
	t.Cleanup(one.Close)
	t.Cleanup(two.Close)
	got = &heard{}
	two.OnEvent(got.add)
	ch, cancel := two.Subscribe("t_keep_listening")
	t.Cleanup(cancel)
	go func() {
		for range ch {
		}
	}()
	waitListening(t, two)
	return one, sent, two, got
}

// eventsIn decodes the payloads sent.
func eventsIn(t *testing.T, payloads []string) []events.Event {
	t.Helper()
	var out []events.Event
	for _, p := range payloads {
		list, ok := events.DecodePayload(p)
		if !ok {
			t.Fatalf("payload %.60q not understood", p)
		}
		out = append(out, list...)
	}
	return out
}

func sameSet(t *testing.T, got, want []events.Event) {
	t.Helper()
	set := map[events.Event]int{}
	for _, e := range got {
		set[e]++
	}
	for _, e := range want {
		if set[e] == 0 {
			t.Errorf("%+v was not heard", e)
			continue
		}
		set[e]--
	}
	for e, n := range set {
		if n > 0 {
			t.Errorf("%+v heard %d time(s) more than published", e, n)
		}
	}
}

// Many requests publishing at once: every event reaches the other
// replica, in fewer notifications than events, and the publisher's own
// hooks heard each one before Publish returned.
func TestBusBatchesConcurrentPublishersPostgres(t *testing.T) {
	one, sent, _, got := replicas(t, nil)
	mine := &heard{}
	one.OnEvent(mine.add)
	// Fewer than the queue's bound, so that none is merged into a Resync
	// if they all come before the sender runs.
	const publishers, each = 16, 30
	var want []events.Event
	for p := range publishers {
		for i := range each {
			want = append(want, events.Event{Tournament: fmt.Sprintf("t_%d", p%3), Kind: events.Sheet, Round: p + 1, Table: i + 1})
		}
	}
	var wg sync.WaitGroup
	for p := range publishers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, e := range want[p*each : (p+1)*each] {
				one.Publish(context.Background(), e)
			}
		}()
	}
	wg.Wait()
	if n := len(mine.events()); n != len(want) {
		t.Errorf("the publisher's own hooks heard %d events when Publish returned, want %d", n, len(want))
	}
	sameSet(t, got.waitFor(t, len(want)), want)
	statements := sent.statements()
	t.Logf("%d events in %d pg_notify statements (%d payloads)", len(want), statements, len(sent.sent()))
	if statements >= len(want) {
		t.Errorf("%d statements for %d events: not batched", statements, len(want))
	}
}

// A batch longer than a notification may be is split: every payload under
// PostgreSQL's limit, each filled as far as the next event allows.
func TestBusSplitsBatchesAtThePayloadLimitPostgres(t *testing.T) {
	one, sent, _, got := replicas(t, nil)
	first := events.Event{Tournament: "t_first", Kind: events.Round, Round: 1}
	release := sent.publishHeld(one, first)
	defer release()
	long := "t_" + strings.Repeat("x", 100)
	want := []events.Event{first}
	publish := func(e events.Event) {
		want = append(want, e)
		one.Publish(context.Background(), e)
		one.Publish(context.Background(), e) // a duplicate in the batch: merged
	}
	// 480 events of about 40 bytes each in the payloads of long: three.
	for i := range 480 {
		publish(events.Event{Tournament: long, Kind: events.Sheet, Round: 1_000_000 + i, Table: 1_000_000 + i})
	}
	publish(events.Event{Tournament: "t_other", Kind: events.Standings})
	publish(events.Event{Tournament: "t_other", Kind: events.Round, Round: 2})
	release()
	one.Close() // flushes
	sameSet(t, got.waitFor(t, len(want)), want)
	sent.mu.Lock()
	calls := sent.calls
	sent.mu.Unlock()
	if len(calls) != 2 {
		t.Fatalf("%d statements, want 2 (the held one, then the batch in one)", len(calls))
	}
	batch := calls[1]
	if len(batch) != 4 {
		t.Errorf("the batch in %d payloads, want 3 of %s and 1 of t_other", len(batch), long)
	}
	for i, p := range batch {
		if len(p) > events.MaxPayload {
			t.Errorf("payload %d is %d bytes, limit %d", i, len(p), events.MaxPayload)
		}
		// The next event (about 40 bytes) did not fit: full to the limit.
		if i < 2 && len(p) < events.MaxPayload-50 {
			t.Errorf("payload %d is %d bytes: split before it was full", i, len(p))
		}
		t.Logf("payload %d: %d bytes", i, len(p))
	}

	// The limit itself is PostgreSQL's.
	if err := sent.DB.Notify(context.Background(), "c", strings.Repeat("a", events.MaxPayload)); err != nil {
		t.Errorf("a payload of %d bytes: %v", events.MaxPayload, err)
	}
	if err := sent.DB.Notify(context.Background(), "c", strings.Repeat("a", events.MaxPayload+1)); err == nil {
		t.Errorf("PostgreSQL took a payload of %d bytes: the limit is higher", events.MaxPayload+1)
	}
}

// A replica of the previous version sends one event per notification, as
// an object: still heard, as are the several events of a batch. What is
// not an event of a tournament is not delivered.
func TestBusReadsEveryPayloadFormPostgres(t *testing.T) {
	_, sent, _, got := replicas(t, nil)
	for _, p := range []string{
		`{"t":"t_old","k":"sheet","r":1,"n":2}`,
		`not an event`,
		`{"k":"sheet"}`,
		`{"t":"t_new","k":"resync","e":[{"k":"round","r":3},{"k":"standings"}]}`,
		`{"k":"sheet","e":[{"k":"round","r":3}]}`,
	} {
		if err := sent.DB.Notify(context.Background(), events.Channel, p); err != nil {
			t.Fatal(err)
		}
	}
	list := got.waitFor(t, 3)
	want := []events.Event{
		{Tournament: "t_old", Kind: events.Sheet, Round: 1, Table: 2},
		{Tournament: "t_new", Kind: events.Round, Round: 3},
		{Tournament: "t_new", Kind: events.Standings},
	}
	for i, e := range want {
		if list[i] != e {
			t.Errorf("event %d: %+v, want %+v", i, list[i], e)
		}
	}
	// A marker sent last arrives after anything the bad payloads could
	// have produced.
	one := events.Event{Tournament: "t_marker", Kind: events.Tournament}
	if err := sent.DB.Notify(context.Background(), events.Channel, `{"t":"t_marker","k":"tournament"}`); err != nil {
		t.Fatal(err)
	}
	if list := got.waitFor(t, 4); len(list) != 4 || list[3] != one {
		t.Errorf("heard %+v, want the three events and the marker", list)
	}
}

// Close returns once everything published before it has been sent.
func TestBusCloseFlushesPostgres(t *testing.T) {
	one, sent, _, got := replicas(t, nil)
	release := sent.publishHeld(one, events.Event{Tournament: "t_first", Kind: events.Tournament})
	want := []events.Event{{Tournament: "t_first", Kind: events.Tournament}}
	for i := range 50 {
		e := events.Event{Tournament: "t_a", Kind: events.Sheet, Round: 1, Table: i + 1}
		want = append(want, e)
		one.Publish(context.Background(), e)
	}
	closed := make(chan struct{})
	go func() {
		one.Close()
		close(closed)
	}()
	release()
	<-closed
	sameSet(t, eventsIn(t, sent.sent()), want) // all sent when Close returned
	sameSet(t, got.waitFor(t, len(want)), want)
}

// A notification PostgreSQL refuses is logged at WARN; the batches after
// it go out.
func TestBusKeepsSendingAfterAFailurePostgres(t *testing.T) {
	var logs bytes.Buffer // read after Close: the sender is done
	one, sent, _, got := replicas(t, slog.New(slog.NewTextHandler(&logs, nil)))
	sent.mu.Lock()
	sent.spoil = true
	sent.mu.Unlock()
	release := sent.publishHeld(one, events.Event{Tournament: "t_a", Kind: events.Sheet, Round: 1, Table: 1}) // lost
	var want []events.Event
	for i := range 10 {
		e := events.Event{Tournament: "t_a", Kind: events.Sheet, Round: 1, Table: i + 2}
		want = append(want, e)
		one.Publish(context.Background(), e)
	}
	release()
	one.Close()
	sameSet(t, got.waitFor(t, len(want)), want)
	if s := logs.String(); !strings.Contains(s, "level=WARN") || !strings.Contains(s, `msg="event not sent"`) {
		t.Errorf("the refused notification was not logged at WARN: %q", s)
	}
}

// A full queue is merged, not blocked on nor dropped silently: the
// events of each tournament queued become one Resync of that tournament.
func TestBusFoldsAFullQueuePostgres(t *testing.T) {
	var logs bytes.Buffer // read after Close: the sender is done
	one, sent, _, got := replicas(t, slog.New(slog.NewTextHandler(&logs, nil)))
	mine := &heard{}
	one.OnEvent(mine.add)
	first := events.Event{Tournament: "t_a", Kind: events.Round, Round: 1}
	release := sent.publishHeld(one, first)
	one.Publish(context.Background(), events.Event{Tournament: "t_b", Kind: events.Standings})
	for i := range events.MaxPending + 10 {
		one.Publish(context.Background(), events.Event{Tournament: "t_a", Kind: events.Sheet, Round: 2, Table: i + 1})
	}
	if n := len(mine.events()); n != events.MaxPending+12 {
		t.Errorf("the publisher's hooks heard %d events, want all %d", n, events.MaxPending+12)
	}
	release()
	one.Close()
	want := []events.Event{first, {Tournament: "t_b", Kind: events.Resync}, {Tournament: "t_a", Kind: events.Resync}}
	list := got.waitFor(t, len(want))
	sameSet(t, list, want)
	if !strings.Contains(logs.String(), "event queue full") {
		t.Errorf("the merge was not logged: %q", logs.String())
	}
}
