package reportjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"segnapunti/domain"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

func vpTable(t testing.TB, id string) domain.VPTable {
	t.Helper()
	v, err := domain.ParseVPTable(id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func line(l domain.Line) *domain.Line { return &l }

// apiReport is the report of the API §2 example.
func apiReport(t testing.TB) domain.Report {
	return domain.Report{
		Ruleset: domain.FITAB2025,
		VPTable: vpTable(t, "fitab-3"),
		Computed: domain.Computed{
			Hands: []domain.ComputedHand{{Total: [2]int{535, -20}, RunningTotal: [2]int{535, -20}}},
			Lines: [2]domain.LineResult{{Total: 1450, MP: 300, VP: 13}, {Total: 1150, MP: -300, VP: 7}},
		},
		Findings: []domain.Finding{{
			Code: domain.HandTotalMismatch, Severity: domain.SeverityError, Hand: 2, Line: line(domain.NS),
			Field: "total", Written: domain.Int(650), Expected: domain.Int(500), Rule: "FITAB art. 20",
			Pointer: "/hands/1/ns/total", Cell: "Score!D7",
			MessageEN: "hand 2, NS: 400 + 100 is 500, not 650",
			MessageIT: "smazzata 2, NS: 400 + 100 fa 500, non 650",
		}},
	}
}

// TestAPIExample: the report of API §2, written out from the document.
func TestAPIExample(t *testing.T) {
	want := `{"ok":false,"ruleset":"fitab-2025","vp_table":"fitab-3",` +
		`"computed":{"hands":[{"ns":{"total":535,"running_total":535},"eo":{"total":-20,"running_total":-20}}],` +
		`"ns":{"total":1450,"mp":300,"vp":13},"eo":{"total":1150,"mp":-300,"vp":7}},` +
		`"findings":[{"code":"HAND_TOTAL_MISMATCH","severity":"error","hand":2,"line":"ns",` +
		`"field":"total","written":650,"expected":500,"rule":"FITAB art. 20","message":"hand 2, NS: 400 + 100 is 500, not 650",` +
		`"pointer":"/hands/1/ns/total","cell":"Score!D7"}],"counts":{"error":1,"warning":0,"info":0}}`
	got, err := Marshal(apiReport(t), domain.English)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, apiReport(t), domain.English); err != nil || buf.String() != want+"\n" {
		t.Errorf("Encode wrote %q, %v", buf.String(), err)
	}
}

func TestOptionalFields(t *testing.T) {
	tests := []struct {
		name    string
		finding domain.Finding
		lang    domain.Lang
		want    string
	}{
		{"API §2 match-level finding: no hand, no line, no written, no cell",
			domain.Finding{Code: domain.VPSumNot20, Severity: domain.SeverityError, Field: "vp", Rule: "FITAB art. 18", MessageEN: "VP add up to 19, not 20"},
			domain.English,
			`{"code":"VP_SUM_NOT_20","severity":"error","field":"vp","rule":"FITAB art. 18","message":"VP add up to 19, not 20"}`},
		{"API §2 written 0 and expected 0 are values, not absent",
			domain.Finding{Code: domain.MPMismatch, Severity: domain.SeverityError, Line: line(domain.EO), Field: "mp", Written: domain.Int(0), Expected: domain.Int(0), Rule: "r", MessageEN: "m"},
			domain.English,
			`{"code":"MP_MISMATCH","severity":"error","line":"eo","field":"mp","written":0,"expected":0,"rule":"r","message":"m"}`},
		{"RULES §5.1 message in Italian when asked",
			domain.Finding{Code: domain.UnverifiableBreakdown, Severity: domain.SeverityInfo, Hand: 1, Field: "base", Rule: "FITAB art. 18", MessageEN: "several readings", MessageIT: "più letture"},
			domain.Italian,
			`{"code":"UNVERIFIABLE_BREAKDOWN","severity":"info","hand":1,"field":"base","rule":"FITAB art. 18","message":"più letture"}`},
		{"English when the Italian message is missing",
			domain.Finding{Code: domain.PozzettoInBase, Severity: domain.SeverityWarning, Hand: 3, Line: line(domain.NS), Field: "base", Rule: "LUG", MessageEN: "pozzetto in base"},
			domain.Italian,
			`{"code":"POZZETTO_IN_BASE","severity":"warning","hand":3,"line":"ns","field":"base","rule":"LUG","message":"pozzetto in base"}`},
		{"API §2 pointer (added 2026-11-24): the JSON pointer of the field, hands 0-based",
			domain.Finding{Code: domain.LatePointsInvalid, Severity: domain.SeverityError, Line: line(domain.NS), Field: "late_points", Written: domain.Int(50), Rule: "FITAB art. 38", MessageEN: "m", Pointer: "/late_points/ns"},
			domain.English,
			`{"code":"LATE_POINTS_INVALID","severity":"error","line":"ns","field":"late_points","written":50,"rule":"FITAB art. 38","message":"m","pointer":"/late_points/ns"}`},
		{"text is escaped as JSON, HTML is not",
			domain.Finding{Code: "X", Severity: domain.SeverityInfo, Field: "f", Rule: `"r"`, MessageEN: "a\\b\n\t<&>\u2028\x01 é", Cell: "Smazzate!K12"},
			domain.English,
			"{\"code\":\"X\",\"severity\":\"info\",\"field\":\"f\",\"rule\":\"\\\"r\\\"\",\"message\":\"a\\\\b\\n\\t<&>\u2028\\u0001 é\",\"cell\":\"Smazzate!K12\"}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := string(appendFinding(nil, nil, tc.finding, tc.lang))
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if !json.Valid([]byte(got)) {
				t.Errorf("not valid JSON")
			}
		})
	}
}

// TestOKAndCounts: API §2 "ok": true iff no finding has severity error;
// counts by severity; findings is [] (never null) when there is none.
func TestOKAndCounts(t *testing.T) {
	f := func(s domain.Severity) domain.Finding {
		return domain.Finding{Code: "C", Severity: s, Field: "f", Rule: "r", MessageEN: "m"}
	}
	tests := []struct {
		name     string
		findings []domain.Finding
		ok       bool
		counts   Counts
	}{
		{"no finding", nil, true, Counts{}},
		{"warnings and infos only", []domain.Finding{f(domain.SeverityWarning), f(domain.SeverityInfo), f(domain.SeverityInfo)}, true, Counts{Warning: 1, Info: 2}},
		{"one error among others", []domain.Finding{f(domain.SeverityInfo), f(domain.SeverityError), f(domain.SeverityError)}, false, Counts{Error: 2, Info: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := domain.Report{Ruleset: domain.FIBurInt, VPTable: vpTable(t, "fibur-4"), Findings: tc.findings}
			data, err := Marshal(r, domain.English)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if got.OK != tc.ok || got.Counts != tc.counts || got.OK != r.OK() {
				t.Errorf("ok=%v counts=%+v, want ok=%v counts=%+v", got.OK, got.Counts, tc.ok, tc.counts)
			}
			if got.Findings == nil || len(got.Findings) != len(tc.findings) || got.Computed.Hands == nil {
				t.Errorf("findings %v, hands %v: want arrays, never null", got.Findings, got.Computed.Hands)
			}
			if !bytes.Contains(data, []byte(`"hands":[]`)) && len(r.Computed.Hands) == 0 {
				t.Errorf("no hands must be [], got %s", data)
			}
		})
	}
}

// TestTopLevelShape checks the key order of API §2 on the decoded tokens.
func TestTopLevelShape(t *testing.T) {
	data, err := Marshal(apiReport(t), domain.English)
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("starts with %v, %v", tok, err)
	}
	var keys []string
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"ok", "ruleset", "vp_table", "computed", "findings", "counts"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("top-level keys %v, want %v", keys, want)
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	data, err := Marshal(apiReport(t), domain.Italian)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	want := Report{
		OK: false, Ruleset: "fitab-2025", VPTable: "fitab-3",
		Computed: Computed{
			Hands: []ComputedHand{{NS: HandTotals{535, 535}, EO: HandTotals{-20, -20}}},
			NS:    LineResult{1450, 300, 13}, EO: LineResult{1150, -300, 7},
		},
		Findings: []Finding{{
			Code: "HAND_TOTAL_MISMATCH", Severity: "error", Hand: 2, Line: "ns", Field: "total",
			Written: domain.Int(650), Expected: domain.Int(500), Rule: "FITAB art. 20",
			Message: "smazzata 2, NS: 400 + 100 fa 500, non 650", Pointer: "/hands/1/ns/total", Cell: "Score!D7",
		}},
		Counts: Counts{Error: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	for name, bad := range map[string]string{
		"unknown field":   `{"ok":true,"extra":1}`,
		"wrong type":      `{"ok":"yes"}`,
		"trailing data":   string(data) + ` {}`,
		"not json":        `ok`,
		"batch as report": `{"reports":[]}`,
	} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode accepted %s", name)
		}
	}
}

func TestNoVPTable(t *testing.T) {
	data, err := Marshal(domain.Report{Ruleset: domain.FITAB2025}, domain.English)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"vp_table":null`)) {
		t.Errorf("a report without a table must say null: %s", data)
	}
}

func TestRefusesBadFindings(t *testing.T) {
	for name, f := range map[string]domain.Finding{
		"unknown severity": {Code: "C", Severity: "fatal"},
		"unknown line":     {Code: "C", Severity: domain.SeverityError, Line: line(domain.Line(2))},
	} {
		t.Run(name, func(t *testing.T) {
			r := domain.Report{Findings: []domain.Finding{f}}
			if _, err := Marshal(r, domain.English); err == nil {
				t.Error("Marshal accepted it")
			}
			var buf bytes.Buffer
			w := NewBatchWriter(&buf, domain.English)
			if err := w.Write(apiReport(t)); err != nil {
				t.Fatal(err)
			}
			if err := w.Write(r); err == nil || !strings.Contains(err.Error(), "report 1") {
				t.Errorf("BatchWriter.Write: %v", err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := DecodeBatch(buf.Bytes())
			if err != nil || len(got) != 1 {
				t.Errorf("the batch must hold the good report only: %v, %d reports\n%s", err, len(got), buf.Bytes())
			}
		})
	}
}

func TestBatch(t *testing.T) {
	clean := domain.Report{Ruleset: domain.FIBurIta, VPTable: vpTable(t, "fibur-3"), Computed: domain.Computed{
		Hands: []domain.ComputedHand{{Total: [2]int{100, 200}, RunningTotal: [2]int{100, 200}}},
		Lines: [2]domain.LineResult{{Total: 100, MP: -100, VP: 9}, {Total: 200, MP: 100, VP: 11}},
	}}
	reports := []domain.Report{apiReport(t), clean, apiReport(t)}
	data, err := MarshalBatch(reports, domain.English)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeBatch(data)
	if err != nil {
		t.Fatal(err)
	}
	// API §2: a batch report is {"reports": [...]} in input order.
	if len(got) != 3 || got[0].OK || !got[1].OK || got[1].Ruleset != "fibur-ita" || got[2].Counts.Error != 1 {
		t.Errorf("got %+v", got)
	}
	var buf bytes.Buffer
	w := NewBatchWriter(&buf, domain.English)
	for _, r := range reports {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if buf.String() != string(data)+"\n" {
		t.Errorf("BatchWriter and MarshalBatch differ:\n%s\n%s", buf.String(), data)
	}
	if err := w.Write(clean); err == nil {
		t.Error("Write after Close succeeded")
	}
	empty, err := MarshalBatch(nil, domain.English)
	if err != nil || string(empty) != `{"reports":[]}` {
		t.Errorf("empty batch: %s %v", empty, err)
	}
	if r, err := DecodeBatch(empty); err != nil || r == nil || len(r) != 0 {
		t.Errorf("DecodeBatch(empty) = %v, %v", r, err)
	}
	if _, err := DecodeBatch([]byte(`{}`)); err == nil {
		t.Error("DecodeBatch accepted {}")
	}
}

type failingWriter struct{ after int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.after <= 0 {
		return 0, errors.New("disk full")
	}
	f.after--
	return len(p), nil
}

func TestBatchWriterWriteError(t *testing.T) {
	w := NewBatchWriter(&failingWriter{after: 1}, domain.English)
	var err error
	for i := 0; i < 1000 && err == nil; i++ {
		err = w.Write(apiReport(t))
	}
	if err == nil {
		err = w.Close()
	}
	if err == nil || err.Error() != "disk full" {
		t.Fatalf("got %v, want the writer's error", err)
	}
	if w.Write(apiReport(t)) != err || w.Close() != err {
		t.Error("the error must stick")
	}
}

// TestGolden pins whole documents; review a diff before running with
// -update.
func TestGolden(t *testing.T) {
	many := apiReport(t)
	many.Computed.Hands = append(many.Computed.Hands,
		domain.ComputedHand{Total: [2]int{400, 1095}, RunningTotal: [2]int{935, 1075}},
		domain.ComputedHand{Total: [2]int{415, 75}, RunningTotal: [2]int{1350, 1150}},
	)
	many.Findings = append(many.Findings,
		domain.Finding{Code: domain.RunningTotalMismatch, Severity: domain.SeverityError, Hand: 3, Line: line(domain.EO), Field: "running_total", Written: domain.Int(1100), Expected: domain.Int(1150), Rule: "FITAB art. 20", MessageEN: "hand 3, EO: the running total is 1150, not 1100", MessageIT: "smazzata 3, EO: il progressivo è 1150, non 1100"},
		domain.Finding{Code: domain.HandsFewerThanPlanned, Severity: domain.SeverityInfo, Field: "hands", Written: domain.Int(3), Expected: domain.Int(4), Rule: "FITAB art. 15", MessageEN: "3 hands played of 4 planned", MessageIT: "3 smazzate giocate su 4 previste"},
		domain.Finding{Code: domain.CardPointsImplausible, Severity: domain.SeverityWarning, Hand: 2, Line: line(domain.EO), Field: "points", Written: domain.Int(720), Rule: "RULES §5.1", MessageEN: "hand 2, EO: 720 card points is unusual", MessageIT: "smazzata 2, EO: 720 punti carta è insolito"},
	)
	clean := domain.Report{Ruleset: domain.FIBurInt, VPTable: vpTable(t, "fibur-3"), Computed: domain.Computed{
		Hands: []domain.ComputedHand{{Total: [2]int{300, 0}, RunningTotal: [2]int{300, 0}}, {Total: [2]int{-50, 250}, RunningTotal: [2]int{250, 250}}},
		Lines: [2]domain.LineResult{{Total: 250, MP: 0, VP: 10}, {Total: 250, MP: 0, VP: 10}},
	}}
	tests := []struct {
		file string
		make func() ([]byte, error)
	}{
		{"report_api_example_en.golden", func() ([]byte, error) { return Marshal(apiReport(t), domain.English) }},
		{"report_findings_en.golden", func() ([]byte, error) { return Marshal(many, domain.English) }},
		{"report_findings_it.golden", func() ([]byte, error) { return Marshal(many, domain.Italian) }},
		{"report_clean.golden", func() ([]byte, error) { return Marshal(clean, domain.English) }},
		{"report_no_table.golden", func() ([]byte, error) { return Marshal(domain.Report{Ruleset: domain.FITABInt}, domain.English) }},
		{"batch.golden", func() ([]byte, error) { return MarshalBatch([]domain.Report{clean, many}, domain.Italian) }},
		{"batch_empty.golden", func() ([]byte, error) { return MarshalBatch(nil, domain.English) }},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			got, err := tc.make()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the golden file:\ngot\n%s\nwant\n%s", tc.file, got, want)
			}
			if !json.Valid(got) {
				t.Error("not valid JSON")
			}
		})
	}
}

// FuzzAppendString: whatever the text, the output is one JSON string that
// reads back as encoding/json reads its own encoding of the text (U+2028
// and U+2029 are written as they are: JSON is a subset of JavaScript since
// ES2019).
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", `"\`, "\x00\x1f\x7f", "\u2028\u2029", "\xff\xfe", "é🂡", "a\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := appendString(nil, s)
		var got string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q -> %s: %v", s, out, err)
		}
		ref, _ := json.Marshal(s)
		var want string
		_ = json.Unmarshal(ref, &want)
		if got != want {
			t.Fatalf("%q reads back as %q, encoding/json's as %q", s, got, want)
		}
	})
}

// FuzzDecode: Decode never panics, and what it accepts reads the same once
// written again.
func FuzzDecode(f *testing.F) {
	for _, r := range []domain.Report{apiReport(f), {Ruleset: domain.FITABInt}} {
		b, err := Marshal(r, domain.Italian)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"ok":true,"findings":[{"written":null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Decode(data)
		if err != nil {
			return
		}
		again, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		r2, err := Decode(again)
		if err != nil || !reflect.DeepEqual(r, r2) {
			t.Fatalf("%+v\n%+v\n%v", r, r2, err)
		}
	})
}

// TestPointerFromValidate: API §2, every finding about one field of a sheet
// carries that field's JSON pointer (hands 0-based).
func TestPointerFromValidate(t *testing.T) {
	hand := func(ns, eo domain.LineScore) domain.Hand {
		return domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{ns, eo}}
	}
	s := domain.Sheet{Ruleset: domain.FITAB2025, HandsPlanned: 2, Hands: []domain.Hand{
		hand(domain.LineScore{Base: 300, Points: 235, Closed: domain.Bool(true)}, domain.LineScore{Base: 100, Points: -120}),
		hand(domain.LineScore{Base: 300, Points: 100, Total: domain.Int(450), Closed: domain.Bool(true)}, domain.LineScore{Base: 0, Points: -50}),
	}}
	s.Written[domain.EO].VP = domain.Int(3)
	s.LatePoints[domain.NS] = 70
	data, err := Marshal(domain.Validate(s), domain.English)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"HAND_TOTAL_MISMATCH": "/hands/1/ns/total", "VP_MISMATCH": "/written/eo/vp", "LATE_POINTS_INVALID": "/late_points/ns"}
	for _, f := range r.Findings {
		if p, ok := want[f.Code]; ok {
			if f.Pointer != p {
				t.Errorf("%s pointer %q, want %q", f.Code, f.Pointer, p)
			}
			delete(want, f.Code)
		}
	}
	if len(want) > 0 {
		t.Errorf("findings missing: %v in %s", want, data)
	}
}
