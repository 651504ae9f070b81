package web

import (
	"errors"
	"net/http"

	"segnapunti/app"
	"segnapunti/domain"
)

// timeZoneSave: POST /tournaments/{tid}/time-zone, field time_zone — the
// club (or an admin) sets the tournament's time zone (issue 22), through
// the same operation as PATCH /v1/tournaments/{tid} {"time_zone": …}.
func (s *Server) timeZoneSave(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	zone := r.PostFormValue("time_zone")
	t, err := s.app.PatchTournament(r.Context(), s.caller(r), r.PathValue("tid"), app.PublicPatch{TimeZone: &zone})
	switch {
	case errors.Is(err, domain.ErrInvalid):
		s.renderError(w, r, http.StatusUnprocessableEntity, "secretary.field.time_zone")
	case errors.Is(err, domain.ErrNotFound):
		s.notFound(w, r)
	case errors.Is(err, app.ErrForbidden):
		s.renderError(w, r, http.StatusForbidden, "error.forbidden")
	case err != nil:
		s.serverError(w, r, err)
	default:
		seeOther(w, r, "/tournaments/"+t.ID)
	}
}
