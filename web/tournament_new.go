package web

import (
	"fmt"
	"net/http"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/web/form"
)

// tournamentNewPage is the new-tournament form.
type tournamentNewPage struct {
	Page
	Form                    form.Tournament
	Errs                    fieldErrors
	Levels, Rulesets, Kinds []string
	// FirstRounds and PhaseSystems: the plan's choices (RULES §12.1).
	FirstRounds, PhaseSystems []string
	// PhaseRows are the phase rows of the form, numbered from 1.
	PhaseRows []planPhaseRow
	// Zones are the time zones the form suggests (any IANA name is taken).
	Zones []string
}

// suggestedZones are the time zones the forms suggest: Italy's, then the
// neighbours' and those of Italian clubs abroad (any IANA name is taken).
var suggestedZones = []string{domain.DefaultTimeZone, "Europe/San_Marino", "Europe/Vatican", "Europe/Malta", "Europe/Zurich",
	"Europe/Paris", "Europe/Berlin", "Europe/London", "Europe/Lisbon", "Europe/Athens", "America/New_York", "America/Argentina/Buenos_Aires", "Australia/Sydney"}

// planPhaseRow is one phase row: its number, field names and values.
type planPhaseRow struct {
	N                    int
	SystemName, FromName string
	form.PlanPhase
}

func (s *Server) tournamentNewPage(r *http.Request, f form.Tournament, errs fieldErrors) *tournamentNewPage {
	p := &tournamentNewPage{Page: s.page(r, "secretary.new_title"), Form: f, Errs: errs, Levels: levelIDs, Rulesets: rulesetIDs, Kinds: kindIDs,
		FirstRounds: []string{"entry_order", "draw", "choice"}, PhaseSystems: []string{"mitchell", "danese", "danese_modificato", "italiana", "gironi"},
		Zones: suggestedZones}
	for i, ph := range f.PlanPhases {
		pre := fmt.Sprintf("plan.phases.%d.", i)
		p.PhaseRows = append(p.PhaseRows, planPhaseRow{N: i + 1, SystemName: pre + "system", FromName: pre + "from_round", PlanPhase: ph})
	}
	return p
}

// planFieldKey is the message of a plan field's refusal: one per part of
// the plan ("plan.phases.1.system" → secretary.field.plan.phases).
func planFieldKey(name string) string {
	switch {
	case strings.HasPrefix(name, "plan.phases"):
		return "secretary.field.plan.phases"
	case strings.HasPrefix(name, "plan.sessions"):
		return "secretary.field.plan.sessions"
	}
	return "secretary.field.plan.first_round"
}

// tournamentNewShow shows the empty form, with the usual choices made.
func (s *Server) tournamentNewShow(w http.ResponseWriter, r *http.Request) {
	f := form.Tournament{Date: s.now().Format(app.DateLayout), Level: "club", Ruleset: "fitab-2025", Kind: "pairs", RoundsPlanned: "3", HandsPerRound: "3",
		TimeZone: domain.DefaultTimeZone}
	s.render(w, r, http.StatusOK, "tournament_new", s.tournamentNewPage(r, f, fieldErrors{}))
}

// tournamentCreate creates the tournament through the same operation as
// POST /v1/tournaments and goes to its page.
func (s *Server) tournamentCreate(w http.ResponseWriter, r *http.Request) {
	f, ferrs, err := form.ParseTournament(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	lang := langOf(r)
	errs := fieldErrors{}
	for k, id := range ferrs {
		errs[k] = translate(lang, id)
	}
	rounds, _ := form.Number(f.RoundsPlanned)
	hands, _ := form.Number(f.HandsPerRound)
	planErrs := form.Errors{}
	in := app.TournamentInput{Name: f.Name, Date: f.Date, Level: f.Level, Ruleset: f.Ruleset, Kind: f.Kind, RoundsPlanned: rounds, HandsPerRound: hands,
		Plan: f.Plan(planErrs), TimeZone: f.TimeZone}
	for k, id := range planErrs {
		errs[k] = translate(lang, id)
	}
	var t struct{ ID string }
	if len(errs) == 0 {
		created, err := s.app.CreateTournament(r.Context(), s.caller(r), in)
		if fe, ok := invalidFields(lang, err, nil); ok {
			for k, detail := range fe {
				errs[k] = translate(lang, "secretary.field."+k)
				if strings.Contains(detail, "UTF-8") { // the field's hint would not say what is wrong
					errs[k] = detail
				} else if strings.HasPrefix(k, "plan.") {
					// RULES §12.1: the plan's refusals cite the article.
					errs[k] = translate(lang, planFieldKey(k)) + " " + detail
				}
			}
		} else if err != nil {
			s.operationFailed(w, r, err)
			return
		}
		t.ID = created.ID
	}
	if len(errs) > 0 {
		data := s.tournamentNewPage(r, f, errs)
		data.Error = "form.errors"
		s.render(w, r, http.StatusUnprocessableEntity, "tournament_new", data)
		return
	}
	seeOther(w, r, tournamentPath(t.ID))
}
