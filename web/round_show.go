package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
)

// roundPage: a round's tables with the state of each sheet, updating
// itself (htmx polls the tables fragment), and the round's next state
// change (RULES §10) for those who may make it.
type roundPage struct {
	Page
	R app.RoundTables
	// NextState is the state the button moves the round to; "" when none
	// or when the viewer may not.
	NextState string
	CanEnter  bool
	// Names: the players' names of an individual tournament (web/individual.go).
	Names map[string]string
	// Clock is the round's clock (UI.md §9); CanClock: the viewer runs it.
	Clock    clockView
	CanClock bool
	// Unsettled: when closing the round was asked, the tables
	// not delivered cleanly — unconfirmed, or delivered with an error —
	// listed before the secretary confirms.
	Unsettled []app.RoundTable
	// Heads are the tables' column names, each cell's data-label on a
	// phone (one block per table there); translated once, not per row.
	Heads struct{ NS, EO, Hands, State, Result, Lineup string }
	// Groups are the tables as the template prints them (tableRows).
	Groups []tableGroup
}

// tableGroup is a team match's tables (Match 0: a round of pairs).
type tableGroup struct {
	Match int
	Rows  []tableRow
}

// tableRow is one table of the round page with every word and figure
// made in Go: html/template calls a function by reflection, and the
// translations, names and results per row were most of a 100-table page.
type tableRow struct {
	Table, Match, Hands int
	Status, StatusLabel string
	Label, NS, EO       string
	SatNS, SatEO        string // the players seated, when news
	Result              string // "12 – 8 VP"; "" without a sheet
}

// tableRows groups the round's tables by match (matchGroups) as rows.
func tableRows(lang Lang, tables []app.RoundTable, names map[string]string) []tableGroup {
	status := map[app.TableStatus]string{}
	vp := translate(lang, "secretary.vp")
	groups := matchGroups(tables)
	out := make([]tableGroup, len(groups))
	for i, g := range groups {
		out[i] = tableGroup{Match: g.Match, Rows: make([]tableRow, len(g.Tables))}
		for j, tb := range g.Tables {
			label, ok := status[tb.Status]
			if !ok {
				label = translate(lang, "secretary.status."+string(tb.Status))
				status[tb.Status] = label
			}
			row := tableRow{Table: tb.Table.Table, Match: tb.Table.Match, Hands: tb.Hands, Status: string(tb.Status), StatusLabel: label,
				Label: translate(lang, "secretary.table_n", tb.Table.Table), NS: who(tb.Table, "ns", names), EO: who(tb.Table, "eo", names),
				SatNS: tb.Sat[0], SatEO: tb.Sat[1]}
			if tb.Result != nil {
				row.Result = strconv.Itoa(tb.Result.Lines[0].VP) + " – " + strconv.Itoa(tb.Result.Lines[1].VP) + " " + vp
			}
			out[i].Rows[j] = row
		}
	}
	return out
}

func (s *Server) roundData(r *http.Request) (*roundPage, error) {
	n, ok := pathInt(r, "n")
	if !ok {
		return nil, errNotFoundPath
	}
	rt, err := s.app.TableStatuses(r.Context(), s.caller(r), r.PathValue("tid"), n)
	if err != nil {
		return nil, err
	}
	data := &roundPage{Page: s.page(r, "secretary.round_title"), R: rt, CanEnter: rt.Access.Manage(),
		Names: s.lineNames(r.Context(), s.caller(r), rt.Tournament)}
	lang := langOf(r)
	data.Heads.NS, data.Heads.EO, data.Heads.Hands = translate(lang, "secretary.ns"), translate(lang, "secretary.eo"), translate(lang, "secretary.hands")
	data.Heads.State, data.Heads.Result = translate(lang, "secretary.state"), translate(lang, "secretary.result")
	data.Heads.Lineup = translate(lang, "secretary.lineup_link")
	data.Groups = tableRows(lang, rt.Tables, data.Names)
	if data.Clock.Clock, err = s.app.RoundClock(r.Context(), rt.Tournament.ID, rt.Round.Number); err != nil {
		return nil, err
	}
	data.CanClock = (rt.Access.Manage() || rt.Access.Referee) && rt.Round.State == domain.RoundPlaying
	if rt.Access.Judge(rt.Tournament) {
		if i := rt.Round.State.Order() + 1; i < len(domain.RoundStates) {
			data.NextState = string(domain.RoundStates[i])
		}
	}
	return data, nil
}

func (s *Server) roundShow(w http.ResponseWriter, r *http.Request) {
	data, err := s.roundData(r)
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	switch r.URL.Query().Get("moved") {
	case "":
	default:
		data.Message = "secretary.state_changed"
	}
	s.render(w, r, http.StatusOK, "round_show", data)
}

// roundTables is the tables fragment the round page polls.
func (s *Server) roundTables(w http.ResponseWriter, r *http.Request) {
	data, err := s.roundData(r)
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	s.renderFragment(w, r, http.StatusOK, "round_show", "round_tables", data)
}

// roundState moves the round to the posted state through the same
// operation as PUT …/rounds/{n}/state.
func (s *Server) roundState(w http.ResponseWriter, r *http.Request) {
	n, ok := pathInt(r, "n")
	if !ok {
		s.notFound(w, r)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	if r.PostFormValue("state") == string(domain.RoundSheetsDelivered) && r.PostFormValue("confirmed") != "yes" {
		// Closing the round says which tables are not settled
		// and asks first.
		data, err := s.roundData(r)
		if err != nil {
			s.operationFailed(w, r, err)
			return
		}
		empty := false
		for _, t := range data.R.Tables {
			if t.Status != app.TableDelivered {
				data.Unsettled = append(data.Unsettled, t)
			}
			empty = empty || t.Status == app.TableEmpty
		}
		// A table with no sheet at all cannot be closed (RULES §12.2):
		// the operation refuses it naming the tables, so there is
		// nothing to confirm.
		if len(data.Unsettled) > 0 && !empty {
			s.render(w, r, http.StatusOK, "round_show", data)
			return
		}
	}
	if _, err := s.app.SetRoundState(r.Context(), s.caller(r), r.PathValue("tid"), n, r.PostFormValue("state")); err != nil {
		var ae *app.Error
		if errors.As(err, &ae) && ae.Incomplete != nil {
			// RULES §12.2: the round page says which tables lack a sheet.
			s.incompleteRound(w, r, ae.Incomplete)
			return
		}
		s.operationFailed(w, r, err)
		return
	}
	seeOther(w, r, tournamentPath(r.PathValue("tid"), "/rounds/"+strconv.Itoa(n))+"?moved=1")
}

// incompleteRound answers a state change refused because tables have no
// delivered sheet (RULES §12.2, FITAB art. 19), naming the round and the
// tables (the alert's data-error is secretary.incomplete_round_tables).
func (s *Server) incompleteRound(w http.ResponseWriter, r *http.Request, inc *app.IncompleteError) {
	tables := make([]string, len(inc.Tables))
	for i, t := range inc.Tables {
		tables[i] = strconv.Itoa(t)
	}
	data := errorPage{Page: s.page(r, "error.title"), Text: "secretary.incomplete_round", Status: http.StatusConflict}
	data.Error, data.ErrorArgs = "secretary.incomplete_round_tables", []any{inc.Round, strings.Join(tables, ", ")}
	s.render(w, r, http.StatusConflict, "error", &data)
}
