package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

var updateSame = flag.Bool("update-same", false, "rewrite testdata/validate_same.txt from this code's output")

// TestValidateOutputUnchanged: `segnapunti validate` prints, byte for byte,
// what the code before the CPU work of issue 26 printed (main at 040609c:
// testdata/validate_same.txt holds the SHA-256 of each output and its exit
// status, made with -update-same on that commit), on the examples, the
// decoder's fixtures and 3,000 generated sheets with findings of every
// kind, in JSON and text, English and Italian, one file and several.
func TestValidateOutputUnchanged(t *testing.T) {
	gen := filepath.Join(t.TempDir(), "generated.json")
	if err := writeVariedBatch(gen, 3000); err != nil {
		t.Fatal(err)
	}
	lone := filepath.Join(t.TempDir(), "lone.json")
	if err := writeVariedBatch(lone, 1); err != nil { // one sheet, not a batch
		t.Fatal(err)
	}
	inputs := map[string][]string{
		"clean":     {"../../examples/clean.json"},
		"sum_error": {"../../examples/sum_error.json"},
		"inverted":  {"../../examples/inverted_vp.json"},
		"batch":     {"../../examples/batch.json"},
		"workbook":  {"../../examples/round1.xlsx"},
		"fixtures":  {"../../importers/sheetjson/testdata/fixtures_batch.json"},
		"generated": {gen},
		"lone":      {lone},
		"several":   {"../../examples/clean.json", gen, "../../examples/sum_error.json"},
	}
	var got strings.Builder
	for _, name := range []string{"clean", "sum_error", "inverted", "batch", "workbook", "fixtures", "generated", "lone", "several"} {
		for _, format := range []string{"json", "text"} {
			for _, lang := range []string{"en", "it"} {
				args := append([]string{"validate", "--format", format, "--lang", lang}, inputs[name]...)
				var stdout, stderr bytes.Buffer
				code := run(context.Background(), args, func(string) string { return "" }, strings.NewReader(""), &stdout, &stderr)
				// Temporary paths differ between runs: the output names them
				// by their base name.
				out := bytes.ReplaceAll(stdout.Bytes(), []byte(filepath.Dir(gen)+"/"), nil)
				out = bytes.ReplaceAll(out, []byte(filepath.Dir(lone)+"/"), nil)
				fmt.Fprintf(&got, "%s %s %s exit %d %x\n", name, format, lang, code, sha256.Sum256(out))
			}
		}
	}
	path := filepath.Join("testdata", "validate_same.txt")
	if *updateSame {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("the output changed:\ngot\n%swant\n%s", got.String(), want)
	}
}

// writeVariedBatch writes n sheets (a batch, or the sheet alone when n is
// 1) made from the clean example with figures moved at random, so that
// every hand and match finding turns up, always within what the decoder
// accepts.
func writeVariedBatch(path string, n int) error {
	example, err := os.ReadFile("../../examples/clean.json")
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(26, 2026))
	pick := func(s ...any) any { return s[r.IntN(len(s))] }
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	if n > 1 {
		w.WriteString(`{"sheets": [`)
	}
	for i := range n {
		var sheet map[string]any
		if err := json.Unmarshal(example, &sheet); err != nil {
			return err
		}
		sheet["ruleset"] = pick("fitab-2025", "fitab-int", "fibur-ita", "fibur-int")
		sheet["hands_planned"] = pick(2, 3, 4)
		sheet["table"] = i%500 + 1
		if r.IntN(4) == 0 {
			sheet["late_points"] = map[string]any{"ns": pick(0, 100, 150, 50), "eo": 0}
		}
		hands := sheet["hands"].([]any)
		if r.IntN(5) == 0 {
			hands = hands[:1+r.IntN(len(hands))]
			sheet["hands"] = hands
		}
		for _, h := range hands {
			hand := h.(map[string]any)
			if r.IntN(4) == 0 {
				hand["end"] = pick("closed", "stock_exhausted", "time_out", "stall", "interrupted", "")
			}
			for _, side := range []string{"ns", "eo"} {
				line := hand[side].(map[string]any)
				move := func(key string, by ...any) {
					if v, ok := line[key].(float64); ok && r.IntN(3) == 0 {
						line[key] = v + float64(pick(by...).(int))
					}
				}
				move("base", 5, -5, 100, -100, 50, 200, 1000)
				move("points", 5, -5, 100, -100, 3, 900)
				move("total", 5, -5, 100)
				move("running_total", 5, -10, 100)
				move("table_points", 5, -5, 100)
				move("hand_points", 5, 100)
				if r.IntN(6) == 0 {
					line["burrachi"] = map[string]any{string(pick("pulito", "sporco", "semipulito", "reale", "super").(string)): pick(1, 2, 3)}
				}
				if r.IntN(6) == 0 {
					line["closed"] = pick(true, false)
				}
				if r.IntN(6) == 0 {
					line["pozzetto"] = pick("taken", "not_taken", "taken_not_played")
				}
				if r.IntN(8) == 0 {
					delete(line, "total")
				}
			}
		}
		if wr, ok := sheet["written"].(map[string]any); ok && r.IntN(3) == 0 {
			for _, side := range []string{"ns", "eo"} {
				if res, ok := wr[side].(map[string]any); ok {
					res["vp"] = pick(0, 5, 10, 15, 20, 11)
					res["mp"] = pick(-200, 0, 515, -515, 40)
				}
			}
		}
		b, err := json.Marshal(sheet)
		if err != nil {
			return err
		}
		if i > 0 {
			w.WriteString(",\n")
		}
		w.Write(b)
	}
	if n > 1 {
		w.WriteString("]}\n")
	}
	return w.Flush()
}

// TestValidateGCPace: a JSON file streams at jsonGCPercent unless GOGC is
// set, and the pace is given back afterwards (the benchmarks run the CLI
// in the same process as their baseline).
func TestValidateGCPace(t *testing.T) {
	before := debug.SetGCPercent(123)
	defer debug.SetGCPercent(before)
	for _, tc := range []struct {
		pace bool
		want int
	}{{true, jsonGCPercent}, {false, 123}} {
		var during int
		err := readSheets("../../examples/clean.json", tc.pace, func(validated) error {
			during = debug.SetGCPercent(0) // read it, then put it back
			debug.SetGCPercent(during)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if during != tc.want {
			t.Errorf("pace %v: GOGC %d while reading, want %d", tc.pace, during, tc.want)
		}
		if after := debug.SetGCPercent(123); after != 123 {
			t.Errorf("pace %v: GOGC %d after reading, want 123 back", tc.pace, after)
		}
	}
	var out strings.Builder
	env := func(k string) string {
		if k == "GOGC" {
			return "200"
		}
		return ""
	}
	if code := run(context.Background(), []string{"validate", "../../examples/clean.json"}, env, strings.NewReader(""), &out, &out); code != exitOK {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	if after := debug.SetGCPercent(123); after != 123 {
		t.Errorf("GOGC %d after a run, want 123 back", after)
	}
}
