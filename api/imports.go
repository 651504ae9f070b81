package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/httperr"
	"segnapunti/importers/xlsx"
	"segnapunti/messages"
)

// Workbook uploads: POST /v1/tournaments/{tid}/imports reads an .xlsx
// workbook in either layout of API §5, checks each match against the
// tournament, validates it, and stores every sheet of the workbook with a
// record of the upload in one transaction; GET /v1/imports/{id} answers
// that record's report again.
//
// The running of an upload (what it does with what it finds, the
// transaction, the refusals) is app.RunImport; this door decodes the
// multipart body and answers the report or the problem.

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

// maxImportBytes is the configured upload limit (Config.MaxImportBytes).
func (s *server) maxImportBytes() int64 {
	if s.cfg.MaxImportBytes > 0 {
		return s.cfg.MaxImportBytes
	}
	return defaultMaxImportBytes
}

func importPath(id int64) string { return "/v1/imports/" + strconv.FormatInt(id, 10) }

// runImport runs an upload into the tournament resolved first
// (s.tournamentScope(app.TournamentImport)): a slot of the upload gate,
// then the query and the body, then the import.
func (s *server) runImport(c *gin.Context, replace bool, replaceErr error) (app.ImportResult, error) {
	slot, err := s.app.ImportSlot(c.Request.Context(), tournamentScopeOf(c),
		app.ImportOptions{Gate: s.cfg.ImportGate, MaxBytes: s.maxImportBytes(), Replace: replace})
	if err != nil {
		return app.ImportResult{}, err
	}
	defer slot.Release()
	if err := onlyParams(c.Request.URL.Query(), "replace"); err != nil {
		return app.ImportResult{}, err
	}
	if replaceErr != nil {
		return app.ImportResult{}, replaceErr
	}
	up, err := s.readUpload(c, slot.MaxBytes)
	if err != nil {
		return app.ImportResult{}, err
	}
	return s.app.RunImport(c.Request.Context(), slot, up)
}

// createImport: POST /v1/tournaments/{tid}/imports, multipart field
// "file". The organising club, a referee of the tournament and an admin
// may upload; the federation reads but does not enter sheets.
//
// ?replace=true lets the upload replace sheets already entered that say
// something else; without it such an upload is refused whole with a 409
// whose body is the problem and the import report of what it would do.
func (s *server) createImport(c *gin.Context) {
	q := c.Request.URL.Query()
	replace, replaceErr := boolParam(q, "replace")
	res, err := s.runImport(c, replace, replaceErr)
	var wr *app.WouldReplaceError
	if errors.As(err, &wr) {
		s.failWouldReplace(c, wr)
		return
	}
	if errors.Is(err, xlsx.ErrBusy) {
		c.Header("Retry-After", strconv.Itoa(int(math.Ceil(s.cfg.ImportGate.RetryAfter.Seconds()))))
		s.fail(c, &apiError{status: httperr.Busy.API, typ: httperr.Busy.Type(), cause: err,
			msg: messages.New("api.workbooks_busy")})
		return
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	if res.Replayed {
		c.Header("Idempotent-Replayed", "true")
		c.Header("Content-Location", importPath(res.Import.ID))
		writeJSON(c, http.StatusOK, importDocument(res.Import))
		return
	}
	c.Header("Location", importPath(res.Import.ID))
	writeJSON(c, http.StatusCreated, res.Import.ReportJSON)
}

// readUpload reads the multipart body. The body is capped before anything
// is read (STYLE habit 10): a declared length over the cap is refused
// unread, and the reader stops at the cap whatever the declared length.
func (s *server) readUpload(c *gin.Context, limit int64) (app.Upload, error) {
	ct := c.GetHeader("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return app.Upload{}, &apiError{status: http.StatusUnsupportedMediaType, typ: typeMediaType,
			msg:    messages.New("api.media_multipart", ct),
			errors: []fieldError{fieldMsg(fieldError{Header: "Content-Type"}, messages.New("api.want_multipart"))}}
	}
	tooLarge := &apiError{status: http.StatusRequestEntityTooLarge, typ: typeTooLarge,
		msg: messages.New("api.workbook_too_large", limit, limit>>20)}
	bodyLimit := limit + multipartOverhead
	if c.Request.ContentLength > bodyLimit {
		return app.Upload{}, tooLarge
	}
	body := http.MaxBytesReader(c.Writer, c.Request.Body, bodyLimit)
	readErr := func(err error) error {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return tooLarge
		}
		return errMalformed(messages.New("api.multipart", err.Error()))
	}
	mr := multipart.NewReader(body, params["boundary"])
	var up app.Upload
	found := false
	for parts := 0; ; parts++ {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return app.Upload{}, readErr(err)
		}
		if parts == maxImportParts {
			part.Close()
			return app.Upload{}, errMalformed(messages.New("api.form_parts", maxImportParts))
		}
		if part.FormName() != "file" {
			_, err = io.Copy(io.Discard, part)
			part.Close()
			if err != nil {
				return app.Upload{}, readErr(err)
			}
			continue
		}
		if found {
			part.Close()
			return app.Upload{}, errParam("file", messages.New("api.file_twice"))
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
			return app.Upload{}, readErr(err)
		}
		if n > limit {
			return app.Upload{}, tooLarge
		}
		up = app.Upload{Filename: cleanFilename(part.FileName()), Data: buf.Bytes(), SHA256: hex.EncodeToString(h.Sum(nil))}
	}
	if !found {
		return app.Upload{}, errParam("file", messages.New("api.file_missing"))
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

// getImport: GET /v1/imports/{id} answers the recorded import report, to
// whoever may read its tournament; to anyone else it does not exist.
func (s *server) getImport(c *gin.Context) {
	raw := c.Param("id")
	notFound := errNotFound(messages.New("api.no_import", raw))
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
	writeJSON(c, http.StatusOK, importDocument(imp))
}
