package web

import (
	"fmt"
	"html/template"
	"net/http"
	"strings"

	"segnapunti/app"
)

// reviewPage is /tournaments/{tid}/review: the referee's queue (UI.md §4).
type reviewPage struct {
	Page
	Queue app.ReviewQueue
	Items []reviewItem
	// The labels every item repeats, translated once for the page.
	OpenLabel, CorrectLabel, CalledLabel string
	// ItemsHTML is Items rendered (reviewItemsHTML).
	ItemsHTML template.HTML
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
	if data.ItemsHTML, err = s.reviewItemsHTML(&data); err != nil {
		s.serverError(w, r, err)
		return
	}
	if r.Header.Get("HX-Request") == "true" {
		s.renderFragment(w, r, http.StatusOK, "review", "review_queue", &data)
		return
	}
	s.render(w, r, http.StatusOK, "review", &data)
}

// reviewItemsHTML renders the queue's items once per state of the queue
// (the stamp its sheets were read at and the open referee calls), language
// and right to correct: the page is polled every 4 s by every referee's
// desk, and a 100-item queue was 36,000 allocations a view, most of them
// html/template printing each field.
func (s *Server) reviewItemsHTML(data *reviewPage) (template.HTML, error) {
	q := data.Queue
	var version strings.Builder
	version.WriteString(q.Stamp)
	for _, it := range q.Items {
		if it.Called {
			fmt.Fprintf(&version, "\x00%d/%d", it.Round, it.Table)
		}
	}
	return s.fragment(data.Lang, "review", "review_items", fmt.Sprintf("review_items\x00%s\x00%s\x00%t", data.Lang, q.Tournament.ID, q.CanJudge), version.String(), data)
}
