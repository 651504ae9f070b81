package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/importers/xlsx"
	"segnapunti/messages"
	"segnapunti/store"
)

// Workbook imports (API §5): who may upload, reading the workbook through
// the upload gate, checking each match against the tournament, validating
// it, and storing every sheet of the workbook with a record of the upload
// in one transaction. Both doors (POST /v1/tournaments/{tid}/imports and
// the page /tournaments/{tid}/imports) run RunImport.
//
// What an upload does with what it finds:
//
//   - a workbook that cannot be read at all (not an .xlsx file, truncated,
//     over a limit, in neither layout, a cell whose value cannot be read):
//     ErrUnreadableWorkbook or ErrWorkbookTooLarge naming the cell where
//     there is one; nothing is stored;
//   - a match that does not fit the tournament (a round or table it does
//     not have, a pair the table does not seat, another ruleset, planned
//     hands, kind or VP table, the same table twice): ErrImportMismatch
//     listing every such match by its cell; nothing is stored. The whole
//     upload is refused because the fix may be in the tournament (a round
//     not yet entered) and the same file must then import: a recorded
//     upload would be answered again unchanged (below);
//   - a match that cannot be read as a whole (hands numbered twice, results
//     without hands: xlsx.Match.Err): listed as "unreadable" with its cell;
//     the others are stored. Fixing it changes the file, so the fixed file
//     is a new upload;
//   - a match of a round whose sheets are delivered (RULES §10; FITAB
//     art. 20: a delivered sheet is final, corrections go through the
//     referee): listed as "rejected" with its report; the others are stored;
//   - every other match is validated (API §2, findings naming their cells)
//     and created at its table, error findings or not, as a PUT of the
//     sheet would; a table already holding the same sheet is left alone
//     ("unchanged"); a table holding a different sheet is replaced only
//     when the upload asks for it (ImportOptions.Replace, ?replace=true:
//     the replaced sheet stays in the sheet's history). Otherwise the
//     whole upload is refused, nothing stored and nothing recorded, with
//     the report of what it would do (*WouldReplaceError: "would_replace"
//     naming each such table, with the totals stored and uploaded) — issue
//     10: the blank template uploaded into an entered round replaced a
//     real sheet.
//
// When no match can be stored, nothing is recorded and the refusal lists
// why (ErrRoundClosed when every match is in a delivered round,
// ErrUnreadableWorkbook otherwise). The same file again (its SHA-256) in
// the same tournament is answered with the recorded report (Replayed).
// Recorded reports are in English: the record keeps one language; the
// result of a fresh upload also carries each match's domain report, for a
// door that speaks another language.

// Refusals of an upload (kinds of *Error).
var (
	// ErrUnreadableWorkbook: the workbook, or every match of it, cannot
	// be read or stored.
	ErrUnreadableWorkbook = fmt.Errorf("%w: unreadable workbook", domain.ErrInvalid)
	// ErrImportMismatch: a match does not fit the tournament.
	ErrImportMismatch = fmt.Errorf("%w: workbook does not fit the tournament", domain.ErrInvalid)
	// ErrWorkbookTooLarge: the file or its content is over a limit.
	ErrWorkbookTooLarge = fmt.Errorf("%w: workbook too large", domain.ErrInvalid)
)

// Upload is the file of an upload, read whole, with its SHA-256 (hex).
type Upload struct {
	Filename string
	Data     []byte
	SHA256   string
}

// ImportOptions are a door's settings of an upload.
type ImportOptions struct {
	// Gate bounds the workbooks read at once; nil: the App's own gate
	// (ImportGate). A full gate is xlsx.ErrBusy, returned as it is (the
	// door answers it with Gate.RetryAfter).
	Gate *xlsx.Gate
	// MaxBytes bounds the workbook (0: xlsx.DefaultMaxBytes).
	MaxBytes int64
	// Replace: a match whose table holds a different sheet replaces it.
	// Without it such an upload is refused whole (*WouldReplaceError).
	Replace bool
}

// ImportResult is a recorded upload: the record (its ReportJSON is the
// API §4 report), whether it had been recorded before, and — for a fresh
// upload — the matches in workbook order with their domain reports.
type ImportResult struct {
	Import   store.Import
	Replayed bool
	Layout   string
	Matches  []ImportMatch
	Counts   ImportCounts
	Ignored  []string
}

// ImportGate is the App's gate of uploads, shared by the doors that pass
// no gate of their own.
func (a *App) ImportGate() *xlsx.Gate {
	a.gateOnce.Do(func() { a.gate = xlsx.NewGate(DefaultImportSlots, DefaultImportWait) })
	return a.gate
}

// DefaultImportSlots workbooks are read at once (each may hold up to
// xlsx.UploadMemoryBudget); another upload waits DefaultImportWait for a
// slot, then is refused with xlsx.ErrBusy.
const (
	DefaultImportSlots = 2
	DefaultImportWait  = 2 * time.Second
)

// ImportSlot is an upload's scope with a slot of the upload gate taken:
// a door reads the workbook only once it holds one (a busy server does
// not buffer another), runs RunImport with it, then releases it.
type ImportSlot struct {
	Scope TournamentScope
	// MaxBytes bounds the workbook the door reads.
	MaxBytes int64
	replace  bool
	release  func()
}

// Release gives the slot back (once the upload ran or was refused).
func (s ImportSlot) Release() {
	if s.release != nil {
		s.release()
	}
}

// ImportSlot takes a slot of the upload gate for an upload into the
// tournament of scope (resolved with TournamentImport). A full gate is
// xlsx.ErrBusy, returned as it is (the door answers it with
// Gate.RetryAfter).
func (a *App) ImportSlot(ctx context.Context, scope TournamentScope, opts ImportOptions) (ImportSlot, error) {
	if err := scope.allows(TournamentImport); err != nil {
		return ImportSlot{}, err
	}
	gate := opts.Gate
	if gate == nil {
		gate = a.ImportGate()
	}
	maxBytes := opts.MaxBytes
	if maxBytes <= 0 {
		maxBytes = xlsx.DefaultMaxBytes
	}
	release, err := gate.Acquire(ctx)
	if err != nil {
		return ImportSlot{}, err
	}
	return ImportSlot{Scope: scope, MaxBytes: maxBytes, replace: opts.Replace, release: release}, nil
}

// RunImport imports the workbook up, read by the door within slot's
// bounds, into the tournament of the slot.
func (a *App) RunImport(ctx context.Context, slot ImportSlot, up Upload) (ImportResult, error) {
	if slot.release == nil {
		return ImportResult{}, errors.New("run import: no slot of the upload gate taken (ImportSlot)")
	}
	if err := slot.Scope.allows(TournamentImport); err != nil {
		return ImportResult{}, err
	}
	t, p, maxBytes := slot.Scope.Tournament, slot.Scope.By, slot.MaxBytes
	by := p.Name
	if by == "" {
		by = string(p.Role)
	}
	res, err := a.importWorkbook(ctx, t, by, up, maxBytes, slot.replace)
	if err != nil {
		return ImportResult{}, err
	}
	if !res.Replayed {
		a.SheetsImported(ctx, t.ID)
	}
	return res, nil
}

// cellError is the field refusal of a workbook cell the reader could not
// read: worded from the catalogue when the reader coded it.
func cellError(ce *xlsx.CellError) FieldError {
	if ce.Msg.Key != "" {
		return cellField(ce.Ref(), ce.Msg.Key, ce.Msg.Args...)
	}
	f := uncoded("", ce.Detail)
	f.Cell = ce.Ref()
	return f
}

// workbookDetail is why the reader refused a workbook, as an argument of
// a catalogue message: the reader's code when it has one, else its
// English.
func workbookDetail(err error) any {
	if m, ok := xlsx.Message(err); ok {
		return m
	}
	return invalidDetail(err)
}

// invalidDetail is an invalid-input error's message without its kind.
func invalidDetail(err error) string {
	return strings.TrimPrefix(err.Error(), domain.ErrInvalid.Error()+": ")
}

// ImportTournament loads the tournament of an upload: the organising
// club, a referee of the tournament and an admin may upload; the
// federation reads but does not enter sheets.
func (a *App) ImportTournament(ctx context.Context, p Principal, tid string) (domain.Tournament, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return t, err
	}
	if !acc.Import() {
		return t, forbidden("api.upload_only")
	}
	return t, nil
}

// Import is a recorded upload, for whoever may read its tournament; to
// anyone else it does not exist (and the error says nothing of the
// tournament).
func (a *App) Import(ctx context.Context, p Principal, id int64) (store.Import, error) {
	nf := notFound("api.no_import_n", id)
	if id < 1 {
		return store.Import{}, nf
	}
	imp, err := a.db.GetImport(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return store.Import{}, nf
	}
	if err != nil {
		return store.Import{}, err
	}
	if _, err := a.readable(ctx, p, imp.TournamentID); errors.Is(err, domain.ErrNotFound) {
		return store.Import{}, nf
	} else if err != nil {
		return store.Import{}, err
	}
	return imp, nil
}

// Match statuses in an import report.
const (
	statusCreated      = store.ImportCreated
	statusReplaced     = store.ImportReplaced
	statusUnchanged    = store.ImportUnchanged
	statusWouldReplace = store.ImportWouldReplace
	// StatusWouldReplace is the status of a match whose table holds a
	// different sheet, in a refused upload (for the doors).
	StatusWouldReplace = statusWouldReplace
	statusRejected     = "rejected"
	statusUnreadable   = "unreadable"
)

// ErrWouldReplace: the upload would replace entered sheets with different
// ones and replace was not asked; nothing was stored.
var ErrWouldReplace = fmt.Errorf("%w: the workbook would replace sheets already entered", domain.ErrConflict)

// WouldReplaceError is the refusal of an upload that would replace entered
// sheets: the import report of what it would do (no id: nothing was
// recorded), the matches and their counts.
type WouldReplaceError struct {
	Report  []byte
	Matches []ImportMatch
	Counts  ImportCounts
}

func (e *WouldReplaceError) Error() string {
	return fmt.Sprintf("%s: %d tables", ErrWouldReplace, e.Counts.WouldReplace)
}

func (e *WouldReplaceError) Unwrap() error { return ErrWouldReplace }

// Detail says what to do about it.
func (e *WouldReplaceError) Detail() string {
	return e.Msg().English()
}

// Msg is Detail from the catalogue.
func (e *WouldReplaceError) Msg() messages.M {
	var tables []string
	for _, m := range e.Matches {
		if m.Status == statusWouldReplace {
			tables = append(tables, fmt.Sprintf("%d/%d", m.Round, m.Table))
		}
	}
	return messages.New("api.would_replace", strings.Join(tables, ", "))
}

// SheetSummary is what a sheet adds up to, to say how a stored sheet and
// an uploaded one differ.
type SheetSummary struct {
	Hands   int `json:"hands"`
	NSTotal int `json:"ns_total"`
	EOTotal int `json:"eo_total"`
}

// Summarize is the sheet's official totals (RULES §8) and hands.
func Summarize(s domain.Sheet) *SheetSummary {
	m := domain.OfficialResult(s, domain.Validate(s))
	return &SheetSummary{Hands: len(s.Hands), NSTotal: m.Lines[domain.NS].Official.Total, EOTotal: m.Lines[domain.EO].Official.Total}
}

// importHead is the start of the import report of API §4 (POST
// .../imports); "matches", "ignored" and "counts" follow it (see report).
type importHead struct {
	ID         string `json:"id,omitempty"` // none for a refused upload
	Tournament string `json:"tournament"`
	Filename   string `json:"filename"`
	SHA256     string `json:"sha256"`
	Layout     string `json:"layout"`
	CreatedAt  string `json:"created_at,omitempty"`
	CreatedBy  string `json:"created_by"`
	Replace    bool   `json:"replace"` // the upload was sent with ?replace=true
}

// ImportMatch is one match of the workbook, in workbook order.
type ImportMatch struct {
	Round     int    `json:"round,omitempty"` // absent when the match does not say
	Table     int    `json:"table,omitempty"`
	Worksheet string `json:"worksheet"`
	Cell      string `json:"cell"` // where the match starts, "Smazzate!A5"
	Status    string `json:"status"`
	// Version is the sheet's version after the import (its ETag).
	Version int `json:"version,omitempty"`
	// Stored and Uploaded say how the sheet the upload replaces (or would
	// replace) and the uploaded one differ.
	Stored   *SheetSummary `json:"stored,omitempty"`
	Uploaded *SheetSummary `json:"uploaded,omitempty"`
	// sheet is the uploaded sheet (for stored matches).
	sheet *domain.Sheet
	Error *FieldError `json:"error,omitempty"`
	// Report is the API §2 report of the match, as reportjson wrote it;
	// absent when unreadable. It is appended as it is (see report).
	Report []byte `json:"-"`
	// Findings is the validation report of the match (nil when it was not
	// validated), for a door that shows it in another language.
	Findings *domain.Report `json:"-"`
	// hasErrors: the report has an error finding.
	hasErrors bool
}

type ImportCounts struct {
	Matches      int `json:"matches"`
	Created      int `json:"created"`
	Replaced     int `json:"replaced"`
	Unchanged    int `json:"unchanged"`
	WouldReplace int `json:"would_replace"`
	Rejected     int `json:"rejected"`
	Unreadable   int `json:"unreadable"`
	// WithErrors: matches whose report has an error finding.
	WithErrors int `json:"with_errors"`
}

// importWorkbook reads, checks, validates and stores one uploaded workbook
// for tournament t (see the top of this file). It returns the recorded
// import and whether it had been recorded before.
func (a *App) importWorkbook(ctx context.Context, t domain.Tournament, by string, up Upload, maxBytes int64, replace bool) (ImportResult, error) {
	// The same file again is answered before it is read again.
	prior, err := a.db.FindImport(ctx, t.ID, up.SHA256)
	if err == nil {
		return ImportResult{Import: prior, Replayed: true}, nil
	}
	if !errors.Is(err, domain.ErrNotFound) {
		return ImportResult{}, err
	}
	wb, err := xlsx.Read(bytes.NewReader(up.Data), int64(len(up.Data)), xlsx.Options{
		Ruleset: t.Ruleset, HandsPlanned: t.HandsPerRound, MaxBytes: maxBytes, Kind: t.Kind,
	})
	if err != nil {
		return ImportResult{}, workbookError(err)
	}
	rounds, err := a.db.ListRounds(ctx, t.ID)
	if err != nil {
		return ImportResult{}, err
	}
	entrants, err := a.db.ListEntrants(ctx, t.ID)
	if err != nil {
		return ImportResult{}, err
	}
	plan, err := planImport(t, rounds, entrants, wb)
	if err != nil {
		return ImportResult{}, err
	}
	plan.replace = replace
	imp := store.Import{TournamentID: t.ID, SHA256: up.SHA256, Filename: up.Filename, CreatedBy: by}
	saved, replayed, err := a.db.SaveImport(ctx, imp, plan.sheets, replace, plan.report)
	var wr *store.WouldReplaceError
	if errors.As(err, &wr) {
		return ImportResult{}, plan.wouldReplace(imp, wr.Outcomes)
	}
	if errors.Is(err, store.ErrRoundClosed) {
		return ImportResult{}, refusal(ErrRoundClosed, "api.import_round_raced")
	}
	if err != nil {
		return ImportResult{}, err
	}
	if replayed {
		return ImportResult{Import: saved, Replayed: true}, nil
	}
	return ImportResult{Import: saved, Layout: string(plan.layout), Matches: plan.matches, Counts: plan.counts, Ignored: plan.ignored}, nil
}

// workbookError is the problem for a workbook that cannot be read at all.
func workbookError(err error) error {
	var ce *xlsx.CellError
	switch {
	case errors.As(err, &ce):
		f := cellError(ce)
		e := refusal(ErrUnreadableWorkbook, "api.workbook_cell", ce.Ref(), f.Msg)
		e.Fields = []FieldError{f}
		return e
	case errors.Is(err, xlsx.ErrTooLarge):
		return refusal(ErrWorkbookTooLarge, "api.workbook_unread", workbookDetail(err))
	case errors.Is(err, domain.ErrInvalid):
		// ErrNotWorkbook, ErrLayout, a setting the reader refuses.
		return refusal(ErrUnreadableWorkbook, "api.workbook_unread", workbookDetail(err))
	}
	return err
}

// importPlan is what an upload will store, and the report it will record.
type importPlan struct {
	matches []ImportMatch
	sheets  []store.ImportedSheet
	// stored[i] is the index in matches of sheets[i].
	stored  []int
	layout  xlsx.Layout
	ignored []string
	counts  ImportCounts // set by report
	replace bool         // the upload asked to replace
}

// planImport checks every match of the workbook against the tournament and
// validates those that fit. It fails, storing nothing, when a match does
// not fit or when no match can be stored.
func planImport(t domain.Tournament, rounds []domain.Round, entrants []domain.Entrant, wb *xlsx.Workbook) (*importPlan, error) {
	if len(wb.Matches) == 0 {
		return nil, refusal(ErrUnreadableWorkbook, "api.workbook_blank")
	}
	byNumber := make(map[int]domain.Round, len(rounds))
	for _, r := range rounds {
		byNumber[r.Number] = r
	}
	entered := make(map[string]bool, len(entrants))
	for _, e := range entrants {
		entered[e.ID] = true
	}
	plan := &importPlan{matches: make([]ImportMatch, len(wb.Matches)), layout: wb.Layout, ignored: wb.Ignored}
	if plan.ignored == nil {
		plan.ignored = []string{}
	}
	var misfits []FieldError
	var fitting []int            // indexes in wb.Matches
	var fitRounds []domain.Round // the round of each
	seen := map[[2]int]string{}  // (round, table) → the match's cell
	for i := range wb.Matches {
		m := &wb.Matches[i]
		out := &plan.matches[i]
		*out = ImportMatch{Round: m.Sheet.Round, Table: m.Sheet.Table, Worksheet: m.Worksheet, Cell: m.Origin()}
		if m.Err != nil {
			out.Status = statusUnreadable
			out.Error = matchError(m)
			continue
		}
		r, errs := fitMatch(t, byNumber, entered, m)
		if len(errs) == 0 {
			key := [2]int{m.Sheet.Round, m.Sheet.Table}
			if first, dup := seen[key]; dup {
				errs = append(errs, cellField(out.Cell, "field.workbook_twice", key[0], key[1], first))
			}
			seen[key] = out.Cell
		}
		if len(errs) > 0 {
			misfits = append(misfits, errs...)
			continue
		}
		fitting = append(fitting, i)
		fitRounds = append(fitRounds, r)
	}
	if len(misfits) > 0 {
		e := refusal(ErrImportMismatch, "api.import_misfits", len(misfits), t.ID)
		if len(misfits) == 1 {
			e = refusal(ErrImportMismatch, "api.import_misfit", misfits[0].Cell, misfits[0].Msg, t.ID)
		}
		e.Fields = firstErrors(misfits)
		return nil, e
	}
	if err := validateMatches(wb.Matches, fitting, plan.matches); err != nil {
		return nil, err
	}
	for k, i := range fitting {
		m, out, r := &wb.Matches[i], &plan.matches[i], fitRounds[k]
		if r.State.Order() >= domain.RoundSheetsDelivered.Order() {
			// FITAB art. 20, FIBur-INT art. 19: a delivered sheet is final;
			// what may still change goes through a referee's correction
			// (RULES §9).
			out.Status = statusRejected
			f := cellField(cellOf(&m.Sheet, "/round", out.Cell), "field.workbook_final", r.Number, roundState(string(r.State)), t.ID)
			out.Error = &f
			continue
		}
		plan.sheets = append(plan.sheets, store.ImportedSheet{Round: r.Number, Table: m.Sheet.Table, Sheet: m.Sheet, ReportJSON: out.Report})
		plan.stored = append(plan.stored, i)
		out.sheet = &m.Sheet
	}
	if len(plan.sheets) == 0 {
		return nil, nothingToStore(plan.matches)
	}
	return plan, nil
}

// validateMatches validates the matches at the given indexes (API §2,
// findings naming their cells) and puts each report in its out entry. A
// thousand matches are spread over the processors: validation is a pure
// function of the sheet.
func validateMatches(matches []xlsx.Match, indexes []int, out []ImportMatch) error {
	workers := min(runtime.GOMAXPROCS(0), len(indexes)/validateShare+1)
	errs := make([]error, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(indexes) {
					return
				}
				i := indexes[k]
				rep := domain.Validate(matches[i].Sheet)
				b, err := reportjson.Marshal(rep, domain.English)
				if err != nil {
					errs[w] = fmt.Errorf("encode report: %w", err)
					return
				}
				out[i].Report, out[i].hasErrors, out[i].Findings = b, !rep.OK(), &rep
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// validateShare: below this many matches per extra worker, one goroutine
// does it all (a workbook of a round has a few dozen).
const validateShare = 64

// nothingToStore is the problem for a workbook none of whose matches can be
// stored: every one unreadable or in a delivered round.
func nothingToStore(matches []ImportMatch) error {
	var errs []FieldError
	closed := true
	for _, m := range matches {
		errs = append(errs, *m.Error)
		closed = closed && m.Status == statusRejected
	}
	if closed {
		e := refusal(ErrRoundClosed, "api.import_all_final")
		e.Fields = firstErrors(errs)
		return e
	}
	e := refusal(ErrUnreadableWorkbook, "api.import_none")
	e.Fields = firstErrors(errs)
	return e
}

// firstErrors caps the list a problem carries.
func firstErrors(errs []FieldError) []FieldError {
	if len(errs) > maxFieldErrors {
		return errs[:maxFieldErrors]
	}
	return errs
}

// matchError is the error of a match that cannot be read as a whole.
func matchError(m *xlsx.Match) *FieldError {
	var ce *xlsx.CellError
	if errors.As(m.Err, &ce) {
		f := cellError(ce)
		return &f
	}
	f := uncoded("", invalidDetail(m.Err))
	if d, ok := workbookDetail(m.Err).(messages.M); ok {
		f = field("", d.Key, d.Args...)
	}
	f.Cell = m.Origin()
	return &f
}

// cellOf is the cell a field of the sheet was read from, or fallback.
func cellOf(sh *domain.Sheet, pointer, fallback string) string {
	if c, ok := sh.Cells[pointer]; ok && c != "" {
		return c
	}
	return fallback
}

// fitMatch checks that a match belongs to the tournament (API §4.1: a
// sheet's round, table, pairs and settings agree with the tournament, the
// round and the table it is stored at) and completes the settings the
// workbook leaves out from the tournament and the round, as a PUT of the
// sheet does. Each disagreement names the cell it was read from.
func fitMatch(t domain.Tournament, rounds map[int]domain.Round, entered map[string]bool, m *xlsx.Match) (domain.Round, []FieldError) {
	sh := &m.Sheet
	origin := m.Origin()
	misfit := func(pointer, key string, args ...any) []FieldError {
		return []FieldError{cellField(cellOf(sh, pointer, origin), key, args...)}
	}
	if sh.Round == 0 {
		return domain.Round{}, misfit("/round", "field.match_no_round")
	}
	if sh.Table == 0 {
		return domain.Round{}, misfit("/table", "field.match_no_table")
	}
	r, ok := rounds[sh.Round]
	if !ok {
		return domain.Round{}, misfit("/round", "field.match_round",
			t.ID, sh.Round, roundList(rounds), t.ID)
	}
	tb, ok := r.Assignment(sh.Table)
	if !ok {
		return domain.Round{}, misfit("/table", "field.no_table_in_round", r.Number, sh.Table)
	}
	var errs []FieldError
	for _, l := range domain.Lines {
		if lineErrs, done := fitIndividualLine(r, tb, entered, sh, l, misfit); done { // app/imports_individual.go
			errs = append(errs, lineErrs...)
			continue
		}
		want, other := tb.NS, tb.EO
		if l == domain.EO {
			want, other = tb.EO, tb.NS
		}
		got := sh.Sides[l].ID
		switch {
		case got == "":
			sh.Sides[l].ID = want // API §4.1: ids may be left out
		case got == want:
		case !entered[got]:
			errs = append(errs, misfit("/"+l.String()+"/id", "field.match_not_entrant",
				l.Label(), got, t.ID, r.Number, tb.Table, want, l.Label())...)
		case got == other:
			errs = append(errs, misfit("/"+l.String()+"/id", "field.match_swapped",
				r.Number, tb.Table, want, l.Label(), got)...)
		default:
			errs = append(errs, misfit("/"+l.String()+"/id", "field.match_seat",
				r.Number, tb.Table, want, l.Label(), got)...)
		}
	}
	// Settings: the reader took the tournament's ruleset and planned hands
	// unless a Tournament/Torneo sheet names them; named, they must agree.
	if sh.Ruleset != t.Ruleset {
		errs = append(errs, misfit("/ruleset", "field.ruleset_mismatch", t.Ruleset, sh.Ruleset)...)
	}
	if _, named := sh.Cells["/hands_planned"]; !named {
		sh.HandsPlanned = r.HandsPlanned // rounds may plan other hands than the tournament
	} else if sh.HandsPlanned != r.HandsPlanned {
		errs = append(errs, misfit("/hands_planned", "field.hands_mismatch", r.Number, r.HandsPlanned, sh.HandsPlanned)...)
	}
	if _, named := sh.Cells["/kind"]; !named {
		sh.Kind = t.Kind
	} else if sh.Kind != t.Kind {
		errs = append(errs, misfit("/kind", "field.kind_mismatch", t.Kind, sh.Kind)...)
	}
	if _, named := sh.Cells["/vp_table"]; !named {
		sh.VPTable = t.VPTable
	} else if sh.VPTable != t.VPTable {
		if t.VPTable.IsZero() {
			errs = append(errs, misfit("/vp_table", "field.vp_table_unpinned")...)
		} else {
			errs = append(errs, misfit("/vp_table", "field.vp_table_mismatch", t.VPTable.ID(), sh.VPTable.ID())...)
		}
	}
	return r, errs
}

// roundList says which rounds a tournament has, for a message.
func roundList(rounds map[int]domain.Round) messages.M {
	if len(rounds) == 0 {
		return messages.New("field.rounds_none")
	}
	ns := make([]int, 0, len(rounds))
	for n := range rounds {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return messages.New("field.rounds_list", strings.Join(parts, ", "))
}

// wouldReplace is the refusal of an upload the store found would replace
// entered sheets: the report of what it would do.
func (p *importPlan) wouldReplace(imp store.Import, outcomes []store.SheetOutcome) error {
	imp.ID, imp.CreatedAt = 0, time.Time{}
	b, err := p.build(imp, outcomes)
	if err != nil {
		return err
	}
	return &WouldReplaceError{Report: b, Matches: p.matches, Counts: p.counts}
}

// report builds the import report once the sheets are written (called by
// the store inside the transaction, with what it did at each table).
func (p *importPlan) report(imp store.Import, outcomes []store.SheetOutcome) ([]byte, error) {
	return p.build(imp, outcomes)
}

func (p *importPlan) build(imp store.Import, outcomes []store.SheetOutcome) ([]byte, error) {
	counts := &p.counts
	*counts = ImportCounts{Matches: len(p.matches)}
	for i, o := range outcomes {
		m := &p.matches[p.stored[i]]
		m.Version, m.Status = o.Version, o.Status
		if o.Status == statusUnchanged {
			m.Version = 0
		}
		if o.Stored != nil {
			m.Stored, m.Uploaded = Summarize(o.Stored.Sheet), Summarize(*m.sheet)
		}
	}
	for _, m := range p.matches {
		switch m.Status {
		case statusCreated:
			counts.Created++
		case statusReplaced:
			counts.Replaced++
		case statusUnchanged:
			counts.Unchanged++
		case statusWouldReplace:
			counts.WouldReplace++
		case statusRejected:
			counts.Rejected++
		case statusUnreadable:
			counts.Unreadable++
		}
		if m.hasErrors {
			counts.WithErrors++
		}
	}
	// The per-match reports are most of the document (a megabyte for a
	// thousand matches): they are appended as reportjson wrote them, not
	// re-encoded and re-validated by encoding/json.
	h := importHead{
		Tournament: imp.TournamentID,
		Filename:   imp.Filename,
		SHA256:     imp.SHA256,
		Layout:     string(p.layout),
		CreatedBy:  imp.CreatedBy,
		Replace:    p.replace,
	}
	if imp.ID != 0 {
		h.ID, h.CreatedAt = strconv.FormatInt(imp.ID, 10), imp.CreatedAt.UTC().Format(time.RFC3339)
	}
	head, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	size := len(head) + 256*len(p.matches)
	for _, m := range p.matches {
		size += len(m.Report)
	}
	b := make([]byte, 0, size)
	b = append(b, head[:len(head)-1]...)
	b = append(b, `,"matches":[`...)
	for i, m := range p.matches {
		if i > 0 {
			b = append(b, ',')
		}
		mj, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		if m.Report == nil {
			b = append(b, mj...)
			continue
		}
		b = append(b, mj[:len(mj)-1]...)
		b = append(b, `,"report":`...)
		b = append(b, m.Report...)
		b = append(b, '}')
	}
	tail, err := json.Marshal(struct {
		// Ignored: what the workbook holds but the reader did not read
		// (a sheet that is no score sheet, an unknown column).
		Ignored []string     `json:"ignored"`
		Counts  ImportCounts `json:"counts"`
	}{p.ignored, *counts})
	if err != nil {
		return nil, err
	}
	b = append(b, "],"...)
	b = append(b, tail[1:]...)
	return b, nil
}

// ReadEntrantList reads an uploaded entrant list (.xlsx, UI.md §3) for a
// caller who may enter tournament tid's entrants, behind the same upload
// gate and within the same bounds as the sheets' workbooks (RunImport):
// body is read only once a slot is taken. The rows are the first
// worksheet's cells; entering them is AddEntrants.
func (a *App) ReadEntrantList(ctx context.Context, p Principal, tid string, body io.Reader) ([][]string, error) {
	if _, err := a.managed(ctx, p, tid, "enters entrants"); err != nil {
		return nil, err
	}
	release, err := a.ImportGate().Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	// A header row, then at most MaxEntrants entrants.
	rows, err := xlsx.ReadList(body, -1, xlsx.Options{MaxRows: MaxEntrants + 1})
	if err != nil {
		return nil, workbookError(err)
	}
	return rows, nil
}
