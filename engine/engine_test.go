package engine

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"segnapunti/importers/sheetjson"
)

// A 2-hand fitab-2025 sheet whose second hand's NS total is written 650
// where 400 + 100 is 500.
const wrongTotal = `{"ruleset":"fitab-2025","hands_planned":2,"hands":[
 {"end":"closed","ns":{"base":300,"points":235,"total":535},"eo":{"base":100,"points":-120,"total":-20}},
 {"end":"closed","ns":{"base":400,"points":100,"total":650},"eo":{"base":100,"points":50,"total":150}}]}`

type report struct {
	OK       bool `json:"ok"`
	Findings []struct {
		Code, Severity, Line, Pointer, Rule, Message string
		Hand                                         int
		Written, Expected                            int
	} `json:"findings"`
	Reports []json.RawMessage `json:"reports"`
}

// TestCheckHandTotalMismatch (RULES §5.1 HAND_TOTAL_MISMATCH, FITAB art.
// 20): a total that is not base + points is an error at the total's
// pointer, worded in the language asked for.
func TestCheckHandTotalMismatch(t *testing.T) {
	for _, tc := range []struct{ lang, word string }{{"it", "smazzata 2"}, {"en", "hand 2"}, {"", "hand 2"}, {"fr", "hand 2"}} {
		out, err := Check([]byte(wrongTotal), tc.lang)
		if err != nil {
			t.Fatal(err)
		}
		var r report
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range r.Findings {
			if f.Code == "HAND_TOTAL_MISMATCH" {
				found = true
				if f.Severity != "error" || f.Hand != 2 || f.Line != "ns" || f.Pointer != "/hands/1/ns/total" || f.Written != 650 || f.Expected != 500 {
					t.Errorf("lang %q: finding %+v", tc.lang, f)
				}
				if !strings.Contains(strings.ToLower(f.Message), tc.word) || !strings.Contains(f.Rule, "art. 20") {
					t.Errorf("lang %q: message %q rule %q", tc.lang, f.Message, f.Rule)
				}
			}
		}
		if !found || r.OK {
			t.Errorf("lang %q: no HAND_TOTAL_MISMATCH, ok=%v: %s", tc.lang, r.OK, out)
		}
	}
}

// TestCheckBatch: a batch answers {"reports": [...]} in input order.
func TestCheckBatch(t *testing.T) {
	out, err := Check([]byte(`{"sheets":[`+wrongTotal+`,`+wrongTotal+`]}`), "it")
	if err != nil {
		t.Fatal(err)
	}
	var r report
	if err := json.Unmarshal(out, &r); err != nil || len(r.Reports) != 2 {
		t.Fatalf("batch answer %s (%v)", out, err)
	}
}

// TestCheckRefuses: what is not a sheet is the decoder's error, naming
// the field, never a report.
func TestCheckRefuses(t *testing.T) {
	for _, tc := range []struct{ body, pointer string }{
		{`{"ruleset":"fitab-2025","hands_planned":2,"hands":[{"ns":{"base":"x","points":1},"eo":{"base":0,"points":0}}]}`, "/hands/0/ns/base"},
		{`{"ruleset":"nope","hands_planned":2,"hands":[]}`, "/ruleset"},
		{`not json`, ""},
	} {
		out, err := Check([]byte(tc.body), "it")
		var se *sheetjson.Error
		if !errors.As(err, &se) || out != nil {
			t.Errorf("%s: got %s, %v", tc.body, out, err)
			continue
		}
		if se.Pointer != tc.pointer {
			t.Errorf("%s: pointer %q, want %q", tc.body, se.Pointer, tc.pointer)
		}
	}
}
