package domain

import "testing"

// paperSheet is what most clubs type in: base, points, total per line and
// hand, and the bottom of the sheet; no breakdown, so several lines have
// more than one reading (UNVERIFIABLE_BREAKDOWN infos).
func paperSheet() Sheet {
	line := func(base, points int) LineScore {
		return LineScore{Base: base, Points: points, Total: Int(base + points)}
	}
	return Sheet{
		Ruleset: FITAB2025, HandsPlanned: 3, Kind: KindPairs, Round: 2, Table: 7,
		Hands: []Hand{
			{End: EndClosed, Lines: [2]LineScore{line(300, 235), line(100, -120)}},
			{End: EndClosed, Lines: [2]LineScore{line(200, 80), line(400, 150)}},
			{End: EndStockExhausted, Lines: [2]LineScore{line(300, 120), line(150, 40)}},
		},
		Written: [2]WrittenResult{{Total: Int(1235), MP: Int(515), VP: Int(15)}, {Total: Int(720), MP: Int(-515), VP: Int(5)}},
	}
}

// BenchmarkValidate is one typical paper sheet through the whole engine.
func BenchmarkValidate(b *testing.B) {
	s := paperSheet()
	b.ReportAllocs()
	for b.Loop() {
		if r := Validate(s); !r.OK() {
			b.Fatal(r.Findings)
		}
	}
}
