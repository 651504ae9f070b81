package web

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/httperr"
	"segnapunti/web/form"
)

// The table pages (UI.md §6): /table asks for the typed code, /table/{code}
// is the players' phone page — one hand at a time, the report after every
// hand, the call for the referee, and the two lines' signatures.

type tableCodePage struct {
	Page
	Errors form.Errors
	Code   string
}

// tableCodeShow: GET /table — the form with the 8-character code.
func (s *Server) tableCodeShow(w http.ResponseWriter, r *http.Request) {
	data := tableCodePage{Page: s.page(r, "table.code_title")}
	s.render(w, r, http.StatusOK, "table_code", &data)
}

// tableCodeOpen: POST /table — open the typed code's page.
func (s *Server) tableCodeOpen(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	code, ok := app.NormalizeShortCode(r.PostFormValue("code"))
	data := tableCodePage{Page: s.page(r, "table.code_title"), Code: r.PostFormValue("code"), Errors: form.Errors{}}
	if !ok {
		data.Errors["code"] = "table.code_malformed"
		s.render(w, r, http.StatusUnprocessableEntity, "table_code", &data)
		return
	}
	_, state, err := s.app.TableEntryFrom(r.Context(), clientAddress(r), code)
	if err == nil && state == app.LinkUnknown {
		// A typo: said next to the input, which keeps what was typed.
		data.Errors["code"] = "table.link_unknown"
		s.render(w, r, http.StatusNotFound, "table_code", &data)
		return
	}
	if s.tableRefused(w, r, state, err) {
		return
	}
	seeOther(w, r, "/table/"+code)
}

// tableRefused answers a code that opens nothing, saying why in the
// page's language; it reports whether it answered.
func (s *Server) tableRefused(w http.ResponseWriter, r *http.Request, state app.LinkState, err error) bool {
	var th *app.Throttled
	switch {
	case errors.As(err, &th):
		w.Header().Set("Retry-After", strconv.Itoa(int(th.RetryAfter/time.Second)+1))
		s.renderError(w, r, httperr.Throttled.Page, "table.throttled")
	case err != nil:
		s.serverError(w, r, err)
	case state == app.LinkRevoked:
		s.renderError(w, r, http.StatusGone, "table.link_revoked")
	case state == app.LinkDelivered:
		s.renderError(w, r, http.StatusGone, "table.link_delivered")
	case state == app.LinkNoRound:
		s.renderError(w, r, http.StatusNotFound, "table.card_no_round")
	case state != app.LinkLive:
		s.renderError(w, r, http.StatusNotFound, "table.link_unknown")
	default:
		return false
	}
	return true
}

type tableHandRow struct {
	Number       int
	Late         bool // entered after time was called (UI.md §9)
	End          string
	Base, Points [2]int
	Total        [2]int // computed
	Running      [2]int
}

type tableFinding struct {
	Code, Severity, Message, Rule, Pointer string
}

type tablePage struct {
	Page
	Code     string // the page's code: the script's bearer token
	API      string // the sheet's API path
	View     app.TableView
	Hands    []tableHandRow
	Findings []tableFinding // errors and warnings, shown at once
	Notes    []tableFinding // info findings, folded under "Dettagli"
	// Result: the match's MP and VP per line once the hands are in (all
	// planned, or one ended on time); nil before.
	Result     *[2]domain.LineResult
	Next       int // index of the next hand
	CanAdd     bool
	Ends       []domain.HandEnd
	Errors     form.Errors
	Values     map[string]string
	Total      [2]int
	NextLine   string // "ns" / "eo": the line that signs next
	Message    string
	Delivered  bool
	HandNumber int
	Inputs     []tableInputGroup
	// Fix before confirming (UI.md §9): CanFix offers edit-hand and
	// remove-hand on the last hand (Last, 0-based); Editing shows its
	// inputs filled (EditInputs, EditEnd); Removing asks to confirm the
	// removal. Version is the stored sheet's, sent back by both forms.
	Clock      clockView
	CanFix     bool
	CanRemove  bool
	Last       int
	LastNumber int // Last + 1, as players count hands
	Editing    bool
	Removing   bool
	EditInputs []tableInputGroup
	EditEnd    string
	Version    int
	// Engine is the WebAssembly rules engine's URL and Sheet the sheet so
	// far as API §1 JSON: the page checks each hand on the phone with them
	// (table_offline.go).
	Engine, Sheet string
}

type tableInputGroup struct {
	Legend string // message id
	Fields []tableInput
}

type tableInput struct {
	Name, Part, Label, Value, Error string
	Required                        bool
}

// field is a hand input's name (UI.md §5).
func (p *tablePage) Field(part string) string { return fmt.Sprintf("hands.%d.%s", p.Next, part) }

// tableShow: GET /table/{code}; ?edit=N shows the last hand's inputs
// filled, ?remove=N asks to confirm its removal (UI.md §9).
func (s *Server) tableShow(w http.ResponseWriter, r *http.Request, p app.Principal) {
	s.tablePageFor(w, r, p, http.StatusOK, nil, nil, "")
}

// tableMode is the fix the page was asked for: edit or remove hand n
// (0-based), -1 for none.
func tableMode(r *http.Request) (edit, remove int) {
	edit, remove = -1, -1
	q := r.URL.Query()
	if n, err := strconv.Atoi(q.Get("edit")); err == nil && n >= 0 {
		edit = n
	}
	if n, err := strconv.Atoi(q.Get("remove")); err == nil && n >= 0 {
		remove = n
	}
	return edit, remove
}

// handInputs are the inputs of hand i (UI.md §5 names) with their values
// and errors.
func handInputs(i int, values map[string]string, errs form.Errors) []tableInputGroup {
	var out []tableInputGroup
	for _, l := range domain.Lines {
		g := tableInputGroup{Legend: [2]string{"table.line_ns", "table.line_eo"}[l]}
		for _, part := range []string{"base", "points", "total"} {
			name := fmt.Sprintf("hands.%d.%s.%s", i, l.String(), part)
			g.Fields = append(g.Fields, tableInput{Name: name, Part: l.String() + "." + part, Label: map[string]string{"base": "table.base", "points": "table.points", "total": "table.total_optional"}[part],
				Value: values[name], Error: errs[name], Required: part != "total"})
		}
		out = append(out, g)
	}
	return out
}

// storedHandValues are a stored hand's inputs as typed (UI.md §9: the
// edited hand's inputs come back filled).
func storedHandValues(i int, h domain.Hand) map[string]string {
	out := map[string]string{fmt.Sprintf("hands.%d.end", i): string(h.End)}
	for _, l := range domain.Lines {
		p := fmt.Sprintf("hands.%d.%s.", i, l.String())
		out[p+"base"] = strconv.Itoa(h.Lines[l].Base)
		out[p+"points"] = strconv.Itoa(h.Lines[l].Points)
		if h.Lines[l].Total != nil {
			out[p+"total"] = strconv.Itoa(*h.Lines[l].Total)
		}
	}
	return out
}

func (s *Server) tablePageFor(w http.ResponseWriter, r *http.Request, p app.Principal, status int, errs form.Errors, values map[string]string, message string) {
	code := r.PathValue("code")
	v, err := s.app.TableSheet(r.Context(), p, p.Entry.TournamentID, p.Entry.Round, p.Entry.Table)
	if err != nil {
		s.serverError(w, r, err)
		return
	}
	lang := langOf(r)
	pg := s.page(r, "table.title")
	pg.Zone = app.TournamentZone(v.Target.Tournament)
	data := tablePage{Page: pg, Code: code, View: v, Ends: domain.HandEnds, Errors: errs, Values: values, Message: message,
		API: fmt.Sprintf("/v1/tournaments/%s/rounds/%d/tables/%d/sheet", v.Target.Tournament.ID, v.Target.Round.Number, v.Target.Table.Table)}
	if v.Sheet != nil {
		for i, h := range v.Sheet.Hands {
			row := tableHandRow{Number: i + 1, End: string(h.End), Late: v.Late[i+1]}
			for _, l := range domain.Lines {
				row.Base[l], row.Points[l] = h.Lines[l].Base, h.Lines[l].Points
				if i < len(v.Report.Computed.Hands) {
					row.Total[l] = v.Report.Computed.Hands[i].Total[l]
					row.Running[l] = v.Report.Computed.Hands[i].RunningTotal[l]
					data.Total[l] = row.Running[l]
				}
			}
			data.Hands = append(data.Hands, row)
		}
		for _, f := range v.Report.Findings {
			tf := tableFinding{Code: string(f.Code), Severity: string(f.Severity), Message: f.Message(lang), Rule: f.Rule, Pointer: f.Pointer}
			if f.Severity == domain.SeverityInfo {
				data.Notes = append(data.Notes, tf)
			} else {
				data.Findings = append(data.Findings, tf)
			}
		}
		data.Next = len(v.Sheet.Hands)
		if data.Next >= v.Sheet.HandsPlanned || slices.ContainsFunc(v.Sheet.Hands, func(h domain.Hand) bool { return h.End == domain.EndTimeOut }) {
			res := v.Report.Computed.Lines
			data.Result = &res
		}
	}
	data.Engine, data.Sheet = EngineURL(), engineSheet(v)
	data.Delivered = v.Delivered()
	data.Clock = clockView{Clock: v.Clock, URL: "/table/" + code + "/clock"}
	data.CanAdd = v.CanAdd()
	data.Version = v.Version
	data.Last, data.LastNumber = data.Next-1, data.Next
	data.CanFix = data.Next > 0 && !data.Delivered
	data.CanRemove = data.CanFix && data.Next > 1
	if edit, remove := tableMode(r); data.CanFix && edit == data.Last {
		if values == nil { // opened, not sent back refused
			values = storedHandValues(edit, v.Sheet.Hands[edit])
		}
		data.Editing = true
	} else if data.CanRemove && remove == data.Last {
		data.Removing = true
	}
	if data.Editing {
		data.EditInputs = handInputs(data.Last, values, errs)
		data.EditEnd = values[fmt.Sprintf("hands.%d.end", data.Last)]
		data.CanAdd = false
	}
	data.NextLine = v.NextLine().String()
	data.HandNumber = data.Next + 1
	if !data.Editing {
		data.Inputs = handInputs(data.Next, values, errs)
	}
	if errs.Any() {
		data.Page.Error = "table.form_errors"
	}
	s.renderFragment(w, r, status, "table_entry", "table_page", &data)
}

// tablePost reads the posted form of the page of code p (opened once, by
// withTableCode) with parse; false when the answer is sent already: a
// malformed form (400), or field errors shown on the page again (422).
func tablePost[F any](s *Server, w http.ResponseWriter, r *http.Request, p app.Principal, parse func(http.ResponseWriter, *http.Request) (F, form.Errors, error)) (F, bool) {
	f, errs, err := parse(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "table.bad_form")
		return f, false
	}
	// A table card opens the table's current round: a form
	// from a page of an earlier round lands nowhere else.
	if sent := r.PostFormValue("round"); sent != "" && sent != strconv.Itoa(p.Entry.Round) {
		r.URL.RawQuery = ""
		s.tablePageFor(w, r, p, http.StatusConflict, form.Errors{"_": "table.round_changed"}, nil, "")
		return f, false
	}
	if errs.Any() {
		s.tablePageFor(w, r, p, http.StatusUnprocessableEntity, errs, formValues(r), "")
		return f, false
	}
	return f, true
}

// tableHandAdd: POST /table/{code} — a hand without the script.
func (s *Server) tableHandAdd(w http.ResponseWriter, r *http.Request, p app.Principal) {
	f, ok := tablePost(s, w, r, p, form.ParseTableHand)
	if !ok {
		return
	}
	e := p.Entry
	scope, err := s.app.SheetScope(r.Context(), p, e.TournamentID, e.Round, e.Table, app.SheetWrite)
	if err == nil {
		_, err = s.app.AppendHand(r.Context(), scope, f.Hand, f.Key)
	}
	if err != nil {
		s.tableOpFailed(w, r, p, err, "")
		return
	}
	seeOther(w, r, "/table/"+r.PathValue("code"))
}

// tableEnd: POST /table/{code}/end — the scorer's line ends the sheet
// (optional: the other line's confirmation alone ends and delivers it).
func (s *Server) tableEnd(w http.ResponseWriter, r *http.Request, p app.Principal) {
	f, ok := tablePost(s, w, r, p, form.ParseTableEnd)
	if !ok {
		return
	}
	e := p.Entry
	if _, err := s.app.EndSheet(r.Context(), p, e.TournamentID, e.Round, e.Table, f.Line, f.Entrant); err != nil {
		s.tableOpFailed(w, r, p, err, "scorer_entrant")
		return
	}
	seeOther(w, r, "/table/"+r.PathValue("code"))
}

// tableConfirm: POST /table/{code}/confirm — the other line confirms:
// the sheet is delivered.
func (s *Server) tableConfirm(w http.ResponseWriter, r *http.Request, p app.Principal) {
	f, ok := tablePost(s, w, r, p, form.ParseTableConfirm)
	if !ok {
		return
	}
	e := p.Entry
	if _, err := s.app.ConfirmSheet(r.Context(), p, e.TournamentID, e.Round, e.Table, f.Line, f.Entrant); err != nil {
		s.tableOpFailed(w, r, p, err, "entrant")
		return
	}
	seeOther(w, r, "/table/"+r.PathValue("code"))
}

// handIndex is the path's hand index {i}, or -1.
func handIndex(r *http.Request) int {
	n, err := strconv.Atoi(r.PathValue("i"))
	if err != nil || n < 0 || n > app.MaxHands {
		return -1
	}
	return n
}

// tableHandEdit: POST /table/{code}/hands/{i} — the scoring line changes
// its last hand before the confirmation (UI.md §9, data-action="edit-hand").
// Its hand index was checked first (withHandIndex).
func (s *Server) tableHandEdit(w http.ResponseWriter, r *http.Request, p app.Principal) {
	i := handIndex(r)
	r.URL.RawQuery = "edit=" + strconv.Itoa(i) // a refused form comes back in edit mode
	f, ok := tablePost(s, w, r, p, form.ParseTableHand)
	if !ok {
		return
	}
	if f.Index != i {
		s.renderError(w, r, http.StatusBadRequest, "table.bad_form")
		return
	}
	version, _ := strconv.Atoi(r.PostFormValue("version"))
	e := p.Entry
	if _, err := s.app.EditLastHand(r.Context(), p, e.TournamentID, e.Round, e.Table, i, f.Hand, version); err != nil {
		s.tableFixFailed(w, r, p, err)
		return
	}
	seeOther(w, r, "/table/"+r.PathValue("code"))
}

// tableHandRemove: POST /table/{code}/hands/{i}/remove — without
// confirmed=yes it asks first (UI.md §9: "after a confirmation").
// Its hand index was checked first (withHandIndex).
func (s *Server) tableHandRemove(w http.ResponseWriter, r *http.Request, p app.Principal) {
	i := handIndex(r)
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	if r.PostFormValue("confirmed") != "yes" {
		r.URL.RawQuery = "remove=" + strconv.Itoa(i)
		s.tablePageFor(w, r, p, http.StatusOK, nil, nil, "")
		return
	}
	if sent := r.PostFormValue("round"); sent != "" && sent != strconv.Itoa(p.Entry.Round) {
		r.URL.RawQuery = ""
		s.tablePageFor(w, r, p, http.StatusConflict, form.Errors{"_": "table.round_changed"}, nil, "")
		return
	}
	version, _ := strconv.Atoi(r.PostFormValue("version"))
	e := p.Entry
	if _, err := s.app.RemoveLastHand(r.Context(), p, e.TournamentID, e.Round, e.Table, i, version); err != nil {
		s.tableFixFailed(w, r, p, err)
		return
	}
	seeOther(w, r, "/table/"+r.PathValue("code"))
}

// tableFixFailed shows why a change of the last hand was refused: the
// sheet changed meanwhile, it is confirmed, or the hand is not the last.
func (s *Server) tableFixFailed(w http.ResponseWriter, r *http.Request, p app.Principal, err error) {
	var ae *app.Error
	if !errors.As(err, &ae) {
		s.serverError(w, r, err)
		return
	}
	r.URL.RawQuery = ""
	status, msg := http.StatusConflict, "table.fix_refused"
	switch {
	case errors.Is(ae.Kind, app.ErrPrecondition):
		status, msg = http.StatusPreconditionFailed, "table.fix_stale"
	case errors.Is(ae.Kind, domain.ErrInvalid):
		status = http.StatusUnprocessableEntity
	}
	s.tablePageFor(w, r, p, status, form.Errors{"_": msg}, nil, "")
}

// tableCallReferee: POST /table/{code}/call-referee.
func (s *Server) tableCallReferee(w http.ResponseWriter, r *http.Request, p app.Principal) {
	if err := s.app.CallReferee(r.Context(), p, p.Entry.TournamentID, p.Entry.Round, p.Entry.Table); err != nil {
		s.tableOpFailed(w, r, p, err, "")
		return
	}
	s.tablePageFor(w, r, p, http.StatusOK, nil, nil, "table.referee_called")
}

// tableOpFailed shows an operation's refusal on the table page: field
// errors next to their inputs (the entrant number's input is named
// entrantField), the rest as the page's error.
func (s *Server) tableOpFailed(w http.ResponseWriter, r *http.Request, p app.Principal, err error, entrantField string) {
	var ae *app.Error
	if !errors.As(err, &ae) {
		s.serverError(w, r, err)
		return
	}
	errs := form.Errors{}
	for _, f := range ae.Fields {
		if f.Pointer == "/entrant" && entrantField != "" {
			errs[entrantField] = "table.entrant_wrong"
		}
	}
	if ae.Code == app.CodeConfirmOwnLine && entrantField != "" {
		// UI.md §9: the refusal is a finding with its code.
		errs["refusal"] = ae.Code
		errs[entrantField] = "table.confirm_own_line"
	}
	if len(errs) == 0 {
		errs["_"] = "table.refused"
		if errors.Is(ae.Kind, domain.ErrConflict) {
			errs["_"] = "table.cannot_sign"
		}
	}
	status := http.StatusConflict
	if errors.Is(ae.Kind, domain.ErrInvalid) {
		status = http.StatusUnprocessableEntity
	}
	s.tablePageFor(w, r, p, status, errs, formValues(r), "")
}

func formValues(r *http.Request) map[string]string {
	out := map[string]string{}
	for k, v := range r.PostForm {
		if len(v) > 0 {
			out[k] = v[0]
		}
	}
	return out
}
