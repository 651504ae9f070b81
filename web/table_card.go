package web

import (
	"html/template"
	"net/http"
	"strconv"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/httperr"
)

// Table cards (UI.md §9): GET /tournaments/{tid}/tables/{t}/card
// is a printable card whose QR and short code open table t's current
// round, for every round of the tournament.

type tableCardView struct {
	app.TableCardLink
	QR  template.URL
	URL string // the whole address the QR carries
}

type tableCardPage struct {
	Page
	Tournament domain.Tournament
	Public     publicAddress
	Cards      []tableCardView
}

// tableCardShow: GET /tournaments/{tid}/tables/{t}/card.
func (s *Server) tableCardShow(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("t"))
	if err != nil || n < 1 || n > app.MaxTables {
		s.notFound(w, r)
		return
	}
	who, _ := s.principal(r)
	t, cards, err := s.app.TableCards(r.Context(), who, r.PathValue("tid"), []int{n})
	if s.printFailed(w, r, err) {
		return
	}
	data := tableCardPage{Page: s.page(r, "print.card_title"), Tournament: t}
	if data.Public, err = s.publicBase(r); err != nil {
		s.serverError(w, r, err)
		return
	}
	if data.Cards, err = cardViews(&s.qr, data.Public.URL, cards); err != nil {
		s.serverError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "table_card", &data)
}

// cardViews draws each card's QR code of base + its link.
func cardViews(qr *qrCodes, base string, cards []app.TableCardLink) ([]tableCardView, error) {
	out := make([]tableCardView, 0, len(cards))
	for _, c := range cards {
		v := tableCardView{TableCardLink: c, URL: base + c.URL}
		var err error
		if v.QR, err = qr.svg(v.URL); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// printFailed answers an operation's refusal on a printable page; it
// reports whether it answered.
func (s *Server) printFailed(w http.ResponseWriter, r *http.Request, err error) bool {
	if err == nil {
		return false
	}
	s.refused(w, r, err, map[*httperr.Kind]string{httperr.RoundClosed: "print.round_closed"})
	return true
}
