package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
)

// sheetPage: one table's sheet of a round (UI.md §5): the form, its
// report as the person types, its history.
type sheetPage struct {
	Page
	G app.SheetTarget
	// Names: the players' names of an individual tournament (web/individual.go).
	Names map[string]string
	// Sat names who sits at each line this round when that is news (a
	// team's line-up, a substitute in; RULES §12.4, §12.5).
	Sat      [2]string
	Action   string // the form's URL
	Hands    []sheetHandView
	Written  [2]lineWritten
	Findings []sheetFindingView
	// Report is false until something is typed or stored.
	Report  bool
	OK      bool
	Version int
	// CanEdit: the viewer manages the tournament and the sheet still
	// takes a save; otherwise the page shows it read-only.
	CanEdit bool
	// Delivered: the round's sheets are delivered or both lines signed
	// (RULES §10): it changes only by a referee's correction. Ended: the
	// scorer's line signed, the other has not confirmed yet: no save
	// either (app.ErrSheetConfirmed).
	Delivered, Ended bool
	// CanCorrect: the viewer judges this tournament (the referee's
	// correction page, UI.md §4).
	CanCorrect bool
	Ends       []string
	// Conflict: the sheet changed meanwhile; Theirs is the stored one.
	Conflict bool
	Theirs   []sheetHandView
	TheirsW  [2]lineWritten
	History  []app.Correction
	// Versions are the sheet's earlier versions, newest first.
	Versions []sheetVersionView
	// Signatures: the lines' signatures at the table (UI.md §6).
	Signatures []app.Confirmation
	// ConfirmedAlone: the confirmation that alone ended and delivered the
	// sheet (the scoring line did not sign itself); nil otherwise.
	ConfirmedAlone *app.Confirmation
	Computed       *domain.Computed
	// FieldErrs are the unreadable fields, listed in the report too (the
	// live check swaps in only the report); Placeholders the computed
	// totals the page script shows in the inputs.
	FieldErrs    []fieldErrView
	Placeholders []placeholder
}

type fieldErrView struct{ ID, Field, Label, Message string }

// sheetVersionView is an earlier version of the sheet: when and by what it
// was replaced, by whom, and what it added up to.
type sheetVersionView struct {
	Version                 int
	At                      time.Time
	Source, By              string
	NSTotal, EOTotal, Hands int
}

type placeholder struct{ Field, Value string }

type inputView struct {
	Name, ID, Value, Placeholder, Label string
	// Short is the visible label of the phone layout's cards ("NS ·
	// Base"); Label stays the input's full accessible name.
	Short       string
	Invalid     bool
	DescribedBy string
	Error       string // a field error (not a finding)
}

type sheetHandView struct {
	N     int // 1-based
	Lines [2]lineHand
	End   inputView
}

type lineHand struct {
	Line                string
	Base, Points, Total inputView
	// RunningTotal: the progressive total, when the paper sheet has one
	// (API §1 running_total; UI.md §5: may be left empty).
	RunningTotal inputView
}

type lineWritten struct {
	Line          string
	Total, MP, VP inputView
}

type sheetFindingView struct {
	ID, Code, Severity, Message, Rule, Field string
}

// sheetView builds the page's form from typed values, their field errors
// and the report.
func sheetView(lang Lang, planned int, v sheetValues, errs fieldErrors, rep *domain.Report) ([]sheetHandView, [2]lineWritten, []sheetFindingView) {
	byField := map[string][]string{}
	var findings []sheetFindingView
	if rep != nil {
		for k, f := range rep.Findings {
			fv := sheetFindingView{ID: fmt.Sprintf("finding-%d", k), Code: string(f.Code), Severity: string(f.Severity), Message: f.Message(lang), Rule: f.Rule, Field: fieldName(f.Pointer)}
			findings = append(findings, fv)
			// A note (info) is not a mistake: it is listed, but only
			// errors and warnings mark the input they are about.
			if f.Pointer != "" && f.Severity != domain.SeverityInfo {
				byField[fv.Field] = append(byField[fv.Field], fv.ID)
			}
		}
	}
	input := func(name, label string) inputView {
		in := inputView{Name: name, ID: strings.ReplaceAll(name, ".", "-"), Value: v[name], Label: label}
		var desc []string
		if e, ok := errs[name]; ok {
			in.Error = e
			desc = append(desc, in.ID+"-error")
		}
		desc = append(desc, byField[name]...)
		in.Invalid = len(desc) > 0
		in.DescribedBy = strings.Join(desc, " ")
		return in
	}
	lineLabel := [2]string{translate(lang, "secretary.ns"), translate(lang, "secretary.eo")}
	var hands []sheetHandView
	for h := 0; h < planned && h < app.MaxHands; h++ {
		hv := sheetHandView{N: h + 1}
		for li, l := range lineIDs {
			at := fmt.Sprintf("hands.%d.%s.", h, l)
			lab := func(f string) string {
				return translate(lang, "secretary.hand_field", h+1, lineLabel[li], translate(lang, "secretary.col."+f))
			}
			lh := lineHand{Line: l, Base: input(at+"base", lab("base")), Points: input(at+"points", lab("points")), Total: input(at+"total", lab("total")),
				RunningTotal: input(at+"running_total", lab("running_total"))}
			short := func(f string) string { return strings.ToUpper(l) + " · " + translate(lang, "secretary.col."+f) }
			lh.Base.Short, lh.Points.Short, lh.Total.Short, lh.RunningTotal.Short = short("base"), short("points"), short("total"), short("running_short")
			if rep != nil && h < len(rep.Computed.Hands) {
				lh.Total.Placeholder = strconv.Itoa(rep.Computed.Hands[h].Total[li])
				lh.RunningTotal.Placeholder = strconv.Itoa(rep.Computed.Hands[h].RunningTotal[li])
			}
			hv.Lines[li] = lh
		}
		hv.End = input(fmt.Sprintf("hands.%d.end", h), translate(lang, "secretary.end_label", h+1))
		hands = append(hands, hv)
	}
	var written [2]lineWritten
	for li, l := range lineIDs {
		at := "written." + l + "."
		lab := func(f string) string { return lineLabel[li] + " · " + translate(lang, "secretary.col."+f) }
		lw := lineWritten{Line: l, Total: input(at+"total", lab("total")), MP: input(at+"mp", lab("mp")), VP: input(at+"vp", lab("vp"))}
		lw.Total.Short, lw.MP.Short, lw.VP.Short = translate(lang, "secretary.col.total"), translate(lang, "secretary.col.mp"), translate(lang, "secretary.col.vp")
		if rep != nil {
			res := rep.Computed.Lines[li]
			lw.Total.Placeholder, lw.MP.Placeholder, lw.VP.Placeholder = strconv.Itoa(res.Total), strconv.Itoa(res.MP), strconv.Itoa(res.VP)
		}
		written[li] = lw
	}
	return hands, written, findings
}

// sheetPath is the sheet page of a table.
func sheetPath(tid string, n, t int) string {
	return tournamentPath(tid, fmt.Sprintf("/rounds/%d/tables/%d", n, t))
}

func sheetCoords(r *http.Request) (n, t int, ok bool) {
	n, ok1 := pathInt(r, "n")
	t, ok2 := pathInt(r, "t")
	return n, t, ok1 && ok2
}

func (s *Server) sheetShow(w http.ResponseWriter, r *http.Request) {
	n, t, ok := sheetCoords(r)
	if !ok {
		s.notFound(w, r)
		return
	}
	ctx, p, tid := r.Context(), s.caller(r), r.PathValue("tid")
	view, err := s.app.Sheet(ctx, p, tid, n, t)
	var g app.SheetTarget
	var stored *app.StoredSheet
	switch {
	case errors.Is(err, domain.ErrNotFound):
		// No sheet yet: the table must exist all the same.
		if g, err = s.app.SheetTarget(ctx, p, tid, n, t, false); err != nil {
			s.operationFailed(w, r, err)
			return
		}
	case err != nil:
		s.operationFailed(w, r, err)
		return
	default:
		g, stored = view.Target, &view.Stored
	}
	data := s.newSheetPage(r, g)
	data.History = view.Corrections
	for _, v := range view.History {
		sum := app.Summarize(v.Stored.Sheet)
		data.Versions = append(data.Versions, sheetVersionView{Version: v.Version, At: v.ReplacedAt, Source: v.Source, By: v.By,
			NSTotal: sum.NSTotal, EOTotal: sum.EOTotal, Hands: sum.Hands})
	}
	data.Signatures = view.Confirmations
	switch { // signed at the table (UI.md §6): saving is refused
	case len(data.Signatures) >= 2:
		data.Delivered, data.CanEdit = true, false
		for i, c := range data.Signatures {
			if !c.Signed() {
				for j := range data.Signatures {
					if j != i && data.Signatures[j].Kind == app.SignConfirm {
						data.ConfirmedAlone = &data.Signatures[j]
					}
				}
			}
		}
	case len(data.Signatures) == 1 && !data.Delivered:
		data.Ended, data.CanEdit = true, false
	}
	values := sheetValues{}
	var rep *domain.Report
	if stored != nil {
		values = sheetValuesOf(stored.Sheet)
		rr := app.SheetReport(stored.Sheet)
		rep = &rr
		data.Version = stored.Version
	}
	s.fillSheet(data, values, fieldErrors{}, rep)
	if r.URL.Query().Get("saved") != "" {
		data.Message = "secretary.sheet_saved"
	}
	s.render(w, r, http.StatusOK, "sheet_show", data)
}

func (s *Server) newSheetPage(r *http.Request, g app.SheetTarget) *sheetPage {
	data := &sheetPage{Page: s.page(r, "secretary.sheet_title"), G: g,
		Action: sheetPath(g.Tournament.ID, g.Round.Number, g.Table.Table), Ends: []string{""},
		Names: s.lineNames(r.Context(), s.caller(r), g.Tournament)}
	data.Zone = app.TournamentZone(g.Tournament)
	for _, e := range domain.HandEnds {
		data.Ends = append(data.Ends, string(e))
	}
	_, acc, err := s.app.TournamentAccess(r.Context(), s.caller(r), g.Tournament.ID)
	data.Delivered = g.Round.State.Order() >= domain.RoundSheetsDelivered.Order()
	data.CanEdit = err == nil && acc.Manage() && !data.Delivered
	data.CanCorrect = err == nil && acc.Judge(g.Tournament)
	if sat, err := s.app.SatAt(r.Context(), g); err == nil {
		data.Sat = sat
	} else {
		s.log.Warn("sheet page: who sat", "err", err) // the page stands without the names
	}
	return data
}

func (s *Server) fillSheet(data *sheetPage, v sheetValues, errs fieldErrors, rep *domain.Report) {
	data.Hands, data.Written, data.Findings = sheetView(data.Lang, data.G.Round.HandsPlanned, v, errs, rep)
	var inputs []inputView
	for _, h := range data.Hands {
		for _, l := range h.Lines {
			inputs = append(inputs, l.Base, l.Points, l.Total, l.RunningTotal)
		}
		inputs = append(inputs, h.End)
	}
	for _, w := range data.Written {
		inputs = append(inputs, w.Total, w.MP, w.VP)
	}
	for _, in := range inputs {
		if in.Error != "" {
			data.FieldErrs = append(data.FieldErrs, fieldErrView{ID: "report-" + in.ID + "-error", Field: in.Name, Label: in.Label, Message: in.Error})
		}
		if in.Placeholder != "" {
			data.Placeholders = append(data.Placeholders, placeholder{Field: in.Name, Value: in.Placeholder})
		}
	}
	if rep != nil {
		data.Report, data.OK = true, rep.OK()
		data.Computed = &rep.Computed
	}
}

// sheetValidate answers the report of what is typed (the htmx live
// check swaps it in; static/sheet.js marks the inputs it names); nothing
// is stored. The inputs are never re-rendered while someone types.
func (s *Server) sheetValidate(w http.ResponseWriter, r *http.Request, scope app.SheetScope) {
	data, v, hands, written, errs, ok := s.readSheetPost(w, r, scope, false)
	if !ok {
		return
	}
	rep, err := s.app.CheckSheet(r.Context(), scope, sheetOf(scope.SheetTarget, hands, written))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	if len(hands) == 0 {
		s.fillSheet(data, v, errs, nil)
	} else {
		s.fillSheet(data, v, errs, &rep)
	}
	s.renderFragment(w, r, http.StatusOK, "sheet_show", "sheet_report", data)
}

// readSheetPost reads a posted sheet form; false when the answer is sent.
func (s *Server) readSheetPost(w http.ResponseWriter, r *http.Request, scope app.SheetScope, strict bool) (*sheetPage, sheetValues, []domain.Hand, [2]domain.WrittenResult, fieldErrors, bool) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return nil, nil, nil, [2]domain.WrittenResult{}, nil, false
	}
	g := scope.SheetTarget
	data := s.newSheetPage(r, g)
	data.Version, _ = strconv.Atoi(r.PostFormValue("version"))
	v := readSheetValues(r)
	hands, written, errs := v.sheetParts(data.Lang, g.Round.HandsPlanned, strict)
	return data, v, hands, written, errs, true
}

// sheetLocked reports whether the sheet page shows the sheet read-only
// because of the sheet itself (signed at the table, or the round's sheets
// delivered): a refused save is answered with that page.
func (s *Server) sheetLocked(r *http.Request, tid string, n, t int) bool {
	view, err := s.app.Sheet(r.Context(), s.caller(r), tid, n, t)
	return err == nil && (len(view.Confirmations) > 0 || view.Target.Round.State.Order() >= domain.RoundSheetsDelivered.Order())
}

// sheetSave stores the sheet through the same operation as PUT …/sheet,
// on the version the form was made from: a sheet changed meanwhile is not
// overwritten; the person sees both.
func (s *Server) sheetSave(w http.ResponseWriter, r *http.Request, scope app.SheetScope) {
	data, v, hands, written, errs, ok := s.readSheetPost(w, r, scope, true)
	if !ok {
		return
	}
	if len(errs) > 0 || len(hands) == 0 {
		if len(hands) == 0 {
			errs["hands.0.ns.base"] = translate(data.Lang, "secretary.no_hands")
		}
		data.Error = "form.errors"
		s.fillSheet(data, v, errs, nil)
		s.render(w, r, http.StatusUnprocessableEntity, "sheet_show", data)
		return
	}
	ctx, p, tid := r.Context(), s.caller(r), r.PathValue("tid")
	n, t := data.G.Round.Number, data.G.Table.Table
	sh := sheetOf(scope.SheetTarget, hands, written)
	_, err := s.app.PutSheet(ctx, scope, sh, data.Version)
	switch {
	case errors.Is(err, app.ErrPrecondition):
		view, rerr := s.app.Sheet(ctx, p, tid, n, t)
		if rerr != nil {
			s.operationFailed(w, r, rerr)
			return
		}
		data.Conflict = true
		data.Error = "secretary.sheet_conflict"
		theirs := app.SheetReport(view.Stored.Sheet)
		data.Theirs, data.TheirsW, _ = sheetView(data.Lang, data.G.Round.HandsPlanned, sheetValuesOf(view.Stored.Sheet), fieldErrors{}, &theirs)
		// Saving again means: replace their version with mine.
		data.Version = view.Stored.Version
		rep, _ := s.app.CheckSheet(ctx, scope, sh)
		s.fillSheet(data, v, errs, &rep)
		s.render(w, r, http.StatusConflict, "sheet_show", data)
		return
	case err != nil:
		if fe, ok := invalidFields(data.Lang, err, nil); ok {
			data.Error = "form.errors"
			s.fillSheet(data, v, fe, nil)
			s.render(w, r, http.StatusUnprocessableEntity, "sheet_show", data)
			return
		}
		if errors.Is(err, domain.ErrConflict) && s.sheetLocked(r, tid, n, t) {
			// Signed at the table or delivered meanwhile: the page shows
			// it read-only, saying why.
			seeOther(w, r, sheetPath(tid, n, t))
			return
		}
		s.operationFailed(w, r, err)
		return
	}
	seeOther(w, r, sheetPath(tid, n, t)+"?saved=1")
}
