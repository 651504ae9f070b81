package events

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// Sending to the other replicas (issue 11): a NOTIFY per write cost every
// write a database round trip, and PostgreSQL serialises the commits of
// NOTIFY on one global lock. So Publish only queues the event; one sender
// per bus sends everything queued at that moment as one pg_notify, and
// while that statement is in flight the next batch gathers.

// maxPayload is the longest payload sent: PostgreSQL refuses one of 8,000
// bytes or more (NOTIFY_PAYLOAD_MAX_LENGTH). A longer batch is split.
const maxPayload = 7999

// maxPending bounds the queue. Past it the queue is merged (fold), never
// blocked on or dropped.
const maxPending = 512

// notifyTimeout bounds one pg_notify.
const notifyTimeout = 2 * time.Second

// outbox is the queue between Publish and the sender.
type outbox struct {
	mu      sync.Mutex
	idle    sync.Cond // broadcast when the sender stops with nothing queued
	pending []Event
	queued  map[Event]struct{}
	sending bool // a sender goroutine is running
}

func newOutbox() *outbox {
	o := &outbox{queued: map[Event]struct{}{}}
	o.idle.L = &o.mu
	return o
}

// put queues e, unless the queue already holds it or a Resync that covers
// it. It reports whether the caller must start a sender, and whether the
// queue was full and had to be folded.
func (o *outbox) put(e Event) (start, folded bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.covers(e) {
		if len(o.pending) >= maxPending {
			o.pending, folded = fold(append(o.pending, e)), true
			clear(o.queued)
			for _, q := range o.pending {
				o.queued[q] = struct{}{}
			}
		} else {
			o.pending = append(o.pending, e)
			o.queued[e] = struct{}{}
		}
	}
	if !o.sending {
		o.sending, start = true, true
	}
	return start, folded
}

// covers: e, or a Resync of its tournament or of everything, is queued.
func (o *outbox) covers(e Event) bool {
	for _, q := range []Event{e, {Tournament: e.Tournament, Kind: Resync}, {Kind: Resync}} {
		if _, ok := o.queued[q]; ok {
			return true
		}
	}
	return false
}

// take hands the sender everything queued, or nil (and the sender stops)
// when nothing is.
func (o *outbox) take() []Event {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.pending) == 0 {
		o.sending = false
		o.idle.Broadcast()
		return nil
	}
	batch := o.pending
	o.pending = nil
	clear(o.queued)
	return batch
}

// flush waits until everything queued has been sent.
func (o *outbox) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for o.sending || len(o.pending) > 0 {
		o.idle.Wait()
	}
}

// fold merges a full queue: each tournament's events become one Resync of
// that tournament (its pages read everything again), in the order the
// tournaments first appear; and if even that is too many, one Resync of
// everything.
func fold(pending []Event) []Event {
	seen := map[string]bool{}
	var out []Event
	for _, e := range pending {
		if !seen[e.Tournament] {
			seen[e.Tournament] = true
			out = append(out, Event{Tournament: e.Tournament, Kind: Resync})
		}
	}
	if len(out) >= maxPending {
		return []Event{{Kind: Resync}}
	}
	return out
}

// send is the sender: it sends batches until the queue is empty.
func (b *Bus) send() {
	for {
		batch := b.out.take()
		if batch == nil {
			return
		}
		payloads, unsent := encodeBatch(batch, maxPayload)
		for _, e := range unsent {
			b.log.Warn("event not sent: too long for a notification", "tournament_bytes", len(e.Tournament), "kind", string(e.Kind))
		}
		for _, p := range payloads {
			ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
			err := b.remote.Notify(ctx, Channel, p.text)
			cancel()
			if err != nil {
				b.log.Warn("event not sent", "tournament", p.first.Tournament, "kind", string(p.first.Kind), "events", p.events, "err", err)
			}
		}
	}
}

// payload is one notification: its text, how many events it carries and
// the first of them (for the log).
type payload struct {
	text   string
	events int
	first  Event
}

// encodeBatch packs the events, in order, into as few payloads of at most
// limit bytes as it can: a JSON array of events, or one event alone as
// the object older replicas read. An event too long on its own comes back
// in unsent.
func encodeBatch(batch []Event, limit int) (out []payload, unsent []Event) {
	var buf []byte // the array being filled, without its closing bracket
	var n int
	var first Event
	emit := func() {
		switch n {
		case 0:
			return
		case 1:
			out = append(out, payload{text: string(buf[1:]), events: 1, first: first})
		default:
			out = append(out, payload{text: string(append(buf, ']')), events: n, first: first})
		}
		buf, n = buf[:0], 0
	}
	for _, e := range batch {
		enc, err := json.Marshal(e)
		if err != nil || len(enc) > limit {
			unsent = append(unsent, e)
			continue
		}
		// An array of k events is their lengths, k-1 commas and 2 brackets.
		if n > 0 && len(buf)+1+len(enc)+1 > limit {
			emit()
		}
		if n == 0 {
			buf, first = append(buf, '['), e
		} else {
			buf = append(buf, ',')
		}
		buf = append(buf, enc...)
		n++
	}
	emit()
	return out, unsent
}

// decodePayload reads a notification: one event (every version sends
// that) or an array of events (a batch). ok is false when it is neither,
// or names no tournament (only a Resync of everything names none).
func decodePayload(p string) (list []Event, ok bool) {
	if len(p) > 0 && p[0] == '[' {
		if err := json.Unmarshal([]byte(p), &list); err != nil {
			return nil, false
		}
	} else {
		var e Event
		if err := json.Unmarshal([]byte(p), &e); err != nil {
			return nil, false
		}
		list = []Event{e}
	}
	for _, e := range list {
		if e.Tournament == "" && e.Kind != Resync {
			return nil, false
		}
	}
	return list, len(list) > 0
}
