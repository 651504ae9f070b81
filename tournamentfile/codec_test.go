package tournamentfile_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/tournamentfile"
	"segnapunti/tournamentfile/filetest"
)

// Marshal → Decode → Marshal is the same bytes (API §4.4: a file read
// back is the file).
func TestMarshalDecodeMarshalIsTheSameBytes(t *testing.T) {
	f := filetest.Generate(t, 6, []domain.PairingSystem{domain.SystemEntryOrder, domain.SystemDanese}, 1)
	first, err := tournamentfile.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	back, err := tournamentfile.DecodeBytes(first)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tournamentfile.Check(back); err != nil {
		t.Fatal(err)
	}
	second, err := tournamentfile.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Errorf("the file read back is written differently")
	}
	if bytes.Contains(first, []byte("null,")) && bytes.Contains(first, []byte(`"entrants": null`)) {
		t.Error("an empty list is written null")
	}
}

// API §4: each problem of a file names its field.
func TestDecodeAndCheckNameTheField(t *testing.T) {
	good, err := tournamentfile.Marshal(filetest.Generate(t, 4, []domain.PairingSystem{domain.SystemEntryOrder}, 2))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, from, to, pointer string }{
		{"empty", string(good), "", ""},
		{"duplicate key", `"format": "segnapunti-tournament",`, `"format": "segnapunti-tournament", "format": "segnapunti-tournament",`, "/format"},
		{"unknown level", `"level": "regional"`, `"level": "world"`, "/tournament/level"},
		{"hands_per_round 5", `"hands_per_round": 3`, `"hands_per_round": 5`, "/tournament/hands_per_round"},
		{"entrant twice", `"id": "2"`, `"id": "1"`, "/entrants/1/id"},
		{"a sheet of a table that does not exist", `"table": 1,` + "\n      \"sheet\"", `"table": 99,` + "\n      \"sheet\"", "/sheets/0/table"},
		{"a sheet of another ruleset than the tournament", `"ruleset": "fitab-2025"`, `"ruleset": "fibur-int"`, "/sheets/0/sheet/ruleset"},
		{"a bye seated too", `"byes": []`, `"byes": ["1"]`, "/rounds/0/byes/0"},
		{"a line that signs twice", `"signatures": []`, `"signatures": [{"line": "ns", "kind": "end", "signed_by": "ns", "entrant": "1", "by": "table", "at": "2026-11-21T21:00:00Z"}, {"line": "ns", "kind": "confirm", "signed_by": "ns", "entrant": "1", "by": "table", "at": "2026-11-21T21:01:00Z"}]`, "/sheets/0/signatures/1/line"},
		{"a rejected correction applied (RULES §9)", `"corrections": []`, `"corrections": [{"round": 1, "table": 1, "kind": "sum", "reason": "", "situation": {"ruleset": "fitab-2025", "kind": "sum", "level": "club", "phase": "danese", "error_round": 1, "current_round": 1, "current_round_started": true, "tournament_closed": false, "standings_published": false, "standings_contested": false, "positions_published": false, "both_lines_acknowledge": false, "referee_countersigned": false}, "ruling": "reject", "rules": [], "ruling_reason": "", "applied": true, "before": {}, "after": {}, "sheet_version": 1, "by": "a", "at": "2026-11-21T22:00:00Z"}]`, "/corrections/0/applied"},
		{"an adjustment by nobody", `"adjustments": []`, `"adjustments": [{"entrant": "1", "round": null, "case": {"reason": "warning", "party": "", "ruleset": "", "kind": "", "hands_planned": 0, "phase": "", "warnings_before": 0, "byes_before": 0, "late_round": 0, "played": null, "at_interruption": null, "advantage": false, "referee": null, "note": ""}, "effect": {"result": null, "bye": false, "awarded": false, "delta": {"vp": 0, "mp": 0}, "late_points": 0, "warning": true, "flags": [], "rules": [], "reason": ""}, "by": " ", "at": "2026-11-21T22:00:00Z"}]`, "/adjustments/0/by"},
		// RULES §12 and the prizes (all optional): each bad value is named.
		{"a plan whose sessions do not add up (RULES §12.1)", `"vp_table": null`, `"vp_table": null, "plan": {"first_round": "entry_order", "phases": [], "sessions": [2]}`, "/tournament/plan/sessions"},
		{"an interruption after a round not planned", `"vp_table": null`, `"vp_table": null, "interrupted_after_round": 9, "void": true`, "/tournament/interrupted_after_round"},
		{"void without an interruption", `"vp_table": null`, `"vp_table": null, "void": true`, "/tournament/interrupted_after_round"},
		{"a withdrawal from round 0", `"id": "1",`, `"id": "1", "withdrawn_from_round": 0,`, "/entrants/0/withdrawn_from_round"},
		{"a player's sex X", `"name": "A1",`, `"name": "A1", "sex": "X",`, "/entrants/0/players/0/sex"},
		{"a birth year 1776", `"name": "A1",`, `"name": "A1", "birth_year": 1776,`, "/entrants/0/players/0/birth_year"},
		{"a substitution of an entrant not entered", `"standings": {`, `"substitutions": [{"entrant": "77", "from_round": 1, "out": "FT1", "in": {"name": "X", "membership": ""}, "reason": "malore"}], "standings": {`, "/substitutions/0/entrant"},
		{"a substitution without the player replaced", `"standings": {`, `"substitutions": [{"entrant": "1", "from_round": 1, "out": "", "in": {"name": "X", "membership": ""}, "reason": "malore"}], "standings": {`, "/substitutions/0/out"},
		{"line-ups in a pairs tournament", `"byes": []`, `"byes": [], "lineups": [{"table": 1, "ns": ["a", "b"], "eo": ["c", "d"]}]`, "/rounds/0/lineups"},
		{"a vacated entrant seated too", `"byes": []`, `"byes": [], "vacated": ["1"]`, "/rounds/0/vacated/0"},
		{"a team match in a pairs tournament", `"standings": {`, `"team_matches": [{"round": 1, "match": 1, "tables": [1, 2], "teams": ["1", "2"], "totals": [0, 0], "mp": [0, 0], "vp": [10, 10]}], "standings": {`, "/team_matches/0"},
		{"a prize category of an unknown kind", `"vp_table": null`, `"vp_table": null, "prize_categories": [{"id": "a", "kind": "giants", "label": "A", "places": 1}]`, "/tournament/prize_categories/0/kind"},
		{"a prize of a category not defined", `"standings": {`, `"prizes": [{"category": "x", "place": 1, "entrant": "1"}], "standings": {`, "/prizes/0/category"},
		{"a nested bomb", `"standings": {`, `"standings": {"x": ` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `,`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(string(good), tc.from, tc.to, 1)
			if bad == string(good) {
				t.Fatalf("the file has no %q", tc.from)
			}
			f, err := tournamentfile.DecodeBytes([]byte(bad))
			if err == nil {
				_, err = tournamentfile.Check(f)
			}
			var fe *tournamentfile.Error
			if !errors.As(err, &fe) || !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("error %v, want a *tournamentfile.Error", err)
			}
			if tc.pointer != "" && fe.Pointer != tc.pointer {
				t.Errorf("pointer %q, want %q (%v)", fe.Pointer, tc.pointer, fe)
			}
		})
	}
}

// FuzzDecode: no input crashes Decode or Check, and what they accept
// writes back to bytes they accept again.
func FuzzDecode(f *testing.F) {
	good, err := tournamentfile.Marshal(filetest.Generate(f, 4, []domain.PairingSystem{domain.SystemEntryOrder}, 3))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"format":"segnapunti-tournament","version":1,"tournament":{}}`))
	// RULES §12 and the prizes: a team tournament exported by the service
	// with its plan, substitution, line-ups, team match, prizes,
	// withdrawal and interruption (app's TestTournamentFileRoundTripCarriesRULES12).
	twelve, err := os.ReadFile("testdata/teams-rules12.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(twelve)
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := tournamentfile.DecodeBytes(data)
		if err != nil {
			return
		}
		if _, err := tournamentfile.Check(file); err != nil {
			return
		}
		out, err := tournamentfile.Marshal(file)
		if err != nil {
			t.Fatal(err)
		}
		back, err := tournamentfile.DecodeBytes(out)
		if err != nil {
			t.Fatalf("a checked file written back does not read: %v", err)
		}
		if _, err := tournamentfile.Check(back); err != nil {
			t.Fatalf("a checked file written back does not check: %v", err)
		}
	})
}
