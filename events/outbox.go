package events

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// Sending to the other replicas: a NOTIFY per write cost every
// write a database round trip, and PostgreSQL serialises the commits of
// NOTIFY on one global lock. So Publish only queues the event; one sender
// per bus sends everything queued at that moment in one pg_notify
// statement, and while that statement is in flight the next batch
// gathers.
//
// The payloads (encodeBatch): one per tournament of the batch (more if
// its events pass PostgreSQL's limit). A tournament's single event is the
// object every version sends, {"t":…,"k":…,"r":…,"n":…}; several are
// {"t":T,"k":"resync","e":[{"k":…,"r":…,"n":…},…]}. A replica of a
// version before the batches reads the latter as a Resync of T — its
// pages and caches of T read everything again: coarser, never stale —
// and this version reads the events of "e".

// maxPayload is the longest payload sent: PostgreSQL refuses one of 8,000
// bytes or more (NOTIFY_PAYLOAD_MAX_LENGTH). A longer batch is split.
const maxPayload = 7999

// maxPending bounds the queue. Past it the queue is merged (fold), never
// blocked on or dropped.
const maxPending = 512

// notifyTimeout bounds one pg_notify statement.
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
		if len(payloads) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
		err := b.remote.Notify(ctx, Channel, payloads...)
		cancel()
		if err != nil {
			b.log.Warn("event not sent", "tournament", batch[0].Tournament, "kind", string(batch[0].Kind), "events", len(batch), "err", err)
		}
	}
}

// wire is a payload: one event, or with Events several of the tournament
// (then Kind is Resync, for the versions that read only one event).
type wire struct {
	Tournament string         `json:"t"`
	Kind       Kind           `json:"k"`
	Round      int            `json:"r,omitempty"`
	Table      int            `json:"n,omitempty"`
	Token      string         `json:"tok,omitempty"`
	Events     []batchedEvent `json:"e,omitempty"`
}

// batchedEvent is an event inside a payload, of its tournament.
type batchedEvent struct {
	Kind  Kind   `json:"k"`
	Round int    `json:"r,omitempty"`
	Table int    `json:"n,omitempty"`
	Token string `json:"tok,omitempty"`
}

// encodeBatch packs the events into payloads of at most limit bytes: the
// tournaments in the order they first appear, each tournament's events in
// order, as few payloads as the limit allows. An event too long on its
// own comes back in unsent.
func encodeBatch(batch []Event, limit int) (out []string, unsent []Event) {
	var order []string
	byTournament := map[string][]Event{}
	for _, e := range batch {
		if _, ok := byTournament[e.Tournament]; !ok {
			order = append(order, e.Tournament)
		}
		byTournament[e.Tournament] = append(byTournament[e.Tournament], e)
	}
	for _, t := range order {
		var p []string
		p, unsent = encodeTournament(t, byTournament[t], limit, unsent)
		out = append(out, p...)
	}
	return out, unsent
}

// encodeTournament packs the events of tournament t.
func encodeTournament(t string, list []Event, limit int, unsent []Event) (out []string, _ []Event) {
	head, _ := json.Marshal(wire{Tournament: t, Kind: Resync})
	head = append(head[:len(head)-1], `,"e":[`...) // {"t":…,"k":"resync","e":[
	const tail = "]}"
	var buf []byte // head and the items so far
	var first Event
	n := 0
	emit := func() {
		switch n {
		case 0:
		case 1:
			single, _ := json.Marshal(wire{Tournament: first.Tournament, Kind: first.Kind, Round: first.Round, Table: first.Table, Token: first.Token})
			out = append(out, string(single))
		default:
			out = append(out, string(buf)+tail)
		}
		n = 0
	}
	for _, e := range list {
		item, err := json.Marshal(batchedEvent{Kind: e.Kind, Round: e.Round, Table: e.Table, Token: e.Token})
		if err != nil {
			unsent = append(unsent, e)
			continue
		}
		if n > 0 && len(buf)+1+len(item)+len(tail) > limit {
			emit()
		}
		if n == 0 {
			if single, _ := json.Marshal(wire{Tournament: t, Kind: e.Kind, Round: e.Round, Table: e.Table, Token: e.Token}); len(single) > limit {
				unsent = append(unsent, e)
				continue
			}
			buf, first = append(buf[:0], head...), e
		} else {
			buf = append(buf, ',')
		}
		buf = append(buf, item...)
		n++
	}
	emit()
	return out, unsent
}

// decodePayload reads a notification: one event (every version sends
// that) or several of one tournament ("e"). ok is false when it is
// neither, or names no tournament (only a Resync of everything and token
// revocations name none).
func decodePayload(p string) (list []Event, ok bool) {
	var w wire
	if err := json.Unmarshal([]byte(p), &w); err != nil {
		return nil, false
	}
	if len(w.Events) == 0 {
		e := Event{Tournament: w.Tournament, Kind: w.Kind, Round: w.Round, Table: w.Table, Token: w.Token}
		return []Event{e}, e.Tournament != "" || e.Kind == Resync || (e.Kind == TokenRevoked && e.Token != "")
	}
	list = make([]Event, len(w.Events))
	for i, b := range w.Events {
		list[i] = Event{Tournament: w.Tournament, Kind: b.Kind, Round: b.Round, Table: b.Table, Token: b.Token}
		if w.Tournament == "" && (b.Kind != TokenRevoked || b.Token == "") {
			return nil, false // only revocations travel without a tournament
		}
	}
	return list, true
}
