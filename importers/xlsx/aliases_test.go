package xlsx

import (
	"fmt"
	"slices"
	"testing"

	"segnapunti/domain"
)

func TestAliasTablesHaveNoConflicts(t *testing.T) {
	if len(aliasConflicts) > 0 {
		t.Fatalf("aliases with two meanings: %v", aliasConflicts)
	}
}

// API §5: "headers are matched case-, accent- and punctuation-insensitively,
// in Italian or English". The headers named in API §5 and their spellings.
func TestHeaderAliases(t *testing.T) {
	cases := []struct {
		table  map[string]string
		header string
		want   string
	}{
		{handColumns, "Turno", "round"},
		{handColumns, "round", "round"},
		{handColumns, "TURNO", "round"},
		{handColumns, "Tavolo", "table"},
		{handColumns, "Table", "table"},
		{handColumns, "Smazzata", "hand"},
		{handColumns, "Hand", "hand"},
		{handColumns, "NS", "ns_id"},
		{handColumns, "N-S", "ns_id"},
		{handColumns, "Nord-Sud", "ns_id"},
		{handColumns, "NORD SUD", "ns_id"},
		{handColumns, "EO", "eo_id"},
		{handColumns, "E-O", "eo_id"},
		{handColumns, "Est-Ovest", "eo_id"},
		{handColumns, "E/W", "eo_id"},
		{handColumns, "ns_base", "ns_base"},
		{handColumns, "NS Base", "ns_base"},
		{handColumns, "Base N-S", "ns_base"},
		{handColumns, "ns_points", "ns_points"},
		{handColumns, "N-S Punti", "ns_points"},
		{handColumns, "NS punti", "ns_points"},
		{handColumns, "Punti NS", "ns_points"},
		{handColumns, "ns_total", "ns_total"},
		{handColumns, "NS Totale", "ns_total"},
		{handColumns, "N.S. Totale", "ns_total"},
		{handColumns, "eo_base", "eo_base"},
		{handColumns, "E-O Base", "eo_base"},
		{handColumns, "eo_points", "eo_points"},
		{handColumns, "EO Punti", "eo_points"},
		{handColumns, "Est-Ovest Punti", "eo_points"},
		{handColumns, "eo_total", "eo_total"},
		{handColumns, "EO Totale", "eo_total"},
		{handColumns, "NS Progressivo", "ns_running_total"},
		{handColumns, "Progressivo E-O", "eo_running_total"},
		{handColumns, "end", "end"},
		{handColumns, "Fine", "end"},
		{handColumns, "ns_closed", "ns_closed"},
		{handColumns, "NS Chiusura", "ns_closed"},
		{handColumns, "eo_closed", "eo_closed"},
		{handColumns, "ns_pozzetto", "ns_pozzetto"},
		{handColumns, "EO Pozzetto", "eo_pozzetto"},
		{handColumns, "ns_burrachi", "ns_burrachi"},
		{handColumns, "EO Burrachi", "eo_burrachi"},
		{handColumns, "NS Punti (carte)", "ns_points"},
		{handColumns, "  ns   TOTALE  ", "ns_total"},
		{resultColumns, "NS Totale", "ns_total"},
		{resultColumns, "ns_mp", "ns_mp"},
		{resultColumns, "EO MP", "eo_mp"},
		{resultColumns, "ns_vp", "ns_vp"},
		{resultColumns, "E-O VP", "eo_vp"},
		{resultColumns, "NS Ritardo", "ns_late_points"},
		{paperLabels, "Torneo", "tournament"},
		{paperLabels, "Coppia NS", "ns_id"},
		{paperLabels, "Coppia EO", "eo_id"},
		{paperLabels, "Giocatori NS", "ns_players"},
		{paperLabels, "Giocatori E-O", "eo_players"},
		{paperLabels, "NS", "ns_id"},
		{footerLabels, "Totale", "total"},
		{footerLabels, "MP (Differenza)", "mp"},
		{footerLabels, "Differenza", "mp"},
		{footerLabels, "MP", "mp"},
		{footerLabels, "VP", "vp"},
		{tournamentKeys, "ruleset", "ruleset"},
		{tournamentKeys, "Regolamento", "ruleset"},
		{tournamentKeys, "hands_planned", "hands_planned"},
		{tournamentKeys, "Smazzate previste", "hands_planned"},
		{tournamentKeys, "Nome", "name"},
		{tournamentKeys, "Livello", "level"},
		{sheetNames, "Hands", "hands"},
		{sheetNames, "SMAZZATE", "hands"},
		{sheetNames, "Risultati", "results"},
		{sheetNames, "Torneo", "tournament"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("API §5 %q is %s", c.header, c.want), func(t *testing.T) {
			if got, ok := lookup(c.table, c.header); !ok || got != c.want {
				t.Errorf("lookup(%q) = %q, %v; want %q", c.header, got, ok, c.want)
			}
		})
	}
	for _, h := range []string{"Note", "NS", "Totale", "Punti", "Base"} {
		if got, ok := lookup(resultColumns, h); ok && h != "NS" {
			t.Errorf("results header %q should not be recognised, got %q", h, got)
		}
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"N-S Punti": "nspunti", "ns_points": "nspoints", "Città": "citta", "PERCHÉ": "perche",
		"  Tot. ": "tot", "✓": "✓", "": "",
	} {
		if got := fold(in); got != want {
			t.Errorf("fold(%q) = %q, want %q", in, got, want)
		}
	}
}

// headerForms lists every header text the hand-column table accepts for a
// field, as written in aliases.go (with its spaces).
func headerForms(field string) []string {
	var out []string
	if ws, ok := plainWords[field]; ok {
		return append([]string{field}, ws...)
	}
	for _, l := range domain.Lines {
		for _, f := range []string{fID, fBase, fPoints, fTotal, fRunningTotal, fClosed, fPozzetto, fBurrachi} {
			if lineField(l, f) != field {
				continue
			}
			for _, lw := range lineWords[l] {
				for _, fw := range lineFieldWords[f] {
					out = append(out, lw+" "+fw, fw+" "+lw)
				}
			}
		}
	}
	return out
}

// Every alias of every hand column, in a workbook read end to end: the
// k-th workbook uses each field's k-th alias, until every alias is used.
func TestEveryHandHeaderAliasReads(t *testing.T) {
	fields := []string{fRound, fTable, fHand, "ns_id", "eo_id", "ns_base", "ns_points", "ns_total", "ns_running_total",
		"eo_base", "eo_points", "eo_total", "eo_running_total", fEnd, "ns_closed", "eo_closed",
		"ns_pozzetto", "eo_pozzetto", "ns_burrachi", "eo_burrachi"}
	row := map[string]any{fRound: 2, fTable: 5, fHand: 1, "ns_id": "12", "eo_id": "7",
		"ns_base": 300, "ns_points": 155, "ns_total": 455, "ns_running_total": 455,
		"eo_base": 100, "eo_points": 40, "eo_total": 140, "eo_running_total": 140,
		fEnd: "chiusura", "ns_closed": "sì", "eo_closed": "no",
		"ns_pozzetto": "preso", "eo_pozzetto": "preso", "ns_burrachi": "pulito 1", "eo_burrachi": "1 sporco"}
	most := 0
	forms := map[string][]string{}
	for _, f := range fields {
		forms[f] = headerForms(f)
		most = max(most, len(forms[f]))
	}
	for k := range most {
		var header, values []any
		for _, f := range fields {
			header = append(header, forms[f][k%len(forms[f])])
			values = append(values, row[f])
		}
		t.Run(fmt.Sprintf("API §5 header set %d", k), func(t *testing.T) {
			data := buildWorkbook(t, sheetSpec{"Hands", [][]any{header, values}})
			wb := mustRead(t, data, Options{Ruleset: domain.FITAB2025, HandsPlanned: 3})
			if len(wb.Ignored) > 0 {
				t.Fatalf("headers %v: not recognised: %v", header, wb.Ignored)
			}
			if len(wb.Matches) != 1 {
				t.Fatalf("headers %v: %d matches", header, len(wb.Matches))
			}
			sh := wb.Matches[0].Sheet
			h := sh.Hands[0]
			ns, eo := h.Lines[domain.NS], h.Lines[domain.EO]
			ok := sh.Round == 2 && sh.Table == 5 && sh.Sides[0].ID == "12" && sh.Sides[1].ID == "7" &&
				h.End == domain.EndClosed && ns.Base == 300 && ns.Points == 155 && *ns.Total == 455 && *ns.RunningTotal == 455 &&
				eo.Base == 100 && eo.Points == 40 && *eo.Total == 140 && *eo.RunningTotal == 140 &&
				*ns.Closed && !*eo.Closed && ns.Pozzetto == domain.PozzettoTaken && eo.Pozzetto == domain.PozzettoTaken &&
				ns.Burrachi[domain.Pulito] == 1 && eo.Burrachi[domain.Sporco] == 1
			if !ok {
				t.Errorf("headers %v read as %+v", header, sh)
			}
			if got := len(sh.Cells); got < len(fields) {
				t.Errorf("only %d cells recorded", got)
			}
		})
	}
}

func TestEveryResultHeaderAliasReads(t *testing.T) {
	type col struct {
		field string
		forms []string
		value int
	}
	var cols []col
	for _, f := range []string{fTotal, fMP, fVP} {
		for _, l := range domain.Lines {
			var forms []string
			for _, lw := range lineWords[l] {
				for _, fw := range lineFieldWords[f] {
					forms = append(forms, lw+" "+fw, fw+" "+lw)
				}
			}
			v := map[string]int{fTotal: 900, fMP: 300, fVP: 13}[f]
			if l == domain.EO {
				v = map[string]int{fTotal: 600, fMP: -300, fVP: 7}[f]
			}
			cols = append(cols, col{lineField(l, f), forms, v})
		}
	}
	most := slices.MaxFunc(cols, func(a, b col) int { return len(a.forms) - len(b.forms) })
	for k := range len(most.forms) {
		header := []any{plainWords[fRound][k%3], plainWords[fTable][k%4]}
		values := []any{1, 1}
		for _, c := range cols {
			header = append(header, c.forms[k%len(c.forms)])
			values = append(values, c.value)
		}
		t.Run(fmt.Sprintf("API §5 results header set %d", k), func(t *testing.T) {
			data := buildWorkbook(t,
				sheetSpec{"Smazzate", [][]any{{"Turno", "Tavolo", "NS Base", "NS Punti", "EO Base", "EO Punti"}, {1, 1, 600, 300, 400, 200}}},
				sheetSpec{"Results", [][]any{header, values}})
			wb := mustRead(t, data, Options{Ruleset: domain.FITAB2025, HandsPlanned: 2})
			w := wb.Matches[0].Sheet.Written
			if *w[0].Total != 900 || *w[0].MP != 300 || *w[0].VP != 13 || *w[1].Total != 600 || *w[1].MP != -300 || *w[1].VP != 7 || len(wb.Ignored) > 0 {
				t.Errorf("headers %v: written %+v %+v, ignored %v", header, w[0], w[1], wb.Ignored)
			}
		})
	}
}
