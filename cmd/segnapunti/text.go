package main

import (
	"fmt"
	"io"
	"strings"

	"segnapunti/domain"
)

// textSink prints reports for a referee at a desk: per sheet the hands as
// computed, then one line per finding with hand, line, written → expected
// and the article.
type textSink struct {
	w     io.Writer
	lang  domain.Lang
	count int
}

// words holds the few labels of the text report in both languages.
type words struct {
	hand, base, points, total, running, final, round, table, hands, planned, vpTable string
	error, warning, info, ok                                                         string
}

var labels = map[domain.Lang]words{
	domain.English: {"hand", "base", "points", "total", "running", "final", "round", "table", "hands", "planned", "VP table",
		"error(s)", "warning(s)", "info", "no errors"},
	domain.Italian: {"smazz.", "base", "punti", "totale", "progr.", "finale", "turno", "tavolo", "smazzate", "previste", "tabella VP",
		"errore/i", "avviso/i", "info", "nessun errore"},
}

func (t *textSink) add(v validated) error {
	w := labels[t.lang]
	s, r := v.sheet, v.report
	var b strings.Builder
	if t.count > 0 {
		b.WriteByte('\n')
	}
	t.count++
	fmt.Fprintf(&b, "== %s", v.where())
	if s.Tournament != "" {
		fmt.Fprintf(&b, " — %s", s.Tournament)
	}
	if s.Round > 0 {
		fmt.Fprintf(&b, ", %s %d", w.round, s.Round)
	}
	if s.Table > 0 {
		fmt.Fprintf(&b, ", %s %d", w.table, s.Table)
	}
	fmt.Fprintf(&b, "\n   %s, %d %s %s, %s %s\n", s.Ruleset, s.HandsPlanned, w.hands, w.planned, w.vpTable, r.VPTable.ID())
	for _, l := range domain.Lines {
		side := s.Sides[l]
		if side.ID != "" || len(side.Players) > 0 {
			fmt.Fprintf(&b, "   %s %s %s\n", l.Label(), side.ID, strings.Join(side.Players, " / "))
		}
	}
	fmt.Fprintf(&b, "   %6s | NS %6s %7s %7s %8s | EO %6s %7s %7s %8s\n", w.hand, w.base, w.points, w.total, w.running, w.base, w.points, w.total, w.running)
	for i, h := range s.Hands {
		c := r.Computed.Hands[i]
		fmt.Fprintf(&b, "   %6d |    %6d %7d %7d %8d |    %6d %7d %7d %8d\n", i+1,
			h.Lines[domain.NS].Base, h.Lines[domain.NS].Points, c.Total[domain.NS], c.RunningTotal[domain.NS],
			h.Lines[domain.EO].Base, h.Lines[domain.EO].Points, c.Total[domain.EO], c.RunningTotal[domain.EO])
	}
	ns, eo := r.Computed.Lines[domain.NS], r.Computed.Lines[domain.EO]
	fmt.Fprintf(&b, "   %6s | NS %d  MP %+d  VP %d | EO %d  MP %+d  VP %d\n", w.final, ns.Total, ns.MP, ns.VP, eo.Total, eo.MP, eo.VP)
	for _, f := range r.Findings {
		b.WriteString("   ")
		b.WriteString(t.findingLine(f, w))
		b.WriteByte('\n')
	}
	e, wn, in := r.Count(domain.SeverityError), r.Count(domain.SeverityWarning), r.Count(domain.SeverityInfo)
	if e == 0 {
		fmt.Fprintf(&b, "   → %s (%d %s, %d %s)\n", w.ok, wn, w.warning, in, w.info)
	} else {
		fmt.Fprintf(&b, "   → %d %s, %d %s, %d %s\n", e, w.error, wn, w.warning, in, w.info)
	}
	_, err := io.WriteString(t.w, b.String())
	return err
}

// severities and fieldsIT name a finding's severity and field in the text
// report; a field not listed here is printed as the API spells it.
var severities = map[domain.Lang]map[domain.Severity]string{
	domain.English: {domain.SeverityError: "ERROR", domain.SeverityWarning: "warning", domain.SeverityInfo: "info"},
	domain.Italian: {domain.SeverityError: "ERRORE", domain.SeverityWarning: "avviso", domain.SeverityInfo: "info"},
}

var fieldsIT = map[string]string{
	"base":                "base",
	"points":              "punti",
	"total":               "totale",
	"running_total":       "progressivo",
	"hands":               "smazzate",
	"late_points":         "punti ritardo",
	"vp":                  "VP",
	"mp":                  "MP",
	"burrachi":            "burraci",
	"pozzetto":            "pozzetto",
	"closed":              "chiusura",
	"end":                 "fine smazzata",
	"table_points":        "punti al tavolo",
	"hand_points":         "punti in mano",
	"error_round":         "turno dell'errore",
	"current_round":       "turno in corso",
	"positions_published": "posizioni pubblicate",
	"standings_published": "classifica pubblicata",
}

// fieldLabel is a finding's field in the report's language.
func fieldLabel(field string, lang domain.Lang) string {
	if lang == domain.Italian {
		if it, ok := fieldsIT[field]; ok {
			return it
		}
	}
	return field
}

func (t *textSink) findingLine(f domain.Finding, w words) string {
	sev := severities[t.lang][f.Severity]
	var where []string
	if f.Hand > 0 {
		where = append(where, fmt.Sprintf("%s %d", w.hand, f.Hand))
	}
	if f.Line != nil {
		where = append(where, f.Line.Label())
	}
	if f.Field != "" {
		where = append(where, fieldLabel(f.Field, t.lang))
	}
	if f.Written != nil {
		if f.Expected != nil {
			where = append(where, fmt.Sprintf("%d → %d", *f.Written, *f.Expected))
		} else {
			where = append(where, fmt.Sprint(*f.Written))
		}
	}
	if f.Cell != "" {
		where = append(where, "["+f.Cell+"]")
	}
	return fmt.Sprintf("%-7s %-28s %s  (%s)  %s", sev, strings.Join(where, " "), f.Code, f.Rule, f.Message(t.lang))
}

func (t *textSink) close() error { return nil }
