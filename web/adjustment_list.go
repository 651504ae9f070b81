package web

import (
	"net/http"

	"segnapunti/app"
	"segnapunti/domain"
)

// adjustmentsPage is /tournaments/{tid}/adjustments: warnings, lateness,
// byes, abandonment (RULES §7) with their effect on the standings.
type adjustmentsPage struct {
	Page
	Desk    app.AdjustmentDesk
	Reasons []domain.AdjustmentReason
}

func (s *Server) adjustmentList(w http.ResponseWriter, r *http.Request) {
	p, _ := s.principal(r)
	d, err := s.app.AdjustmentsDesk(r.Context(), p, r.PathValue("tid"))
	if err != nil {
		s.refereeFail(w, r, err)
		return
	}
	data := adjustmentsPage{Page: s.page(r, "referee.adjustments_title"), Desk: d, Reasons: domain.AdjustmentReasons}
	s.render(w, r, http.StatusOK, "adjustments", &data)
}
