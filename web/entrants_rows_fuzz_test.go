package web

import (
	"strings"
	"testing"
)

// FuzzPastedEntrants: whatever is pasted into the entrants page, the
// reader never panics; what it accepts is at most maxEntrantRows rows,
// each naming the line of the paste it came from, with its cells trimmed.
func FuzzPastedEntrants(f *testing.F) {
	f.Add("1;Rossi Anna;123;Bianchi Luca;456\n2;Verdi Carla;789;Neri Paolo;012")
	f.Add("Numero\tNome\tTessera\n7\tGallo Rita\tFT-1\t\tConti Ugo\t\n")
	f.Add("Rossi Anna; 123\r\n\r\nBianchi Luca;;;\n;;")
	f.Add("\xff\xfe;\x00;A7")
	f.Fuzz(func(t *testing.T, text string) {
		pasted := splitPasted(text)
		lines := len(pasted)
		rows, err := parseEntrantCells(pasted)
		if err != nil {
			return
		}
		if len(rows) > maxEntrantRows {
			t.Fatalf("%d rows accepted", len(rows))
		}
		for _, r := range rows {
			if r.Line < 1 || r.Line > lines {
				t.Fatalf("row of line %d, the paste has %d lines", r.Line, lines)
			}
			for _, p := range r.Input.Players {
				if p.Name != strings.TrimSpace(p.Name) || p.Membership != strings.TrimSpace(p.Membership) {
					t.Fatalf("untrimmed cell in %+v", p)
				}
			}
			if r.Input.ID != "" && !isEntrantNumber(r.Input.ID) {
				t.Fatalf("number %q accepted", r.Input.ID)
			}
		}
	})
}
