package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/httperr"
	"segnapunti/web/form"
)

// correctionPage is /tournaments/{tid}/rounds/{n}/tables/{t}/correct: the
// sheet as written beside the sheet as computed, the wrong cells marked,
// the correction form and, after "anteprima", the ruling the codes give
// now and the standings before and after (UI.md §4).
type correctionPage struct {
	Page
	TID        string
	Tournament domain.Tournament
	Round      int
	Table      int
	NS, EO     string
	Version    int
	Hands      []handView
	Written    [2]writtenView
	Findings   []findingView
	History    []app.Correction
	Kinds      []string
	Form       form.Correction
	Errors     form.Errors
	Details    []string // the operation's words about a refused input
	Preview    *previewView
	Conflict   bool // another referee corrected the sheet meanwhile
}

// cellView is one written figure: its field name, the value shown in the
// input, and whether a finding points at it.
type cellView struct {
	Name, Value string
	Label       string // the input's label, in the page's language
	Short       string // its column's name, shown above it on a phone
	Err         string // a message id: the form's or the operation's refusal
	Wrong       bool
	Finding     string // the message of the finding at the cell
}

type handView struct {
	Index  int
	Number int // Index + 1, as people count
	Lines  [2]handLineView
}

type handLineView struct {
	Base, Points, Total, Running cellView
	Computed                     int // the hand's total as computed
	ComputedRunning              int
}

type writtenView struct {
	Total, MP, VP cellView
	Computed      domain.LineResult
}

type previewView struct {
	Ruling      string
	Rules       []string
	Reason      string
	Applies     bool
	Diff        []app.StandingsChange
	Changed     int
	NextRound   int
	Checked     bool
	Seating     []app.SeatingChange
	Hidden      map[string]string // the form again, for "conferma"
	KeepPairing bool
	// Official is each line's official result (RULES §8) before and after
	// the correction, as it will be saved: NS, EO.
	Official [2]officialChange
}

// officialChange is one line's official total, MP and VP before and after.
type officialChange struct {
	Line          string
	Before, After domain.LineResult
	Changed       bool
}

func intText(v *int) string {
	if v == nil {
		return ""
	}
	return strconv.Itoa(*v)
}

// fill builds the side-by-side view of sheet; values typed in the form
// (raw) take the place of the stored ones.
func (d *correctionPage) fill(sheet domain.Sheet, raw map[string]string, lang Lang) {
	rep := domain.Validate(sheet)
	// What is wrong: errors and warnings (notes of what cannot be
	// verified would bury them).
	var shown []domain.Finding
	for _, f := range rep.Findings {
		if f.Severity != domain.SeverityInfo {
			shown = append(shown, f)
		}
	}
	d.Findings = findingViews(shown, lang)
	wrong := map[string]string{}
	for _, f := range d.Findings {
		if f.Field != "" {
			wrong[f.Field] = f.Message
		}
	}
	cell := func(name string, v *int) cellView {
		c := cellView{Name: name, Value: intText(v), Label: cellLabel(name, lang), Short: cellShort(name, lang), Err: d.Errors[name]}
		if s, ok := raw[name]; ok {
			c.Value = s
		}
		c.Finding, c.Wrong = wrong[name]
		return c
	}
	lines := [2]string{"ns", "eo"}
	d.Hands = nil
	for i, h := range sheet.Hands {
		hv := handView{Index: i, Number: i + 1}
		for l := range 2 {
			p := fmt.Sprintf("hands.%d.%s.", i, lines[l])
			ls := h.Lines[l]
			hv.Lines[l] = handLineView{Base: cell(p+"base", &ls.Base), Points: cell(p+"points", &ls.Points), Total: cell(p+"total", ls.Total),
				Running: cell(p+"running_total", ls.RunningTotal)}
			if i < len(rep.Computed.Hands) {
				hv.Lines[l].Computed = rep.Computed.Hands[i].Total[l]
				hv.Lines[l].ComputedRunning = rep.Computed.Hands[i].RunningTotal[l]
			}
		}
		d.Hands = append(d.Hands, hv)
	}
	for l := range 2 {
		p := "written." + lines[l] + "."
		w := sheet.Written[l]
		d.Written[l] = writtenView{Total: cell(p+"total", w.Total), MP: cell(p+"mp", w.MP), VP: cell(p+"vp", w.VP), Computed: rep.Computed.Lines[l]}
	}
}

// correctionDesk loads the sheet and fills the page; false when it wrote
// an error page.
func (s *Server) correctionDesk(w http.ResponseWriter, r *http.Request, d *correctionPage) bool {
	p, _ := s.principal(r)
	n, ok1 := pathNumber(r, "n")
	t, ok2 := pathNumber(r, "t")
	if !ok1 || !ok2 {
		s.notFound(w, r)
		return false
	}
	v, err := s.app.CorrectionDesk(r.Context(), p, r.PathValue("tid"), n, t)
	if err != nil {
		s.refereeFail(w, r, err)
		return false
	}
	d.TID, d.Tournament, d.Round, d.Table = v.Target.Tournament.ID, v.Target.Tournament, n, t
	d.Zone = app.TournamentZone(v.Target.Tournament)
	d.NS, d.EO = strings.Join(v.Target.Table.Line(domain.NS), " – "), strings.Join(v.Target.Table.Line(domain.EO), " – ") // individual: two players
	d.Version, d.History = v.Stored.Version, v.Corrections
	d.Kinds = form.Kinds
	if d.Errors == nil {
		d.Errors = form.Errors{}
	}
	d.fill(v.Stored.Sheet, d.Form.Raw, d.Lang)
	return true
}

func (s *Server) correctionShow(w http.ResponseWriter, r *http.Request) {
	d := correctionPage{Page: s.page(r, "referee.correct_title")}
	if s.correctionDesk(w, r, &d) {
		s.render(w, r, http.StatusOK, "correct", &d)
	}
}

// correctionInput is what the form asks of the corrections operation.
func correctionInput(f form.Correction, n, t int) (app.CorrectionInput, error) {
	kind, err := domain.ParseCorrectionKind(f.Kind)
	if err != nil {
		return app.CorrectionInput{}, err
	}
	return app.CorrectionInput{
		Round: n, Table: t, Kind: kind, Reason: f.Reason, Version: f.Version,
		Facts:  app.CorrectionFacts{StandingsContested: f.StandingsContested, BothLinesAcknowledge: f.BothLinesAcknowledge, RefereeCountersigned: f.RefereeCountersigned},
		Change: app.CorrectedValues(f.Values),
	}, nil
}

// correctionRefused shows the form again with the refusal: field errors
// beside their inputs, a stale version as the conflict message with the
// sheet as it is now.
func (s *Server) correctionRefused(w http.ResponseWriter, r *http.Request, d *correctionPage, err error) {
	var stale *app.StaleSheetError
	var ae *app.Error
	status := http.StatusUnprocessableEntity
	switch {
	case errors.As(err, &stale):
		d.Conflict, d.Form.Raw = true, nil
		d.Error, d.ErrorArgs = "referee.stale", []any{stale.Want, stale.Current}
		status = httperr.Precondition.Page
	case errors.As(err, &ae) && errors.Is(err, domain.ErrInvalid):
		d.Error = "form.errors"
		lang := langOf(r)
		for _, fe := range ae.Fields {
			name := fieldName(fe.Pointer)
			detail := fieldRefusalDetail(lang, fe)
			if name == "corrected" || name == "table" || name == "round" || name == "" {
				if detail != "" {
					d.Details = append(d.Details, detail)
				}
				continue
			}
			d.Errors[name] = "referee.err_value"
			if detail != "" {
				d.Details = append(d.Details, name+": "+detail)
			}
		}
		if detail := refusalDetail(lang, ae); len(ae.Fields) == 0 && detail != "" {
			d.Details = append(d.Details, detail)
		}
	default:
		s.refereeFail(w, r, err)
		return
	}
	if !s.correctionDesk(w, r, d) {
		return
	}
	s.render(w, r, status, "correct", d)
}

// correctionForm reads the correction form of a preview or an apply: a
// form with field errors is shown again (422) and ok is false; otherwise
// read gives the operation the correction it describes.
func (s *Server) correctionForm(w http.ResponseWriter, r *http.Request) (d *correctionPage, in app.CorrectionInput, ok bool) {
	f, errs, err := form.ParseCorrection(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return nil, in, false
	}
	d = &correctionPage{Page: s.page(r, "referee.correct_title"), Form: f, Errors: errs}
	if errs.Any() {
		d.Error = "form.errors"
		if s.correctionDesk(w, r, d) {
			s.render(w, r, http.StatusUnprocessableEntity, "correct", d)
		}
		return nil, in, false
	}
	n, _ := pathNumber(r, "n")
	t, _ := pathNumber(r, "t")
	if in, err = correctionInput(f, n, t); err != nil {
		s.correctionRefused(w, r, d, err)
		return nil, in, false
	}
	return d, in, true
}

// correctionPreview: POST …/correct/preview — the ruling and the standings
// before and after, nothing written.
// Who may correct is resolved first (withTournament).
func (s *Server) correctionPreview(w http.ResponseWriter, r *http.Request, scope app.TournamentScope) {
	d, in, ok := s.correctionForm(w, r)
	if !ok {
		return
	}
	f := d.Form
	pv, err := s.app.PreviewCorrection(r.Context(), scope, in)
	if err != nil {
		s.correctionRefused(w, r, d, err)
		return
	}
	if !s.correctionDesk(w, r, d) {
		return
	}
	d.fill(pv.Corrected, f.Raw, d.Lang)
	v := &previewView{
		Ruling: string(pv.Decision.Ruling), Rules: pv.Decision.Rules, Reason: pv.Decision.ReasonIn(d.Lang),
		Applies: pv.Decision.Ruling.Applies(), Diff: pv.Diff, NextRound: pv.NextRound, Checked: pv.PairingChecked,
		Seating: pv.Seating, KeepPairing: pv.Decision.Ruling == domain.RulingApplyKeepPairing, Hidden: map[string]string{},
	}
	for _, c := range pv.Diff {
		if c.Changed {
			v.Changed++
		}
	}
	for _, l := range domain.Lines {
		b, a := pv.Official.Before.Lines[l].Official, pv.Official.After.Lines[l].Official
		v.Official[l] = officialChange{Line: l.String(), Before: b, After: a, Changed: b != a}
	}
	for k, val := range f.Raw {
		v.Hidden[k] = val
	}
	d.Preview = v
	d.Message = "referee.preview_ready"
	s.render(w, r, http.StatusOK, "correct", d)
}

// correctionApply: POST …/correct — "conferma": the correction is ruled
// on again and recorded (applied or rejected) by the corrections
// operation; a sheet changed meanwhile is not overwritten.
// Who may correct is resolved first (withTournament).
func (s *Server) correctionApply(w http.ResponseWriter, r *http.Request, scope app.TournamentScope) {
	d, in, ok := s.correctionForm(w, r)
	if !ok {
		return
	}
	res, err := s.app.CreateCorrection(r.Context(), scope, in)
	if err != nil {
		s.correctionRefused(w, r, d, err)
		return
	}
	seeOther(w, r, fmt.Sprintf("/tournaments/%s/corrections?recorded=%d#correction-%d", url.PathEscape(d.TIDOf(r)), res.Record.ID, res.Record.ID))
}

// TIDOf is the tournament id of the request's path.
func (d *correctionPage) TIDOf(r *http.Request) string { return r.PathValue("tid") }

// cellLabel names an input of the correction form for people: "mano 1,
// Nord-Sud, base" from "hands.0.ns.base".
// cellShort is a figure's column as the phone layout shows it above the
// input: "NS · base" in a hand, "MP" in the written result.
func cellShort(name string, lang Lang) string {
	parts := strings.Split(name, ".")
	field := func(f string) string {
		if f == "total" && parts[0] == "hands" {
			return translate(lang, "referee.written_total")
		}
		if f == "running_total" {
			return translate(lang, "referee.running_short")
		}
		return translate(lang, "referee.field_"+f)
	}
	switch len(parts) {
	case 4:
		return strings.ToUpper(parts[2]) + " · " + field(parts[3])
	case 3:
		return field(parts[2])
	}
	return name
}

func cellLabel(name string, lang Lang) string {
	parts := strings.Split(name, ".")
	line := func(s string) string { return translate(lang, "referee.line_"+s) }
	switch {
	case len(parts) == 4:
		i, _ := strconv.Atoi(parts[1])
		return translate(lang, "referee.cell_hand", i+1, line(parts[2]), translate(lang, "referee.field_"+parts[3]))
	case len(parts) == 3:
		return translate(lang, "referee.cell_written", line(parts[1]), translate(lang, "referee.field_"+parts[2]))
	}
	return name
}
