package web

import (
	"context"
	"fmt"
	"net/http"

	"segnapunti/events"
	"segnapunti/events/sse"
)

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
	sse.Stream{
		Events:    ch,
		StillOpen: func(ctx context.Context) bool { return s.app.StillPublic(ctx, tid) },
		// The page only needs to know where to look again.
		Data: func(e events.Event) []byte {
			return fmt.Appendf(nil, `{"round":%d,"table":%d}`, e.Round, e.Table)
		},
	}.Serve(r.Context(), w)
}
