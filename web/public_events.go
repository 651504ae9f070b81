package web

import (
	"fmt"
	"net/http"
	"time"

	"segnapunti/events"
)

// sseHeartbeat keeps an idle event stream (and the proxies between) open.
const sseHeartbeat = 15 * time.Second

// publicEvents: GET /p/{tid}/events — the page event stream: "sheet",
// "standings" and "round" events that tell the open public pages to fetch
// their live fragment again. It ends when the browser goes, the service
// shuts down (app.Close) or the tournament stops being public.
func (s *Server) publicEvents(w http.ResponseWriter, r *http.Request) {
	tid := r.PathValue("tid")
	if _, err := s.app.PublicTournament(r.Context(), tid); err != nil {
		s.publicFail(w, r, err)
		return
	}
	ch, cancel := s.app.Events().Subscribe(tid)
	defer cancel()
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	// The server's WriteTimeout is for pages; a stream is kept open as long
	// as each write (a heartbeat at least) gets through in time.
	rc.SetWriteDeadline(time.Now().Add(2 * sseHeartbeat))
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 2000\n: connected\n\n")
	if err := rc.Flush(); err != nil {
		return
	}
	tick := time.NewTicker(sseHeartbeat)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
			if !s.app.StillPublic(r.Context(), tid) {
				return
			}
			fmt.Fprint(w, ": heartbeat\n\n")
		case e, open := <-ch:
			if !open || !s.app.StillPublic(r.Context(), tid) {
				return // shutting down, or no longer public
			}
			for _, name := range events.StreamNames(e) {
				fmt.Fprintf(w, "event: %s\ndata: {\"round\":%d,\"table\":%d}\n\n", name, e.Round, e.Table)
			}
		}
		if err := rc.Flush(); err != nil {
			return
		}
		rc.SetWriteDeadline(time.Now().Add(2 * sseHeartbeat))
	}
}
