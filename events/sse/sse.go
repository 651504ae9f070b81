// Package sse writes a tournament's live events as a text/event-stream, the
// one stream writer behind both doors: the API's
// GET /v1/public/tournaments/{tid}/events and the pages' GET /p/{tid}/events.
// The two differ only in what an event's data line carries.
package sse

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"segnapunti/events"
)

// Heartbeat keeps an idle stream (and the proxies between) open: a comment
// line this often.
const Heartbeat = 15 * time.Second

// retryMillis is the reconnection delay the browser is told to use.
const retryMillis = 2000

// Stream is one open event stream.
type Stream struct {
	// Events is the tournament's subscription; a closed channel ends the
	// stream (the service is shutting down).
	Events <-chan events.Event
	// StillOpen is asked before every write; false ends the stream (the
	// tournament stopped being public).
	StillOpen func(context.Context) bool
	// Data is the data line of one event, written once per stream name.
	Data func(events.Event) []byte
}

// Serve writes the stream until the client goes, the subscription closes,
// StillOpen says no or a write does not get through in time. The server's
// WriteTimeout is for answers; a stream is kept open as long as each write
// (a heartbeat at least) gets through within two heartbeats.
func (s Stream) Serve(ctx context.Context, w http.ResponseWriter) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	rc.SetWriteDeadline(time.Now().Add(2 * Heartbeat))
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "retry: %d\n: connected\n\n", retryMillis)
	if rc.Flush() != nil {
		return
	}
	tick := time.NewTicker(Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if !s.StillOpen(ctx) {
				return
			}
			fmt.Fprint(w, ": heartbeat\n\n")
		case e, open := <-s.Events:
			if !open || !s.StillOpen(ctx) {
				return
			}
			data := s.Data(e)
			for _, name := range events.StreamNames(e) {
				fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
			}
		}
		if rc.Flush() != nil {
			return
		}
		rc.SetWriteDeadline(time.Now().Add(2 * Heartbeat))
	}
}
