package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/web/form"
)

// The "genera turno" page (UI.md §3 "Making a round", RULES §11):
// GET shows the form and the proposals waiting; POST generates a proposal
// (app.GenerateRound); POST .../rounds/{n}/publish publishes it
// (app.SetRoundState to playing).

type pairingPage struct {
	Page
	TID         string
	Tournament  domain.Tournament
	Next        int
	CanGenerate bool
	Proposed    []domain.Round
	Names       map[string]string
	Systems     []domain.PairingSystem
	Form        form.Generate
	Errs        form.Errors
	// Detail is the service's explanation of a refusal (it cites the
	// article), shown under the field it concerns.
	Detail map[string]string
}

// generatable are the systems of the select: choice is the manual seating.
var generatable = []domain.PairingSystem{domain.SystemEntryOrder, domain.SystemDraw, domain.SystemMitchell,
	domain.SystemDanese, domain.SystemDaneseModificato, domain.SystemItaliana, domain.SystemGironi}

// individualGeneratable: an individual tournament is seated by its
// schedule, every round (domain individualSystemAllowed).
var individualGeneratable = []domain.PairingSystem{domain.SystemEntryOrder, domain.SystemDraw}

func (s *Server) pairingPageData(w http.ResponseWriter, r *http.Request) (pairingPage, bool) {
	p, _ := s.principal(r)
	tid := r.PathValue("tid")
	v, err := s.app.PairingView(r.Context(), p, tid)
	if errors.Is(err, domain.ErrNotFound) {
		s.notFound(w, r)
		return pairingPage{}, false
	}
	if err != nil {
		s.serverError(w, r, err)
		return pairingPage{}, false
	}
	data := pairingPage{Page: s.page(r, "pairing.title"), TID: tid, Tournament: v.Tournament, Next: v.Next,
		CanGenerate: v.CanGenerate, Proposed: v.Proposed, Names: v.Names, Systems: generatable, Errs: form.Errors{}, Detail: map[string]string{}}
	data.Form = form.Generate{RawNumber: strconv.Itoa(v.Next), System: string(domain.SystemDanese)}
	if v.Next == 1 {
		data.Form.System = string(domain.SystemDraw)
	}
	if v.Tournament.Kind == domain.KindIndividual {
		// RULES §11: partners change every round by the randomised
		// schedule; the systems that pair lines do not seat individuals.
		data.Systems = individualGeneratable
		data.Form.System = string(domain.SystemDraw)
	}
	return data, true
}

func (s *Server) pairingShow(w http.ResponseWriter, r *http.Request) {
	data, ok := s.pairingPageData(w, r)
	if !ok {
		return
	}
	switch {
	case r.URL.Query().Get("published") != "":
		data.Message = "pairing.published"
	case r.URL.Query().Get("generated") != "":
		data.Message = "pairing.generated"
	}
	s.render(w, r, http.StatusOK, "pairing_generate", &data)
}

func (s *Server) pairingGenerate(w http.ResponseWriter, r *http.Request) {
	f, errs, err := form.ParseGenerate(w, r)
	if err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	status := http.StatusUnprocessableEntity
	if !errs.Any() {
		p, _ := s.principal(r)
		_, err = s.app.GenerateRound(r.Context(), p, r.PathValue("tid"), app.GenerateInput{
			Number: f.Number, System: f.System, HandsPlanned: f.HandsPlanned, Seed: f.Seed})
		if err == nil {
			seeOther(w, r, "/tournaments/"+r.PathValue("tid")+"/rounds/generate?generated="+strconv.Itoa(f.Number)+"#proposed-"+strconv.Itoa(f.Number))
			return
		}
	}
	data, ok := s.pairingPageData(w, r)
	if !ok {
		return
	}
	data.Form, data.Errs = f, errs
	var ae *app.Error
	switch {
	case errs.Any():
	case errors.As(err, &ae) && errors.Is(err, app.ErrForbidden):
		s.renderError(w, r, http.StatusForbidden, "pairing.not_allowed")
		return
	case errors.As(err, &ae) && errors.Is(err, domain.ErrConflict):
		status = http.StatusConflict
		data.Errs["number"], data.Detail["number"] = refusalMessage(ae.Detail), refusalDetail(langOf(r), ae)
	case errors.As(err, &ae) && errors.Is(err, domain.ErrInvalid):
		for _, fe := range ae.Fields {
			name := strings.TrimPrefix(fe.Pointer, "/")
			if name == "" {
				name = fe.Parameter
			}
			switch name {
			case "number", "system", "hands_planned", "seed":
			default:
				name = "system"
			}
			data.Errs[name], data.Detail[name] = refusalMessage(fe.Detail), fieldRefusalDetail(langOf(r), fe)
		}
		if len(ae.Fields) == 0 {
			data.Errs["system"], data.Detail["system"] = "pairing.err_field", refusalDetail(langOf(r), ae)
		}
	case errors.Is(err, domain.ErrNotFound):
		s.notFound(w, r)
		return
	default:
		s.serverError(w, r, err)
		return
	}
	data.Error = "form.errors"
	s.render(w, r, status, "pairing_generate", &data)
}

func (s *Server) pairingPublish(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		s.notFound(w, r)
		return
	}
	p, _ := s.principal(r)
	tid := r.PathValue("tid")
	_, err = s.app.SetRoundState(r.Context(), p, tid, n, string(domain.RoundPlaying))
	switch {
	case err == nil:
		seeOther(w, r, "/tournaments/"+tid+"/rounds/generate?published="+strconv.Itoa(n))
	case errors.Is(err, app.ErrForbidden):
		s.renderError(w, r, http.StatusForbidden, "pairing.not_allowed")
	case errors.Is(err, domain.ErrNotFound):
		s.notFound(w, r)
	case errors.Is(err, domain.ErrConflict):
		data, ok := s.pairingPageData(w, r)
		if !ok {
			return
		}
		data.Error = "pairing.err_conflict"
		s.render(w, r, http.StatusConflict, "pairing_generate", &data)
	default:
		s.serverError(w, r, err)
	}
}

// refusals are the service's refusals the page says in its own words (the
// service's detail, in English, follows as "Dettaglio").
var refusals = []struct{ has, id string }{
	{"attualmente non in funzione", "pairing.err_danese_modificato"},
	{"is not published yet", "pairing.err_previous"},
	{"already published", "pairing.err_conflict"},
	{"first round is seated by", "pairing.err_first_round"},
	{"seats the first round only", "pairing.err_first_only"},
	{"Mitchell rounds", "pairing.err_mitchell"},
}

func refusalMessage(detail string) string {
	for _, r := range refusals {
		if strings.Contains(detail, r.has) {
			return r.id
		}
	}
	return "pairing.err_field"
}
