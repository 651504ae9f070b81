package sheetjson

import (
	"errors"
	"reflect"
	"testing"
)

// TestDecodeSheetDefaults: a field absent or null takes its default, a
// field given is kept as given (also "" and a line object without id),
// on the fast path and on the library path alike, and a batch is refused.
func TestDecodeSheetDefaults(t *testing.T) {
	s := func(v string) *string { return &v }
	n := func(v int) *int { return &v }
	def := Defaults{Ruleset: s("fitab-2025"), HandsPlanned: n(3), Kind: s("pairs"), Round: n(2), Table: n(7), IDs: [2]*string{s("12"), s("5")}}
	hands := `"hands":[{"ns":{"base":300,"points":235},"eo":{"base":100,"points":-120}}]`
	full := `{"ruleset":"fitab-2025","hands_planned":3,"kind":"pairs","round":2,"table":7,"ns":{"id":"12"},"eo":{"id":"5"},` + hands + `}`
	want, _, err := Decode([]byte(full))
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{
		`{` + hands + `}`,
		`{"ruleset":null,"ns":null,"eo":{},` + hands + `}`,
		`{"ns":{"id":null},"eo":{"players":null},"round":null,` + hands + `}`,
		`{"ns":{"id":"12"},` + hands + `,"late_points":null}`, // null: the library path
	} {
		got, err := DecodeSheet([]byte(body), def)
		if err != nil {
			t.Errorf("%s: %v", body, err)
			continue
		}
		if !reflect.DeepEqual(got, want[0]) {
			t.Errorf("%s:\n got %+v\nwant %+v", body, got, want[0])
		}
	}
	// Given fields stay as given.
	got, err := DecodeSheet([]byte(`{"ns":{"id":""},"eo":{"id":"9"},"round":3,"hands_planned":4,`+hands+`}`), def)
	if err != nil {
		t.Fatal(err)
	}
	if got.Sides[0].ID != "" || got.Sides[1].ID != "9" || got.Round != 3 || got.HandsPlanned != 4 || got.Table != 7 {
		t.Errorf("given fields changed: %+v", got)
	}
	// Without defaults a missing required field is still an error.
	if _, err := DecodeSheet([]byte(`{`+hands+`}`), Defaults{}); err == nil {
		t.Error("no ruleset and no default: accepted")
	}
	var se *Error
	if _, err := DecodeSheet([]byte(`{"sheets":[]}`), def); !errors.As(err, &se) || se.Pointer != "/sheets" {
		t.Errorf("a batch: %v", err)
	}
}
