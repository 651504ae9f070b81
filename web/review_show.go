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
	// The labels every item repeats, translated once for the page.
	OpenLabel, CorrectLabel, CalledLabel string
}

// reviewItem is an item as the queue shows it: its words translated here
// so that the template prints fields and calls no function per item.
type reviewItem struct {
	app.ReviewItem
	Worst      string
	Heading    string // "Turno R, tavolo T"
	WorstLabel string
	Findings   []findingView
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
	lang := data.Lang
	data.OpenLabel, data.CorrectLabel, data.CalledLabel = translate(lang, "referee.open_sheet"), translate(lang, "referee.correct"), translate(lang, "referee.called")
	data.Items = make([]reviewItem, 0, len(q.Items))
	for _, it := range q.Items {
		worst := it.Worst()
		data.Items = append(data.Items, reviewItem{ReviewItem: it, Worst: worst,
			Heading:    translate(lang, "referee.round_table", it.Round, it.Table),
			WorstLabel: translate(lang, "referee.worst_"+worst),
			Findings:   findingViews(it.Findings, lang)})
	}
	if r.Header.Get("HX-Request") == "true" {
		s.renderFragment(w, r, http.StatusOK, "review", "review_queue", &data)
		return
	}
	s.render(w, r, http.StatusOK, "review", &data)
}
