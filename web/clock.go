package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
)

// The hall's clock on pages (UI.md §9): the round page starts
// it and calls time; the table page shows [data-clock] and polls
// /table/{code}/clock.

// clockView is the "clock" partial's data.
type clockView struct {
	Clock app.Clock
	URL   string // polled for the clock's state; "" for none
}

// Minutes and Seconds are what remains, as mm:ss.
func (c clockView) Minutes() int { return c.Clock.Remaining / 60 }

func (c clockView) Seconds() string { return fmt.Sprintf("%02d", c.Clock.Remaining%60) }

// tableClock: GET /table/{code}/clock — the table's round clock as JSON.
func (s *Server) tableClock(w http.ResponseWriter, r *http.Request) {
	p, state, err := s.app.TableEntryFrom(r.Context(), clientAddress(r), r.PathValue("code"))
	if s.tableRefused(w, r, state, err) {
		return
	}
	c, err := s.app.RoundClock(r.Context(), p.Entry.TournamentID, p.Entry.Round)
	if err != nil {
		s.serverError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{"running": c.Running, "remaining": c.Remaining, "time_called": c.Called})
}

// roundClockStart: POST …/rounds/{n}/clock (minutes, empty for the
// default); roundClockCall: POST …/rounds/{n}/clock/call.
func (s *Server) roundClockStart(w http.ResponseWriter, r *http.Request) {
	s.roundClockDo(w, r, func(n int) error {
		minutes := 0
		if v := strings.TrimSpace(r.PostFormValue("minutes")); v != "" {
			m, err := strconv.Atoi(v)
			if err != nil {
				m = -1 // refused by the operation, naming /minutes
			}
			minutes = m
		}
		_, err := s.app.StartClock(r.Context(), s.caller(r), r.PathValue("tid"), n, minutes)
		return err
	})
}

func (s *Server) roundClockCall(w http.ResponseWriter, r *http.Request) {
	s.roundClockDo(w, r, func(n int) error {
		_, err := s.app.CallTime(r.Context(), s.caller(r), r.PathValue("tid"), n)
		return err
	})
}

func (s *Server) roundClockDo(w http.ResponseWriter, r *http.Request, do func(int) error) {
	n, ok := pathInt(r, "n")
	if !ok {
		s.notFound(w, r)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	if err := do(n); err != nil {
		s.operationFailed(w, r, err)
		return
	}
	seeOther(w, r, tournamentPath(r.PathValue("tid"), "/rounds/"+strconv.Itoa(n))+"?moved=1")
}
