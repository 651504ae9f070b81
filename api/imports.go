package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/importers/xlsx"
	"segnapunti/store"
)

// Workbook uploads: POST /v1/tournaments/{tid}/imports reads an .xlsx
// workbook in either layout of API §5, checks each match against the
// tournament, validates it, and stores every sheet of the workbook with a
// record of the upload in one transaction; GET /v1/imports/{id} answers
// that record's report again.
//
// What an upload does with what it finds:
//
//   - a workbook that cannot be read at all (not an .xlsx file, truncated,
//     over a limit, in neither layout, a cell whose value cannot be read):
//     a 4xx problem naming the cell where there is one; nothing is stored;
//   - a match that does not fit the tournament (a round or table it does
//     not have, a pair the table does not seat, another ruleset, planned
//     hands, kind or VP table, the same table twice): a 422 problem listing
//     every such match by its cell; nothing is stored. The whole upload is
//     refused because the fix may be in the tournament (a round not yet
//     entered) and the same file must then import: a recorded upload would
//     be answered again unchanged (below);
//   - a match that cannot be read as a whole (hands numbered twice, results
//     without hands: xlsx.Match.Err): listed as "unreadable" with its cell;
//     the others are stored. Fixing it changes the file, so the fixed file
//     is a new upload;
//   - a match of a round whose sheets are delivered (RULES §10; FITAB
//     art. 20: a delivered sheet is final, corrections go through the
//     referee): listed as "rejected" with its report; the others are stored;
//   - every other match is validated (API §2, findings naming their cells)
//     and created or replaced at its table, error findings or not, as a
//     PUT of the sheet would.
//
// When no match can be stored, nothing is recorded and the answer is a
// problem listing why (409 when every match is in a delivered round, 422
// otherwise). The same file again (its SHA-256) in the same tournament is
// answered 200 with the recorded report and Idempotent-Replayed: true.
// Reports are in English: the record keeps one language.

// defaultMaxImportBytes bounds an uploaded workbook (API §4: a file over
// the size limit is a 4xx, never read).
const defaultMaxImportBytes = xlsx.DefaultMaxBytes

// multipartOverhead is what the multipart framing may add to the file:
// boundaries, part headers, a few small fields.
const multipartOverhead = 64 << 10

// maxImportParts bounds the parts of an upload's form.
const maxImportParts = 16

// maxFilename bounds the file name kept with an import (bytes).
const maxFilename = 255

// Problem types of uploads.
const (
	typeUnreadableWorkbook = "/problems/unreadable-workbook"
	typeImportMismatch     = "/problems/import-mismatch"
)

// Match statuses in an import report.
const (
	statusCreated    = "created"
	statusReplaced   = "replaced"
	statusRejected   = "rejected"
	statusUnreadable = "unreadable"
)

// maxImportBytes is the configured upload limit (Config.MaxImportBytes).
func (s *server) maxImportBytes() int64 {
	if s.cfg.MaxImportBytes > 0 {
		return s.cfg.MaxImportBytes
	}
	return defaultMaxImportBytes
}

// importHead is the start of the import report of API §4 (POST
// .../imports); "matches", "ignored" and "counts" follow it (see report).
type importHead struct {
	ID         string `json:"id"`
	Tournament string `json:"tournament"`
	Filename   string `json:"filename"`
	SHA256     string `json:"sha256"`
	Layout     string `json:"layout"`
	CreatedAt  string `json:"created_at"`
	CreatedBy  string `json:"created_by"`
}

// importMatch is one match of the workbook, in workbook order.
type importMatch struct {
	Round     int    `json:"round,omitempty"` // absent when the match does not say
	Table     int    `json:"table,omitempty"`
	Worksheet string `json:"worksheet"`
	Cell      string `json:"cell"` // where the match starts, "Smazzate!A5"
	Status    string `json:"status"`
	// Version is the sheet's version after the import (its ETag).
	Version int         `json:"version,omitempty"`
	Error   *fieldError `json:"error,omitempty"`
	// Report is the API §2 report of the match, as reportjson wrote it;
	// absent when unreadable. It is appended as it is (see report).
	Report []byte `json:"-"`
	// hasErrors: the report has an error finding.
	hasErrors bool
}

type importCounts struct {
	Matches    int `json:"matches"`
	Created    int `json:"created"`
	Replaced   int `json:"replaced"`
	Rejected   int `json:"rejected"`
	Unreadable int `json:"unreadable"`
	// WithErrors: matches whose report has an error finding.
	WithErrors int `json:"with_errors"`
}

func importPath(id int64) string { return "/v1/imports/" + strconv.FormatInt(id, 10) }

// createImport: POST /v1/tournaments/{tid}/imports, multipart field
// "file". The organising club, a referee of the tournament and an admin
// may upload; the federation reads but does not enter sheets.
func (s *server) createImport(c *gin.Context) {
	p := mustPrincipal(c)
	t, err := s.app.ImportTournament(c.Request.Context(), p, c.Param("tid"))
	if err != nil {
		s.fail(c, err)
		return
	}
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	// The gate before the body is read: a busy server does not buffer
	// another workbook (issue 10).
	release, err := s.cfg.ImportGate.Acquire(c.Request.Context())
	if errors.Is(err, xlsx.ErrBusy) {
		c.Header("Retry-After", strconv.Itoa(int(math.Ceil(s.cfg.ImportGate.RetryAfter.Seconds()))))
		s.fail(c, &apiError{status: http.StatusServiceUnavailable, typ: typeUnavailable, cause: err,
			detail: "too many workbooks are being read at once; send this one again in a few seconds"})
		return
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	defer release()
	up, err := s.readUpload(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	by := p.Name
	if by == "" {
		by = string(p.Role)
	}
	imp, replayed, err := s.importWorkbook(c.Request.Context(), t, by, up)
	if err != nil {
		s.fail(c, err)
		return
	}
	if replayed {
		c.Header("Idempotent-Replayed", "true")
		c.Header("Content-Location", importPath(imp.ID))
		writeJSON(c, http.StatusOK, imp.ReportJSON)
		return
	}
	s.app.SheetsImported(c.Request.Context(), imp.TournamentID)
	c.Header("Location", importPath(imp.ID))
	writeJSON(c, http.StatusCreated, imp.ReportJSON)
}

// upload is the file of an upload, read whole, with its SHA-256.
type upload struct {
	filename string
	data     []byte
	sha256   string
}

// readUpload reads the multipart body. The body is capped before anything
// is read (STYLE habit 10): a declared length over the cap is refused
// unread, and the reader stops at the cap whatever the declared length.
func (s *server) readUpload(c *gin.Context) (upload, error) {
	limit := s.maxImportBytes()
	ct := c.GetHeader("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return upload{}, &apiError{status: http.StatusUnsupportedMediaType, typ: typeMediaType,
			detail: fmt.Sprintf("the body must be multipart/form-data with the .xlsx workbook in the field \"file\", not %q", ct),
			errors: []fieldError{{Header: "Content-Type", Detail: "want multipart/form-data; boundary=..."}}}
	}
	tooLarge := &apiError{status: http.StatusRequestEntityTooLarge, typ: typeTooLarge,
		detail: fmt.Sprintf("the workbook is larger than the limit of %d bytes (%d MiB); nothing was read or stored", limit, limit>>20)}
	bodyLimit := limit + multipartOverhead
	if c.Request.ContentLength > bodyLimit {
		return upload{}, tooLarge
	}
	body := http.MaxBytesReader(c.Writer, c.Request.Body, bodyLimit)
	readErr := func(err error) error {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return tooLarge
		}
		return errMalformed(fmt.Sprintf("the multipart body cannot be read: %v", err))
	}
	mr := multipart.NewReader(body, params["boundary"])
	var up upload
	found := false
	for parts := 0; ; parts++ {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return upload{}, readErr(err)
		}
		if parts == maxImportParts {
			part.Close()
			return upload{}, errMalformed(fmt.Sprintf("the form has more than %d fields; send the workbook alone in the field \"file\"", maxImportParts))
		}
		if part.FormName() != "file" {
			_, err = io.Copy(io.Discard, part)
			part.Close()
			if err != nil {
				return upload{}, readErr(err)
			}
			continue
		}
		if found {
			part.Close()
			return upload{}, errParam("file", "the field \"file\" is given twice: upload one workbook at a time")
		}
		found = true
		var buf bytes.Buffer
		if n := c.Request.ContentLength; n > 0 {
			buf.Grow(int(min(n, limit)))
		}
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(&buf, h), io.LimitReader(part, limit+1))
		part.Close()
		if err != nil {
			return upload{}, readErr(err)
		}
		if n > limit {
			return upload{}, tooLarge
		}
		up = upload{filename: cleanFilename(part.FileName()), data: buf.Bytes(), sha256: hex.EncodeToString(h.Sum(nil))}
	}
	if !found {
		return upload{}, errParam("file", "no field \"file\": send the .xlsx workbook as multipart/form-data in the field \"file\"")
	}
	return up, nil
}

// cleanFilename keeps a client's file name printable and bounded: it is
// shown back in reports, never used as a path (multipart's FileName has
// already dropped any directory).
func cleanFilename(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	for len(name) > maxFilename {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}

// importWorkbook reads, checks, validates and stores one uploaded workbook
// for tournament t (see the top of this file). It returns the recorded
// import and whether it had been recorded before.
func (s *server) importWorkbook(ctx context.Context, t domain.Tournament, by string, up upload) (store.Import, bool, error) {
	// The same file again is answered before it is read again.
	prior, err := s.db.FindImport(ctx, t.ID, up.sha256)
	if err == nil {
		return prior, true, nil
	}
	if !errors.Is(err, domain.ErrNotFound) {
		return store.Import{}, false, err
	}
	wb, err := xlsx.Read(bytes.NewReader(up.data), int64(len(up.data)), xlsx.Options{
		Ruleset: t.Ruleset, HandsPlanned: t.HandsPerRound, MaxBytes: s.maxImportBytes(),
	})
	if err != nil {
		return store.Import{}, false, workbookError(err)
	}
	rounds, err := s.db.ListRounds(ctx, t.ID)
	if err != nil {
		return store.Import{}, false, err
	}
	entrants, err := s.db.ListEntrants(ctx, t.ID)
	if err != nil {
		return store.Import{}, false, err
	}
	plan, err := planImport(t, rounds, entrants, wb)
	if err != nil {
		return store.Import{}, false, err
	}
	imp := store.Import{TournamentID: t.ID, SHA256: up.sha256, Filename: up.filename, CreatedBy: by}
	saved, replayed, err := s.db.SaveImport(ctx, imp, plan.sheets, plan.report)
	if errors.Is(err, store.ErrRoundClosed) {
		return store.Import{}, false, &apiError{status: http.StatusConflict, typ: typeRoundClosed, cause: err,
			detail: "a round of the workbook had its sheets delivered while the workbook was being imported; nothing was stored: upload it again to store the matches of the rounds still being played"}
	}
	if err != nil {
		return store.Import{}, false, err
	}
	return saved, replayed, nil
}

// workbookError is the problem for a workbook that cannot be read at all.
func workbookError(err error) error {
	var ce *xlsx.CellError
	switch {
	case errors.As(err, &ce):
		return &apiError{status: http.StatusUnprocessableEntity, typ: typeUnreadableWorkbook, cause: err,
			detail: fmt.Sprintf("the workbook cannot be read: %s: %s; nothing was stored", ce.Ref(), ce.Detail),
			errors: []fieldError{{Cell: ce.Ref(), Detail: ce.Detail}}}
	case errors.Is(err, xlsx.ErrTooLarge):
		return &apiError{status: http.StatusRequestEntityTooLarge, typ: typeTooLarge, cause: err,
			detail: domainDetail(err) + "; nothing was stored"}
	case errors.Is(err, domain.ErrInvalid):
		// ErrNotWorkbook, ErrLayout, a setting the reader refuses.
		return &apiError{status: http.StatusUnprocessableEntity, typ: typeUnreadableWorkbook, cause: err,
			detail: domainDetail(err) + "; nothing was stored"}
	}
	return err
}

// importPlan is what an upload will store, and the report it will record.
type importPlan struct {
	matches []importMatch
	sheets  []store.ImportedSheet
	// stored[i] is the index in matches of sheets[i].
	stored  []int
	layout  xlsx.Layout
	ignored []string
}

// planImport checks every match of the workbook against the tournament and
// validates those that fit. It fails, storing nothing, when a match does
// not fit or when no match can be stored.
func planImport(t domain.Tournament, rounds []domain.Round, entrants []domain.Entrant, wb *xlsx.Workbook) (*importPlan, error) {
	if len(wb.Matches) == 0 {
		return nil, &apiError{status: http.StatusUnprocessableEntity, typ: typeUnreadableWorkbook,
			detail: "the workbook holds no match: every score sheet in it is blank; nothing was stored"}
	}
	byNumber := make(map[int]domain.Round, len(rounds))
	for _, r := range rounds {
		byNumber[r.Number] = r
	}
	entered := make(map[string]bool, len(entrants))
	for _, e := range entrants {
		entered[e.ID] = true
	}
	plan := &importPlan{matches: make([]importMatch, len(wb.Matches)), layout: wb.Layout, ignored: wb.Ignored}
	if plan.ignored == nil {
		plan.ignored = []string{}
	}
	var misfits []fieldError
	var fitting []int            // indexes in wb.Matches
	var fitRounds []domain.Round // the round of each
	seen := map[[2]int]string{}  // (round, table) → the match's cell
	for i := range wb.Matches {
		m := &wb.Matches[i]
		out := &plan.matches[i]
		*out = importMatch{Round: m.Sheet.Round, Table: m.Sheet.Table, Worksheet: m.Worksheet, Cell: m.Origin()}
		if m.Err != nil {
			out.Status = statusUnreadable
			out.Error = matchError(m)
			continue
		}
		r, errs := fitMatch(t, byNumber, entered, m)
		if len(errs) == 0 {
			key := [2]int{m.Sheet.Round, m.Sheet.Table}
			if first, dup := seen[key]; dup {
				errs = append(errs, fieldError{Cell: out.Cell, Detail: fmt.Sprintf("round %d table %d appears twice in the workbook: also at %s", key[0], key[1], first)})
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
		detail := fmt.Sprintf("%d problems: the workbook does not fit tournament %q; nothing was stored; see errors", len(misfits), t.ID)
		if len(misfits) == 1 {
			detail = fmt.Sprintf("%s: %s; the workbook does not fit tournament %q, nothing was stored", misfits[0].Cell, misfits[0].Detail, t.ID)
		}
		return nil, &apiError{status: http.StatusUnprocessableEntity, typ: typeImportMismatch, detail: detail, errors: firstErrors(misfits)}
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
			out.Error = &fieldError{Cell: cellOf(&m.Sheet, "/round", out.Cell), Detail: fmt.Sprintf(
				"round %d is %s: its sheets are final and are not replaced by an upload; not stored (a correction goes through the referee, POST /v1/tournaments/%s/corrections)",
				r.Number, r.State, t.ID)}
			continue
		}
		plan.sheets = append(plan.sheets, store.ImportedSheet{Round: r.Number, Table: m.Sheet.Table, Sheet: m.Sheet, ReportJSON: out.Report})
		plan.stored = append(plan.stored, i)
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
func validateMatches(matches []xlsx.Match, indexes []int, out []importMatch) error {
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
				out[i].Report, out[i].hasErrors = b, !rep.OK()
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
func nothingToStore(matches []importMatch) error {
	var errs []fieldError
	closed := true
	for _, m := range matches {
		errs = append(errs, *m.Error)
		closed = closed && m.Status == statusRejected
	}
	if closed {
		return &apiError{status: http.StatusConflict, typ: typeRoundClosed, errors: firstErrors(errs),
			detail: "every match of the workbook is in a round whose sheets are delivered; nothing was stored (a correction goes through the referee, RULES §9)"}
	}
	return &apiError{status: http.StatusUnprocessableEntity, typ: typeUnreadableWorkbook, errors: firstErrors(errs),
		detail: "no match of the workbook can be stored; nothing was stored; see errors"}
}

// firstErrors caps the list a problem carries.
func firstErrors(errs []fieldError) []fieldError {
	if len(errs) > maxFieldErrors {
		return errs[:maxFieldErrors]
	}
	return errs
}

// matchError is the error of a match that cannot be read as a whole.
func matchError(m *xlsx.Match) *fieldError {
	var ce *xlsx.CellError
	if errors.As(m.Err, &ce) {
		return &fieldError{Cell: ce.Ref(), Detail: ce.Detail}
	}
	return &fieldError{Cell: m.Origin(), Detail: domainDetail(m.Err)}
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
func fitMatch(t domain.Tournament, rounds map[int]domain.Round, entered map[string]bool, m *xlsx.Match) (domain.Round, []fieldError) {
	sh := &m.Sheet
	origin := m.Origin()
	misfit := func(pointer, format string, args ...any) []fieldError {
		return []fieldError{{Cell: cellOf(sh, pointer, origin), Detail: fmt.Sprintf(format, args...)}}
	}
	if sh.Round == 0 {
		return domain.Round{}, misfit("/round", "the match does not say its round: add a \"Turno\" label and its number above the hands")
	}
	if sh.Table == 0 {
		return domain.Round{}, misfit("/table", "the match does not say its table: add a \"Tavolo\" label and its number above the hands")
	}
	r, ok := rounds[sh.Round]
	if !ok {
		return domain.Round{}, misfit("/round", "tournament %q has no round %d%s: enter the round (POST /v1/tournaments/%s/rounds) before its sheets",
			t.ID, sh.Round, roundList(rounds), t.ID)
	}
	tb, ok := r.Assignment(sh.Table)
	if !ok {
		return domain.Round{}, misfit("/table", "round %d has no table %d", r.Number, sh.Table)
	}
	var errs []fieldError
	for _, l := range domain.Lines {
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
			errs = append(errs, misfit("/"+l.String()+"/id", "%s %q is not an entrant of tournament %q; round %d table %d seats %q at %s",
				l.Label(), got, t.ID, r.Number, tb.Table, want, l.Label())...)
		case got == other:
			errs = append(errs, misfit("/"+l.String()+"/id", "round %d table %d seats %q at %s, not %q (are NS and EO swapped?)",
				r.Number, tb.Table, want, l.Label(), got)...)
		default:
			errs = append(errs, misfit("/"+l.String()+"/id", "round %d table %d seats %q at %s, not %q",
				r.Number, tb.Table, want, l.Label(), got)...)
		}
	}
	// Settings: the reader took the tournament's ruleset and planned hands
	// unless a Tournament/Torneo sheet names them; named, they must agree.
	if sh.Ruleset != t.Ruleset {
		errs = append(errs, misfit("/ruleset", "the tournament is played under %s, not %s", t.Ruleset, sh.Ruleset)...)
	}
	if _, named := sh.Cells["/hands_planned"]; !named {
		sh.HandsPlanned = r.HandsPlanned // rounds may plan other hands than the tournament
	} else if sh.HandsPlanned != r.HandsPlanned {
		errs = append(errs, misfit("/hands_planned", "round %d plans %d hands, not %d", r.Number, r.HandsPlanned, sh.HandsPlanned)...)
	}
	if _, named := sh.Cells["/kind"]; !named {
		sh.Kind = t.Kind
	} else if sh.Kind != t.Kind {
		errs = append(errs, misfit("/kind", "the tournament is a %s tournament, not %s", t.Kind, sh.Kind)...)
	}
	if _, named := sh.Cells["/vp_table"]; !named {
		sh.VPTable = t.VPTable
	} else if sh.VPTable != t.VPTable {
		if t.VPTable.IsZero() {
			errs = append(errs, misfit("/vp_table", "the tournament pins no VP table, so the table follows RULES §6.2; leave vp_table out")...)
		} else {
			errs = append(errs, misfit("/vp_table", "the tournament pins the VP table %s, not %s", t.VPTable.ID(), sh.VPTable.ID())...)
		}
	}
	return r, errs
}

// roundList says which rounds a tournament has, for a message.
func roundList(rounds map[int]domain.Round) string {
	if len(rounds) == 0 {
		return " (it has no round yet)"
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
	return " (its rounds: " + strings.Join(parts, ", ") + ")"
}

// report builds the import report once the sheets are written (called by
// the store inside the transaction, with the versions it wrote).
func (p *importPlan) report(imp store.Import, versions []int) ([]byte, error) {
	counts := importCounts{Matches: len(p.matches)}
	for i, v := range versions {
		m := &p.matches[p.stored[i]]
		m.Version = v
		m.Status = statusReplaced
		if v == 1 {
			m.Status = statusCreated
		}
	}
	for _, m := range p.matches {
		switch m.Status {
		case statusCreated:
			counts.Created++
		case statusReplaced:
			counts.Replaced++
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
	head, err := json.Marshal(importHead{
		ID:         strconv.FormatInt(imp.ID, 10),
		Tournament: imp.TournamentID,
		Filename:   imp.Filename,
		SHA256:     imp.SHA256,
		Layout:     string(p.layout),
		CreatedAt:  imp.CreatedAt.UTC().Format(time.RFC3339),
		CreatedBy:  imp.CreatedBy,
	})
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
		Counts  importCounts `json:"counts"`
	}{p.ignored, counts})
	if err != nil {
		return nil, err
	}
	b = append(b, "],"...)
	b = append(b, tail[1:]...)
	return b, nil
}

// getImport: GET /v1/imports/{id} answers the recorded import report, to
// whoever may read its tournament; to anyone else it does not exist.
func (s *server) getImport(c *gin.Context) {
	raw := c.Param("id")
	notFound := errNotFound(fmt.Sprintf("no import %q", raw))
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 || strconv.FormatInt(id, 10) != raw {
		s.fail(c, notFound)
		return
	}
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	imp, err := s.app.Import(c.Request.Context(), mustPrincipal(c), id)
	if errors.Is(err, domain.ErrNotFound) {
		s.fail(c, notFound) // say nothing of the tournament
		return
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	writeJSON(c, http.StatusOK, imp.ReportJSON)
}
