package main

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

const exportFixture = "../../exporters/workbook/testdata/tournament.json"

// exportWith returns the fixture export with its rounds' seating replaced.
func exportWith(t *testing.T, edit func(doc map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(exportFixture)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "export.json", out)
}

func setTables(doc map[string]any, round int, tables ...[2]string) {
	r := doc["rounds"].([]any)[round-1].(map[string]any)
	var ts []any
	for i, tb := range tables {
		ts = append(ts, map[string]any{"table": i + 1, "ns": tb[0], "eo": tb[1]})
	}
	r["tables"] = ts
}

// FITAB art. 2 "per sorteggio": the seed printed replays the draw.
func TestPairingsGenerateDrawReplays(t *testing.T) {
	code, out, errText := runCLI(t, "pairings", "generate", "--system", "draw", "--entrants", "9")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	m := regexp.MustCompile(`seed (\d+)\)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no seed in %q", out)
	}
	_, again, _ := runCLI(t, "pairings", "generate", "--system", "draw", "--entrants", "9", "--seed", m[1])
	if again != out {
		t.Errorf("seed %s does not replay:\n%s\nvs\n%s", m[1], out, again)
	}
	if !strings.Contains(out, "rest: ") || strings.Count(out, "table ") != 4 {
		t.Errorf("9 entrants: want 4 tables and one rest (FITAB art. 38), got\n%s", out)
	}
}

func TestPairingsGenerateJSON(t *testing.T) {
	code, out, errText := runCLI(t, "pairings", "generate", "--system", "entry_order", "--entrants", "4", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var got jsonPairedRound
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Number != 1 || got.System != "entry_order" || len(got.Tables) != 2 || got.Tables[0].NS != "1" || got.Tables[0].EO != "3" {
		t.Errorf("got %+v", got)
	}
	// individual: lines are arrays of two (API §4.2)
	_, out, _ = runCLI(t, "pairings", "generate", "--system", "draw", "--kind", "individual", "--entrants", "8", "--seed", "1", "--format", "json")
	var ind struct {
		Tables []struct {
			NS []string `json:"ns"`
			EO []string `json:"eo"`
		} `json:"tables"`
	}
	if err := json.Unmarshal([]byte(out), &ind); err != nil || len(ind.Tables) != 2 || len(ind.Tables[0].NS) != 2 {
		t.Errorf("individual json %s: %v", out, err)
	}
}

// FITAB art. 2 A: the next Danish round from an export's standings.
func TestPairingsGenerateFromExport(t *testing.T) {
	code, out, errText := runCLI(t, "pairings", "generate", "--from", exportFixture, "--round", "2", "--system", "danese", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var got jsonPairedRound
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Number != 2 || len(got.Tables) != 2 {
		t.Errorf("got %+v", got)
	}
}

// FITAB art. 2 C: the fixture's round 2 moves an NS line, a broken Mitchell.
func TestPairingsCheckFindsBrokenMitchell(t *testing.T) {
	code, out, _ := runCLI(t, "pairings", "check", "--format", "json", exportFixture)
	if code != exitFindings {
		t.Fatalf("exit %d, want 1:\n%s", code, out)
	}
	var got struct {
		Rounds []jsonRoundCheck `json:"rounds"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Rounds) != 2 || !got.Rounds[0].OK || got.Rounds[1].OK || got.Rounds[1].Problems[0].Code != "MOVEMENT_BROKEN" || got.Rounds[1].Problems[0].Table != 1 {
		t.Errorf("got %+v", got)
	}
}

func TestPairingsCheckValidMitchell(t *testing.T) {
	file := exportWith(t, func(doc map[string]any) { setTables(doc, 2, [2]string{"1", "4"}, [2]string{"3", "2"}) })
	code, out, errText := runCLI(t, "pairings", "check", "--round", "2", "--format", "json", file)
	if code != exitOK {
		t.Fatalf("exit %d: %s %s", code, out, errText)
	}
	want := `{"system":"mitchell","ok":true,"problems":[]}`
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(out)); err != nil {
		t.Fatal(err)
	}
	if compact.String() != want {
		t.Errorf("got %s, want %s (API §4.2)", compact.String(), want)
	}
	// Italian details, text output, flags after FILE.
	file = exportWith(t, func(doc map[string]any) { setTables(doc, 2, [2]string{"1", "1"}, [2]string{"3", "2"}) })
	code, out, _ = runCLI(t, "pairings", "check", file, "--lang", "it")
	if code != exitFindings || !strings.Contains(out, "ENTRANT_TWICE") || !strings.Contains(out, "compare due volte") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// API §3: bad usage and unreadable input exit 2 with a one-line reason.
func TestPairingsBadUsage(t *testing.T) {
	bad := writeFile(t, "bad.json", []byte(`{"format": "something-else"}`))
	broken := writeFile(t, "broken.json", []byte(`{"format": `))
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no subcommand", []string{"pairings"}, "generate or check"},
		{"unknown subcommand", []string{"pairings", "swap"}, "swap"},
		{"unknown system", []string{"pairings", "generate", "--system", "swiss", "--entrants", "4"}, "--system"},
		{"no entrants", []string{"pairings", "generate", "--system", "draw"}, "--entrants"},
		{"both sources", []string{"pairings", "generate", "--system", "draw", "--entrants", "4", "--from", exportFixture}, "not both"},
		{"bad seed", []string{"pairings", "generate", "--system", "draw", "--entrants", "4", "--seed", "-1"}, "--seed"},
		{"FITAB art. 2 B danese_modificato refused", []string{"pairings", "generate", "--from", exportFixture, "--round", "2", "--system", "danese_modificato"}, "FITAB art. 2"},
		{"missing file", []string{"pairings", "check", "/nonexistent.json"}, "nonexistent"},
		{"not an export", []string{"pairings", "check", bad}, "format"},
		{"broken json", []string{"pairings", "check", broken}, "not a tournament export"},
		{"round out of range", []string{"pairings", "check", "--round", "9", exportFixture}, "--round"},
		{"no file", []string{"pairings", "check"}, "no FILE"},
		{"bad format", []string{"pairings", "check", "--format", "xml", exportFixture}, "--format"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errText := runCLI(t, c.args...)
			if code != exitUsage || !strings.Contains(errText, c.want) || strings.Count(errText, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 2 and one line naming %q", code, errText, c.want)
			}
		})
	}
}

func TestPairingsHelpOnStdout(t *testing.T) {
	for _, args := range [][]string{{"pairings", "--help"}, {"pairings", "generate", "--help"}, {"pairings", "check", "-h"}} {
		code, out, errText := runCLI(t, args...)
		if code != exitOK || !strings.Contains(out, "segnapunti pairings generate") || errText != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errText)
		}
	}
	_, out, _ := runCLI(t, "--help")
	if !strings.Contains(out, "pairings") {
		t.Error("segnapunti --help does not list pairings")
	}
}
