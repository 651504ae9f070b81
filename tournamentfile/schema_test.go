package tournamentfile

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The schema served at /v1/schemas/tournament.json and the types the
// encoder writes name the same fields, and the schema requires exactly
// those the encoder always writes (no omitempty): a program that writes
// to the schema writes what Decode reads.
func TestSchemaMatchesTheTypes(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(Schema, &schema); err != nil {
		t.Fatal(err)
	}
	if schema["$schema"] != "https://json-schema.org/draft/2020-12/schema" || schema["$id"] != SchemaID {
		t.Errorf("$schema %v, $id %v", schema["$schema"], schema["$id"])
	}
	defs := schema["$defs"].(map[string]any)
	obj := func(path ...string) map[string]any {
		var v any = defs
		for _, p := range path {
			v = v.(map[string]any)[p]
		}
		return v.(map[string]any)
	}
	for _, tc := range []struct {
		name   string
		schema map[string]any
		typ    any
	}{
		{"file", schema, File{}},
		{"tournament", obj("tournament"), Tournament{}},
		{"plan", obj("tournament", "properties", "plan"), Plan{}},
		{"entrant", obj("entrant"), Entrant{}},
		{"round", obj("round"), Round{}},
		{"table", obj("round", "properties", "tables", "items"), Table{}},
		{"sheet", obj("sheet"), Sheet{}},
		{"signature", obj("sheet", "properties", "signatures", "items"), Signature{}},
		{"line result", obj("line_result"), LineResult{}},
		{"correction", obj("correction"), Correction{}},
		{"situation", obj("correction", "properties", "situation"), Situation{}},
		{"adjustment", obj("adjustment"), Adjustment{}},
		{"adjustment case", obj("adjustment", "properties", "case"), AdjustCase{}},
		{"effect", obj("adjustment", "properties", "effect"), Effect{}},
		{"score", obj("score"), Score{}},
		{"standings", obj("standings"), Standings{}},
		{"standing", obj("standings", "properties", "rows", "items"), Standing{}},
		{"player", obj("player"), Player{}},
		{"prize category", obj("prize_category"), PrizeCategory{}},
		{"prize", obj("prize"), Prize{}},
		{"substitution", obj("substitution"), Substitution{}},
		{"team match", obj("team_match"), TeamMatch{}},
		{"lineup", obj("round", "properties", "lineups", "items"), Lineup{}},
		{"seated", obj("round", "properties", "seated", "items"), Seated{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fields, required []string
			rt := reflect.TypeOf(tc.typ)
			for i := range rt.NumField() {
				name, opts, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
				fields = append(fields, name)
				if opts != "omitempty" {
					required = append(required, name)
				}
			}
			var props []string
			for k := range tc.schema["properties"].(map[string]any) {
				props = append(props, k)
			}
			var req []string
			for _, r := range tc.schema["required"].([]any) {
				req = append(req, r.(string))
			}
			slices.Sort(fields)
			slices.Sort(props)
			slices.Sort(required)
			slices.Sort(req)
			if !slices.Equal(fields, props) {
				t.Errorf("properties %v, the type writes %v", props, fields)
			}
			if !slices.Equal(required, req) {
				t.Errorf("required %v, the type always writes %v", req, required)
			}
			if tc.schema["additionalProperties"] != false {
				t.Error("additionalProperties is not false: Decode refuses unknown fields")
			}
		})
	}
}
