package web

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
)

// The public pages (UI.md §7): no sign-in, read-only, cacheable. Every
// page reads one app.PublicTournament (computed once per tournament
// version and kept in memory by package app), answers 304 to a client
// that has this version, and re-renders only the fragment htmx asks for
// when a live event arrives.

// publicMaxAge is how long a browser may show a public page without
// asking again; live updates ask for fragments, which are always
// revalidated (304 while nothing changed).
const publicMaxAge = 5

// publicPage is the template data every public page shares.
type publicPage struct {
	Page
	T *app.PublicTournament
	// Base is /p/{tid}; Events the page event stream; Self this page's
	// address (for the QR code); QR the QR code of Self as a data: URL.
	Base, Events, Self string
	QR                 template.URL
	// Live is the hx-trigger of the page's live fragment.
	Live string
}

// publicLoad loads the public tournament of the path and answers what it
// can without rendering: 404 for anything not public, 304 when the client
// has this version. ok false means the request is answered.
func (s *Server) publicLoad(w http.ResponseWriter, r *http.Request, title, live string) (publicPage, bool) {
	pt, err := s.app.PublicTournament(r.Context(), r.PathValue("tid"))
	if err != nil {
		s.publicFail(w, r, err)
		return publicPage{}, false
	}
	fragment := isFragment(r)
	who := ""
	if v, ok := viewerOf(r); ok {
		who = v.Person.ID // the layout shows who is signed in
	}
	etag := fmt.Sprintf(`W/"p%s-%s-%t-%s"`, pt.Version, langOf(r), fragment, who)
	h := w.Header()
	h.Set("ETag", etag)
	switch {
	case who != "":
		h.Set("Cache-Control", "private, no-cache")
	case fragment:
		h.Set("Cache-Control", "public, max-age=0, must-revalidate")
	default:
		h.Set("Cache-Control", fmt.Sprintf("public, max-age=%d", publicMaxAge))
	}
	h.Add("Vary", "HX-Request")
	if inm := r.Header.Get("If-None-Match"); inm != "" && etagListHas(inm, etag) {
		w.WriteHeader(http.StatusNotModified)
		return publicPage{}, false
	}
	base := "/p/" + pt.Tournament.ID
	p := publicPage{Page: s.page(r, title), T: pt, Base: base, Events: base + "/events", Live: live}
	if !fragment {
		p.Self = s.absoluteURL(r)
		// The QR code carries the address phones open.
		if pub, err := s.publicBase(r); err == nil && pub.Source != "request" {
			p.Self = pub.URL + r.URL.EscapedPath()
		}
		p.QR = s.qrDataURL(p.Self)
	}
	return p, true
}

// publicFail answers an operation's refusal: every public URL of a
// tournament that is not public, or of something it lacks, is a 404.
func (s *Server) publicFail(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, domain.ErrNotFound) || errors.Is(err, app.ErrBadParameter) {
		s.notFound(w, r)
		return
	}
	s.serverError(w, r, err)
}

// isFragment: htmx asks for the live part of the page only.
func isFragment(r *http.Request) bool { return r.Header.Get("HX-Request") == "true" }

// renderPublic writes a public page, or only its "live" block when htmx
// asks for it, with the caching headers publicLoad set.
func (s *Server) renderPublic(w http.ResponseWriter, r *http.Request, name string, data any) {
	tpl, ok := s.templates[langOf(r)][name]
	if !ok {
		s.serverError(w, r, fmt.Errorf("no template %s", name))
		return
	}
	block := "layout.html"
	if isFragment(r) {
		block = "live"
	}
	var buf bytes.Buffer
	if err := tpl.ExecuteTemplate(&buf, block, data); err != nil {
		s.serverError(w, r, fmt.Errorf("render %s/%s: %w", name, block, err))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write(buf.Bytes())
}

// etagListHas reports whether an If-None-Match list names etag (weak
// comparison, RFC 9110 §13.1.2).
func etagListHas(header, etag string) bool {
	weak := strings.TrimPrefix(etag, "W/")
	for part := range strings.SplitSeq(header, ",") {
		part = strings.TrimSpace(part)
		if part == "*" || strings.TrimPrefix(part, "W/") == weak {
			return true
		}
	}
	return false
}

// absoluteURL is the address of the request as the browser used it (for
// the QR code), without the language choice.
func (s *Server) absoluteURL(r *http.Request) string {
	scheme := "http"
	if s.isTLS(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host + r.URL.EscapedPath()
}

// qrDataURL is a QR code of text as an SVG data: URL (the CSP allows
// data: images; an <img> carries the alt text).
func (s *Server) qrDataURL(text string) template.URL {
	u, err := s.qr.svg(text)
	if err != nil {
		return ""
	}
	return u
}

// entrantName is how the public pages name an entrant: the team, or the
// players.
func entrantName(e domain.Entrant) string {
	if e.Team != "" {
		return e.Team
	}
	names := make([]string, 0, len(e.Players))
	for _, p := range e.Players {
		names = append(names, p.Name)
	}
	return strings.Join(names, " – ")
}

// standingRow is one row of the standings table.
type standingRow struct {
	Rank           int
	ID, Name, Href string
	VP, MP, Wins   int
	// Differs counts this entrant's matches whose official (written)
	// result is not the computed one (RULES §8: the pages say so).
	Differs int
	// Adjusted: adjustments are counted in VP and MP (RULES §7).
	Adjusted bool
	// WithdrawnFrom is the round the entrant withdrew from (RULES §12.3),
	// 0 when it did not: the row says so (UI.md §9 data-withdrawn).
	WithdrawnFrom int
	// Matches and Won: a team's counted matches and those it won (RULES
	// §12.5), shown when the table is of teams.
	Matches, Won int
}

// standingsTable is the data of the standings_table partial (UI.md §7),
// the one view of standings for the public pages and the secretary's.
type standingsTable struct {
	AfterRound  int
	Provisional bool
	// Void: the tournament was interrupted before it could be valid
	// (FITAB art. 39): these are no final standings.
	Void bool
	Rows []standingRow
	// Links: names link to the entrants' public cards (Href).
	// Marks: † beside the entrants whose official result differs.
	Links, Marks bool
	// PerPlayer: an individual tournament ranks players (RULES §8), so
	// the column says Giocatore; its entrants are one player each.
	PerPlayer bool
	// Teams: team standings (RULES §12.5): the column says Squadra and the
	// matches played and won are shown.
	Teams bool
}

// newStandingsTable is the standings table of st; base is the public
// pages' root (the entrants' card links), "" for none.
func newStandingsTable(base string, st app.StandingsTable, provisional bool) standingsTable {
	out := standingsTable{AfterRound: st.AfterRound, Provisional: provisional, Void: st.Void, Teams: st.Teams}
	out.PerPlayer = len(st.Rows) > 0 && len(st.Rows[0].Entrant.Players) == 1 && !st.Teams
	played, won := map[string]int{}, map[string]int{}
	for _, m := range st.TeamMatches {
		for i, team := range m.Teams {
			played[team]++
			if m.MP[i] > 0 {
				won[team]++
			}
		}
	}
	for _, row := range st.Rows {
		r := standingRow{Rank: row.Rank, ID: row.Entrant.ID, Name: entrantName(row.Entrant), VP: row.VP, MP: row.MP, Wins: row.Wins,
			Differs: len(st.Discrepancies[row.Entrant.ID]), Adjusted: len(row.Adjustments) > 0,
			Matches: played[row.Entrant.ID], Won: won[row.Entrant.ID]}
		if base != "" {
			r.Href = base + "/entrants/" + row.Entrant.ID
		}
		if w := row.Entrant.WithdrawnFromRound; w != nil {
			r.WithdrawnFrom = *w
		}
		out.Rows = append(out.Rows, r)
	}
	return out
}

// toStandingsTable is the public pages' table: names linked, † shown.
func toStandingsTable(base string, st app.StandingsTable, provisional bool) standingsTable {
	out := newStandingsTable(base, st, provisional)
	out.Links, out.Marks = true, true
	return out
}

// seatRow is one table of a round as the public pages show it.
type seatRow struct {
	Table          int
	NS, EO         string // entrant ids
	NSName, EOName string
	// NS2, EO2 and their names: the second players of an individual
	// line ("" otherwise).
	NS2, EO2         string
	NS2Name, EO2Name string
	// Match: the team match of the table (RULES §12.5), 0 otherwise.
	Match              int
	Hands, Planned     int
	HasSheet, Complete bool
	NSTotal, EOTotal   int
	NSVP, EOVP         int
	NSMP, EOMP         int
}

// playerSeat is one player in the alphabetical seating.
type playerSeat struct {
	Name, Entrant string
	Table         int
	Line          string // "NS" or "EO"
}

func seating(pt *app.PublicTournament, r app.PublicRound) ([]seatRow, []playerSeat) {
	var rows []seatRow
	var players []playerSeat
	name := func(id string) string {
		if e, ok := pt.Entrant(id); ok {
			return entrantName(e)
		}
		return ""
	}
	for _, tb := range r.Tables {
		row := seatRow{Table: tb.Table.Table, Match: tb.Table.Match, NS: tb.Table.NS, EO: tb.Table.EO, NSName: name(tb.Table.NS), EOName: name(tb.Table.EO),
			NS2: tb.Table.NS2, EO2: tb.Table.EO2, NS2Name: name(tb.Table.NS2), EO2Name: name(tb.Table.EO2),
			Hands: tb.Hands, Planned: r.Round.HandsPlanned, HasSheet: tb.HasSheet, Complete: tb.Complete}
		if tb.HasSheet {
			ns, eo := tb.Lines[domain.NS], tb.Lines[domain.EO]
			row.NSTotal, row.EOTotal, row.NSVP, row.EOVP, row.NSMP, row.EOMP = ns.Total, eo.Total, ns.VP, eo.VP, ns.MP, eo.MP
		}
		rows = append(rows, row)
		for _, id := range tb.Table.Seated() { // individual: the four players
			l, _ := tb.Table.LineOf(id)
			if e, ok := pt.Entrant(id); ok {
				for _, p := range e.Players {
					players = append(players, playerSeat{Name: p.Name, Entrant: e.ID, Table: tb.Table.Table, Line: l.Label()})
				}
			}
		}
	}
	slices.SortFunc(players, func(a, b playerSeat) int {
		if c := strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)); c != 0 {
			return c
		}
		return a.Table - b.Table
	})
	return rows, players
}

// pathRound is the {n} of the path, 0 when it is not a round number.
func pathRound(r *http.Request) int {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 || n > app.MaxRoundsPlanned || strconv.Itoa(n) != r.PathValue("n") {
		return 0
	}
	return n
}
