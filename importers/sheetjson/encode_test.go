package sheetjson

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
)

func TestRoundTrip(t *testing.T) {
	api, _, err := Decode([]byte(apiExample))
	if err != nil {
		t.Fatal(err)
	}
	fitab4 := mustVP(t, "fitab-4")
	sheets := map[string]domain.Sheet{
		"API §1 example": api[0],
		"RULES §5 empty breakdown, lost count, individual, pinned table": {
			Ruleset: domain.FIBurIta, HandsPlanned: 4, Kind: domain.KindIndividual, VPTable: fitab4,
			LatePoints: [2]int{0, 150},
			Hands: []domain.Hand{{
				End: domain.EndStall, LostCount: true,
				Lines: [2]domain.LineScore{
					{Base: 0, Points: -100, Burrachi: map[domain.BurracoType]int{}, Closed: domain.Bool(false), Pozzetto: domain.PozzettoNotTaken, PenaltyPoints: domain.Int(0)},
					{Base: 150, Points: 35, Burrachi: map[domain.BurracoType]int{domain.Semipulito: 1}, PozzettoUnplayedPoints: domain.Int(60)},
				},
			}},
			Written: [2]domain.WrittenResult{{VP: domain.Int(0)}, {}},
		},
		"names with quotes, slashes and HTML": {
			Ruleset: domain.FITABInt, HandsPlanned: 2, Kind: domain.KindTeams, Tournament: `"Coppa" <A&B> \ 🂡`,
			Sides: [2]domain.Side{{ID: "a/b", Players: []string{"D'Amico", ""}}, {Players: []string{"Solo"}}},
			Hands: []domain.Hand{{Lines: [2]domain.LineScore{{Base: -100, Points: 5}, {Base: 100000, Points: -100000}}}},
		},
	}
	for i, s := range genSheets(20) {
		sheets["generated "+string(rune('a'+i))] = s
	}
	for name, s := range sheets {
		t.Run(name, func(t *testing.T) {
			data, err := Encode(s)
			if err != nil {
				t.Fatal(err)
			}
			got, batch, err := Decode(data)
			if err != nil {
				t.Fatalf("Decode(Encode(s)): %v\n%s", err, data)
			}
			if batch || len(got) != 1 {
				t.Fatalf("batch=%v, %d sheets", batch, len(got))
			}
			if d := cmp.Diff(s, got[0], cmpSheet); d != "" {
				t.Errorf("Decode(Encode(s)) differs (-s +got):\n%s\n%s", d, data)
			}
		})
	}
}

// TestEncodeOmitsAbsent: API §1 "every field not marked required is
// optional": what the sheet does not say is not written.
func TestEncodeOmitsAbsent(t *testing.T) {
	s := domain.Sheet{
		Ruleset: domain.FIBurInt, HandsPlanned: 2, Kind: domain.KindPairs,
		Hands:   []domain.Hand{{Lines: [2]domain.LineScore{{Base: 300, Points: 235}, {Base: 100, Points: -120, Total: domain.Int(-20)}}}},
		Written: [2]domain.WrittenResult{{}, {VP: domain.Int(7)}},
	}
	got, err := MarshalSheet(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ruleset":"fibur-int","hands_planned":2,"kind":"pairs","hands":[{"ns":{"base":300,"points":235},"eo":{"base":100,"points":-120,"total":-20}}],"written":{"eo":{"vp":7}}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestEncodeBatch(t *testing.T) {
	want := genSheets(3)
	data, err := EncodeBatch(want)
	if err != nil {
		t.Fatal(err)
	}
	got, batch, err := Decode(data)
	if err != nil || !batch {
		t.Fatalf("batch=%v err=%v", batch, err)
	}
	if d := cmp.Diff(want, got, cmpSheet); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	empty, err := EncodeBatch(nil)
	if err != nil || string(empty) != `{"sheets":[]}` {
		t.Errorf("EncodeBatch(nil) = %s, %v", empty, err)
	}
	bad := append(genSheets(2), domain.Sheet{Ruleset: domain.FITAB2025, HandsPlanned: 3})
	if _, err := EncodeBatch(bad); err == nil || err.(*Error).Pointer != "/sheets/2/hands" {
		t.Errorf("EncodeBatch of a sheet without hands: %v", err)
	}
}

// TestEncodeRefuses: Encode writes nothing Decode would refuse.
func TestEncodeRefuses(t *testing.T) {
	ok := func() domain.Sheet { return genSheets(1)[0] }
	tests := []struct {
		name    string
		edit    func(s *domain.Sheet)
		pointer string
	}{
		{"RULES §2 no ruleset", func(s *domain.Sheet) { s.Ruleset = "" }, "/ruleset"},
		{"RULES §1 hands_planned 0", func(s *domain.Sheet) { s.HandsPlanned = 0 }, "/hands_planned"},
		{"no hands", func(s *domain.Sheet) { s.Hands = nil }, "/hands"},
		{"five hands", func(s *domain.Sheet) { s.Hands = append(s.Hands, s.Hands[0], s.Hands[1]) }, "/hands"},
		{"score out of range", func(s *domain.Sheet) { s.Hands[2].Lines[domain.EO].Base = 200000 }, "/hands/2/eo/base"},
		{"negative hand points", func(s *domain.Sheet) { s.Hands[0].Lines[domain.NS].HandPoints = domain.Int(-5) }, "/hands/0/ns/hand_points"},
		{"unknown burraco type", func(s *domain.Sheet) { s.Hands[1].Lines[domain.NS].Burrachi["zz"] = 1 }, "/hands/1/ns/burrachi/zz"},
		{"burraco count 21", func(s *domain.Sheet) { s.Hands[1].Lines[domain.EO].Burrachi[domain.Pulito] = 21 }, "/hands/1/eo/burrachi/pulito"},
		{"unknown end", func(s *domain.Sheet) { s.Hands[0].End = "over" }, "/hands/0/end"},
		{"unknown first dealer", func(s *domain.Sheet) { s.FirstDealer = "x" }, "/first_dealer"},
		{"round out of range", func(s *domain.Sheet) { s.Round = -1 }, "/round"},
		{"written VP out of range", func(s *domain.Sheet) { s.Written[domain.EO].VP = domain.Int(-100001) }, "/written/eo/vp"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := ok()
			tc.edit(&s)
			_, err := Encode(s)
			var e *Error
			if !errors.As(err, &e) || e.Pointer != tc.pointer || !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("got %v, want an error at %s", err, tc.pointer)
			}
		})
	}
}
