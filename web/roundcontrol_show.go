package web

import (
	"fmt"
	"net/http"
	"net/url"

	"segnapunti/app"
)

// roundControlPage is /tournaments/{tid}/rounds/{n}/control: the
// referee's buttons for the round's states (RULES §10), each saying what
// it means for later corrections (RULES §9).
type roundControlPage struct {
	Page
	Desk app.RoundDesk
}

func (s *Server) roundControlShow(w http.ResponseWriter, r *http.Request) {
	p, _ := s.principal(r)
	n, ok := pathNumber(r, "n")
	if !ok {
		s.notFound(w, r)
		return
	}
	d, err := s.app.RoundControl(r.Context(), p, r.PathValue("tid"), n)
	if err != nil {
		s.refereeFail(w, r, err)
		return
	}
	data := roundControlPage{Page: s.page(r, "referee.control_title"), Desk: d}
	if r.URL.Query().Get("moved") != "" {
		data.Message = "referee.control_moved"
	}
	s.render(w, r, http.StatusOK, "roundcontrol", &data)
}

// roundControlMove: POST …/control with state = the wanted state.
func (s *Server) roundControlMove(w http.ResponseWriter, r *http.Request) {
	p, _ := s.principal(r)
	n, ok := pathNumber(r, "n")
	if !ok {
		s.notFound(w, r)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	tid := r.PathValue("tid")
	if _, err := s.app.SetRoundState(r.Context(), p, tid, n, r.PostFormValue("state")); err != nil {
		s.refereeFail(w, r, err)
		return
	}
	seeOther(w, r, fmt.Sprintf("/tournaments/%s/rounds/%d/control?moved=1", url.PathEscape(tid), n))
}
