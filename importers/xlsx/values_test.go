package xlsx

import (
	"maps"
	"testing"

	"segnapunti/domain"
)

// API §5: ns_burrachi / eo_burrachi hold "text such as `pulito 1, sporco
// 2` or `2P 1S`"; the types are those of RULES §4.
func TestParseBurrachi(t *testing.T) {
	type bt = map[domain.BurracoType]int
	valid := []struct {
		text string
		want bt
	}{
		{"pulito 1, sporco 2", bt{domain.Pulito: 1, domain.Sporco: 2}},
		{"2P 1S", bt{domain.Pulito: 2, domain.Sporco: 1}},
		{"2P+1S", bt{domain.Pulito: 2, domain.Sporco: 1}},
		{"1 pulito, 2 sporchi", bt{domain.Pulito: 1, domain.Sporco: 2}},
		{"pulito 1 sporco 2", bt{domain.Pulito: 1, domain.Sporco: 2}},
		{"Pulito: 1; Sporco: 2", bt{domain.Pulito: 1, domain.Sporco: 2}},
		{"pulito", bt{domain.Pulito: 1}},
		{"pulito, sporco", bt{domain.Pulito: 1, domain.Sporco: 1}},
		{"pulito, pulito", bt{domain.Pulito: 2}},
		{"reale sporco 1, super 1, super_sporco 1", bt{domain.RealeSporco: 1, domain.Super: 1, domain.SuperSporco: 1}},
		{"1 reale, 1 semipulito", bt{domain.Reale: 1, domain.Semipulito: 1}},
		{"1SP 1RS 1R", bt{domain.Semipulito: 1, domain.RealeSporco: 1, domain.Reale: 1}},
		{"2 puliti", bt{domain.Pulito: 2}},
		{"1 clean 1 dirty", bt{domain.Pulito: 1, domain.Sporco: 1}},
		{"PULITO 1", bt{domain.Pulito: 1}},
		{"pulito 0, sporco 1", bt{domain.Sporco: 1}},
		{"0", bt{}},
		{"-", bt{}},
		{"nessuno", bt{}},
		{"none", bt{}},
	}
	for _, c := range valid {
		t.Run("RULES §4 reads "+c.text, func(t *testing.T) {
			got, err := parseBurrachi(c.text)
			if err != nil || got == nil || !maps.Equal(got, c.want) {
				t.Errorf("parseBurrachi(%q) = %v, %v; want %v", c.text, got, err, c.want)
			}
		})
	}
	if got, err := parseBurrachi(""); got != nil || err != nil {
		t.Errorf("an empty cell is not given (nil), got %v, %v", got, err)
	}
	for _, text := range []string{"pulitissimo 1", "2", "1 2 pulito", "pulito 1 2", "2P 1", "99 puliti", "pulito 9, pulito 9", "1 pulito!", "P 2 3"} {
		t.Run("RULES §4 rejects "+text, func(t *testing.T) {
			if got, err := parseBurrachi(text); err == nil {
				t.Errorf("parseBurrachi(%q) = %v, want an error", text, got)
			}
		})
	}
}

func TestParseHandEnd(t *testing.T) {
	for text, want := range map[string]domain.HandEnd{
		"closed": domain.EndClosed, "Chiusura": domain.EndClosed, "stock_exhausted": domain.EndStockExhausted,
		"Tallone esaurito": domain.EndStockExhausted, "time_out": domain.EndTimeOut, "Tempo scaduto": domain.EndTimeOut,
		"stall": domain.EndStall, "Stallo": domain.EndStall, "interrupted": domain.EndInterrupted, "Interrotta": domain.EndInterrupted,
		"": domain.EndUnknown,
	} {
		if got, err := parseHandEnd(text); err != nil || got != want {
			t.Errorf("parseHandEnd(%q) = %q, %v; want %q", text, got, err, want)
		}
	}
	if _, err := parseHandEnd("finita"); err == nil {
		t.Error("parseHandEnd(finita) should fail")
	}
}

func TestParsePozzettoAndClosed(t *testing.T) {
	for text, want := range map[string]domain.Pozzetto{
		"taken": domain.PozzettoTaken, "Preso": domain.PozzettoTaken, "not_taken": domain.PozzettoNotTaken,
		"non preso": domain.PozzettoNotTaken, "taken_not_played": domain.PozzettoTakenUnplay,
		"Preso non giocato": domain.PozzettoTakenUnplay, "": domain.PozzettoUnknown,
	} {
		if got, err := parsePozzetto(text); err != nil || got != want {
			t.Errorf("parsePozzetto(%q) = %q, %v; want %q", text, got, err, want)
		}
	}
	if _, err := parsePozzetto("forse"); err == nil {
		t.Error("parsePozzetto(forse) should fail")
	}
	for text, want := range map[string]bool{"sì": true, "Si": true, "yes": true, "X": true, "✓": true, "TRUE": true, "1": true,
		"no": false, "No": false, "false": false, "0": false} {
		if got, err := parseClosed(text); err != nil || got == nil || *got != want {
			t.Errorf("parseClosed(%q) = %v, %v; want %v", text, got, err, want)
		}
	}
	if got, err := parseClosed(""); got != nil || err != nil {
		t.Errorf("parseClosed(\"\") = %v, %v; want nil (not given)", got, err)
	}
	if _, err := parseClosed("forse"); err == nil {
		t.Error("parseClosed(forse) should fail")
	}
}

func TestTournamentValues(t *testing.T) {
	for text, want := range map[string]domain.Ruleset{"fitab-2025": domain.FITAB2025, "FITAB 2025": domain.FITAB2025,
		"fibur_int": domain.FIBurInt, "FIBur-ITA": domain.FIBurIta, "fitab-int": domain.FITABInt} {
		if got, err := parseRulesetCell(text); err != nil || got != want {
			t.Errorf("parseRulesetCell(%q) = %q, %v", text, got, err)
		}
	}
	// RULES §2: an unknown ruleset is an error, never a silent default.
	if _, err := parseRulesetCell("fitab"); err == nil {
		t.Error("parseRulesetCell(fitab) should fail")
	}
	for text, want := range map[string]domain.Level{"regional": domain.LevelRegional, "Regionale": domain.LevelRegional,
		"club": domain.LevelClub, "Nazionale": domain.LevelNational} {
		if got, err := parseLevelCell(text); err != nil || got != want {
			t.Errorf("parseLevelCell(%q) = %q, %v", text, got, err)
		}
	}
	if got, err := parseVPTableCell("FITAB 3"); err != nil || got.ID() != "fitab-3" {
		t.Errorf("parseVPTableCell(FITAB 3) = %v, %v", got, err)
	}
	// RULES §6.2: no fixed table, chosen per match — what the tournament
	// export writes as "automatica".
	for _, text := range []string{"automatica", "Automatica", "auto"} {
		if got, err := parseVPTableCell(text); err != nil || !got.IsZero() {
			t.Errorf("parseVPTableCell(%q) = %v, %v; want the zero table", text, got, err)
		}
	}
	if _, err := parseVPTableCell("automatico-3"); err == nil {
		t.Error("parseVPTableCell(automatico-3) should fail")
	}
	if got, err := parseKindCell("Squadre"); err != nil || got != domain.KindTeams {
		t.Errorf("parseKindCell(Squadre) = %v, %v", got, err)
	}
}

func TestSplitPlayers(t *testing.T) {
	got := splitPlayers(" Greco Roberto / De Luca Anna ")
	if len(got) != 2 || got[0] != "Greco Roberto" || got[1] != "De Luca Anna" {
		t.Errorf("splitPlayers = %q", got)
	}
}

func FuzzParseBurrachi(f *testing.F) {
	for _, s := range []string{"pulito 1, sporco 2", "2P 1S", "reale sporco", "0", "", "1 2 3", "P", "99P"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseBurrachi(s)
		if err != nil {
			return
		}
		for typ, n := range got {
			if n < 1 || n > maxBurrachiOfType {
				t.Fatalf("parseBurrachi(%q): %d of %s", s, n, typ)
			}
			if _, err := domain.ParseBurracoType(string(typ)); err != nil {
				t.Fatalf("parseBurrachi(%q): unknown type %q", s, typ)
			}
		}
	})
}
