// Package events is the per-tournament notification bus of the live pages
// (UI.md §7): a write operation publishes what changed after it committed,
// and every open public page of that tournament, on every replica, hears
// it. On PostgreSQL the events travel through LISTEN/NOTIFY (one listening
// connection per process, fanned out in the process; what a process
// publishes goes out in batches, outbox.go); on the embedded
// database, which has one process, through the process alone. There is no
// broker of our own beyond that.
package events

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Kind is what changed.
type Kind string

const (
	// Sheet: a sheet was stored, a hand appended, a sheet confirmed or
	// corrected (Round and Table say which).
	Sheet Kind = "sheet"
	// Round: a round was published or changed state (Round says which).
	Round Kind = "round"
	// Standings: something the standings count changed without a sheet (an
	// adjustment, entrants).
	Standings Kind = "standings"
	// Tournament: the tournament itself changed (made public or private).
	Tournament Kind = "tournament"
	// Resync is delivered to every subscriber when events may have been
	// missed (the listening connection was lost and is back): read again.
	Resync Kind = "resync"
	// TokenRevoked: an API token was revoked (Token says which; no
	// tournament). Every replica's authentication cache forgets it, so
	// that the revocation takes effect at once everywhere.
	TokenRevoked Kind = "token"
)

// Event is one change of one tournament.
type Event struct {
	Tournament string `json:"t"`
	Kind       Kind   `json:"k"`
	Round      int    `json:"r,omitempty"`
	Table      int    `json:"n,omitempty"`
	Token      string `json:"tok,omitempty"` // TokenRevoked: the token's id
}

// Channel is the PostgreSQL channel of the events.
const Channel = "segnapunti_events"

// Transport is PostgreSQL's LISTEN/NOTIFY as the store offers it. Notify
// sends its payloads in one statement.
type Transport interface {
	Notify(ctx context.Context, channel string, payloads ...string) error
	Listen(ctx context.Context, channel string, ready func(), deliver func(payload string)) error
}

// subscriberBuffer is how many events wait for a slow subscriber; beyond
// it the subscriber gets one Resync instead of the events it missed.
const subscriberBuffer = 64

// retryListen is the pause before listening again after a lost connection.
const retryListen = time.Second

// Bus fans events out to the subscribers of each tournament.
type Bus struct {
	remote Transport // nil: in the process only
	log    *slog.Logger

	mu        sync.Mutex
	subs      map[string]map[*subscriber]struct{}
	hooks     []func(Event)
	holds     int    // Hold calls not yet released: listen without subscribers
	listening bool   // the listening connection is up (always, in-process)
	epoch     uint64 // bumped whenever listening starts or stops
	stop      context.CancelFunc
	done      chan struct{}
	closed    bool

	out *outbox // the events waiting for the sender (remote only)
}

type subscriber struct {
	ch     chan Event
	missed bool
}

// New returns a bus. remote nil keeps the events in the process (the
// embedded database); otherwise they travel through remote, and the bus
// listens while it has subscribers.
func New(remote Transport, log *slog.Logger) *Bus {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Bus{remote: remote, log: log, subs: map[string]map[*subscriber]struct{}{}, listening: remote == nil, out: newOutbox()}
}

// Publish announces a change that has committed. This process's hooks
// (caches) hear it at once, before Publish returns; the subscribers hear
// it through the database, once, sent by the bus's sender after Publish
// returned (outbox.go): the request pays no round trip for it. Failing to
// announce is logged, not returned: the write stands, and the pages'
// polling fallback and the public cache's TTL catch up. ctx is not used:
// the event goes out even if the caller's request is being cancelled,
// since the write is in.
func (b *Bus) Publish(ctx context.Context, e Event) {
	if b.remote == nil {
		b.deliver(e)
		return
	}
	b.mu.Lock()
	for _, f := range b.hooks {
		f(e)
	}
	b.mu.Unlock()
	start, folded := b.out.put(e)
	if folded {
		b.log.Warn("event queue full: its events merged into resyncs", "tournament", e.Tournament)
	}
	if start {
		go b.send()
	}
}

// OnEvent registers f to hear every event of every tournament (and
// Resync, with no tournament) before the subscribers do: the events this
// process publishes at once, those of other processes while the bus
// listens. It does not make the bus listen. f runs under the bus's lock:
// it must not call the bus.
func (b *Bus) OnEvent(f func(Event)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.hooks = append(b.hooks, f)
}

// Listening reports whether events are being heard now, and the epoch of
// that state: an observation made in one epoch holds while the epoch is
// the same and Listening is true.
func (b *Bus) Listening() (bool, uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.listening, b.epoch
}

// Subscribe returns the events of one tournament until cancel is called or
// the bus is closed (then the channel is closed).
func (b *Bus) Subscribe(tournament string) (<-chan Event, func()) {
	s := &subscriber{ch: make(chan Event, subscriberBuffer)}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		close(s.ch)
		return s.ch, func() {}
	}
	if b.subs[tournament] == nil {
		b.subs[tournament] = map[*subscriber]struct{}{}
	}
	b.subs[tournament][s] = struct{}{}
	b.startListening()
	b.mu.Unlock()
	var once sync.Once
	return s.ch, func() { once.Do(func() { b.unsubscribe(tournament, s) }) }
}

// startListening starts the listening connection if the events travel
// through the database and nobody listens yet. Called under b.mu.
func (b *Bus) startListening() {
	if b.remote != nil && b.stop == nil {
		ctx, cancel := context.WithCancel(context.Background())
		b.stop, b.done = cancel, make(chan struct{})
		go b.listen(ctx, b.done)
	}
}

// Hold keeps the bus listening while nobody subscribes, so that the hooks
// (OnEvent) hear the other replicas' events all the time — what an
// authentication cache needs to hear a revocation. release undoes it.
func (b *Bus) Hold() (release func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return func() {}
	}
	b.holds++
	b.startListening()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.holds--
			b.stopIfUnused()
		})
	}
}

// stopIfUnused gives the listening connection back when nobody in this
// process listens. Called under b.mu.
func (b *Bus) stopIfUnused() {
	if len(b.subs) == 0 && b.holds == 0 && b.stop != nil {
		b.stop()
		b.stop = nil
	}
}

func (b *Bus) unsubscribe(tournament string, s *subscriber) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.subs[tournament][s]; !ok {
		return // closed with the bus
	}
	delete(b.subs[tournament], s)
	if len(b.subs[tournament]) == 0 {
		delete(b.subs, tournament)
	}
	close(s.ch)
	b.stopIfUnused()
}

// Close ends every subscription (open event streams end cleanly), stops
// listening and waits until the events published so far are sent. The bus
// takes no subscriber afterwards; an event published later is still sent
// (a request finishing during shutdown), and Close again waits for it.
func (b *Bus) Close() {
	b.mu.Lock()
	b.closed = true
	for _, set := range b.subs {
		for s := range set {
			close(s.ch)
		}
	}
	b.subs = map[string]map[*subscriber]struct{}{}
	stop, done := b.stop, b.done
	b.stop = nil
	b.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
	b.out.flush()
}

// listen keeps one LISTEN up until ctx ends, listening again after a lost
// connection (and telling everybody to read again: events may be lost).
func (b *Bus) listen(ctx context.Context, done chan struct{}) {
	defer close(done)
	for ctx.Err() == nil {
		err := b.remote.Listen(ctx, Channel, func() {
			b.setListening(true)
			// Whatever happened while nobody listened is unknown here.
			b.deliver(Event{Kind: Resync})
		}, func(payload string) {
			list, ok := decodePayload(payload)
			if !ok {
				b.log.Warn("event not understood", "payload_bytes", len(payload))
				return
			}
			for _, e := range list {
				b.deliver(e)
			}
		})
		b.setListening(false)
		if ctx.Err() != nil || errors.Is(err, context.Canceled) {
			return
		}
		b.log.Warn("event listener lost its connection; listening again", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(retryListen):
		}
	}
}

func (b *Bus) setListening(on bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.listening != on {
		b.listening = on
		b.epoch++
	}
}

// deliver hands e to the hooks, then to the tournament's subscribers (all
// of them for Resync). A subscriber whose buffer is full gets a Resync as
// soon as it has room, instead of the events it missed.
func (b *Bus) deliver(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, f := range b.hooks {
		f(e)
	}
	send := func(s *subscriber) {
		if s.missed {
			select {
			case s.ch <- Event{Tournament: e.Tournament, Kind: Resync}:
				s.missed = false
			default:
				return
			}
		}
		select {
		case s.ch <- e:
		default:
			s.missed = true
		}
	}
	if e.Kind == Resync && e.Tournament == "" {
		for _, set := range b.subs {
			for s := range set {
				send(s)
			}
		}
		return
	}
	for s := range b.subs[e.Tournament] {
		send(s)
	}
}

// StreamNames are the event-stream event names of a change (API §4.2:
// "sheet", "standings", "round"): a sheet changes its round's results and
// the standings; a round's state the round and the standings (provisional
// or not); a resync or a change of the tournament everything; anything
// else the standings.
func StreamNames(e Event) []string {
	switch e.Kind {
	case Sheet:
		return []string{"sheet", "standings"}
	case Round:
		return []string{"round", "standings"}
	case Resync, Tournament:
		return []string{"sheet", "round", "standings"}
	default:
		return []string{"standings"}
	}
}
