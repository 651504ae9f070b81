package web

import (
	"html/template"
	"net/http"
	"strconv"

	"segnapunti/app"
)

// The printable round (UI.md §3): seating by table, seating by player and
// a blank sheet per table with its entry link as a QR code and the typed
// code. Links are shown only on the answer to "genera i codici" (only
// their hashes are stored).

type printSheet struct {
	app.PrintTable
	QR    template.URL
	Short string
	URL   string
}

type printPage struct {
	Page
	Public publicAddress // the address the QR codes carry
	Print  app.RoundPrint
	Asking bool // the re-issue was asked for: confirm it first
	// All ("Stampa tutto", ?all=1): the round's table cards too, in the
	// same document.
	All    bool
	Cards  []tableCardView
	Sheets []printSheet
	Hands  []int
}

func (s *Server) printShow(w http.ResponseWriter, r *http.Request) { s.printRound(w, r, false) }

// printIssue: POST …/print — issuing every table's code again is its own
// action: without confirmed=yes it only asks.
func (s *Server) printIssue(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	if r.PostFormValue("confirmed") != "yes" {
		s.printRoundAsking(w, r, false, true)
		return
	}
	s.printRound(w, r, true)
}

func (s *Server) printRound(w http.ResponseWriter, r *http.Request, issue bool) {
	s.printRoundAsking(w, r, issue, false)
}

func (s *Server) printRoundAsking(w http.ResponseWriter, r *http.Request, issue, ask bool) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil {
		s.notFound(w, r)
		return
	}
	who, _ := s.principal(r)
	pr, err := s.app.PrintRound(r.Context(), who, r.PathValue("tid"), n, issue)
	if s.printFailed(w, r, err) {
		return
	}
	data := printPage{Page: s.page(r, "print.title"), Print: pr, Asking: ask}
	for i := 1; i <= pr.Round.HandsPlanned; i++ {
		data.Hands = append(data.Hands, i)
	}
	if data.Public, err = s.publicBase(r); err != nil {
		s.serverError(w, r, err)
		return
	}
	base := data.Public.URL
	for _, t := range pr.Tables {
		ps := printSheet{PrintTable: t}
		if t.Link != nil {
			ps.URL, ps.Short = base+t.Link.URL, t.Link.Short
			if ps.QR, err = s.qr.svg(ps.URL); err != nil {
				s.serverError(w, r, err)
				return
			}
		}
		data.Sheets = append(data.Sheets, ps)
	}
	if r.URL.Query().Get("all") == "1" && len(pr.Tables) > 0 && data.Public.URL != "" {
		tables := make([]int, 0, len(pr.Tables))
		for _, t := range pr.Tables {
			tables = append(tables, t.Table)
		}
		who, _ := s.principal(r)
		if _, cards, err := s.app.TableCards(r.Context(), who, pr.Tournament.ID, tables); err == nil {
			if data.Cards, err = cardViews(&s.qr, data.Public.URL, cards); err != nil {
				s.serverError(w, r, err)
				return
			}
			data.All = true
		} else if s.printFailed(w, r, err) {
			return
		}
	}
	if pr.IssuedNow {
		data.Page.Message = "print.codes_issued"
	}
	s.render(w, r, http.StatusOK, "print_round", &data)
}

// siteBase is the scheme and host the request came to, for the QR codes.
func (s *Server) siteBase(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || (s.forwarded && r.Header.Get("X-Forwarded-Proto") == "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
