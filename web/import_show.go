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
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"segnapunti/app"
	"segnapunti/domain"
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
}

type importFindingView struct {
	Code, Severity, Message, Rule, Cell string
}

// importBodyOverhead is what the multipart framing may add to the file.
const importBodyOverhead = 64 << 10

func (s *Server) importShow(w http.ResponseWriter, r *http.Request) {
	t, err := s.app.ImportTournament(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "import_show", s.importData(r, t))
}

func (s *Server) importData(r *http.Request, t domain.Tournament) *importPage {
	return &importPage{Page: s.page(r, "secretary.imports_title"), TID: t.ID, Name: t.Name, Hands: t.HandsPerRound}
}

// errNoFile: the form came without a file.
var errNoFile = errors.New("no file")

// importRun: POST /tournaments/{tid}/imports, field "file".
func (s *Server) importRun(w http.ResponseWriter, r *http.Request) {
	read := func(limit int64) (app.Upload, error) {
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
	p := s.caller(r)
	tid := r.PathValue("tid")
	res, err := s.app.RunImport(r.Context(), p, tid, read, app.ImportOptions{})
	if err == nil {
		t, terr := s.app.ImportTournament(r.Context(), p, tid)
		if terr != nil {
			s.operationFailed(w, r, terr)
			return
		}
		data := s.importData(r, t)
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
		status, fileErr = http.StatusServiceUnavailable, "secretary.import_busy"
	case errors.Is(err, errNoFile):
		status, fileErr = http.StatusUnprocessableEntity, "secretary.import_no_file"
	case errors.Is(err, app.ErrWorkbookTooLarge):
		status, fileErr = http.StatusRequestEntityTooLarge, "secretary.import_too_large"
	case errors.As(err, &ae) && (errors.Is(err, app.ErrUnreadableWorkbook) || errors.Is(err, app.ErrImportMismatch) || errors.Is(err, app.ErrRoundClosed)):
		status = http.StatusUnprocessableEntity
		if errors.Is(err, app.ErrRoundClosed) {
			status = http.StatusConflict
		}
	default:
		s.operationFailed(w, r, err)
		return
	}
	t, terr := s.app.ImportTournament(r.Context(), p, tid)
	if terr != nil {
		s.operationFailed(w, r, terr)
		return
	}
	data := s.importData(r, t)
	data.FileErr = fileErr
	data.Error = "secretary.import_refused"
	if fileErr != "" {
		data.Error = fileErr
	}
	if ae != nil && fileErr == "" {
		data.Refusal = true
		data.Cells = ae.Fields
		if len(data.Cells) == 0 {
			data.Cells = []app.FieldError{{Detail: ae.Detail}}
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
			v := importMatchView{Round: m.Round, Table: m.Table, Cell: m.Cell, Status: m.Status, Error: m.Error}
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
