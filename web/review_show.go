package web

import (
	"net/http"

	"segnapunti/app"
)

// reviewPage is /tournaments/{tid}/review: the referee's queue (UI.md §4).
type reviewPage struct {
	Page
	Queue app.ReviewQueue
	Items []reviewItem
}

type reviewItem struct {
	app.ReviewItem
	Worst    string
	Findings []findingView
}

// reviewShow renders the queue; an htmx poll (HX-Request) gets the queue
// block alone.
func (s *Server) reviewShow(w http.ResponseWriter, r *http.Request) {
	p, _ := s.principal(r)
	q, err := s.app.Review(r.Context(), p, r.PathValue("tid"))
	if err != nil {
		s.refereeFail(w, r, err)
		return
	}
	data := reviewPage{Page: s.page(r, "referee.review_title"), Queue: q}
	for _, it := range q.Items {
		data.Items = append(data.Items, reviewItem{ReviewItem: it, Worst: it.Worst(), Findings: findingViews(it.Findings, data.Lang)})
	}
	if r.Header.Get("HX-Request") == "true" {
		s.renderFragment(w, r, http.StatusOK, "review", "review_queue", &data)
		return
	}
	s.render(w, r, http.StatusOK, "review", &data)
}
