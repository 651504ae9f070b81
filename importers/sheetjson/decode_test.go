package sheetjson

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
)

var cmpSheet = cmp.AllowUnexported(domain.VPTable{})

// apiExample is the sheet of API §1 without its comments.
const apiExample = `{
  "ruleset": "fitab-2025",
  "hands_planned": 3,
  "kind": "pairs",
  "vp_table": "fitab-3",
  "tournament": "Coppa Autunno",
  "round": 2, "table": 7,
  "ns": {"id": "12", "players": ["Rossi Anna", "Bianchi Luca"]},
  "eo": {"id": "5",  "players": ["Verdi Carla", "Neri Paolo"]},
  "first_dealer": "n",
  "late_points": {"ns": 100, "eo": 0},
  "hands": [
    {
      "end": "closed",
      "lost_count": false,
      "ns": {
        "base": 300, "points": 235, "total": 535,
        "running_total": 535,
        "burrachi": {"pulito": 1},
        "closed": true,
        "pozzetto": "taken",
        "table_points": 255, "hand_points": 20,
        "pozzetto_unplayed_points": 0, "penalty_points": 0
      },
      "eo": {"base": 100, "points": -120, "total": -20}
    }
  ],
  "written": {
    "ns": {"total": 1450, "mp": 300, "vp": 13},
    "eo": {"total": 1150, "mp": -300, "vp": 7}
  }
}`

func mustVP(t testing.TB, id string) domain.VPTable {
	t.Helper()
	v, err := domain.ParseVPTable(id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestDecodeAPIExample checks the field mapping of API §1 one field at a
// time against the example of the document.
func TestDecodeAPIExample(t *testing.T) {
	sheets, batch, err := Decode([]byte(apiExample))
	if err != nil {
		t.Fatal(err)
	}
	if batch || len(sheets) != 1 {
		t.Fatalf("batch=%v, %d sheets; want one single sheet", batch, len(sheets))
	}
	want := domain.Sheet{
		Ruleset:      domain.FITAB2025,
		HandsPlanned: 3,
		Kind:         domain.KindPairs,
		VPTable:      mustVP(t, "fitab-3"),
		Tournament:   "Coppa Autunno",
		Round:        2,
		Table:        7,
		Sides: [2]domain.Side{
			{ID: "12", Players: []string{"Rossi Anna", "Bianchi Luca"}},
			{ID: "5", Players: []string{"Verdi Carla", "Neri Paolo"}},
		},
		FirstDealer: "n",
		LatePoints:  [2]int{100, 0},
		Hands: []domain.Hand{{
			End: domain.EndClosed,
			Lines: [2]domain.LineScore{
				{
					Base: 300, Points: 235, Total: domain.Int(535), RunningTotal: domain.Int(535),
					Burrachi: map[domain.BurracoType]int{domain.Pulito: 1},
					Closed:   domain.Bool(true), Pozzetto: domain.PozzettoTaken,
					TablePoints: domain.Int(255), HandPoints: domain.Int(20),
					PozzettoUnplayedPoints: domain.Int(0), PenaltyPoints: domain.Int(0),
				},
				{Base: 100, Points: -120, Total: domain.Int(-20)},
			},
		}},
		Written: [2]domain.WrittenResult{
			{Total: domain.Int(1450), MP: domain.Int(300), VP: domain.Int(13)},
			{Total: domain.Int(1150), MP: domain.Int(-300), VP: domain.Int(7)},
		},
	}
	if d := cmp.Diff(want, sheets[0], cmpSheet); d != "" {
		t.Errorf("decoded sheet (-want +got):\n%s", d)
	}
}

func TestDecodeGood(t *testing.T) {
	const hand = `{"ns":{"base":300,"points":235},"eo":{"base":100,"points":-120}}`
	minimal := `{"ruleset":"fibur-int","hands_planned":2,"hands":[` + hand + `]}`
	tests := []struct {
		name  string
		in    string
		check func(t *testing.T, s domain.Sheet)
	}{
		{"API §1 paper copy: only base and points, kind defaults to pairs", minimal, func(t *testing.T, s domain.Sheet) {
			if s.Kind != domain.KindPairs || s.Ruleset != domain.FIBurInt || s.HandsPlanned != 2 {
				t.Errorf("got kind %q ruleset %q planned %d", s.Kind, s.Ruleset, s.HandsPlanned)
			}
			l := s.Hands[0].Lines[domain.NS]
			if l.Base != 300 || l.Points != 235 || l.Total != nil || l.Burrachi != nil || l.Closed != nil {
				t.Errorf("NS line %+v: optionals must stay nil", l)
			}
			if !s.VPTable.IsZero() || s.Round != 0 || s.Sides[0].ID != "" || s.Sides[1].Players != nil || s.Written != [2]domain.WrittenResult{} {
				t.Errorf("absent optionals were filled: %+v", s)
			}
		}},
		{"null means absent for an object's field", `{"ruleset":"fitab-2025","hands_planned":3,"kind":null,"vp_table":null,"round":null,"ns":null,"late_points":null,"written":{"ns":null,"eo":{"vp":null,"mp":-5}},"hands":[{"end":null,"ns":{"base":0,"points":5,"total":null,"burrachi":null,"closed":null},"eo":{"base":0,"points":-5}}]}`, func(t *testing.T, s domain.Sheet) {
			if s.Kind != domain.KindPairs || s.Hands[0].Lines[0].Total != nil || s.Hands[0].Lines[0].Burrachi != nil {
				t.Errorf("null fields not absent: %+v", s)
			}
			if w := s.Written[domain.EO]; w.VP != nil || w.MP == nil || *w.MP != -5 {
				t.Errorf("written EO = %+v", w)
			}
		}},
		{"empty string enums mean absent", `{"ruleset":"fitab-2025","hands_planned":3,"kind":"","vp_table":"","first_dealer":"","hands":[{"end":"","ns":{"base":0,"points":5,"pozzetto":""},"eo":{"base":0,"points":-5}}]}`, func(t *testing.T, s domain.Sheet) {
			if s.Kind != domain.KindPairs || !s.VPTable.IsZero() || s.Hands[0].End != domain.EndUnknown {
				t.Errorf("got %+v", s)
			}
		}},
		{"-0 is zero", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"base":-0,"points":-0},"eo":{"base":0,"points":0}}]}`, func(t *testing.T, s domain.Sheet) {
			if s.Hands[0].Lines[0].Base != 0 || s.Hands[0].Lines[0].Points != 0 {
				t.Errorf("got %+v", s.Hands[0].Lines[0])
			}
		}},
		{"RULES §5 an empty breakdown is given and says no burraco", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"base":0,"points":5,"burrachi":{}},"eo":{"base":200,"points":5,"burrachi":{"pulito":1,"sporco":0}}}]}`, func(t *testing.T, s domain.Sheet) {
			if b := s.Hands[0].Lines[0].Burrachi; b == nil || len(b) != 0 {
				t.Errorf("NS burrachi = %#v, want an empty non-nil map", b)
			}
			if b := s.Hands[0].Lines[1].Burrachi; len(b) != 2 || b[domain.Pulito] != 1 {
				t.Errorf("EO burrachi = %#v", b)
			}
		}},
		{"bounds are inclusive", `{"ruleset":"fitab-2025","hands_planned":4,"round":10000,"table":1,"late_points":{"ns":100000,"eo":-100000},"hands":[{"ns":{"base":100000,"points":-100000,"burrachi":{"sporco":20}},"eo":{"base":0,"points":0,"burrachi":{"pulito":0}}},` + hand + `,` + hand + `,` + hand + `]}`, func(t *testing.T, s domain.Sheet) {
			if len(s.Hands) != 4 || s.Round != 10000 || s.LatePoints != [2]int{100000, -100000} {
				t.Errorf("got %+v", s)
			}
		}},
		{"escaped key names the same field", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"b\u0061se":50,"points":5},"eo":{"base":0,"points":0}}]}`, func(t *testing.T, s domain.Sheet) {
			if s.Hands[0].Lines[0].Base != 50 {
				t.Errorf("base = %d", s.Hands[0].Lines[0].Base)
			}
		}},
		{"a byte order mark and blanks around the document", "\xef\xbb\xbf \n\t" + minimal + "\r\n ", nil},
		{"players: [] is no players", `{"ruleset":"fitab-2025","hands_planned":3,"ns":{"id":"1","players":[]},"hands":[` + hand + `]}`, func(t *testing.T, s domain.Sheet) {
			if s.Sides[0].Players != nil || s.Sides[0].ID != "1" {
				t.Errorf("side = %#v", s.Sides[0])
			}
		}},
		{"text is unicode", `{"ruleset":"fitab-2025","hands_planned":3,"tournament":"Citt\u00e0 di Lugano — “Trofeo” & <co>","hands":[` + hand + `]}`, func(t *testing.T, s domain.Sheet) {
			if s.Tournament != "Città di Lugano — “Trofeo” & <co>" {
				t.Errorf("tournament = %q", s.Tournament)
			}
		}},
		{"every ruleset, kind, end and pozzetto of API §1", `{"ruleset":"fibur-ita","hands_planned":3,"kind":"international","hands":[{"end":"stock_exhausted","lost_count":true,"ns":{"base":0,"points":5,"pozzetto":"not_taken"},"eo":{"base":0,"points":0,"pozzetto":"taken_not_played"}},{"end":"time_out","ns":{"base":0,"points":0},"eo":{"base":0,"points":0}},{"end":"stall","ns":{"base":0,"points":0},"eo":{"base":0,"points":0}},{"end":"interrupted","ns":{"base":0,"points":0},"eo":{"base":0,"points":0}}]}`, func(t *testing.T, s domain.Sheet) {
			if s.Kind != domain.KindInternational || !s.Hands[0].LostCount || s.Hands[3].End != domain.EndInterrupted || s.Hands[0].Lines[1].Pozzetto != domain.PozzettoTakenUnplay {
				t.Errorf("got %+v", s)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sheets, batch, err := Decode([]byte(tc.in))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if batch || len(sheets) != 1 {
				t.Fatalf("batch=%v with %d sheets", batch, len(sheets))
			}
			if tc.check != nil {
				tc.check(t, sheets[0])
			}
		})
	}
}

// TestDecodeFixtures reads every match of the LibreOffice fixtures as the
// importers must produce it (fixtures/expected.json, sheet_json).
func TestDecodeFixtures(t *testing.T) {
	data, err := os.ReadFile("testdata/fixtures_batch.json")
	if err != nil {
		t.Fatal(err)
	}
	sheets, batch, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !batch || len(sheets) != 22 {
		t.Fatalf("batch=%v, %d sheets; want a batch of 22", batch, len(sheets))
	}
	for i, s := range sheets {
		if s.Round < 1 || len(s.Hands) == 0 || s.Written[domain.NS].VP == nil {
			t.Errorf("sheet %d: %+v", i, s)
		}
	}
}

// bad builds a one-hand sheet around a replacement of one part.
func bad(top, ns string) string {
	return `{"ruleset":"fitab-2025","hands_planned":3` + top + `,"hands":[{"ns":{"base":300,"points":235` + ns + `},"eo":{"base":100,"points":-120}}]}`
}

func TestDecodeBad(t *testing.T) {
	good := `{"ns":{"base":0,"points":0},"eo":{"base":0,"points":0}}`
	tests := []struct {
		name    string
		in      string
		pointer string
		detail  string // a part of the detail
		at      string // where the error is: the first occurrence of this text; "": not checked
	}{
		// Documents that are not a sheet.
		{"empty input", "", "", "empty", ""},
		{"only blanks", " \n\t ", "", "empty", ""},
		{"an array", "[]", "", "not an array", "["},
		{"null", "null", "", "not null", "null"},
		{"a number", " 42", "", "not a number", "42"},
		{"a string", `"sheet"`, "", "not a string", `"sheet"`},
		{"garbage", "}", "", "malformed JSON at line 1, column 1", "}"},
		{"unterminated object", `{"ruleset": "fitab-2025"`, "", "unexpected end of input", ""},
		{"unterminated string", `{"ruleset": "fitab-2025`, "/ruleset", "unexpected end", ""},
		{"trailing data", bad("", "") + " x", "", `unexpected 'x' after the end of the sheet`, "x"},
		{"two documents", bad("", "") + "\n{}", "", "after the end of the sheet", "{}"},
		{"missing comma", "{\"ruleset\": \"fitab-2025\"\n \"hands_planned\": 3}", "", "malformed JSON at line 2, column 2", `"hands_planned"`},
		{"raw newline in a string", "{\"tournament\": \"a\nb\"}", "/tournament", "malformed JSON", "\nb"},
		{"trailing comma in an object", `{"ruleset": "fitab-2025",}`, "", "malformed JSON", "}"},
		{"invalid UTF-8 in a string is refused, not made U+FFFD", "{\"tournament\": \"Citt\xe0\"}", "/tournament", "invalid UTF-8", "\xe0"},
		{"invalid UTF-8 in a key is refused", "{\"tourn\xffament\": \"x\"}", "", "invalid UTF-8", "\xff"},

		// Unknown and repeated fields.
		{"unknown top field", bad(`,"colour":"red"`, ""), "/colour", `unknown field "colour": a sheet has only ruleset, hands_planned`, `"colour"`},
		{"field names are case-sensitive", bad(`,"Round":2`, ""), "/Round", `did you mean "round"`, ""},
		{"case-insensitive twin of a known field", bad("", `,"BASE":300`), "/hands/0/ns/BASE", `did you mean "base"`, ""},
		{"unknown line field", bad("", `,"bonus":200`), "/hands/0/ns/bonus", "a line's row has only base, points", ""},
		{"a single sheet has no sheets field", bad(`,"sheets":[]`, ""), "/sheets", "unknown field", ""},
		{"duplicate key in a line", bad("", `,"base":250`), "/hands/0/ns/base", "appears twice", `"base":250`},
		{"duplicate top key", bad(`,"ruleset":"fibur-int"`, ""), "/ruleset", "appears twice", ""},
		{"duplicate burraco type", bad("", `,"burrachi":{"pulito":1,"pulito":2}`), "/hands/0/ns/burrachi/pulito", "appears twice", ""},
		{"RFC 6901 escapes ~ and / in keys", bad(`,"a/b~c":1`, ""), "/a~1b~0c", "unknown field", ""},

		// Wrong JSON types.
		{"string where a number belongs", bad("", `,"total":"535"`), "/hands/0/ns/total", `total must be a whole number, not the string "535"`, `"535"`},
		{"string base", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"base":"300","points":5},"eo":{"base":0,"points":0}}]}`, "/hands/0/ns/base", "base must be a whole number", ""},
		{"float where an integer is needed", bad("", `,"total":535.5`), "/hands/0/ns/total", "must be a whole number, not 535.5", ""},
		{"1e300", bad("", `,"total":1e300`), "/hands/0/ns/total", "not 1e300", ""},
		{"exponent form of a whole number", bad("", `,"total":5e2`), "/hands/0/ns/total", "whole number, not 5e2", ""},
		{"100.0 is not written as a whole number", bad("", `,"running_total":100.0`), "/hands/0/ns/running_total", "whole number", ""},
		{"beyond int64", bad("", `,"total":99999999999999999999`), "/hands/0/ns/total", "out of range", ""},
		{"number for a string", bad(`,"tournament":7`, ""), "/tournament", "tournament must be a string, not 7", ""},
		{"number for an entrant id", bad(`,"ns":{"id":12}`, ""), "/ns/id", "id must be a string", ""},
		{"string for a boolean", bad("", `,"closed":"yes"`), "/hands/0/ns/closed", "closed must be true or false", ""},
		{"number for a boolean", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"lost_count":1,"ns":{"base":0,"points":0},"eo":{"base":0,"points":0}}]}`, "/hands/0/lost_count", "lost_count must be true or false, not 1", ""},
		{"object for hands", `{"ruleset":"fitab-2025","hands_planned":3,"hands":{"ns":{}}}`, "/hands", "hands must be an array, not an object", ""},
		{"string as a hand", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[` + good + `,"hand 2"]}`, "/hands/1", `a hand must be an object, not the string "hand 2"`, ""},
		{"null as a hand", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[` + good + `,null]}`, "/hands/1", "a hand must be an object, not null", ""},
		{"null as a player", bad(`,"eo":{"players":["Verdi",null]}`, ""), "/eo/players/1", "a player's name must be a string, not null", ""},
		{"players as a string", bad(`,"eo":{"players":"Verdi / Neri"}`, ""), "/eo/players", "players must be an array", ""},
		{"null burraco count", bad("", `,"burrachi":{"sporco":null}`), "/hands/0/ns/burrachi/sporco", "not null", ""},
		{"burrachi as an array", bad("", `,"burrachi":["pulito"]`), "/hands/0/ns/burrachi", "burrachi must be an object of burraco counts", ""},
		{"array for written", bad(`,"written":[]`, ""), "/written", "written must be an object, not an array", ""},
		{"string vp in written", bad(`,"written":{"eo":{"vp":"7"}}`, ""), "/written/eo/vp", "vp must be a whole number", ""},
		{"type error after an unknown field: the first in document order wins", bad(`,"colour":1,"round":"2"`, ""), "/colour", "unknown field", ""},

		// Missing required fields (API §1).
		{"missing ruleset", `{"hands_planned":3,"hands":[` + good + `]}`, "/ruleset", "ruleset is required", ""},
		{"null ruleset", `{"ruleset":null,"hands_planned":3,"hands":[` + good + `]}`, "/ruleset", "ruleset is required", ""},
		{"missing hands_planned", `{"ruleset":"fitab-2025","hands":[` + good + `]}`, "/hands_planned", "required", ""},
		{"missing hands", `{"ruleset":"fitab-2025","hands_planned":3}`, "/hands", "hands is required", ""},
		{"missing base", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[` + good + `,{"ns":{"base":0,"points":0},"eo":{"points":0}}]}`, "/hands/1/eo/base", "base is required", ""},
		{"missing points", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"base":0},"eo":{"base":0,"points":0}}]}`, "/hands/0/ns/points", "points is required", ""},
		{"missing line", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"base":0,"points":0}}]}`, "/hands/0/eo", "eo is required", ""},
		{"empty sheet", `{}`, "/ruleset", "required", ""},

		// Counts and ranges.
		{"zero hands", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[]}`, "/hands", "1 to 4 hands, not 0", ""},
		{"five hands", `{"ruleset":"fitab-2025","hands_planned":4,"hands":[` + strings.Repeat(good+",", 4) + good + `]}`, "/hands", "1 to 4 hands, not 5", ""},
		{"RULES §1 hands_planned 1", bad("", "")[:0] + `{"ruleset":"fitab-2025","hands_planned":1,"hands":[` + good + `]}`, "/hands_planned", "2, 3 or 4, not 1", ""},
		{"RULES §1 hands_planned 5", `{"ruleset":"fitab-2025","hands_planned":5,"hands":[` + good + `]}`, "/hands_planned", "not 5", ""},
		{"score over 100000", bad("", `,"total":100001`), "/hands/0/ns/total", "between -100000 and 100000, not 100001", ""},
		{"score under -100000", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[` + good + `,{"ns":{"base":0,"points":0},"eo":{"base":0,"points":-100001}}]}`, "/hands/1/eo/points", "not -100001", ""},
		{"late points out of range", bad(`,"late_points":{"ns":0,"eo":250000}`, ""), "/late_points/eo", "not 250000", ""},
		{"written MP out of range", bad(`,"written":{"ns":{"mp":-100005}}`, ""), "/written/ns/mp", "not -100005", ""},
		{"round 0", bad(`,"round":0`, ""), "/round", "between 1 and 10000, not 0", ""},
		{"table 10001", bad(`,"table":10001`, ""), "/table", "not 10001", ""},
		{"RULES §5 table_points is a magnitude", bad("", `,"table_points":-5`), "/hands/0/ns/table_points", "0 or more", ""},
		{"RULES §5 hand_points is a magnitude", bad("", `,"hand_points":-20`), "/hands/0/ns/hand_points", "0 or more", ""},
		{"burraco count over 20", bad("", `,"burrachi":{"pulito":21}`), "/hands/0/ns/burrachi/pulito", "between 0 and 20, not 21", ""},
		{"negative burraco count", bad("", `,"burrachi":{"sporco":-1}`), "/hands/0/ns/burrachi/sporco", "not -1", ""},

		// Unknown enumerations.
		{"RULES §2 unknown ruleset", `{"ruleset":"fitab-2024","hands_planned":3,"hands":[` + good + `]}`, "/ruleset", `unknown ruleset "fitab-2024"`, ""},
		{"RULES §2 empty ruleset", `{"ruleset":"","hands_planned":3,"hands":[` + good + `]}`, "/ruleset", `unknown ruleset ""`, ""},
		{"RULES §10 unknown kind", bad(`,"kind":"couples"`, ""), "/kind", `unknown kind "couples"`, ""},
		{"RULES §6.2 unknown vp table", bad(`,"vp_table":"fitab-5"`, ""), "/vp_table", `unknown VP table "fitab-5"`, ""},
		{"RULES §5 unknown end", `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"end":"finished","ns":{"base":0,"points":0},"eo":{"base":0,"points":0}}]}`, "/hands/0/end", `unknown hand end "finished"`, ""},
		{"unknown pozzetto", bad("", `,"pozzetto":"yes"`), "/hands/0/ns/pozzetto", `unknown pozzetto state "yes"`, ""},
		{"RULES §4 unknown burraco type", bad("", `,"burrachi":{"pulito":1,"platinum":1}`), "/hands/0/ns/burrachi/platinum", `unknown burraco type "platinum"`, ""},
		{"FITAB art. 15 unknown first dealer", bad(`,"first_dealer":"north"`, ""), "/first_dealer", `unknown first_dealer "north"`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sheets, _, err := Decode([]byte(tc.in))
			if err == nil {
				t.Fatalf("Decode accepted it: %+v", sheets)
			}
			line, col := 0, 0
			if tc.at == "" && strings.Contains(tc.detail, "malformed") {
				t.Errorf("a syntax error must say where it is")
			}
			if tc.at != "" {
				line, col = position(tc.in, tc.at)
			}
			checkError(t, err, tc.pointer, tc.detail, line, col)
		})
	}
}

// position is the line and byte column where marker first occurs in in.
func position(in, marker string) (line, col int) {
	i := strings.Index(in, marker)
	line = 1 + strings.Count(in[:i], "\n")
	return line, i - strings.LastIndex(in[:i], "\n")
}

func checkError(t *testing.T, err error, pointer, detail string, line, col int) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %v is not a *sheetjson.Error", err, err)
	}
	if !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("errors.Is(%v, domain.ErrInvalid) is false", err)
	}
	if e.Pointer != pointer {
		t.Errorf("pointer %q, want %q (%v)", e.Pointer, pointer, err)
	}
	if !strings.Contains(e.Detail, detail) {
		t.Errorf("detail %q does not say %q", e.Detail, detail)
	}
	if line != 0 && (e.Line != line || e.Column != col) {
		t.Errorf("at line %d column %d, want %d:%d (%v)", e.Line, e.Column, line, col, err)
	}
}

func TestDecodeBatch(t *testing.T) {
	one := `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"base":0,"points":5},"eo":{"base":0,"points":-5}}]}`
	bad1 := `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"base":0,"points":5},"eo":{"base":"0","points":-5}}]}`
	tests := []struct {
		name    string
		in      string
		n       int    // sheets when good
		pointer string // when bad
		detail  string
	}{
		{"a batch of two", `{"sheets":[` + one + `,` + one + `]}`, 2, "", ""},
		{"an empty batch", `{"sheets":[]}`, 0, "", ""},
		{"blanks everywhere", " {\n \"sheets\" :\n [ " + one + " ,\n" + one + " ] \n} \n", 2, "", ""},
		{"escaped sheets key", `{"sheet\u0073":[` + one + `]}`, 1, "", ""},
		{"the bad sheet is named by index", `{"sheets":[` + one + `,` + bad1 + `]}`, 0, "/sheets/1/hands/0/eo/base", "must be a whole number"},
		{"range error in a batch", `{"sheets":[` + one + `,` + one + `,` + strings.Replace(one, `"points":5`, `"points":500000`, 1) + `]}`, 0, "/sheets/2/hands/0/ns/points", "not 500000"},
		{"sheets is not an array", `{"sheets":{}}`, 0, "/sheets", "sheets must be an array of sheets, not an object"},
		{"a sheet that is not an object", `{"sheets":[` + one + `, 5]}`, 0, "/sheets/1", "a sheet must be a JSON object, not a number"},
		{"a null sheet", `{"sheets":[null]}`, 0, "/sheets/0", "not null"},
		{"a batch has only sheets", `{"sheets":[` + one + `],"ruleset":"fitab-2025"}`, 0, "", `a batch has only the field "sheets"`},
		{"trailing comma", `{"sheets":[` + one + `,]}`, 0, "/sheets", "invalid character ',' at start of value"},
		{"missing comma", `{"sheets":[` + one + one + `]}`, 0, "/sheets", "expecting ',' or ']'"},
		{"unterminated batch", `{"sheets":[` + one, 0, "/sheets", "unexpected end of input"},
		{"unclosed batch object", `{"sheets":[]`, 0, "", "unexpected end of input"},
		{"data after the batch", `{"sheets":[]} []`, 0, "", "after the end of the batch"},
		{"syntax error inside a sheet", `{"sheets":[` + one + `,{"ruleset" "x"}]}`, 0, "/sheets/1/ruleset", "malformed JSON"},
		{"missing colon after sheets", `{"sheets" []}`, 0, "/sheets", `expecting ':'`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sheets, batch, err := Decode([]byte(tc.in))
			if !batch {
				t.Errorf("not seen as a batch")
			}
			if tc.pointer == "" && tc.detail == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(sheets) != tc.n || sheets == nil {
					t.Fatalf("%d sheets (nil: %v), want %d", len(sheets), sheets == nil, tc.n)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted: %d sheets", len(sheets))
			}
			checkError(t, err, tc.pointer, tc.detail, 0, 0)
		})
	}
}

// TestDecodeErrorPosition checks line and column on a pretty-printed sheet,
// where a person looks for them.
func TestDecodeErrorPosition(t *testing.T) {
	in := strings.Replace(apiExample, `"eo": {"base": 100, "points": -120, "total": -20}`, `"eo": {"base": 100, "points": -120, "total": "-20"}`, 1)
	_, _, err := Decode([]byte(in))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v", err)
	}
	lines := strings.Split(in, "\n")
	wantLine := 0
	for i, l := range lines {
		if strings.Contains(l, `"total": "-20"`) {
			wantLine = i + 1
		}
	}
	wantCol := strings.Index(lines[wantLine-1], `"-20"`) + 1
	if e.Pointer != "/hands/0/eo/total" || e.Line != wantLine || e.Column != wantCol {
		t.Errorf("got %s at %d:%d, want /hands/0/eo/total at %d:%d", e.Pointer, e.Line, e.Column, wantLine, wantCol)
	}
	if !strings.Contains(e.Error(), fmt.Sprintf("(line %d, column %d)", wantLine, wantCol)) {
		t.Errorf("Error() = %q does not give the position", e.Error())
	}
}

// TestDecodeDeepNesting: a 10 MB document nested deeper than any parser
// stack must be an error, quickly, never a crash.
func TestDecodeDeepNesting(t *testing.T) {
	const depth = 5 << 20 // 10 MB of brackets
	cases := map[string]struct {
		in      []byte
		pointer string
	}{
		"in a known field":    {append(append([]byte(`{"ruleset":"fitab-2025","hands_planned":3,"hands":`), bytes.Repeat([]byte("["), depth)...), append(bytes.Repeat([]byte("]"), depth), '}')...), "/hands/0"},
		"in an unknown field": {append(append([]byte(`{"x":`), bytes.Repeat([]byte(`{"a":`), depth/5)...), bytes.Repeat([]byte("}"), depth/5+1)...), ""}, // the library's depth limit: the pointer is cut to what API §1 knows
		"unbalanced":          {bytes.Repeat([]byte("{\"a\":["), depth/6), ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, _, err := Decode(tc.in)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v", err)
			}
			if e.Pointer != tc.pointer {
				t.Errorf("pointer %q, want %q: %v", e.Pointer, tc.pointer, e)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	e := &Error{Pointer: "/hands/1/ns/base", Detail: "base is required"}
	if got := e.Error(); got != "sheetjson: /hands/1/ns/base: base is required" {
		t.Errorf("Error() = %q", got)
	}
	e = &Error{Pointer: "/tournament", Detail: "tournament must be a string, not 7", Line: 3, Column: 17}
	if got := e.Error(); got != "sheetjson: /tournament: tournament must be a string, not 7 (line 3, column 17)" {
		t.Errorf("Error() = %q", got)
	}
}
