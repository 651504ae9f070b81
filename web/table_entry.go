package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
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
		s.renderError(w, r, http.StatusTooManyRequests, "table.throttled")
	case err != nil:
		s.serverError(w, r, err)
	case state == app.LinkRevoked:
		s.renderError(w, r, http.StatusGone, "table.link_revoked")
	case state == app.LinkDelivered:
		s.renderError(w, r, http.StatusGone, "table.link_delivered")
	case state != app.LinkLive:
		s.renderError(w, r, http.StatusNotFound, "table.link_unknown")
	default:
		return false
	}
	return true
}

type tableHandRow struct {
	Number       int
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
	Code       string // the page's code: the script's bearer token
	API        string // the sheet's API path
	View       app.TableView
	Hands      []tableHandRow
	Findings   []tableFinding
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
	// Engine is the WebAssembly rules engine's URL and Sheet the sheet so
	// far as API §1 JSON: the page checks each hand on the phone with them
	// (issue 24, table_offline.go).
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

// tableShow: GET /table/{code}.
func (s *Server) tableShow(w http.ResponseWriter, r *http.Request) {
	s.tablePageFor(w, r, http.StatusOK, nil, nil, "")
}

func (s *Server) tablePageFor(w http.ResponseWriter, r *http.Request, status int, errs form.Errors, values map[string]string, message string) {
	code := r.PathValue("code")
	p, state, err := s.app.TableEntryFrom(r.Context(), clientAddress(r), code)
	if s.tableRefused(w, r, state, err) {
		return
	}
	v, err := s.app.TableSheet(r.Context(), p, p.Entry.TournamentID, p.Entry.Round, p.Entry.Table)
	if err != nil {
		s.serverError(w, r, err)
		return
	}
	lang := langOf(r)
	data := tablePage{Page: s.page(r, "table.title"), Code: code, View: v, Ends: domain.HandEnds, Errors: errs, Values: values, Message: message,
		API: fmt.Sprintf("/v1/tournaments/%s/rounds/%d/tables/%d/sheet", v.Target.Tournament.ID, v.Target.Round.Number, v.Target.Table.Table)}
	if v.Sheet != nil {
		for i, h := range v.Sheet.Hands {
			row := tableHandRow{Number: i + 1, End: string(h.End)}
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
			data.Findings = append(data.Findings, tableFinding{Code: string(f.Code), Severity: string(f.Severity), Message: f.Message(lang), Rule: f.Rule, Pointer: f.Pointer})
		}
		data.Next = len(v.Sheet.Hands)
	}
	data.Engine, data.Sheet = engineURL(), engineSheet(v)
	data.Delivered = v.Delivered()
	data.CanAdd = len(v.Confirmations) == 0 && data.Next < v.Target.Round.HandsPlanned && !v.Signable
	data.NextLine = v.NextLine().String()
	data.HandNumber = data.Next + 1
	for _, l := range domain.Lines {
		g := tableInputGroup{Legend: [2]string{"table.line_ns", "table.line_eo"}[l]}
		for _, part := range []string{"base", "points", "total"} {
			name := data.Field(l.String() + "." + part)
			g.Fields = append(g.Fields, tableInput{Name: name, Part: l.String() + "." + part, Label: map[string]string{"base": "table.base", "points": "table.points", "total": "table.total_optional"}[part],
				Value: values[name], Error: errs[name], Required: part != "total"})
		}
		data.Inputs = append(data.Inputs, g)
	}
	if errs.Any() {
		data.Page.Error = "table.form_errors"
	}
	s.renderFragment(w, r, status, "table_entry", "table_page", &data)
}

// tablePost opens the page's code and reads the posted form with parse;
// false when the answer is sent already: the code refused, a malformed
// form (400), or field errors shown on the page again (422).
func tablePost[F any](s *Server, w http.ResponseWriter, r *http.Request, parse func(http.ResponseWriter, *http.Request) (F, form.Errors, error)) (app.Principal, F, bool) {
	var f F
	p, state, err := s.app.TableEntryFrom(r.Context(), clientAddress(r), r.PathValue("code"))
	if s.tableRefused(w, r, state, err) {
		return p, f, false
	}
	f, errs, err := parse(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "table.bad_form")
		return p, f, false
	}
	if errs.Any() {
		s.tablePageFor(w, r, http.StatusUnprocessableEntity, errs, formValues(r), "")
		return p, f, false
	}
	return p, f, true
}

// tableHandAdd: POST /table/{code} — a hand without the script.
func (s *Server) tableHandAdd(w http.ResponseWriter, r *http.Request) {
	p, f, ok := tablePost(s, w, r, form.ParseTableHand)
	if !ok {
		return
	}
	e := p.Entry
	if _, err := s.app.AppendHand(r.Context(), p, e.TournamentID, e.Round, e.Table,
		func(app.SheetTarget) (domain.Hand, error) { return f.Hand, nil }, f.Key); err != nil {
		s.tableOpFailed(w, r, err, "")
		return
	}
	seeOther(w, r, "/table/"+r.PathValue("code"))
}

// tableEnd: POST /table/{code}/end — the scorer's line ends the sheet
// (optional: the other line's confirmation alone ends and delivers it).
func (s *Server) tableEnd(w http.ResponseWriter, r *http.Request) {
	p, f, ok := tablePost(s, w, r, form.ParseTableEnd)
	if !ok {
		return
	}
	e := p.Entry
	if _, err := s.app.EndSheet(r.Context(), p, e.TournamentID, e.Round, e.Table, f.Line, f.Entrant); err != nil {
		s.tableOpFailed(w, r, err, "scorer_entrant")
		return
	}
	seeOther(w, r, "/table/"+r.PathValue("code"))
}

// tableConfirm: POST /table/{code}/confirm — the other line confirms:
// the sheet is delivered.
func (s *Server) tableConfirm(w http.ResponseWriter, r *http.Request) {
	p, f, ok := tablePost(s, w, r, form.ParseTableConfirm)
	if !ok {
		return
	}
	e := p.Entry
	if _, err := s.app.ConfirmSheet(r.Context(), p, e.TournamentID, e.Round, e.Table, f.Line, f.Entrant); err != nil {
		s.tableOpFailed(w, r, err, "entrant")
		return
	}
	seeOther(w, r, "/table/"+r.PathValue("code"))
}

// tableCallReferee: POST /table/{code}/call-referee.
func (s *Server) tableCallReferee(w http.ResponseWriter, r *http.Request) {
	p, state, err := s.app.TableEntryFrom(r.Context(), clientAddress(r), r.PathValue("code"))
	if s.tableRefused(w, r, state, err) {
		return
	}
	if err := s.app.CallReferee(r.Context(), p, p.Entry.TournamentID, p.Entry.Round, p.Entry.Table); err != nil {
		s.tableOpFailed(w, r, err, "")
		return
	}
	s.tablePageFor(w, r, http.StatusOK, nil, nil, "table.referee_called")
}

// tableOpFailed shows an operation's refusal on the table page: field
// errors next to their inputs (the entrant number's input is named
// entrantField), the rest as the page's error.
func (s *Server) tableOpFailed(w http.ResponseWriter, r *http.Request, err error, entrantField string) {
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
	s.tablePageFor(w, r, status, errs, formValues(r), "")
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
