package web

import (
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
)

// roundNewPage: manual seating of the next round (UI.md §3): a row per
// table with its table, ns and eo fields, the byes, the hands planned.
// The line fields are selects of the entrants (UI.md §3 "a table of
// table, ns, eo selects") up to SeatingSelectLimit entrants; above it
// they are text fields offering the entrants from one shared <datalist>,
// because a select per field repeats every entrant in each of them (a
// 200-table round made 160,000 <option>s, 11 MB, most of a second to
// serve).
type roundNewPage struct {
	Page
	D      app.TournamentDetail
	Number int
	Hands  string
	Phase  string
	Phases []string
	Rows   []seatingRow
	// Heads are the seating table's line columns: NS, EO; for an
	// individual tournament two selects a line (its two players).
	Heads     []string
	TableHead string // the table column's head, shown above its field on a phone
	Byes      map[string]bool
	// Vacated: the entrants alone because their opponent withdrew (RULES
	// §12.3); the field is offered once an entrant has withdrawn.
	Vacated      map[string]bool
	AnyWithdrawn bool
	Errs         fieldErrors
	// Selects: the table and line fields are selects (a field
	// tournament); else number and text fields sharing the datalist.
	Selects bool
	Choices []seatChoice // the entrants as the fields offer them
	Tables  []string     // the table numbers the table selects offer
	// Seating, EntrantList and ByeOptions are the seating rows, the
	// entrants' datalist and the byes' options, rendered from the fields
	// above (roundNewFragments).
	Seating, EntrantList, ByeOptions template.HTML
}

// SeatingSelectLimit is the most entrants whose seating form has a
// select per line field: 80 entrants make 42 rows × 2 selects × 81
// options ≈ 6,800 <option>s (≈ 400 KB, 25 KB gzip); a club evening is
// 12–40 pairs. Above it, the fields share one <datalist>.
const SeatingSelectLimit = 80

// seatChoice is one entrant as a line field offers it: its number, and
// the number with its players for the option's text.
// Bye and Vacated: the byes and vacated selects choose it.
type seatChoice struct {
	ID, Label    string
	Bye, Vacated bool
}

// seatingRow is one table as the form shows it; I is its index (the pointer
// /tables/{I}/…).
type seatingRow struct {
	I             int
	Table, NS, EO string
	// TableUnknown: Table is not among the offered numbers (a refused
	// form sent it back); the select offers it too.
	TableUnknown bool
	NS2, EO2     string     // individual: the lines' second players
	TableLabel   string     // the table field's label, made once in Go (a row per table)
	TableErr     string     // the table field's error, if any
	Cells        []seatCell // NS then EO (individual: ns, ns2, eo, eo2)
}

// N is the row's number as people count (1-based).
func (r seatingRow) N() int { return r.I + 1 }

// seatCell is one line's select of a row.
type seatCell struct {
	Line, Cur, Key string // Key: the field name of its errors
	// Unknown: Cur is not an entrant (a refused form sent it back); a
	// select offers it too, so that what was sent stays visible.
	Unknown bool
	Name    string // the field's name: ns, eo (individual also ns2, eo2)
	Label   string // its column and row, for the hidden label
	Head    string // its column alone, shown above it on a phone
	Err     string // its error, if any
}

func (s *Server) roundNewShow(w http.ResponseWriter, r *http.Request) {
	s.renderRoundNew(w, r, http.StatusOK, nil)
}

func (s *Server) renderRoundNew(w http.ResponseWriter, r *http.Request, status int, data *roundNewPage) {
	proposal := data == nil
	d, err := s.app.TournamentDetail(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	if !d.Access.Manage() {
		s.renderError(w, r, http.StatusForbidden, "error.forbidden")
		return
	}
	individual := d.Tournament.Kind == domain.KindIndividual
	if data == nil {
		// A first proposal: the entrants in order, two per table; the
		// secretary changes what the evening needs.
		data = &roundNewPage{Number: len(d.Rounds) + 1, Hands: strconv.Itoa(d.Tournament.HandsPerRound), Phase: "mitchell", Byes: map[string]bool{}, Vacated: map[string]bool{}, Errs: fieldErrors{}}
		per := 2
		if individual {
			per = 4 // two lines of two players (RULES §11)
		}
		seated := len(d.Entrants) - len(d.Entrants)%per
		for i := 0; i < seated; i += per {
			e := d.Entrants[i : i+per]
			row := seatingRow{I: i / per, Table: strconv.Itoa(i/per + 1), NS: e[0].ID, EO: e[1].ID}
			if individual {
				row.NS, row.NS2, row.EO, row.EO2 = e[0].ID, e[1].ID, e[2].ID, e[3].ID
			}
			data.Rows = append(data.Rows, row)
		}
		for _, e := range d.Entrants[seated:] {
			data.Byes[e.ID] = true
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
	data.Heads, data.TableHead = []string{ns, eo}, table
	data.Selects = len(d.Entrants) <= SeatingSelectLimit
	// Table numbers 1..rows (one more table than rows cannot be seated).
	for n := 1; n <= len(data.Rows); n++ {
		data.Tables = append(data.Tables, strconv.Itoa(n))
	}
	known := make(map[string]bool, len(d.Entrants))
	data.Choices = make([]seatChoice, len(d.Entrants))
	for i, e := range d.Entrants {
		known[e.ID] = true
		data.AnyWithdrawn = data.AnyWithdrawn || e.WithdrawnFromRound != nil
		names := make([]string, len(e.Players))
		for j, p := range e.Players {
			names[j] = p.Name
		}
		data.Choices[i] = seatChoice{ID: e.ID, Label: e.ID + " · " + strings.Join(names, " – "), Bye: data.Byes[e.ID], Vacated: data.Vacated[e.ID]}
	}
	if individual {
		data.Heads = []string{ns + " 1", ns + " 2", eo + " 1", eo + " 2"}
	}
	for i := range data.Rows {
		row := &data.Rows[i]
		at := "tables." + strconv.Itoa(row.I) + "."
		which := " (" + translate(lang, "secretary.row", row.N()) + ")"
		row.TableLabel = table + which
		row.TableErr = data.Errs[at+"table"]
		if n, err := strconv.Atoi(row.Table); row.Table != "" && (err != nil || n < 1 || n > len(data.Rows)) {
			row.TableUnknown = true
		}
		cell := func(line, name, cur, key, label string) seatCell {
			return seatCell{Line: line, Name: name, Cur: cur, Key: key, Label: label + which, Head: label, Unknown: cur != "" && !known[cur], Err: data.Errs[key]}
		}
		if individual {
			row.Cells = []seatCell{
				cell("ns", "ns", row.NS, at+"ns.0", data.Heads[0]), cell("ns", "ns2", row.NS2, at+"ns.1", data.Heads[1]),
				cell("eo", "eo", row.EO, at+"eo.0", data.Heads[2]), cell("eo", "eo2", row.EO2, at+"eo.1", data.Heads[3]),
			}
			continue
		}
		row.Cells = []seatCell{cell("ns", "ns", row.NS, at+"ns", ns), cell("eo", "eo", row.EO, at+"eo", eo)}
	}
	// The first proposal is the same for every view of one version of
	// the tournament in one language: its rows and lists are rendered
	// once (a 100-table proposal was 43,000 allocations a view); a form
	// sent back with its errors is rendered as it came.
	slot := ""
	if proposal {
		slot = "\x00" + string(lang) + "\x00" + d.Tournament.ID
	}
	for _, f := range []struct {
		block string
		out   *template.HTML
	}{{"seating_rows", &data.Seating}, {"entrant_list", &data.EntrantList}, {"bye_options", &data.ByeOptions}} {
		sl := slot
		if sl != "" {
			sl = f.block + sl
		}
		if *f.out, err = s.fragment(lang, "round_new", f.block, sl, d.Version, data); err != nil {
			s.serverError(w, r, err)
			return
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
	data := &roundNewPage{Hands: strings.TrimSpace(f.Get("hands_planned")), Phase: f.Get("phase"), Byes: map[string]bool{}, Vacated: map[string]bool{}, Errs: fieldErrors{}}
	data.Number, _ = strconv.Atoi(f.Get("number"))
	lang := langOf(r)
	in := app.RoundInput{Number: data.Number, Phase: data.Phase}
	if n, err := strconv.Atoi(data.Hands); err == nil {
		in.HandsPlanned = n
	} else {
		data.Errs["hands_planned"] = translate(lang, "secretary.whole_number")
	}
	tables, nss, eos, ns2s, eo2s := f["table"], f["ns"], f["eo"], f["ns2"], f["eo2"]
	at := func(list []string, i int) string {
		if i < len(list) {
			return list[i]
		}
		return ""
	}
	// An individual round's form has two selects a line (ns2, eo2): the
	// lines are written as lists of players, as the API's arrays.
	individual := len(ns2s) > 0 || len(eo2s) > 0
	for i := range tables {
		row := seatingRow{I: len(data.Rows), Table: strings.TrimSpace(tables[i]), NS: at(nss, i), EO: at(eos, i), NS2: at(ns2s, i), EO2: at(eo2s, i)}
		if row.Table == "" && row.NS == "" && row.EO == "" && row.NS2 == "" && row.EO2 == "" {
			continue // an unused row
		}
		data.Rows = append(data.Rows, row)
		n, err := strconv.Atoi(row.Table)
		if err != nil {
			data.Errs["tables."+strconv.Itoa(row.I)+".table"] = translate(lang, "secretary.whole_number")
		}
		in.Tables = append(in.Tables, domain.TableAssignment{Table: n, NS: row.NS, EO: row.EO, NS2: row.NS2, EO2: row.EO2})
		if individual {
			in.Written = append(in.Written, [2]app.LineInput{app.Players(row.NS, row.NS2), app.Players(row.EO, row.EO2)})
		} else {
			in.Written = append(in.Written, [2]app.LineInput{app.One(row.NS), app.One(row.EO)})
		}
	}
	for _, b := range f["byes"] {
		if b != "" {
			data.Byes[b] = true
			in.Byes = append(in.Byes, b)
		}
	}
	for _, v := range f["vacated"] {
		if v != "" {
			data.Vacated[v] = true
			in.Vacated = append(in.Vacated, v)
		}
	}
	if len(data.Errs) == 0 {
		_, err := s.app.CreateRound(r.Context(), s.caller(r), r.PathValue("tid"), in)
		if fe, ok := invalidFields(lang, err, nil); ok {
			data.Errs = fe
			// The byes are one select: its entrants' refusals are shown
			// together under it (they were not shown at all).
			for k, v := range fe {
				for _, list := range []string{"byes", "vacated"} {
					if strings.HasPrefix(k, list+".") {
						data.Errs[list] = strings.TrimPrefix(data.Errs[list]+"; "+v, "; ")
					}
				}
			}
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
