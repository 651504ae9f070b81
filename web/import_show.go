package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/httperr"
	"segnapunti/importers/xlsx"
)

// importPage: workbook uploads (UI.md §3, API §5). The form posts the file
// to the same path; the upload runs through app.RunImport (the operation of
// POST /v1/tournaments/{tid}/imports) and the page shows the report sheet
// by sheet, or the refusal cell by cell.
type importPage struct {
	Page
	TID, Name string
	Hands     int
	// FileErr is the message id of an error about the file field.
	FileErr string
	// Refusal: the workbook was refused as a whole; Cells name why.
	Refusal bool
	Cells   []app.FieldError
	// WouldReplace: the upload was refused because it would replace the
	// sheets of Replacing, already entered; the page offers to send it
	// again with replace.
	WouldReplace bool
	Replacing    []importMatchView
	// Imports are the tournament's earlier uploads, newest first.
	Imports []importEntryView
	// Result: the upload was stored (or had been, Replayed).
	Result   bool
	Replayed bool
	ImportID int64
	Filename string
	Counts   app.ImportCounts
	Matches  []importMatchView
}

type importMatchView struct {
	Round, Table int
	Cell, Status string
	Error        *app.FieldError
	Findings     []importFindingView
	// Stored and Uploaded: the totals of the sheet entered and of the
	// uploaded one, for a table the upload replaces or would replace.
	Stored, Uploaded *app.SheetSummary
}

// importEntryView is one earlier upload in the page's list.
type importEntryView struct {
	ID                  int64
	Filename, CreatedBy string
	CreatedAt, UndoneAt string // "02/01/2006 15:04"
	Counts              app.ImportCounts
	Undoable            bool
}

type importFindingView struct {
	Code, Severity, Message, Rule, Cell string
}

// importBodyOverhead is what the multipart framing may add to the file.
const importBodyOverhead = 64 << 10

func (s *Server) importShow(w http.ResponseWriter, r *http.Request) {
	data, ok := s.importPageOf(w, r, r.PathValue("tid"))
	if !ok {
		return
	}
	if id, err := strconv.ParseInt(r.URL.Query().Get("undone"), 10, 64); err == nil && id > 0 {
		data.Message = "secretary.import_undone"
	}
	s.render(w, r, http.StatusOK, "import_show", data)
}

// importPageOf reads tournament tid as the caller may import into it and
// the page's data; on a failure it has answered, and ok is false.
func (s *Server) importPageOf(w http.ResponseWriter, r *http.Request, tid string) (data *importPage, ok bool) {
	t, err := s.app.ImportTournament(r.Context(), s.caller(r), tid)
	if err == nil {
		data, err = s.importData(r, t)
	}
	if err != nil {
		s.operationFailed(w, r, err)
		return nil, false
	}
	return data, true
}

func (s *Server) importData(r *http.Request, t domain.Tournament) (*importPage, error) {
	data := &importPage{Page: s.page(r, "secretary.imports_title"), TID: t.ID, Name: t.Name, Hands: t.HandsPerRound}
	data.Zone = app.TournamentZone(t) // issue 22: the hall's clock, not the server's
	list, err := s.app.Imports(r.Context(), s.caller(r), t.ID)
	if err != nil {
		return nil, err
	}
	for _, e := range list {
		v := importEntryView{ID: e.ID, Filename: e.Filename, CreatedBy: e.CreatedBy, CreatedAt: localTime(data.Zone, e.CreatedAt).Format("02/01/2006 15:04"),
			Counts: e.Counts, Undoable: e.Undoable}
		if !e.UndoneAt.IsZero() {
			v.UndoneAt = localTime(data.Zone, e.UndoneAt).Format("02/01/2006 15:04")
		}
		data.Imports = append(data.Imports, v)
	}
	return data, nil
}

// importUndo: POST /tournaments/{tid}/imports/{id}/undo undoes an upload
// (app.UndoImport, as DELETE /v1/tournaments/{tid}/imports/{id}) and goes
// back to the page; a refusal (a delivered round, a sheet changed since)
// is shown on the page.
func (s *Server) importUndo(w http.ResponseWriter, r *http.Request) {
	tid := r.PathValue("tid")
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		s.operationFailed(w, r, &app.Error{Kind: domain.ErrNotFound, Detail: "no such import"})
		return
	}
	p := s.caller(r)
	_, err = s.app.UndoImport(r.Context(), p, tid, id)
	var ae *app.Error
	if err != nil && !(errors.As(err, &ae) && errors.Is(err, domain.ErrConflict)) {
		s.operationFailed(w, r, err)
		return
	}
	if err == nil {
		seeOther(w, r, "/tournaments/"+url.PathEscape(tid)+"/imports?undone="+strconv.FormatInt(id, 10)+"#import-list")
		return
	}
	data, ok := s.importPageOf(w, r, tid)
	if !ok {
		return
	}
	data.Error = "secretary.import_undo_changed"
	if errors.Is(err, app.ErrRoundClosed) {
		data.Error = "secretary.import_undo_closed"
	}
	s.render(w, r, http.StatusConflict, "import_show", data)
}

// errNoFile: the form came without a file.
var errNoFile = errors.New("no file")

// importRun: POST /tournaments/{tid}/imports, field "file".
// Who may upload is resolved first (withTournament).
func (s *Server) importRun(w http.ResponseWriter, r *http.Request, scope app.TournamentScope) {
	tid := r.PathValue("tid")
	// ?replace=true: the form of a refused upload, sent again to replace.
	replace := r.URL.Query().Get("replace") == "true"
	res, err := s.runImport(w, r, scope, replace)
	var wr *app.WouldReplaceError
	if err == nil || errors.As(err, &wr) {
		data, ok := s.importPageOf(w, r, tid)
		if !ok {
			return
		}
		if wr != nil {
			// Nothing was stored: the page lists the tables the file
			// would replace and offers to send it again with replace.
			data.WouldReplace, data.Error = true, "secretary.import_would_replace"
			for _, m := range wr.Matches {
				if m.Status == app.StatusWouldReplace {
					data.Replacing = append(data.Replacing, importMatchView{Round: m.Round, Table: m.Table, Cell: m.Cell, Status: m.Status, Stored: m.Stored, Uploaded: m.Uploaded})
				}
			}
			s.render(w, r, http.StatusConflict, "import_show", data)
			return
		}
		fillImportResult(data, res)
		if !res.Replayed {
			data.Message = "secretary.import_stored"
		}
		s.render(w, r, http.StatusOK, "import_show", data)
		return
	}
	var ae *app.Error
	status, fileErr := 0, ""
	switch {
	case errors.Is(err, xlsx.ErrBusy):
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(s.app.ImportGate().RetryAfter.Seconds()))))
		status, fileErr = httperr.Busy.Page, "secretary.import_busy"
	case errors.Is(err, errNoFile):
		status, fileErr = http.StatusUnprocessableEntity, "secretary.import_no_file"
	case errors.Is(err, app.ErrWorkbookTooLarge):
		status, fileErr = httperr.TooLarge.Page, "secretary.import_too_large"
	case errors.As(err, &ae) && (errors.Is(err, app.ErrUnreadableWorkbook) || errors.Is(err, app.ErrImportMismatch) || errors.Is(err, app.ErrRoundClosed)):
		status = httperr.Of(err).Page
	default:
		s.operationFailed(w, r, err)
		return
	}
	data, ok := s.importPageOf(w, r, tid)
	if !ok {
		return
	}
	data.FileErr = fileErr
	data.Error = "secretary.import_refused"
	if fileErr != "" {
		data.Error = fileErr
	}
	if ae != nil && fileErr == "" {
		data.Refusal = true
		lang := langOf(r)
		for _, fe := range ae.Fields {
			fe.Detail = fe.DetailIn(lang)
			data.Cells = append(data.Cells, fe)
		}
		if len(data.Cells) == 0 {
			if detail := refusalDetail(lang, ae); detail != "" {
				data.Cells = []app.FieldError{{Detail: detail}}
			}
		}
	}
	s.render(w, r, status, "import_show", data)
}

// fillImportResult puts an upload's report in the page: a fresh upload's
// findings in the page's language, a repeated file's from the record.
func fillImportResult(data *importPage, res app.ImportResult) {
	data.Result, data.Replayed = true, res.Replayed
	data.ImportID, data.Filename = res.Import.ID, res.Import.Filename
	if !res.Replayed {
		data.Counts = res.Counts
		for _, m := range res.Matches {
			v := importMatchView{Round: m.Round, Table: m.Table, Cell: m.Cell, Status: m.Status, Error: m.Error, Stored: m.Stored, Uploaded: m.Uploaded}
			if m.Findings != nil {
				for _, f := range m.Findings.Findings {
					v.Findings = append(v.Findings, importFindingView{Code: string(f.Code), Severity: string(f.Severity), Message: f.Message(data.Lang), Rule: f.Rule, Cell: f.Cell})
				}
			}
			data.Matches = append(data.Matches, v)
		}
		return
	}
	// The record keeps the report in English (API §4).
	var rec struct {
		Matches []struct {
			Round, Table int
			Cell, Status string
			Error        *app.FieldError
			Report       *struct {
				Findings []struct{ Code, Severity, Message, Rule, Cell string }
			}
		}
		Counts app.ImportCounts
	}
	if err := json.Unmarshal(res.Import.ReportJSON, &rec); err != nil {
		return
	}
	data.Counts = rec.Counts
	for _, m := range rec.Matches {
		v := importMatchView{Round: m.Round, Table: m.Table, Cell: m.Cell, Status: m.Status, Error: m.Error}
		if m.Report != nil {
			for _, f := range m.Report.Findings {
				v.Findings = append(v.Findings, importFindingView(f))
			}
		}
		data.Matches = append(data.Matches, v)
	}
}

// cleanUploadName keeps a file name printable and bounded: it is shown
// back, never used as a path.
func cleanUploadName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) {
			return -1
		}
		return r
	}, name)
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.TrimSpace(name)
	for len(name) > 255 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}

// runImport takes a slot of the upload gate, reads the file within its
// bounds and runs the upload.
func (s *Server) runImport(w http.ResponseWriter, r *http.Request, scope app.TournamentScope, replace bool) (app.ImportResult, error) {
	slot, err := s.app.ImportSlot(r.Context(), scope, app.ImportOptions{Replace: replace})
	if err != nil {
		return app.ImportResult{}, err
	}
	defer slot.Release()
	up, err := readUploadForm(w, r, slot.MaxBytes)
	if err != nil {
		return app.ImportResult{}, err
	}
	return s.app.RunImport(r.Context(), slot, up)
}

// readUploadForm reads the form's file "file", within limit bytes.
func readUploadForm(w http.ResponseWriter, r *http.Request, limit int64) (app.Upload, error) {
	r.Body = http.MaxBytesReader(w, r.Body, limit+importBodyOverhead)
	if err := r.ParseMultipartForm(limit + importBodyOverhead); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return app.Upload{}, app.ErrWorkbookTooLarge
		}
		return app.Upload{}, errNoFile
	}
	f, hdr, err := r.FormFile("file")
	if err != nil {
		return app.Upload{}, errNoFile
	}
	defer f.Close()
	var buf bytes.Buffer
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(&buf, h), io.LimitReader(f, limit+1))
	if err != nil {
		return app.Upload{}, err
	}
	if n > limit {
		return app.Upload{}, app.ErrWorkbookTooLarge
	}
	if n == 0 {
		return app.Upload{}, errNoFile
	}
	return app.Upload{Filename: cleanUploadName(hdr.Filename), Data: buf.Bytes(), SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}
