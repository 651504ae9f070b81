package web

import (
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
)

// The printable round (UI.md §3): seating by table, seating by player and
// a blank sheet per table with its entry link as a QR code and the typed
// code. Every opening prints each table's live link (the first issues the
// missing ones, app.PrintRound); issuing new codes is its own, confirmed
// action.

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
	// Seating (by table, by player) and BlankSheets are the page's two
	// long parts, rendered by the blocks print_seating and print_sheets
	// once per printPartsVersion.
	Seating, BlankSheets template.HTML
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
	if err := s.printParts(&data); err != nil {
		s.serverError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "print_round", &data)
}

// printParts renders the seating lists and the blank sheets of data, each
// kept once per printPartsVersion and language: a 100-table round's page
// rendered 100 sheets through html/template on every view (most of its
// 70-80 ms).
func (s *Server) printParts(data *printPage) (err error) {
	version := printPartsVersion(data)
	// One slot per tournament and language, as the other kept parts: the
	// version names the round, so printing another round replaces it (a
	// 1,000-table round's sheets are ~5 MB; one per round of every
	// tournament would be many).
	slot := "\x00" + data.Print.Tournament.ID + "\x00" + string(data.Lang)
	if data.Seating, err = s.fragment(data.Lang, "print_round", "print_seating", "print_seating"+slot, version, data); err != nil {
		return err
	}
	data.BlankSheets, err = s.fragment(data.Lang, "print_round", "print_sheets", "print_sheets"+slot, version, data)
	return err
}

// printPartsVersion names everything print_seating and print_sheets show:
// equal strings, equal parts. It is the data itself, written out (a few KB
// for 100 tables, far cheaper than rendering them); the QR codes are named
// by the addresses they carry.
func printPartsVersion(d *printPage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%d\x00%d\x00%s\x01", d.Print.Tournament.Kind, d.Print.Round.Number, len(d.Hands), d.Public.URL)
	for _, sh := range d.Sheets {
		fmt.Fprintf(&b, "%d\x00%s\x00%s\x00%t", sh.Table, sh.URL, sh.Short, sh.Live)
		for _, l := range sh.Lines {
			b.WriteString("\x00" + l.Line.Label() + "\x00" + l.Entrant)
			for _, p := range l.Players {
				b.WriteString("\x00" + p)
			}
			b.WriteByte('\x02')
		}
		b.WriteByte('\x01')
	}
	for _, st := range d.Print.Seats {
		fmt.Fprintf(&b, "%s\x00%s\x00%d\x00%s\x01", st.Player, st.Entrant, st.Table, st.Line.Label())
	}
	return b.String()
}

// siteBase is the scheme and host the request came to, for the QR codes.
func (s *Server) siteBase(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || (s.forwarded && r.Header.Get("X-Forwarded-Proto") == "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
