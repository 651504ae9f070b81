package web

import (
	"errors"
	"net/http"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/httperr"
)

// publicSwitchData is the data of the public_switch partial ("rendi
// pubblico" on the club's tournament page): {{template "public_switch"
// .Tournament}} with a domain.Tournament.

// publicSwitch: POST /tournaments/{tid}/public, field public = "true" or
// "false" — the club (or an admin) makes the tournament public or private
// again, through the same operation as PATCH /v1/tournaments/{tid}.
func (s *Server) publicSwitch(w http.ResponseWriter, r *http.Request) {
	p, _ := s.principal(r)
	var public bool
	switch r.PostFormValue("public") {
	case "true":
		public = true
	case "false":
	default:
		s.renderError(w, r, http.StatusBadRequest, "public.switch.bad")
		return
	}
	t, err := s.app.PatchTournament(r.Context(), p, r.PathValue("tid"), app.PublicPatch{Public: &public})
	s.settingSaved(w, r, t, err, "public.switch.bad")
}

// settingSaved answers a form that changed a tournament's setting
// (PatchTournament): back to the tournament's page, or the refusal — bad
// is the message of a value the operation refused.
func (s *Server) settingSaved(w http.ResponseWriter, r *http.Request, t domain.Tournament, err error, bad string) {
	switch {
	case errors.Is(err, domain.ErrInvalid):
		s.renderError(w, r, httperr.Invalid.Page, bad)
	case err != nil:
		s.operationFailed(w, r, err)
	default:
		seeOther(w, r, "/tournaments/"+t.ID)
	}
}
