package wasm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/importers/sheetjson"
)

// serverAnswer is what the server says of one sheet: exactly the path of
// POST /v1/validate and `segnapunti validate` (sheetjson.Decode,
// domain.Validate, reportjson.Marshal), or the decoder's refusal in the
// engine's {"error", "pointer"} shape.
func serverAnswer(body []byte, lang domain.Lang) (string, error) {
	sheets, _, err := sheetjson.Decode(body)
	var se *sheetjson.Error
	if errors.As(err, &se) {
		b, _ := json.Marshal(map[string]string{"error": se.Detail, "pointer": se.Pointer})
		return string(b), nil
	}
	if err != nil {
		return "", err
	}
	if len(sheets) != 1 {
		return "", fmt.Errorf("%d sheets in one line", len(sheets))
	}
	b, err := reportjson.Marshal(domain.Validate(sheets[0]), lang)
	return string(b), err
}

// corpusSheets are the sheets of the project's test corpora: every JSON
// object with "ruleset" and "hands" in examples/ and in the testdata of
// the importers and exporters (the LibreOffice fixtures' sheet_json, the
// API examples, the batches), compacted to one line each.
func corpusSheets(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v["ruleset"]; ok {
				if _, ok := v["hands"]; ok {
					b, err := json.Marshal(v)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, string(b))
					return
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	for _, dir := range []string{"examples", "importers", "exporters", "api", "web", "cmd", "domain"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(p, ".json") || (dir != "examples" && !strings.Contains(p, string(filepath.Separator)+"testdata"+string(filepath.Separator))) {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			var v any
			if json.Unmarshal(b, &v) == nil {
				walk(v)
			}
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}
	return out
}

// genSheet makes a sheet as a phone may send it: any ruleset, kind and
// number of hands, numbers that often add up and often do not, breakdowns,
// pozzetti, closings, ends, running totals and a bottom of the sheet now
// right, now wrong, now missing; now and then a value the decoder refuses.
func genSheet(r *rand.Rand, i int) map[string]any {
	pick := func(xs ...any) any { return xs[r.IntN(len(xs))] }
	chance := func(pct int) bool { return r.IntN(100) < pct }
	planned := 2 + r.IntN(3)
	s := map[string]any{
		"ruleset":       pick("fitab-2025", "fitab-2025", "fitab-int", "fibur-ita", "fibur-int"),
		"hands_planned": planned,
		"round":         1 + i%6, "table": 1 + i%30,
		"ns": map[string]any{"id": fmt.Sprint(1 + r.IntN(40))},
		"eo": map[string]any{"id": fmt.Sprint(41 + r.IntN(40))},
	}
	if chance(30) {
		s["kind"] = pick("pairs", "individual", "teams", "international")
	}
	if chance(10) {
		s["vp_table"] = pick("fitab-2", "fitab-3", "fitab-4", "fibur-2", "fibur-3", "fibur-teams", "nope")
	}
	if chance(20) {
		s["first_dealer"] = pick("n", "e", "s", "o")
	}
	if chance(8) {
		s["late_points"] = map[string]any{"ns": 5 * r.IntN(40), "eo": 0}
	}
	n := 1 + r.IntN(planned)
	if chance(3) {
		n = planned + 1
	}
	var run [2]int
	var hands []any
	for h := 0; h < n; h++ {
		hand := map[string]any{}
		if chance(85) {
			hand["end"] = pick("closed", "closed", "closed", "stock_exhausted", "time_out", "stall", "interrupted")
		}
		if chance(3) {
			hand["lost_count"] = true
		}
		closer := r.IntN(2)
		for l, name := range []string{"ns", "eo"} {
			line := map[string]any{}
			pulito, sporco := r.IntN(3), r.IntN(3)
			base := 200*pulito + 100*sporco
			if l == closer && hand["end"] == "closed" {
				base += 100
			}
			if chance(10) {
				base += 5 * (r.IntN(41) - 20)
			}
			points := 5 * (r.IntN(120) - 40)
			total := base + points
			if chance(15) {
				total += pick(10, -10, 100, 50, -5).(int)
			}
			run[l] += total
			line["base"], line["points"] = base, points
			if chance(80) {
				line["total"] = total
			}
			if chance(40) {
				rt := run[l]
				if chance(10) {
					rt += 20
				}
				line["running_total"] = rt
			}
			if chance(40) {
				b := map[string]any{}
				if pulito > 0 {
					b["pulito"] = pulito
				}
				if sporco > 0 {
					b["sporco"] = sporco
				}
				if chance(10) {
					b[pick("reale", "super", "semipulito", "reale_sporco", "super_sporco").(string)] = 1
				}
				line["burrachi"] = b
			}
			if chance(40) {
				line["closed"] = l == closer
			}
			if chance(40) {
				line["pozzetto"] = pick("taken", "not_taken", "taken_not_played")
			}
			if chance(25) {
				// points = table_points - hand_points, both 0 or more
				// (FITAB art. 18); now and then a split that does not add up.
				hp := 5 * r.IntN(30)
				tp := points + hp
				if tp < 0 {
					tp, hp = 0, -points
				}
				if chance(10) {
					tp += 5
				}
				line["table_points"], line["hand_points"] = tp, hp
			}
			if chance(5) {
				line["penalty_points"] = 5 * r.IntN(10)
			}
			if chance(3) {
				line["pozzetto_unplayed_points"] = 5 * r.IntN(20)
			}
			if chance(1) {
				line["base"] = "trecento" // refused by the decoder: both must say so alike
			}
			hand[name] = line
		}
		hands = append(hands, hand)
	}
	s["hands"] = hands
	if chance(50) {
		diff := run[0] - run[1]
		w := func(total, mp, vp int) map[string]any {
			m := map[string]any{"total": total}
			if chance(80) {
				m["mp"] = mp
			}
			if chance(70) {
				m["vp"] = vp
			}
			return m
		}
		vp := 10 + r.IntN(11)
		s["written"] = map[string]any{"ns": w(run[0], diff, vp), "eo": w(run[1]+pick(0, 0, 0, 10).(int), -diff, 20-vp)}
	}
	return s
}

// runEngine checks each line of sheets with the committed engine under
// Node, in one process per language (the languages run side by side).
func runEngine(t *testing.T, sheets []string, langs ...domain.Lang) map[domain.Lang][]string {
	t.Helper()
	dir := t.TempDir()
	plain, err := Plain()
	if err != nil {
		t.Fatal(err)
	}
	engine, in := filepath.Join(dir, "engine.wasm"), filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(engine, plain, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, []byte(strings.Join(sheets, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "check_lines.js"))
	if err != nil {
		t.Fatal(err)
	}
	wasmExec := filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js")
	node := nodePath(t)
	errs := make(chan error, len(langs))
	for _, lang := range langs {
		go func() {
			out := filepath.Join(dir, string(lang)+".jsonl")
			if msg, err := exec.Command(node, script, wasmExec, engine, in, out, string(lang)).CombinedOutput(); err != nil {
				errs <- fmt.Errorf("node (%s): %v: %s", lang, err, msg)
				return
			}
			errs <- nil
		}()
	}
	for range langs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	answers := map[domain.Lang][]string{}
	for _, lang := range langs {
		b, err := os.ReadFile(filepath.Join(dir, string(lang)+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if len(got) != len(sheets) {
			t.Fatalf("the engine answered %d lines for %d sheets (%s)", len(got), len(sheets), lang)
		}
		answers[lang] = got
	}
	return answers
}

func nodePath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the engine cannot be run outside a browser")
	}
	return p
}

// finding is what parity compares of a finding (code, severity,
// line, hand, pointer, and the words).
type finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Line     string `json:"line"`
	Hand     int    `json:"hand"`
	Pointer  string `json:"pointer"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
}

type answer struct {
	Findings []finding `json:"findings"`
	Error    string    `json:"error"`
}

// TestEngineParity: the engine the phone
// runs and the server give the same report, byte for byte, in Italian and
// in English, for every sheet of the test corpora and 10,000 generated
// sheets: 0 differences.
func TestEngineParity(t *testing.T) {
	nodePath(t)
	root := moduleRoot(t)
	corpus := corpusSheets(t, root)
	if len(corpus) < 20 {
		t.Fatalf("only %d corpus sheets found: the corpus walk is broken", len(corpus))
	}
	sheets := append([]string(nil), corpus...)
	r := rand.New(rand.NewPCG(24, 2026))
	for i := 0; i < 10000; i++ {
		b, err := json.Marshal(genSheet(r, i))
		if err != nil {
			t.Fatal(err)
		}
		sheets = append(sheets, string(b))
	}
	start := time.Now()
	answers := runEngine(t, sheets, domain.Italian, domain.English)
	t.Logf("the engine under Node checked %d sheets in each language in %v", len(sheets), time.Since(start).Round(time.Millisecond))
	for _, lang := range []domain.Lang{domain.Italian, domain.English} {
		start := time.Now()
		got := answers[lang]
		diffs, refused, findings := 0, 0, 0
		codes := map[string]int{}
		for i, sheet := range sheets {
			want, err := serverAnswer([]byte(sheet), lang)
			if err != nil {
				t.Fatalf("sheet %d: server: %v", i, err)
			}
			var g, w answer
			if err := json.Unmarshal([]byte(got[i]), &g); err != nil {
				t.Fatalf("sheet %d: the engine's answer is not JSON: %v: %s", i, err, got[i])
			}
			if err := json.Unmarshal([]byte(want), &w); err != nil {
				t.Fatal(err)
			}
			if w.Error != "" {
				refused++
			}
			findings += len(w.Findings)
			for _, f := range w.Findings {
				codes[f.Code]++
			}
			if got[i] != want || fmt.Sprint(g) != fmt.Sprint(w) {
				diffs++
				if diffs <= 5 {
					t.Errorf("%s, sheet %d differs:\nsheet:  %s\nengine: %s\nserver: %s", lang, i, sheet, got[i], want)
				}
			}
		}
		t.Logf("%s: server side and comparison %v", lang, time.Since(start).Round(time.Millisecond))
		t.Logf("%s: %d sheets (%d from the corpora), %d refused by the decoder, %d findings of %d codes: %d differences",
			lang, len(sheets), len(corpus), refused, findings, len(codes), diffs)
		if diffs > 0 {
			t.Errorf("%s: %d differences between the engine and the server", lang, diffs)
		}
		if findings == 0 || len(codes) < 10 {
			t.Errorf("%s: the sheets raise %d findings of %d codes: the generator checks too little", lang, findings, len(codes))
		}
	}
}
