package workbook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"segnapunti/domain"
)

func writeJSON(t *testing.T, exp TournamentExport) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, exp); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestWriteJSONGolden(t *testing.T) {
	data := writeJSON(t, sample(t))
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, data, "", "  "); err != nil {
		t.Fatalf("not one JSON document: %v", err)
	}
	golden(t, "tournament.json", pretty.Bytes())
}

func TestWriteJSONValidatesAgainstSchema(t *testing.T) {
	schema := loadSchema(t)
	tests := map[string]TournamentExport{
		"sample": sample(t),
		"empty":  {Tournament: domain.Tournament{Level: domain.LevelClub, Ruleset: domain.FIBurInt, Kind: domain.KindTeams}},
		// Individual (API §4.2): a round's line is two players; a match
		// names them in ids.
		"individual": {
			Tournament: domain.Tournament{Level: domain.LevelClub, Ruleset: domain.FITAB2025, Kind: domain.KindIndividual},
			Rounds: Slice([]domain.Round{{Number: 1, HandsPlanned: 3, Phase: domain.PhaseDanese, State: domain.RoundPlaying,
				Tables: []domain.TableAssignment{{Table: 1, NS: "3", NS2: "11", EO: "7", EO2: "2"}}, Byes: []string{"5"}}}),
			Matches: Slice([]MatchRow{{Round: 1, Table: 1, Entrants: [2]string{"3 / 11", "7 / 2"},
				Players: [2][]string{{"3", "11"}, {"7", "2"}}, VP: [2]int{11, 9}}}),
		},
	}
	for name, exp := range tests {
		t.Run(name, func(t *testing.T) {
			var doc any
			if err := json.Unmarshal(writeJSON(t, exp), &doc); err != nil {
				t.Fatal(err)
			}
			if errs := schema.validate(doc); len(errs) > 0 {
				t.Errorf("schema violations:\n%s", strings.Join(errs, "\n"))
			}
		})
	}
}

// The hand-written validator must catch what it claims to, or the test
// above proves nothing.
func TestSchemaValidatorRejects(t *testing.T) {
	schema := loadSchema(t)
	var good map[string]any
	if err := json.Unmarshal(writeJSON(t, sample(t)), &good); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		break_ func(doc map[string]any)
		want   string
	}{
		{"missing tournament", func(d map[string]any) { delete(d, "tournament") }, "/: missing required tournament"},
		{"unknown member", func(d map[string]any) { d["extra"] = 1 }, "/extra: not allowed"},
		{"string for a number", func(d map[string]any) {
			d["matches"].([]any)[0].(map[string]any)["round"] = "1"
		}, "/matches/0/round: want integer"},
		{"unknown ruling", func(d map[string]any) {
			d["corrections"].([]any)[0].(map[string]any)["ruling"] = "maybe"
		}, "/corrections/0/ruling: not one of"},
		{"fraction", func(d map[string]any) {
			d["standings"].([]any)[0].(map[string]any)["vp"] = 1.5
		}, "/standings/0/vp: want integer"},
		{"bad date", func(d map[string]any) {
			d["tournament"].(map[string]any)["date"] = "21/11/2026"
		}, "/tournament/date: not a date"},
		{"missing membership", func(d map[string]any) {
			delete(d["entrants"].([]any)[0].(map[string]any)["players"].([]any)[0].(map[string]any), "membership")
		}, "/entrants/0/players/0: missing required membership"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var doc map[string]any
			b, _ := json.Marshal(good)
			_ = json.Unmarshal(b, &doc)
			tc.break_(doc)
			errs := schema.validate(any(doc))
			if !slices.ContainsFunc(errs, func(e string) bool { return strings.HasPrefix(e, tc.want) }) {
				t.Errorf("violations %v, want one starting %q", errs, tc.want)
			}
		})
	}
}

// Every hand is nested under its match, in play order; MP and VP are
// carried per line.
func TestWriteJSONNestsHands(t *testing.T) {
	var doc struct {
		Matches []struct {
			Round, Table int
			NS, EO       struct {
				ID        string
				Total, MP int
				VP        int
			}
			Hands []struct {
				Hand int
				End  *string
				NS   struct{ Total int }
				EO   struct{ Total int }
			}
		}
		Entrants []struct {
			Players []struct{ Name, Membership *string }
		}
	}
	if err := json.Unmarshal(writeJSON(t, sample(t)), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Matches) != 4 {
		t.Fatalf("%d matches, want 4", len(doc.Matches))
	}
	for _, m := range doc.Matches {
		if len(m.Hands) != 3 {
			t.Errorf("round %d table %d: %d hands, want 3", m.Round, m.Table, len(m.Hands))
			continue
		}
		sum := [2]int{}
		for i, h := range m.Hands {
			if h.Hand != i+1 {
				t.Errorf("round %d table %d: hand %d at position %d", m.Round, m.Table, h.Hand, i+1)
			}
			sum[0] += h.NS.Total
			sum[1] += h.EO.Total
		}
		// RULES §6: the match total is the sum of the hand totals (no late
		// points in the sample), MP the difference, VP adding up to 20.
		if sum != [2]int{m.NS.Total, m.EO.Total} {
			t.Errorf("round %d table %d: hands add to %v, match says %d-%d", m.Round, m.Table, sum, m.NS.Total, m.EO.Total)
		}
		if m.NS.MP != m.NS.Total-m.EO.Total || m.EO.MP != -m.NS.MP {
			t.Errorf("round %d table %d: MP %d/%d", m.Round, m.Table, m.NS.MP, m.EO.MP)
		}
		if m.NS.VP+m.EO.VP != domain.MaxVP {
			t.Errorf("round %d table %d: VP %d+%d", m.Round, m.Table, m.NS.VP, m.EO.VP)
		}
	}
	// Membership numbers are there; a missing one is null, not "".
	p := doc.Entrants[1].Players
	if p[0].Membership == nil || *p[0].Membership != "FT000002" || p[1].Membership != nil {
		t.Errorf("entrant 2 memberships = %v, %v", p[0].Membership, p[1].Membership)
	}
	if *p[0].Name != hostile {
		t.Errorf("JSON must carry names unchanged, got %q", *p[0].Name)
	}
}

func TestWriteJSONRejects(t *testing.T) {
	hand := func(round, table, n int) HandRow { return HandRow{Round: round, Table: table, Hand: n} }
	match := func(round, table int) MatchRow { return MatchRow{Round: round, Table: table} }
	tests := []struct {
		name string
		edit func(e *TournamentExport)
		want string
	}{
		{"hand without a match", func(e *TournamentExport) {
			e.Matches = Slice([]MatchRow{match(1, 1)})
			e.Hands = Slice([]HandRow{hand(1, 1, 1), hand(9, 9, 1)})
		}, "hand 1 of round 9, table 9 has no match"},
		{"hands out of match order", func(e *TournamentExport) {
			e.Matches = Slice([]MatchRow{match(1, 1), match(1, 2)})
			e.Hands = Slice([]HandRow{hand(1, 2, 1), hand(1, 1, 1)})
		}, "not in the order of the matches"},
		{"unknown level", func(e *TournamentExport) { e.Tournament.Level = "galactic" }, `tournament level "galactic"`},
		{"unknown hand end", func(e *TournamentExport) {
			e.Matches = Slice([]MatchRow{match(1, 1)})
			e.Hands = Slice([]HandRow{{Round: 1, Table: 1, Hand: 2, End: "surrender"}})
		}, "end of hand 2 of round 1, table 1"},
		{"unknown phase", func(e *TournamentExport) {
			e.Rounds = Slice([]domain.Round{{Number: 1, Phase: "swiss", State: domain.RoundPlaying}})
		}, `rounds[0]: invalid: phase "swiss"`},
		{"unknown ruling", func(e *TournamentExport) {
			e.Corrections = Slice([]CorrectionRow{{Kind: domain.CorrectionSum, Ruling: "maybe"}})
		}, `ruling "maybe"`},
		{"unknown adjustment reason", func(e *TournamentExport) {
			e.Adjustments = Slice([]AdjustmentRow{{Entrant: "1", Reason: "bribe"}})
		}, `adjustment reason "bribe"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exp := sample(t)
			tc.edit(&exp)
			err := WriteJSON(io.Discard, exp)
			if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrInvalid mentioning %q", err, tc.want)
			}
		})
	}
}

// The schema's enumerations are the domain's lists: they cannot drift.
func TestSchemaEnumsMatchDomain(t *testing.T) {
	schema := loadSchema(t)
	strs := func(vs ...any) []string {
		var out []string
		for _, v := range vs {
			out = append(out, fmt.Sprint(v))
		}
		sort.Strings(out)
		return out
	}
	toAny := func(n int, at func(int) any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = at(i)
		}
		return out
	}
	tests := []struct {
		def  string
		want []any
	}{
		{"ruleset", toAny(len(domain.Rulesets), func(i int) any { return domain.Rulesets[i] })},
		{"level", toAny(len(domain.Levels), func(i int) any { return domain.Levels[i] })},
		{"kind", toAny(len(domain.Kinds), func(i int) any { return domain.Kinds[i] })},
		{"phase", toAny(len(domain.Phases), func(i int) any { return domain.Phases[i] })},
		{"round_state", toAny(len(domain.RoundStates), func(i int) any { return domain.RoundStates[i] })},
		{"hand_end", append(toAny(len(domain.HandEnds), func(i int) any { return domain.HandEnds[i] }), nil)},
		{"correction_kind", toAny(len(domain.CorrectionKinds), func(i int) any { return domain.CorrectionKinds[i] })},
		{"ruling", toAny(len(domain.Rulings), func(i int) any { return domain.Rulings[i] })},
		{"adjustment_reason", toAny(len(domain.AdjustmentReasons), func(i int) any { return domain.AdjustmentReasons[i] })},
	}
	for _, tc := range tests {
		t.Run(tc.def, func(t *testing.T) {
			def, _ := schema.defs[tc.def].(map[string]any)
			enum, _ := def["enum"].([]any)
			if got, want := strs(enum...), strs(tc.want...); !slices.Equal(got, want) {
				t.Errorf("schema enum %v, domain %v", got, want)
			}
		})
	}
}

func TestSchemaFormatConst(t *testing.T) {
	schema := loadSchema(t)
	props := schema.root["properties"].(map[string]any)
	if c := props["format"].(map[string]any)["const"]; c != JSONFormat {
		t.Errorf("schema format const %v, want %q", c, JSONFormat)
	}
	if schema.root["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v, want draft 2020-12", schema.root["$schema"])
	}
}

// miniSchema checks a document against the subset of JSON Schema 2020-12
// that tournament-export.schema.json uses: $ref into $defs, type (one or
// several), const, enum, required, properties, additionalProperties:
// false, items, minimum, and the date and date-time formats.
type miniSchema struct {
	root map[string]any
	defs map[string]any
}

func loadSchema(t *testing.T) miniSchema {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(Schema, &root); err != nil {
		t.Fatalf("Schema is not JSON: %v", err)
	}
	defs, _ := root["$defs"].(map[string]any)
	return miniSchema{root: root, defs: defs}
}

func (s miniSchema) validate(doc any) []string {
	var errs []string
	s.check(s.root, doc, "", &errs)
	return errs
}

func (s miniSchema) check(sch map[string]any, v any, at string, errs *[]string) {
	fail := func(format string, args ...any) {
		where := at
		if where == "" {
			where = "/"
		}
		*errs = append(*errs, where+": "+fmt.Sprintf(format, args...))
	}
	if ref, ok := sch["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/$defs/")
		def, ok := s.defs[name].(map[string]any)
		if !ok {
			fail("unresolved $ref %s", ref)
			return
		}
		s.check(def, v, at, errs)
	}
	if alts, ok := sch["oneOf"].([]any); ok {
		n := 0
		for _, a := range alts {
			var sub []string
			s.check(a.(map[string]any), v, at, &sub)
			if len(sub) == 0 {
				n++
			}
		}
		if n != 1 {
			fail("matches %d of the oneOf branches, want exactly 1: %v", n, v)
		}
	}
	if c, ok := sch["const"]; ok && v != c {
		fail("want const %v, got %v", c, v)
	}
	if enum, ok := sch["enum"].([]any); ok && !slices.Contains(enum, v) {
		fail("not one of %v: %v", enum, v)
	}
	if typ, ok := sch["type"]; ok {
		var types []string
		switch typ := typ.(type) {
		case string:
			types = []string{typ}
		case []any:
			for _, x := range typ {
				types = append(types, x.(string))
			}
		}
		if !slices.ContainsFunc(types, func(ty string) bool { return jsonIs(ty, v) }) {
			fail("want %s, got %T %v", strings.Join(types, " or "), v, v)
			return
		}
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := sch["properties"].(map[string]any)
		if req, ok := sch["required"].([]any); ok {
			for _, r := range req {
				if _, ok := v[r.(string)]; !ok {
					fail("missing required %s", r)
				}
			}
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p, ok := props[k].(map[string]any); ok {
				s.check(p, v[k], at+"/"+k, errs)
			} else if sch["additionalProperties"] == false {
				*errs = append(*errs, at+"/"+k+": not allowed")
			}
		}
	case []any:
		if items, ok := sch["items"].(map[string]any); ok {
			for i, x := range v {
				s.check(items, x, fmt.Sprintf("%s/%d", at, i), errs)
			}
		}
	case float64:
		if m, ok := sch["minimum"].(float64); ok && v < m {
			fail("%v is below the minimum %v", v, m)
		}
	case string:
		switch sch["format"] {
		case "date":
			if _, err := time.Parse(time.DateOnly, v); err != nil {
				fail("not a date: %q", v)
			}
		case "date-time":
			if _, err := time.Parse(time.RFC3339, v); err != nil {
				fail("not a date-time: %q", v)
			}
		}
	}
}

func jsonIs(typ string, v any) bool {
	switch typ {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f)
	}
	return false
}
