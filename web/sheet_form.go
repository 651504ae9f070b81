package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/web/form"
)

// The sheet form (UI.md §5): one row per hand, inputs named after the JSON
// pointer they fill with "/" turned into "." (hands.0.ns.base), the
// written result at the bottom (written.ns.vp).

// sheetValues is the form as typed: field name → text.
type sheetValues map[string]string

var handFields = []string{"base", "points", "total", "running_total"}
var writtenFields = []string{"total", "mp", "vp"}
var lineIDs = [2]string{"ns", "eo"}

// readSheetValues reads the sheet fields of a posted form.
func readSheetValues(r *http.Request) sheetValues {
	v := sheetValues{}
	for h := 0; h < app.MaxHands; h++ {
		for _, l := range lineIDs {
			for _, f := range handFields {
				name := fmt.Sprintf("hands.%d.%s.%s", h, l, f)
				v[name] = strings.TrimSpace(r.PostFormValue(name))
			}
		}
		name := fmt.Sprintf("hands.%d.end", h)
		v[name] = strings.TrimSpace(r.PostFormValue(name))
	}
	for _, l := range lineIDs {
		for _, f := range writtenFields {
			name := "written." + l + "." + f
			v[name] = strings.TrimSpace(r.PostFormValue(name))
		}
	}
	return v
}

// sheetValuesOf is a stored sheet as the form shows it.
func sheetValuesOf(sh domain.Sheet) sheetValues {
	v := sheetValues{}
	opt := func(p *int) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(*p)
	}
	for h, hand := range sh.Hands {
		for li, l := range lineIDs {
			ls := hand.Lines[li]
			v[fmt.Sprintf("hands.%d.%s.base", h, l)] = strconv.Itoa(ls.Base)
			v[fmt.Sprintf("hands.%d.%s.points", h, l)] = strconv.Itoa(ls.Points)
			v[fmt.Sprintf("hands.%d.%s.total", h, l)] = opt(ls.Total)
			v[fmt.Sprintf("hands.%d.%s.running_total", h, l)] = opt(ls.RunningTotal)
		}
		v[fmt.Sprintf("hands.%d.end", h)] = string(hand.End)
	}
	for li, l := range lineIDs {
		w := sh.Written[li]
		v["written."+l+".total"], v["written."+l+".mp"], v["written."+l+".vp"] = opt(w.Total), opt(w.MP), opt(w.VP)
	}
	return v
}

// sheetParts turns the typed values into hands and the written result.
// A hand counts up to the last row with anything typed; in a counted hand
// base and points are required when strict (saving), and count as 0 while
// the person is still typing (the live report). Each unreadable field is named.
func (v sheetValues) sheetParts(lang Lang, planned int, strict bool) ([]domain.Hand, [2]domain.WrittenResult, fieldErrors) {
	errs := fieldErrors{}
	num := func(name string, required bool) *int {
		s := v[name]
		if s == "" {
			if required && strict {
				errs[name] = translate(lang, "form.required")
			}
			return nil
		}
		n, err := form.Score(s)
		switch {
		case errors.Is(err, form.ErrScoreRange):
			errs[name] = translate(lang, "form.score_range")
			return nil
		case err != nil:
			errs[name] = translate(lang, "secretary.whole_number")
			return nil
		}
		return &n
	}
	last := -1
	for h := 0; h < max(planned, 1) && h < app.MaxHands; h++ {
		for k, s := range v {
			if s != "" && strings.HasPrefix(k, fmt.Sprintf("hands.%d.", h)) {
				last = h
			}
		}
	}
	var hands []domain.Hand
	for h := 0; h <= last; h++ {
		var hand domain.Hand
		for li, l := range lineIDs {
			at := fmt.Sprintf("hands.%d.%s.", h, l)
			ls := &hand.Lines[li]
			if b := num(at+"base", true); b != nil {
				ls.Base = *b
			}
			if p := num(at+"points", true); p != nil {
				ls.Points = *p
			}
			ls.Total = num(at+"total", false)
			ls.RunningTotal = num(at+"running_total", false)
		}
		name := fmt.Sprintf("hands.%d.end", h)
		end, ok := form.HandEnd(v[name])
		if !ok {
			errs[name] = translate(lang, "secretary.end_invalid")
		}
		hand.End = end
		hands = append(hands, hand)
	}
	var written [2]domain.WrittenResult
	for li, l := range lineIDs {
		at := "written." + l + "."
		written[li] = domain.WrittenResult{Total: num(at+"total", false), MP: num(at+"mp", false), VP: num(at+"vp", false)}
	}
	return hands, written, errs
}

// sheetOf is the sheet of the target from typed parts (API §4.1
// defaults: the tournament's ruleset, the round's hands, the seated ids).
func sheetOf(g app.SheetTarget, hands []domain.Hand, written [2]domain.WrittenResult) domain.Sheet {
	sh := g.EmptySheet()
	sh.Hands, sh.Written = hands, written
	return sh
}
