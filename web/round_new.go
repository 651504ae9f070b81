package web

import (
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
)

// roundNewPage: manual seating of the next round (UI.md §3): a row per
// table with its table, ns and eo fields, the byes, the hands planned.
// The ns and eo fields offer the entrants from one shared <datalist>: a
// select per field repeated every entrant in each of them (a 200-table
// round made 160,000 <option>s, 11 MB, most of a second to serve).
type roundNewPage struct {
	Page
	D      app.TournamentDetail
	Number int
	Hands  string
	Phase  string
	Phases []string
	Rows   []seatingRow
	Byes   map[string]bool
	Errs   fieldErrors
}

// seatingRow is one table as the form shows it; I is its index (the pointer
// /tables/{I}/…).
type seatingRow struct {
	I             int
	Table, NS, EO string
	TableLabel    string     // the table field's label, made once in Go (a row per table)
	Cells         []seatCell // NS then EO
}

// N is the row's number as people count (1-based).
func (r seatingRow) N() int { return r.I + 1 }

// seatCell is one line's entrant field of a row.
type seatCell struct {
	Line, Cur, Key string // Key: the field name of its errors
	Label          string
}

func (s *Server) roundNewShow(w http.ResponseWriter, r *http.Request) {
	s.renderRoundNew(w, r, http.StatusOK, nil)
}

func (s *Server) renderRoundNew(w http.ResponseWriter, r *http.Request, status int, data *roundNewPage) {
	d, err := s.app.TournamentDetail(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	if !d.Access.Manage() {
		s.renderError(w, r, http.StatusForbidden, "error.forbidden")
		return
	}
	if data == nil {
		// A first proposal: the entrants in order, two per table; the
		// secretary changes what the evening needs.
		data = &roundNewPage{Number: len(d.Rounds) + 1, Hands: strconv.Itoa(d.Tournament.HandsPerRound), Phase: "mitchell", Byes: map[string]bool{}, Errs: fieldErrors{}}
		for i := 0; i+1 < len(d.Entrants); i += 2 {
			data.Rows = append(data.Rows, seatingRow{I: i / 2, Table: strconv.Itoa(i/2 + 1), NS: d.Entrants[i].ID, EO: d.Entrants[i+1].ID})
		}
		if len(d.Entrants)%2 == 1 {
			data.Byes[d.Entrants[len(d.Entrants)-1].ID] = true
		}
		for extra := 0; extra < 2; extra++ { // room to add tables by hand
			data.Rows = append(data.Rows, seatingRow{I: len(data.Rows)})
		}
	}
	msg := data.Error
	data.Page = s.page(r, "secretary.round_new_title")
	data.Error = msg
	data.D = d
	data.Phases = phaseIDs
	lang := langOf(r)
	table, ns, eo := translate(lang, "secretary.table"), translate(lang, "secretary.ns"), translate(lang, "secretary.eo")
	for i := range data.Rows {
		row := &data.Rows[i]
		which := " (" + translate(lang, "secretary.row", row.N()) + ")"
		row.TableLabel = table + which
		row.Cells = []seatCell{
			{Line: "ns", Cur: row.NS, Key: "tables." + strconv.Itoa(row.I) + ".ns", Label: ns + which},
			{Line: "eo", Cur: row.EO, Key: "tables." + strconv.Itoa(row.I) + ".eo", Label: eo + which},
		}
	}
	s.render(w, r, status, "round_new", data)
}

// roundCreate publishes the round through the same operation as POST
// …/rounds.
func (s *Server) roundCreate(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 256<<10)
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	f := r.PostForm
	data := &roundNewPage{Hands: strings.TrimSpace(f.Get("hands_planned")), Phase: f.Get("phase"), Byes: map[string]bool{}, Errs: fieldErrors{}}
	data.Number, _ = strconv.Atoi(f.Get("number"))
	lang := langOf(r)
	in := app.RoundInput{Number: data.Number, Phase: data.Phase}
	if n, err := strconv.Atoi(data.Hands); err == nil {
		in.HandsPlanned = n
	} else {
		data.Errs["hands_planned"] = translate(lang, "secretary.whole_number")
	}
	tables, nss, eos := f["table"], f["ns"], f["eo"]
	for i := range tables {
		row := seatingRow{I: len(data.Rows), Table: strings.TrimSpace(tables[i])}
		if i < len(nss) {
			row.NS = nss[i]
		}
		if i < len(eos) {
			row.EO = eos[i]
		}
		if row.Table == "" && row.NS == "" && row.EO == "" {
			continue // an unused row
		}
		data.Rows = append(data.Rows, row)
		n, err := strconv.Atoi(row.Table)
		if err != nil {
			data.Errs["tables."+strconv.Itoa(row.I)+".table"] = translate(lang, "secretary.whole_number")
		}
		in.Tables = append(in.Tables, domain.TableAssignment{Table: n, NS: row.NS, EO: row.EO})
	}
	for _, b := range f["byes"] {
		if b != "" {
			data.Byes[b] = true
			in.Byes = append(in.Byes, b)
		}
	}
	if len(data.Errs) == 0 {
		_, err := s.app.CreateRound(r.Context(), s.caller(r), r.PathValue("tid"), in)
		if fe, ok := invalidFields(err); ok {
			data.Errs = fe
		} else if err != nil && !isConflict(err) {
			s.operationFailed(w, r, err)
			return
		} else if err != nil {
			data.Errs["number"] = translate(lang, "secretary.round_exists")
		} else {
			seeOther(w, r, tournamentPath(r.PathValue("tid"), "/rounds/"+strconv.Itoa(data.Number)))
			return
		}
	}
	data.Rows = append(data.Rows, seatingRow{I: len(data.Rows)})
	data.Error = "form.errors"
	s.renderRoundNew(w, r, http.StatusUnprocessableEntity, data)
}
