package api

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/exporters/download"
	"segnapunti/exporters/workbook"
	"segnapunti/messages"
)

// The federation exports of API §6: the tournament workbook (and its
// tables as CSV, and the JSON export with its schema) and the season
// workbook. Every export is streamed: the tables are iterators over the
// store, written as they are read, never assembled in memory.

// Media types of the exports.
const (
	xlsxContentType   = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	csvContentType    = "text/csv; charset=utf-8"
	schemaContentType = "application/schema+json"
)

// exportTournament: GET /v1/tournaments/{tid}/export.xlsx — the federation
// workbook, or with ?format=csv&sheet=Classifica one of its tables as CSV.
// Whoever may read the tournament may export it (its club, its referees,
// the federation, an admin).
func (s *server) exportTournament(c *gin.Context) {
	q := c.Request.URL.Query()
	if err := onlyParams(q, "format", "sheet", "lang", "sep"); err != nil {
		s.fail(c, err)
		return
	}
	sheet, err := csvSheetParam(q)
	if err != nil {
		s.fail(c, err)
		return
	}
	opts, err := csvOptions(c, q, sheet != "")
	if err != nil {
		s.fail(c, err)
		return
	}
	ex, release, err := s.app.ExportTournament(c.Request.Context(), mustPrincipal(c), c.Param("tid"), false)
	if err != nil {
		s.fail(c, err)
		return
	}
	defer release()
	t := ex.Tournament
	if sheet != "" {
		s.stream(c, csvContentType, download.Name(".csv", t.Name, t.Date.Format(time.DateOnly), strings.ToLower(sheet)),
			func(w io.Writer) error { return workbook.WriteCSVWith(w, ex, sheet, opts) })
		return
	}
	s.stream(c, xlsxContentType, download.Name(".xlsx", t.Name, t.Date.Format(time.DateOnly)),
		func(w io.Writer) error { return workbook.WriteTournament(w, ex) })
}

// csvSheetParam reads ?format= and ?sheet=: no format (or xlsx) is the
// workbook and takes no sheet; csv needs one of workbook.CSVSheets. It
// returns the sheet's canonical name, "" for the workbook.
func csvSheetParam(q url.Values) (string, error) {
	names := strings.Join(workbook.CSVSheets(), ", ")
	switch format := q.Get("format"); format {
	case "", "xlsx":
		if q.Has("sheet") {
			return "", errParam("sheet", messages.New("api.csv_sheet_xlsx"))
		}
		return "", nil
	case "csv":
		if !q.Has("sheet") {
			return "", errParam("sheet", messages.New("api.csv_sheet_needed", names))
		}
		sheet := q.Get("sheet")
		for _, name := range workbook.CSVSheets() {
			if strings.EqualFold(sheet, name) {
				return name, nil
			}
		}
		return "", errParam("sheet", messages.New("api.csv_sheet_unknown", sheet, names))
	default:
		return "", errParam("format", messages.New("api.export_format", format))
	}
}

// csvOptions reads the shape of a CSV export: Italian (?lang=it, or an
// Accept-Language preferring Italian to English) is what Excel set to
// Italian opens by a double click, ';' with a BOM; otherwise RFC 4180.
// ?sep= (comma, semicolon or tab) overrides the separator.
func csvOptions(c *gin.Context, q url.Values, csv bool) (workbook.CSVOptions, error) {
	if !csv {
		for _, name := range []string{"lang", "sep"} {
			if q.Has(name) {
				return workbook.CSVOptions{}, errParam(name, name+" shapes a CSV export; add format=csv&sheet=…")
			}
		}
		return workbook.CSVOptions{}, nil
	}
	lang, err := requestLang(c, q)
	if err != nil {
		return workbook.CSVOptions{}, err
	}
	opts := workbook.CSVOptionsFor(lang)
	if q.Has("sep") {
		if len(q["sep"]) > 1 {
			return opts, errParam("sep", messages.New("api.sep_once"))
		}
		switch q.Get("sep") {
		case "comma", ",":
			opts.Sep = ','
		case "semicolon", ";":
			opts.Sep = ';'
		case "tab":
			opts.Sep = '\t'
		default:
			return opts, errParam("sep", messages.New("api.sep_unknown", q.Get("sep")))
		}
	}
	return opts, nil
}

// requestLang is the language a person asked for: ?lang= when given (en
// or it), otherwise Italian when Accept-Language prefers Italian to
// English, otherwise English.
func requestLang(c *gin.Context, q url.Values) (domain.Lang, error) {
	if q.Has("lang") {
		if len(q["lang"]) > 1 {
			return "", errParam("lang", messages.New("api.lang_once"))
		}
		return langParam(q)
	}
	return headerLang(c.GetHeader("Accept-Language")), nil
}

// exportTournamentJSON: GET /v1/tournaments/{tid}/export.json — the
// machine-readable export, described by GET /v1/schemas/tournament-export.json.
func (s *server) exportTournamentJSON(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	ex, release, err := s.app.ExportTournament(c.Request.Context(), mustPrincipal(c), c.Param("tid"), true)
	if err != nil {
		s.fail(c, err)
		return
	}
	defer release()
	t := ex.Tournament
	s.stream(c, "application/json", download.Name(".json", t.Name, t.Date.Format(time.DateOnly)),
		func(w io.Writer) error { return workbook.WriteJSON(w, ex) })
}

// tournamentExportSchema: GET /v1/schemas/tournament-export.json, no token:
// the JSON Schema of the JSON export.
func (s *server) tournamentExportSchema(c *gin.Context) {
	c.Header("Cache-Control", "public, max-age=3600")
	c.Data(http.StatusOK, schemaContentType, workbook.Schema)
}

// stream answers 200 with the body write produces, written straight to the
// connection. A failure before the first byte is a problem answer; after
// it the status line is gone, so the response is aborted (the client sees
// a broken transfer, never a truncated file that looks whole).
func (s *server) stream(c *gin.Context, contentType, filename string, write func(io.Writer) error) {
	h := c.Writer.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", download.Disposition(filename))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store") // membership numbers: personal data
	c.Status(http.StatusOK)
	err := write(c.Writer)
	if err == nil {
		return
	}
	if !c.Writer.Written() {
		h.Del("Content-Type")
		h.Del("Content-Disposition")
		h.Del("Cache-Control")
		s.fail(c, exportError(err))
		return
	}
	s.log.LogAttrs(c.Request.Context(), slog.LevelError, "export aborted after the answer began",
		slog.String("route", c.FullPath()), slog.String("error", err.Error()))
	panic(http.ErrAbortHandler)
}

// exportError is the problem for an export that failed before it began: a
// cancelled request as such, anything else (a value the export format
// refuses included: the data was stored by this service) a 500.
func exportError(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &apiError{status: http.StatusInternalServerError, typ: typeInternal,
		msg: messages.New("api.export_failed"), cause: err}
}

// seasonParam matches a season: a calendar year "2026" or a federation
// season "2025-2026".
var seasonParam = regexp.MustCompile(`^([0-9]{4})(?:-([0-9]{4}))?$`)

// Seasons are years from minSeasonYear on: nothing older was ever scored
// by this service, and it keeps dates within what every database stores.
const minSeasonYear = 1900

// parseSeason reads the season of the path: "2026" is the calendar year,
// January 1 to December 31; "2025-2026" the federation season, September 1,
// 2025 to August 31, 2026 (the second year must follow the first).
func parseSeason(v string) (from, to time.Time, err error) {
	bad := func(key string, args ...any) (time.Time, time.Time, error) {
		return time.Time{}, time.Time{}, errParam("season", messages.New(key, args...))
	}
	m := seasonParam.FindStringSubmatch(v)
	if m == nil {
		return bad("api.export_season_shape", v)
	}
	y1, _ := strconv.Atoi(m[1])
	if y1 < minSeasonYear {
		return bad("api.export_season_year", v, minSeasonYear)
	}
	if m[2] == "" {
		return time.Date(y1, time.January, 1, 0, 0, 0, 0, time.UTC), time.Date(y1, time.December, 31, 0, 0, 0, 0, time.UTC), nil
	}
	y2, _ := strconv.Atoi(m[2])
	if y2 != y1+1 {
		return bad("api.export_season_second", v, y1+1)
	}
	return time.Date(y1, time.September, 1, 0, 0, 0, 0, time.UTC), time.Date(y2, time.August, 31, 0, 0, 0, 0, time.UTC), nil
}

// exportSeason: GET /v1/seasons/{season}/export.xlsx — per player and
// tournament of the season (optionally of one organising club, one level)
// the placing, VP and MP, and each player's season totals. The federation
// and admins only.
func (s *server) exportSeason(c *gin.Context) {
	p := mustPrincipal(c)
	if err := requireRole(p, domain.RoleFederation, domain.RoleAdmin); err != nil {
		// Before the path is read: a club learns nothing about seasons.
		s.fail(c, errForbidden(messages.New("api.season_export")))
		return
	}
	season := c.Param("season")
	from, to, err := parseSeason(season)
	if err != nil {
		s.fail(c, err)
		return
	}
	q := c.Request.URL.Query()
	if err := onlyParams(q, "club", "level"); err != nil {
		s.fail(c, err)
		return
	}
	sq := app.SeasonQuery{From: from, To: to, ClubID: q.Get("club"), Level: q.Get("level")}
	if q.Has("club") && sq.ClubID == "" {
		s.fail(c, errParam("club", messages.New("api.club_empty")))
		return
	}
	if q.Has("level") && sq.Level == "" {
		_, err := domain.ParseLevel("")
		s.fail(c, errParam("level", app.DomainDetail(err)))
		return
	}
	ex, err := s.app.ExportSeason(c.Request.Context(), p, sq)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.stream(c, xlsxContentType, download.Name(".xlsx", "stagione", season, sq.ClubID, sq.Level),
		func(w io.Writer) error { return workbook.WriteSeason(w, ex.Rows, ex.Totals()) })
}
