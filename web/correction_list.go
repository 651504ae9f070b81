package web

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"

	"segnapunti/app"
	"segnapunti/domain"
)

// correctionsPage is /tournaments/{tid}/corrections: the audit trail —
// who, when, kind, ruling, articles, figures before → after (UI.md §4).
type correctionsPage struct {
	Page
	Tournament domain.Tournament
	List       []correctionView
	Recorded   int64 // the correction just recorded (?recorded=)
}

func (s *Server) correctionList(w http.ResponseWriter, r *http.Request) {
	p, _ := s.principal(r)
	ctx := r.Context()
	tid := r.PathValue("tid")
	list, err := s.app.Corrections(ctx, p, tid)
	if err != nil {
		s.refereeFail(w, r, err)
		return
	}
	t, err := s.app.Tournament(ctx, p, tid)
	if err != nil {
		s.refereeFail(w, r, err)
		return
	}
	d := correctionsPage{Page: s.page(r, "referee.corrections_title"), Tournament: t}
	d.Zone = app.TournamentZone(t)
	for _, c := range list {
		d.List = append(d.List, correctionView{Correction: c, Changes: figureChanges(c.Before, c.After, d.Lang)})
	}
	if id, err := strconv.ParseInt(r.URL.Query().Get("recorded"), 10, 64); err == nil {
		for _, c := range list {
			if c.ID == id {
				d.Recorded = id
				d.Message = "referee.recorded_rejected"
				if c.Applied {
					d.Message = "referee.recorded_applied"
				}
			}
		}
	}
	s.render(w, r, http.StatusOK, "corrections", &d)
}

// correctionView is one entry of the trail with its changed figures.
type correctionView struct {
	app.Correction
	Changes []figureChange
}

// figureChange is one figure of the sheet before → after a correction.
type figureChange struct {
	Field, Label, Before, After string
}

// figureChanges lists the figures that differ between the recorded parts
// before and after ({"written": …, "hands": […]}).
func figureChanges(before, after []byte, lang Lang) []figureChange {
	b, a := map[string]string{}, map[string]string{}
	flattenJSON(before, b)
	flattenJSON(after, a)
	keys := map[string]bool{}
	for k := range b {
		keys[k] = true
	}
	for k := range a {
		keys[k] = true
	}
	var out []figureChange
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if b[k] != a[k] {
			out = append(out, figureChange{Field: k, Label: cellLabel(k, lang), Before: b[k], After: a[k]})
		}
	}
	return out
}

func flattenJSON(data []byte, out map[string]string) {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return
	}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(join(prefix, k), e)
			}
		case []any:
			for i, e := range x {
				walk(join(prefix, strconv.Itoa(i)), e)
			}
		case nil:
		default:
			out[prefix] = fmt.Sprint(x)
		}
	}
	walk("", v)
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}
