package web

import (
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
)

// A team table's line-up page (UI.md §9, RULES §12.5): which players of
// each team sit at the table, ns.0 ns.1 eo.0 eo.1 (membership numbers),
// through the same operation as PUT …/rounds/{n}/tables/{t}/lineup.

type lineupPage struct {
	Page
	D      app.TournamentDetail
	Round  int
	Table  domain.TableAssignment
	NSTeam domain.Entrant
	EOTeam domain.Entrant
	// Form: the line-up as typed or stored, by field name (ns.0 … eo.1).
	Form map[string]string
	Errs fieldErrors
	// Lines are the form's two fieldsets, built from the above.
	Lines []lineupLine
}

// lineupLine is one line's fieldset: the team and its two selects.
type lineupLine struct {
	Line   string // "ns" or "eo"
	Team   domain.Entrant
	Err    string // an error of the whole line
	Fields []lineupField
}

type lineupField struct {
	Name     string // ns.0 …
	Position int    // 1, 2
	Value    string
	Err      string
	Options  []string // the team's membership numbers
}

// lines builds the fieldsets of the form.
func (p *lineupPage) lines() {
	p.Lines = nil
	for _, l := range []struct {
		name string
		team domain.Entrant
	}{{"ns", p.NSTeam}, {"eo", p.EOTeam}} {
		ll := lineupLine{Line: l.name, Team: l.team, Err: p.Errs[l.name]}
		var opts []string
		for _, pl := range l.team.Players {
			if pl.Membership != "" {
				opts = append(opts, pl.Membership)
			}
		}
		for i := range domain.PlayersPerTeamLine {
			f := l.name + "." + strconv.Itoa(i)
			ll.Fields = append(ll.Fields, lineupField{Name: f, Position: i + 1, Value: p.Form[f], Err: p.Errs[f], Options: opts})
		}
		p.Lines = append(p.Lines, ll)
	}
}

func (s *Server) lineupShow(w http.ResponseWriter, r *http.Request) {
	data := &lineupPage{Errs: fieldErrors{}}
	if r.URL.Query().Get("saved") != "" {
		data.Message = "secretary.lineup_saved"
	}
	s.renderLineup(w, r, http.StatusOK, data)
}

func (s *Server) renderLineup(w http.ResponseWriter, r *http.Request, status int, data *lineupPage) {
	n, ok1 := pathInt(r, "n")
	t, ok2 := pathInt(r, "t")
	if !ok1 || !ok2 {
		s.renderError(w, r, http.StatusNotFound, "error.not_found")
		return
	}
	d, err := s.app.TournamentDetail(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	round, err := s.app.Round(r.Context(), s.caller(r), d.Tournament.ID, n)
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	table, found := round.Assignment(t)
	if !found || d.Tournament.Kind != domain.KindTeams {
		s.renderError(w, r, http.StatusNotFound, "error.not_found")
		return
	}
	msg, errID := data.Message, data.Error
	data.Page = s.page(r, "secretary.lineup_title")
	data.Message, data.Error = msg, errID
	data.D, data.Round, data.Table = d, n, table
	for _, e := range d.Entrants {
		switch e.ID {
		case table.NS:
			data.NSTeam = e
		case table.EO:
			data.EOTeam = e
		}
	}
	if data.Form == nil {
		data.Form = map[string]string{}
		lineups, err := s.app.Lineups(r.Context(), s.caller(r), d.Tournament.ID, n)
		if err != nil {
			s.operationFailed(w, r, err)
			return
		}
		for _, l := range lineups {
			if l.Table == t {
				for i, m := range l.NS {
					data.Form["ns."+strconv.Itoa(i)] = m
				}
				for i, m := range l.EO {
					data.Form["eo."+strconv.Itoa(i)] = m
				}
			}
		}
	}
	data.lines()
	s.render(w, r, status, "lineup_show", data)
}

// lineupSave takes the line-up form; a refusal names the field (ns.1, eo)
// and cites the article (FITAB art. 2.2).
func (s *Server) lineupSave(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	n, ok1 := pathInt(r, "n")
	t, ok2 := pathInt(r, "t")
	if !ok1 || !ok2 {
		s.renderError(w, r, http.StatusNotFound, "error.not_found")
		return
	}
	data := &lineupPage{Errs: fieldErrors{}, Form: map[string]string{}}
	var l domain.Lineup
	l.Table = t
	for _, f := range []string{"ns.0", "ns.1", "eo.0", "eo.1"} {
		v := strings.TrimSpace(r.PostForm.Get(f))
		data.Form[f] = v
		if strings.HasPrefix(f, "ns") {
			l.NS = append(l.NS, v)
		} else {
			l.EO = append(l.EO, v)
		}
	}
	lang := langOf(r)
	_, err := s.app.SetLineup(r.Context(), s.caller(r), r.PathValue("tid"), n, l)
	if fe, ok := invalidFields(lang, err, func(i int) int { return i }); ok {
		for k, detail := range fe {
			data.Errs[k] = detail
		}
	} else if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	if len(data.Errs) > 0 {
		data.Error = "form.errors"
		s.renderLineup(w, r, http.StatusUnprocessableEntity, data)
		return
	}
	seeOther(w, r, tournamentPath(r.PathValue("tid"))+"/rounds/"+strconv.Itoa(n)+"/tables/"+strconv.Itoa(t)+"/lineup?saved=1")
}
