package store

import (
	"errors"
	"maps"
	"testing"
	"time"

	"segnapunti/domain"
)

func TestBurrachiText(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   map[domain.BurracoType]int
		want *string
	}{
		{"not given", nil, nil},
		{"given, none", map[domain.BurracoType]int{}, new("")},
		{"one type", map[domain.BurracoType]int{domain.Pulito: 1}, new("pulito:1")},
		{"sorted by type", map[domain.BurracoType]int{domain.Sporco: 2, domain.Pulito: 1}, new("pulito:1,sporco:2")},
		{"a zero count is kept", map[domain.BurracoType]int{domain.Reale: 0, domain.RealeSporco: 3}, new("reale:0,reale_sporco:3")},
		{"a type the ruleset may not allow is kept (the validator reports it)", map[domain.BurracoType]int{"super": 1}, new("super:1")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := encodeBurrachi(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if (got == nil) != (tc.want == nil) || (got != nil && *got != *tc.want) {
				t.Fatalf("encode = %v, want %v", show(got), show(tc.want))
			}
			back, err := decodeBurrachi(got)
			if err != nil {
				t.Fatal(err)
			}
			if (back == nil) != (tc.in == nil) || !maps.Equal(back, tc.in) {
				t.Fatalf("decode(%v) = %v, want %v", show(got), back, tc.in)
			}
		})
	}
}

func show(s *string) string {
	if s == nil {
		return "NULL"
	}
	return "'" + *s + "'"
}

func TestBurrachiTextRefusesWhatCannotBeStored(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   map[domain.BurracoType]int
	}{
		{"separator in the type", map[domain.BurracoType]int{"pulito,sporco": 1}},
		{"colon in the type", map[domain.BurracoType]int{"pulito:1": 1}},
		{"upper case", map[domain.BurracoType]int{"Pulito": 1}},
		{"empty type", map[domain.BurracoType]int{"": 1}},
		{"negative count", map[domain.BurracoType]int{domain.Pulito: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := encodeBurrachi(tc.in); !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
		})
	}
	for _, stored := range []string{"pulito", "pulito:", "pulito:x", ":1", "pulito:1,", "pulito:1,pulito:2", "pulito:+1", "pulito:01", "Pulito:1"} {
		if _, err := decodeBurrachi(&stored); err == nil {
			t.Errorf("decode(%q): want an error", stored)
		}
	}
}

// FuzzDecodeBurrachi: stored text never panics the reader, and whatever it
// accepts encodes to text that reads back as the same breakdown.
func FuzzDecodeBurrachi(f *testing.F) {
	for _, s := range []string{"", "pulito:1", "pulito:1,sporco:2", "reale:0", "a:1,a:2", "x:-1", "sporco:2,pulito:1", ",", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := decodeBurrachi(&s)
		if err != nil {
			return
		}
		text, err := encodeBurrachi(m)
		if err != nil {
			t.Fatalf("%q decoded to %v, which does not encode: %v", s, m, err)
		}
		again, err := decodeBurrachi(text)
		if err != nil || !maps.Equal(again, m) {
			t.Fatalf("%q → %v → %q → %v, %v", s, m, *text, again, err)
		}
	})
}

func TestInstantAndDay(t *testing.T) {
	rome := time.FixedZone("CET", 3600)
	at := time.Date(2026, 11, 21, 10, 30, 0, 123456000, rome)
	v, err := instant(at).Value()
	if err != nil || v != "2026-11-21T09:30:00.123456Z" {
		t.Fatalf("Value = %v, %v", v, err)
	}
	for _, stored := range []any{at, "2026-11-21T09:30:00.123456Z", []byte("2026-11-21 09:30:00.123456+00:00")} {
		var i instant
		if err := i.Scan(stored); err != nil || !i.time().Equal(at) || i.time().Location() != time.UTC {
			t.Errorf("Scan(%v) = %v, %v", stored, i.time(), err)
		}
	}
	var i instant
	if err := i.Scan(42); err == nil {
		t.Error("Scan(42): want an error")
	}
	for _, stored := range []any{time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), "2026-11-21", []byte("2026-11-21")} {
		var d day
		if err := d.Scan(stored); err != nil || d != "2026-11-21" {
			t.Errorf("day Scan(%v) = %q, %v", stored, d, err)
		}
	}
}
