package web

import (
	"net/http"

	"segnapunti/app"
)

// timeZoneSave: POST /tournaments/{tid}/time-zone, field time_zone — the
// club (or an admin) sets the tournament's time zone (issue 22), through
// the same operation as PATCH /v1/tournaments/{tid} {"time_zone": …}.
func (s *Server) timeZoneSave(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	zone := r.PostFormValue("time_zone")
	t, err := s.app.PatchTournament(r.Context(), s.caller(r), r.PathValue("tid"), app.PublicPatch{TimeZone: &zone})
	s.settingSaved(w, r, t, err, "secretary.field.time_zone")
}
