package web

import (
	"net/http"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/web/form"
)

// adjustmentsPage is /tournaments/{tid}/adjustments: warnings, lateness,
// byes, abandonment (RULES §7) with their effect on the standings, and —
// for who may adjust (app: Access.Judge) — the form making one.
type adjustmentsPage struct {
	Page
	Desk    app.AdjustmentDesk
	Reasons []domain.AdjustmentReason
	// Names are the entrants' names by id (the list).
	Names map[string]string
	// Choices are the entrant select's options, their words made in Go
	// (one per entrant).
	Choices []seatChoice
	Form    form.Adjustment
	Errs    form.Errors
	// Detail is the service's explanation of a refusal (it cites the
	// rule), shown under the field it concerns.
	Detail map[string]string
	// Created is the adjustment just stored (highlighted in the list).
	Created string
}

// adjustmentsData reads the desk; ok false when it answered the request.
func (s *Server) adjustmentsData(w http.ResponseWriter, r *http.Request) (adjustmentsPage, bool) {
	p, _ := s.principal(r)
	d, err := s.app.AdjustmentsDesk(r.Context(), p, r.PathValue("tid"))
	if err != nil {
		s.refereeFail(w, r, err)
		return adjustmentsPage{}, false
	}
	lang := langOf(r)
	names := make(map[string]string, len(d.Entrants))
	choices := make([]seatChoice, len(d.Entrants))
	for i, e := range d.Entrants {
		names[e.ID] = entrantName(e)
		choices[i] = seatChoice{ID: e.ID, Label: translate(lang, "adjust.entrant_number", e.ID) + " — " + names[e.ID]}
	}
	pg := s.page(r, "referee.adjustments_title")
	pg.Zone = app.TournamentZone(d.Tournament)
	return adjustmentsPage{Page: pg, Desk: d, Reasons: domain.AdjustmentReasons,
		Names: names, Choices: choices, Errs: form.Errors{}, Detail: map[string]string{}}, true
}

func (s *Server) adjustmentList(w http.ResponseWriter, r *http.Request) {
	data, ok := s.adjustmentsData(w, r)
	if !ok {
		return
	}
	if id := r.URL.Query().Get("created"); id != "" {
		data.Message, data.Created = "adjust.created", id
	}
	s.render(w, r, http.StatusOK, "adjustments", &data)
}
