package sheetjson

import (
	"math/rand/v2"
	"strconv"

	"segnapunti/domain"
)

var names = []string{"Rossi Anna", "Bianchi Luca", "Verdi Carla", "Neri Paolo", "Greco Sara", "De Luca Marco", "Longo Elisa", "Fontana Piero"}

// genSheet makes a plausible, fully filled 3-hand fitab-2025 sheet: what a
// careful club enters by hand, with breakdowns, running totals and the
// bottom of the sheet (RULES §4-§6).
func genSheet(r *rand.Rand, i int) domain.Sheet {
	s := domain.Sheet{
		Ruleset: domain.FITAB2025, HandsPlanned: 3, Kind: domain.KindPairs,
		Tournament: "Coppa Autunno", Round: 1 + i%5, Table: 1 + i%40,
		FirstDealer: "n",
	}
	for l := range s.Sides {
		s.Sides[l] = domain.Side{
			ID:      strconv.Itoa(1 + r.IntN(80)),
			Players: []string{names[r.IntN(len(names))], names[r.IntN(len(names))]},
		}
	}
	var run [2]int
	for h := 0; h < 3; h++ {
		closer := r.IntN(2)
		hand := domain.Hand{End: domain.EndClosed}
		for l := range hand.Lines {
			pulito, sporco := r.IntN(3), r.IntN(3)
			if l == closer && pulito+sporco == 0 {
				pulito = 1
			}
			base := 200*pulito + 100*sporco
			if l == closer {
				base += domain.ClosingBonus
			}
			// A burraco lies on the table with at least 35 points of cards
			// (RULES §5.1 TOO_MANY_BURRACHI, table split).
			table, hand5 := domain.MinBurracoTablePoints*(pulito+sporco)+5*(2+r.IntN(50)), 5*r.IntN(20)
			if l == closer {
				hand5 = 0
			}
			points := table - hand5
			total := base + points
			run[l] += total
			hand.Lines[l] = domain.LineScore{
				Base: base, Points: points, Total: domain.Int(total), RunningTotal: domain.Int(run[l]),
				Burrachi:    map[domain.BurracoType]int{domain.Pulito: pulito, domain.Sporco: sporco},
				Closed:      domain.Bool(l == closer),
				Pozzetto:    domain.PozzettoTaken,
				TablePoints: domain.Int(table), HandPoints: domain.Int(hand5),
			}
		}
		s.Hands = append(s.Hands, hand)
	}
	diff := run[0] - run[1]
	table, _ := domain.ParseVPTable("fitab-3")
	win, lose := table.Lookup(diff)
	vp := [2]int{win, lose}
	if diff < 0 {
		vp = [2]int{lose, win}
	}
	for l := range s.Written {
		mp := diff
		if l == 1 {
			mp = -diff
		}
		s.Written[l] = domain.WrittenResult{Total: domain.Int(run[l]), MP: domain.Int(mp), VP: domain.Int(vp[l])}
	}
	return s
}

func genSheets(n int) []domain.Sheet {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]domain.Sheet, n)
	for i := range out {
		out[i] = genSheet(r, i)
	}
	return out
}
