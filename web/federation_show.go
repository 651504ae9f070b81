package web

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/exporters/workbook"
	"segnapunti/web/form"
)

// federationPage is /federation: every club's tournaments with filters,
// each tournament's downloads, and the season workbook form (federation
// and admins).
type federationPage struct {
	Page
	Filter   app.FederationFilter
	Desk     app.FederationDesk
	Levels   []domain.Level
	Rulesets []domain.Ruleset
	Errors   form.Errors
	Details  []string
}

func federationFilter(r *http.Request) app.FederationFilter {
	q := r.URL.Query()
	return app.FederationFilter{Season: q.Get("season"), ClubID: q.Get("club"), Level: q.Get("level"), Ruleset: q.Get("ruleset")}
}

func (s *Server) federationShow(w http.ResponseWriter, r *http.Request) {
	s.renderFederation(w, r, federationFilter(r), nil)
}

// renderFederation shows the desk; refused is an export's refusal to show
// beside the season form.
func (s *Server) renderFederation(w http.ResponseWriter, r *http.Request, f app.FederationFilter, refused error) {
	p, _ := s.principal(r)
	data := federationPage{Page: s.page(r, "referee.fed_title"), Filter: f, Levels: domain.Levels, Rulesets: domain.Rulesets, Errors: form.Errors{}}
	status := http.StatusOK
	desk, err := s.app.Federation(r.Context(), p, f)
	var ae *app.Error
	switch {
	case errors.As(err, &ae) && ae.Kind == app.ErrBadParameter:
		status = http.StatusBadRequest
		data.Error = "form.errors"
		for _, fe := range ae.Fields {
			data.Errors[fe.Parameter] = "referee.fed_bad_filter"
		}
		if detail := refusalDetail(langOf(r), ae); detail != "" {
			data.Details = append(data.Details, detail)
		}
		if desk, err = s.app.Federation(r.Context(), p, app.FederationFilter{}); err != nil {
			s.refereeFail(w, r, err)
			return
		}
	case err != nil:
		s.refereeFail(w, r, err)
		return
	}
	data.Desk = desk
	if refused != nil && errors.As(refused, &ae) {
		status = http.StatusBadRequest
		data.Error = "form.errors"
		for _, fe := range ae.Fields {
			data.Errors["season_"+fe.Parameter] = "referee.fed_bad_filter"
		}
		if detail := refusalDetail(langOf(r), ae); detail != "" {
			data.Details = append(data.Details, detail)
		}
	}
	s.render(w, r, status, "federation", &data)
}

const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9]+`)

// download writes an export as an attachment; a failure after the first
// byte aborts the response, so a broken file never looks whole.
func (s *Server) download(w http.ResponseWriter, r *http.Request, contentType, name string, write func(io.Writer) error) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if err := write(w); err != nil {
		s.log.Error("download aborted", "path", r.URL.Path, "err", err)
		panic(http.ErrAbortHandler)
	}
}

func fileName(name string, date time.Time, ext string) string {
	n := unsafeName.ReplaceAllString(name, "_")
	if n == "" || n == "_" {
		n = "torneo"
	}
	return n + "-" + date.Format(time.DateOnly) + ext
}

// federationWorkbook: GET /federation/tournaments/{tid}/workbook.xlsx.
func (s *Server) federationWorkbook(w http.ResponseWriter, r *http.Request) {
	p, _ := s.principal(r)
	ex, release, err := s.app.ExportTournament(r.Context(), p, r.PathValue("tid"), false)
	if err != nil {
		s.refereeFail(w, r, err)
		return
	}
	defer release()
	s.download(w, r, xlsxType, fileName(ex.Tournament.Name, ex.Tournament.Date, ".xlsx"), func(w io.Writer) error { return workbook.WriteTournament(w, ex) })
}

// federationJSON: GET /federation/tournaments/{tid}/export.json.
func (s *Server) federationJSON(w http.ResponseWriter, r *http.Request) {
	p, _ := s.principal(r)
	ex, release, err := s.app.ExportTournament(r.Context(), p, r.PathValue("tid"), true)
	if err != nil {
		s.refereeFail(w, r, err)
		return
	}
	defer release()
	s.download(w, r, "application/json", fileName(ex.Tournament.Name, ex.Tournament.Date, ".json"), func(w io.Writer) error { return workbook.WriteJSON(w, ex) })
}

// federationSeason: GET /federation/season?season=&club=&level= — the
// season workbook.
func (s *Server) federationSeason(w http.ResponseWriter, r *http.Request) {
	p, _ := s.principal(r)
	q := r.URL.Query()
	season := q.Get("season")
	from, to, err := app.ParseSeason(season)
	if err != nil {
		s.renderFederation(w, r, app.FederationFilter{}, err)
		return
	}
	ex, err := s.app.ExportSeason(r.Context(), p, app.SeasonQuery{From: from, To: to, ClubID: q.Get("club"), Level: q.Get("level")})
	if err != nil {
		var ae *app.Error
		if errors.As(err, &ae) && ae.Kind == app.ErrBadParameter {
			s.renderFederation(w, r, app.FederationFilter{}, err)
			return
		}
		s.refereeFail(w, r, err)
		return
	}
	name := "stagione-" + season
	if c := q.Get("club"); c != "" {
		name += "-" + c
	}
	if l := q.Get("level"); l != "" {
		name += "-" + l
	}
	s.download(w, r, xlsxType, unsafeName.ReplaceAllString(name, "_")+".xlsx", func(w io.Writer) error { return workbook.WriteSeason(w, ex.Rows, ex.Totals()) })
}
