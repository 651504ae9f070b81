package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/importers/sheetjson"
	"segnapunti/messages"
)

// Issue 10: an upload that would replace entered sheets (409 with its
// report), the list of a tournament's imports, the undo of one, and a
// sheet's history.

// typeWouldReplace is the problem type of an upload refused because it
// would replace sheets already entered.
const typeWouldReplace = "/problems/would-replace"

// boolParam reads an optional true/false query parameter.
func boolParam(q url.Values, name string) (bool, error) {
	if !q.Has(name) {
		return false, nil
	}
	switch q.Get(name) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errParam(name, messages.New("api.bool", name))
}

// failWouldReplace answers 409: the problem's members, then the import
// report's (matches with their status, counts) in the same object.
func (s *server) failWouldReplace(c *gin.Context, wr *app.WouldReplaceError) {
	p := localize(problem{Type: typeWouldReplace, Title: titleFor(http.StatusConflict), Status: http.StatusConflict, msg: wr.Msg()}, langOf(c))
	b, err := marshalJSON(p)
	if err != nil || len(wr.Report) < 2 || wr.Report[0] != '{' {
		s.fail(c, fmt.Errorf("encode would-replace problem: %v", err))
		return
	}
	body := append(b[:len(b)-1:len(b)-1], ',')
	body = append(body, wr.Report[1:]...)
	c.Data(http.StatusConflict, problemContentType, body)
	c.Abort()
}

// importDocument is the recorded report of an import, with when and by
// whom it was undone when it was.
func importDocument(imp app.Import) []byte {
	if imp.UndoneAt.IsZero() {
		return imp.ReportJSON
	}
	extra, _ := json.Marshal(struct {
		UndoneAt string `json:"undone_at"`
		UndoneBy string `json:"undone_by"`
	}{imp.UndoneAt.UTC().Format(time.RFC3339), imp.UndoneBy})
	rep := bytes.TrimSpace(imp.ReportJSON)
	if len(rep) < 2 || rep[len(rep)-1] != '}' {
		return imp.ReportJSON
	}
	out := append([]byte{}, rep[:len(rep)-1]...)
	if len(bytes.TrimSpace(rep[1:len(rep)-1])) > 0 {
		out = append(out, ',')
	}
	return append(out, extra[1:]...)
}

// importParam reads {id} of an import route: anything but a canonical
// positive integer names no import.
func importParam(c *gin.Context) (int64, error) {
	raw := c.Param("id")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 || strconv.FormatInt(id, 10) != raw {
		return 0, errNotFound(messages.New("api.no_import", raw))
	}
	return id, nil
}

// undoImport: DELETE /v1/tournaments/{tid}/imports/{id} undoes an import
// while its rounds are being played; it answers the import's record, now
// with undone_at.
func (s *server) undoImport(c *gin.Context) {
	id, err := importParam(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	imp, err := s.app.UndoImport(c.Request.Context(), mustPrincipal(c), c.Param("tid"), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	full, err := s.app.Import(c.Request.Context(), mustPrincipal(c), imp.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	writeJSON(c, http.StatusOK, importDocument(full))
}

// importEntryJSON is one import in GET /v1/tournaments/{tid}/imports.
type importEntryJSON struct {
	ID        string           `json:"id"`
	Filename  string           `json:"filename"`
	SHA256    string           `json:"sha256"`
	CreatedAt string           `json:"created_at"`
	CreatedBy string           `json:"created_by"`
	Counts    app.ImportCounts `json:"counts"`
	UndoneAt  *string          `json:"undone_at,omitempty"`
	UndoneBy  *string          `json:"undone_by,omitempty"`
	Undoable  bool             `json:"undoable"`
}

// listImports: GET /v1/tournaments/{tid}/imports, newest first.
func (s *server) listImports(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	list, err := s.app.Imports(c.Request.Context(), mustPrincipal(c), c.Param("tid"))
	if err != nil {
		s.fail(c, err)
		return
	}
	out := struct {
		Imports []importEntryJSON `json:"imports"`
	}{Imports: make([]importEntryJSON, len(list))}
	for i, e := range list {
		j := importEntryJSON{ID: strconv.FormatInt(e.ID, 10), Filename: e.Filename, SHA256: e.SHA256,
			CreatedAt: e.CreatedAt.UTC().Format(time.RFC3339), CreatedBy: e.CreatedBy, Counts: e.Counts, Undoable: e.Undoable}
		if !e.UndoneAt.IsZero() {
			at := e.UndoneAt.UTC().Format(time.RFC3339)
			j.UndoneAt, j.UndoneBy = &at, &e.UndoneBy
		}
		out.Imports[i] = j
	}
	ok200(c, out)
}

// sheetVersionJSON is one earlier version in a sheet's history.
type sheetVersionJSON struct {
	Version    int             `json:"version"`
	ReplacedAt string          `json:"replaced_at"`
	Source     string          `json:"source"`
	Import     *string         `json:"import,omitempty"`
	By         string          `json:"by"`
	Sheet      json.RawMessage `json:"sheet"`
}

func toSheetVersionsJSON(vs []app.SheetVersion) ([]sheetVersionJSON, error) {
	out := make([]sheetVersionJSON, len(vs))
	for i, v := range vs {
		sheet, err := sheetjson.Encode(v.Stored.Sheet)
		if err != nil {
			return nil, fmt.Errorf("encode sheet version: %w", err)
		}
		out[i] = sheetVersionJSON{Version: v.Version, ReplacedAt: v.ReplacedAt.UTC().Format(time.RFC3339), Source: v.Source, By: v.By, Sheet: sheet}
		if v.ImportID != 0 {
			id := strconv.FormatInt(v.ImportID, 10)
			out[i].Import = &id
		}
	}
	return out, nil
}
