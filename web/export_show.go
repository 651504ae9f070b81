package web

import (
	"io"
	"net/http"
	"strings"
	"time"

	"segnapunti/app"
	"segnapunti/exporters/workbook"
)

// exportPage: the tournament's downloads (UI.md §3). The API's export
// routes need a token, so the pages serve the same exports through
// their own routes, with the session's principal.
type exportPage struct {
	Page
	D      app.TournamentDetail
	Sheets []string
}

func (s *Server) exportShow(w http.ResponseWriter, r *http.Request) {
	d, err := s.app.TournamentDetail(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "export_show", &exportPage{Page: s.page(r, "secretary.export_title"), D: d, Sheets: workbook.CSVSheets()})
}

// exportDownload streams one export: the federation workbook, one CSV
// table, or the JSON document.
func (s *Server) exportDownload(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	if file == tournamentFileName {
		s.tournamentFileDownload(w, r)
		return
	}
	var sheet string
	var nested bool
	switch {
	case file == "workbook.xlsx":
	case file == "tournament.json":
		nested = true
	case strings.HasSuffix(file, ".csv"):
		name := strings.TrimSuffix(file, ".csv")
		for _, s := range workbook.CSVSheets() {
			if strings.EqualFold(s, name) {
				sheet = s
			}
		}
		if sheet == "" {
			s.notFound(w, r)
			return
		}
	default:
		s.notFound(w, r)
		return
	}
	ex, release, err := s.app.ExportTournament(r.Context(), s.caller(r), r.PathValue("tid"), nested)
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	defer release()
	t := ex.Tournament
	// Named after the tournament, accents kept.
	base := downloadName(t.Name + " " + t.Date.Format(time.DateOnly))
	var ctype, name string
	var write func(io.Writer) error
	switch {
	case nested:
		ctype, name = "application/json", base+".json"
		write = func(w io.Writer) error { return workbook.WriteJSON(w, ex) }
	case sheet != "":
		ctype, name = "text/csv; charset=utf-8", base+" "+strings.ToLower(sheet)+".csv"
		opts := workbook.CSVOptionsFor(langOf(r))
		write = func(w io.Writer) error { return workbook.WriteCSVWith(w, ex, sheet, opts) }
	default:
		ctype, name = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", base+".xlsx"
		write = func(w io.Writer) error { return workbook.WriteTournament(w, ex) }
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Disposition", attachment(name))
	h.Set("Cache-Control", "no-store") // membership numbers: personal data
	if err := write(w); err != nil {
		// Past the first byte the status is sent: log; the transfer breaks.
		s.log.Error("export", "tournament", t.ID, "file", file, "err", err)
		panic(http.ErrAbortHandler)
	}
}

// tournamentFileName is the download of the open tournament file (API
// §4.4, docs/format.md) among the exports.
const tournamentFileName = "segnapunti-tournament.json"

// tournamentFileDownload: GET /tournaments/{tid}/export/segnapunti-tournament.json,
// the same file as GET /v1/tournaments/{tid}/tournament.json.
func (s *Server) tournamentFileDownload(w http.ResponseWriter, r *http.Request) {
	b, t, err := s.app.MarshalTournamentFile(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Disposition", attachment(downloadName(t.Name+" "+t.Date.Format(time.DateOnly))+".tournament.json"))
	h.Set("Cache-Control", "no-store") // membership numbers: personal data
	_, _ = w.Write(b)
}
