package form

import (
	"net/http"
	"strconv"
	"strings"

	"segnapunti/domain"
)

// Tournament is the new-tournament form (UI.md §3, the fields of API
// §4.1). The operation checks the values; this only reads them, and the
// numbers as numbers.
type Tournament struct {
	Name, Date, Level, Ruleset, Kind string
	RoundsPlanned, HandsPerRound     string // as typed, shown back on error
	// The plan (UI.md §9, RULES §12.1): plan.first_round,
	// plan.phases.N.system and plan.phases.N.from_round, plan.sessions
	// ("3,2").
	PlanFirstRound string
	PlanPhases     [PlanPhaseRows]PlanPhase
	PlanSessions   string
	// TimeZone is the hall's clock, an IANA name (issue 22).
	TimeZone string
}

// PlanPhaseRows is how many phases the form offers.
const PlanPhaseRows = 3

// PlanPhase is one phase row as typed.
type PlanPhase struct{ System, FromRound string }

// Plan is the plan the form announces: nil when it announces none (every
// plan field left empty, the default plan), otherwise as typed; bad
// numbers are named in errs.
func (f Tournament) Plan(errs Errors) *domain.PlanInput {
	in := domain.PlanInput{FirstRound: f.PlanFirstRound}
	for i, ph := range f.PlanPhases {
		if ph.System == "" && ph.FromRound == "" {
			continue
		}
		n, ok := Number(ph.FromRound)
		if !ok {
			errs["plan.phases."+strconv.Itoa(i)+".from_round"] = "secretary.whole_number"
		}
		in.Phases = append(in.Phases, domain.PlanPhaseInput{FromRound: n, System: ph.System})
	}
	if s := strings.TrimSpace(f.PlanSessions); s != "" {
		for _, part := range strings.Split(s, ",") {
			n, ok := Number(strings.TrimSpace(part))
			if !ok {
				errs["plan.sessions"] = "secretary.field.plan.sessions"
				break
			}
			in.Sessions = append(in.Sessions, n)
		}
	}
	if in.FirstRound == "" && len(in.Phases) == 0 && len(in.Sessions) == 0 {
		return nil
	}
	return &in
}

// Number parses a whole number typed in a form field; ok is false for
// anything else.
func Number(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// ParseTournament reads the new-tournament form.
func ParseTournament(w http.ResponseWriter, r *http.Request) (Tournament, Errors, error) {
	if err := parse(w, r); err != nil {
		return Tournament{}, nil, err
	}
	f := Tournament{
		Name: value(r, "name"), Date: value(r, "date"), Level: value(r, "level"), Ruleset: value(r, "ruleset"),
		Kind: value(r, "kind"), RoundsPlanned: value(r, "rounds_planned"), HandsPerRound: value(r, "hands_per_round"),
		PlanFirstRound: value(r, "plan.first_round"), PlanSessions: value(r, "plan.sessions"),
		TimeZone: value(r, "time_zone"),
	}
	for i := range f.PlanPhases {
		p := "plan.phases." + strconv.Itoa(i) + "."
		f.PlanPhases[i] = PlanPhase{System: value(r, p+"system"), FromRound: value(r, p+"from_round")}
	}
	errs := Errors{}
	for name, v := range map[string]string{"rounds_planned": f.RoundsPlanned, "hands_per_round": f.HandsPerRound} {
		if _, ok := Number(v); !ok {
			errs[name] = "secretary.whole_number"
		}
	}
	return f, errs, nil
}
