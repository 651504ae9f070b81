package api

import (
	"errors"
	"strings"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
)

// POST /v1/rulings (API §4): a correction situation → the ruling of RULES
// §9. Stateless, no token, nothing stored.

// rulingRequest is the body, field for field as API §4 spells it. A
// boolean left out is false; a string or round left out is refused by
// CorrectionSituation.Validate, naming the field.
type rulingRequest struct {
	Ruleset              string `json:"ruleset"`
	Kind                 string `json:"kind"`
	Level                string `json:"level"`
	Phase                string `json:"phase"`
	ErrorRound           int    `json:"error_round"`
	CurrentRound         int    `json:"current_round"`
	CurrentRoundStarted  bool   `json:"current_round_started"`
	TournamentClosed     bool   `json:"tournament_closed"`
	StandingsPublished   bool   `json:"standings_published"`
	StandingsContested   bool   `json:"standings_contested"`
	PositionsPublished   bool   `json:"positions_published"`
	BothLinesAcknowledge bool   `json:"both_lines_acknowledge"`
	RefereeCountersigned bool   `json:"referee_countersigned"`
}

func (r rulingRequest) situation() domain.CorrectionSituation {
	return domain.CorrectionSituation{
		Ruleset:              domain.Ruleset(r.Ruleset),
		Kind:                 domain.CorrectionKind(r.Kind),
		Level:                domain.Level(r.Level),
		Phase:                domain.Phase(r.Phase),
		ErrorRound:           r.ErrorRound,
		CurrentRound:         r.CurrentRound,
		CurrentRoundStarted:  r.CurrentRoundStarted,
		TournamentClosed:     r.TournamentClosed,
		StandingsPublished:   r.StandingsPublished,
		StandingsContested:   r.StandingsContested,
		PositionsPublished:   r.PositionsPublished,
		BothLinesAcknowledge: r.BothLinesAcknowledge,
		RefereeCountersigned: r.RefereeCountersigned,
	}
}

// rulingJSON is a domain.Decision as API §4 answers it.
type rulingJSON struct {
	Ruling string   `json:"ruling"`
	Rules  []string `json:"rules"`
	Reason string   `json:"reason"`
}

func toRulingJSON(d domain.Decision, lang domain.Lang) rulingJSON {
	rules := d.Rules
	if rules == nil {
		rules = []string{}
	}
	return rulingJSON{Ruling: string(d.Ruling), Rules: rules, Reason: d.ReasonIn(lang)}
}

func (s *server) ruling(c *gin.Context) {
	lang, err := rulingLang(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	var req rulingRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	sit := req.situation()
	if err := sit.Validate(); err != nil {
		s.fail(c, invalidFields(domainFieldErrors(err, func(field string) string { return "/" + field })))
		return
	}
	// RULES §9: the facts of a stateless request must agree; a
	// contradiction is a 422 naming the fields.
	if err := sit.Contradictions(); err != nil {
		s.fail(c, invalidFields(contradictionErrors(err)))
		return
	}
	ok200(c, toRulingJSON(domain.Decide(sit), lang))
}

// contradictionErrors turns a *domain.ContradictionError into one field
// error per contradiction, its pointer the field to correct and its detail
// naming the fields it contradicts.
func contradictionErrors(err error) []fieldError {
	var ce *domain.ContradictionError
	if !errors.As(err, &ce) {
		return []fieldError{uncodedField("", app.DomainDetail(err))}
	}
	out := make([]fieldError, 0, len(ce.Contradictions))
	for _, k := range ce.Contradictions {
		out = append(out, uncodedField("/"+k.Field, k.Detail+" (contradicts "+strings.Join(k.With, ", ")+")"))
	}
	return out
}

// rulingLang picks the language of the reason: ?lang= when given (en or
// it), otherwise Italian when Accept-Language prefers Italian to English,
// otherwise English.
func rulingLang(c *gin.Context) (domain.Lang, error) {
	return langOnly(c)
}

// domainFieldErrors turns a domain validation error — one ErrInvalid, or
// several joined, each "field: detail" with the field named as the API
// spells it (a dot for nesting: "played.vp") — into field errors; pointer
// maps a field name to the JSON pointer that names it in the request.
func domainFieldErrors(err error, pointer func(field string) string) []fieldError {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	var out []fieldError
	for _, e := range errs {
		msg := app.DomainDetail(e)
		field, detail, ok := strings.Cut(msg, ": ")
		if !ok || strings.ContainsAny(field, " \"") || !errors.Is(e, domain.ErrInvalid) {
			out = append(out, uncodedField("", msg))
			continue
		}
		out = append(out, uncodedField(pointer(field), detail))
	}
	return out
}
