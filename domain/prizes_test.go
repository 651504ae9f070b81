package domain_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"segnapunti/domain"
)

// prizeTable is a hand-made final standings of a 40-pair club evening:
// rank | pair | club | players as sex+birth year ("-" sex or year 0: not
// given). The host club is "Circolo Roma"; pair 14 writes it differently.
const prizeTable = `
1|17|Milano|M1950 F1952
2|3|Circolo Roma|F1948 F1950
3|22|Torino|M1970 M1972
4|8|Circolo Roma|F1980 F1982
5|31|Milano|M1955 M1958
6|12|Napoli|F1960 -0
7|5|Torino|F1975 F1990
8|40|Circolo Roma|M1960 M1945
9|1|Milano|M1985 F1986
10|27|Napoli|F1999 M2000
11|14| circolo ROMA |M1990 M1991
12|9|Torino|F1950 F1955
13|33||F1940 F1941
14|2|Napoli|M1961 M1962
15|4|Milano|F1970 M1971
16|6|Torino|M1980 M1981
17|7|Circolo Roma|F1958 M1959
18|10|Napoli|F1991 F1992
19|11|Milano|M1940 M1942
20|13|Torino|F1965 F1966
21|15|Circolo Roma|M1975 F1976
22|16|Napoli|M1950 F1951
23|18|Milano|F2001 F2002
24|19|Torino|M1945 M1946
25|20|Circolo Roma|F1930 F1935
26|21|Napoli|M1985 M1986
27|23|Milano|F1960 F1961
28|24|Torino|M1990 F1990
29|25|Circolo Roma|M1952 M1953
30|26|Napoli|F1944 F1945
31|28|Milano|M1970 M1970
32|29|Torino|F1980 F1981
33|30|Circolo Roma|M1999 M2000
34|32|Napoli|F1955 M1956
35|34|Milano|M1960 F1960
36|35|Torino|F1970 F1972
37|36|Circolo Roma|M1940 F1941
38|37|Napoli|M1988 M1989
39|38|Milano|F1950 F1950
40|39|Torino|M1966 M1967
`

func parsePrizeTable(t *testing.T, table string) []domain.Standing {
	t.Helper()
	var out []domain.Standing
	for _, line := range strings.Split(strings.TrimSpace(table), "\n") {
		f := strings.Split(line, "|")
		rank, err := strconv.Atoi(f[0])
		if err != nil || len(f) != 4 {
			t.Fatalf("bad row %q", line)
		}
		e := domain.Entrant{ID: f[1], Club: f[2]}
		for i, p := range strings.Fields(f[3]) {
			sex := p[:1]
			if sex == "-" {
				sex = ""
			}
			year, err := strconv.Atoi(p[1:])
			if err != nil {
				t.Fatalf("bad player %q in row %q", p, line)
			}
			e.Players = append(e.Players, domain.Player{Name: fmt.Sprintf("Giocatore %s.%d", f[1], i+1), Sex: sex, BirthYear: year})
		}
		out = append(out, domain.Standing{Rank: rank, Entrant: e, VP: 200 - rank})
	}
	return out
}

func fiveCategories() []domain.PrizeCategory {
	return []domain.PrizeCategory{
		{ID: "assoluta", Kind: domain.PrizeOverall, Label: "Classifica assoluta", Places: 3},
		{ID: "dame", Kind: domain.PrizeLadies, Label: "Coppie femminili", Places: 2},
		{ID: "senior", Kind: domain.PrizeSeniors, Label: "Senior (nati entro il 1960)", Places: 2, BornBy: 1960},
		{ID: "circolo", Kind: domain.PrizeBestClub, Label: "Miglior circolo", Places: 2},
		{ID: "locale", Kind: domain.PrizeHostClub, Label: "Miglior coppia del circolo", Places: 1, Club: "Circolo Roma"},
	}
}

func awardList(aw []domain.Award) string {
	var b strings.Builder
	for _, a := range aw {
		fmt.Fprintf(&b, "%s/%d=%s ", a.Category, a.Place, a.Standing.Entrant.ID)
	}
	return strings.TrimSpace(b.String())
}

// A 40-pair tournament with 5 categories,
// against the hand-made table. Worked by hand:
//   - assoluta: ranks 1-3 → 17, 3, 22.
//   - dame: 3 (F F) has won already; 8 (F F) and 5 (F F); 12 has a player
//     whose sex is not given, so it is not all-F.
//   - senior ≤ 1960: 17, 3, 8 have won; 31 (1955, 1958), then 40 (1960 is
//     "in or before"); 12 has a player of unknown birth year.
//   - circolo: the first entrants still without a prize are 12 (Napoli),
//     then 1 (Milano); Torino's 9 comes after.
//   - locale (Circolo Roma): 3, 8, 40 have won; 14 (" circolo ROMA ").
func TestAwardPrizes_Issue22_FortyPairsFiveCategories(t *testing.T) {
	standings := parsePrizeTable(t, prizeTable)
	if len(standings) != 40 {
		t.Fatalf("table has %d rows, want 40", len(standings))
	}
	aw, err := domain.AwardPrizes(fiveCategories(), standings)
	if err != nil {
		t.Fatal(err)
	}
	want := "assoluta/1=17 assoluta/2=3 assoluta/3=22 dame/1=8 dame/2=5 senior/1=31 senior/2=40 circolo/1=12 circolo/2=1 locale/1=14"
	if got := awardList(aw); got != want {
		t.Errorf("awards\n got %s\nwant %s", got, want)
	}
	for _, a := range aw {
		if a.Label == "" || a.Standing.Rank == 0 {
			t.Errorf("award %+v lacks its label or standing", a)
		}
	}
}

// [INTERP] prizeOrderReading: the earlier category wins; listing ladies
// first gives 3 and 8 to ladies and moves the overall prizes down.
func TestAwardPrizes_Issue22_EarlierCategoryWins(t *testing.T) {
	standings := parsePrizeTable(t, prizeTable)
	cats := []domain.PrizeCategory{
		{ID: "dame", Kind: domain.PrizeLadies, Label: "Dame", Places: 2},
		{ID: "assoluta", Kind: domain.PrizeOverall, Label: "Assoluta", Places: 3},
	}
	aw, err := domain.AwardPrizes(cats, standings)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := awardList(aw), "dame/1=3 dame/2=8 assoluta/1=17 assoluta/2=22 assoluta/3=31"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// A cumulative category gives its prize to an entrant that already won
// one, and does not use up the entrant's one prize.
func TestAwardPrizes_Issue22_Cumulative(t *testing.T) {
	standings := parsePrizeTable(t, prizeTable)
	cats := []domain.PrizeCategory{
		{ID: "senior", Kind: domain.PrizeSeniors, Label: "Senior", Places: 1, BornBy: 1960, Cumulative: true},
		{ID: "assoluta", Kind: domain.PrizeOverall, Label: "Assoluta", Places: 1},
		{ID: "dame", Kind: domain.PrizeLadies, Label: "Dame", Places: 1, Cumulative: true},
	}
	aw, err := domain.AwardPrizes(cats, standings)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := awardList(aw), "senior/1=17 assoluta/1=17 dame/1=3"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// Custom categories test every player's attribute; an attribute not given
// fails the test; born_by and born_from include the year itself.
func TestAwardPrizes_Issue22_CustomAttributes(t *testing.T) {
	standings := parsePrizeTable(t, prizeTable)
	cats := []domain.PrizeCategory{
		{ID: "maschili", Kind: domain.PrizeCustom, Label: "Coppie maschili", Places: 2, Attribute: domain.PrizeAttrSex, Value: "M"},
		{ID: "giovani", Kind: domain.PrizeCustom, Label: "Giovani", Places: 2, Attribute: domain.PrizeAttrBornFrom, Value: "1990"},
		{ID: "over", Kind: domain.PrizeCustom, Label: "Nati entro il 1945", Places: 2, Attribute: domain.PrizeAttrBornBy, Value: "1945"},
	}
	aw, err := domain.AwardPrizes(cats, standings)
	if err != nil {
		t.Fatal(err)
	}
	// maschili: 22 (M M), 31 (M M). giovani ≥ 1990: 27 (1999, 2000), then
	// 14 (1990, 1991). over ≤ 1945: 33 (1940, 1941, rank 13), then 11
	// (1940, 1942, rank 19); 19 (1945, 1946, rank 24) would fail anyway.
	if got, want := awardList(aw), "maschili/1=22 maschili/2=31 giovani/1=27 giovani/2=14 over/1=33 over/2=11"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// A category with fewer eligible entrants than places gives fewer awards;
// no categories, no awards.
func TestAwardPrizes_Issue22_FewerEligibleThanPlaces(t *testing.T) {
	standings := parsePrizeTable(t, prizeTable)
	cats := []domain.PrizeCategory{{ID: "senior", Kind: domain.PrizeSeniors, Label: "Senior", Places: 50, BornBy: 1930}}
	aw, err := domain.AwardPrizes(cats, standings)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := awardList(aw), ""; got != want {
		t.Errorf("got %q, want %q (1930/1935 is not all born by 1930)", got, want)
	}
	cats[0].BornBy = 1935
	aw, _ = domain.AwardPrizes(cats, standings)
	if got, want := awardList(aw), "senior/1=20"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if aw, err := domain.AwardPrizes(nil, standings); err != nil || len(aw) != 0 {
		t.Errorf("no categories: %v, %v", aw, err)
	}
}

func TestValidatePrizeCategories_Issue22(t *testing.T) {
	ok := fiveCategories()
	if err := domain.ValidatePrizeCategories(ok); err != nil {
		t.Fatalf("valid categories refused: %v", err)
	}
	cases := []struct {
		field string
		edit  func(*domain.PrizeCategory)
	}{
		{"prizes[1].id", func(c *domain.PrizeCategory) { c.ID = "Dame!" }},
		{"prizes[1].id", func(c *domain.PrizeCategory) { c.ID = "assoluta" }},
		{"prizes[1].label", func(c *domain.PrizeCategory) { c.Label = " " }},
		{"prizes[1].places", func(c *domain.PrizeCategory) { c.Places = 0 }},
		{"prizes[1].places", func(c *domain.PrizeCategory) { c.Places = domain.MaxPrizePlaces + 1 }},
		{"prizes[1].kind", func(c *domain.PrizeCategory) { c.Kind = "best_dog" }},
		{"prizes[1].born_by", func(c *domain.PrizeCategory) { c.Kind = domain.PrizeSeniors; c.BornBy = 0 }},
		{"prizes[1].club", func(c *domain.PrizeCategory) { c.Kind = domain.PrizeHostClub; c.Club = "" }},
		{"prizes[1].attribute", func(c *domain.PrizeCategory) { c.Kind = domain.PrizeCustom; c.Attribute = "eyes" }},
		{"prizes[1].value", func(c *domain.PrizeCategory) {
			c.Kind = domain.PrizeCustom
			c.Attribute = domain.PrizeAttrSex
			c.Value = "X"
		}},
		{"prizes[1].value", func(c *domain.PrizeCategory) {
			c.Kind = domain.PrizeCustom
			c.Attribute = domain.PrizeAttrBornFrom
			c.Value = "18"
		}},
	}
	for _, tc := range cases {
		cats := fiveCategories()
		tc.edit(&cats[1])
		err := domain.ValidatePrizeCategories(cats)
		if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%+v: error %v, want ErrInvalid naming %s", cats[1], err, tc.field)
		}
		if _, err := domain.AwardPrizes(cats, nil); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("AwardPrizes accepted invalid %+v", cats[1])
		}
	}
	if !domain.ValidPlayerSex("") || !domain.ValidPlayerSex("F") || domain.ValidPlayerSex("f") {
		t.Error("ValidPlayerSex")
	}
	if !domain.ValidBirthYear(0) || !domain.ValidBirthYear(1950) || domain.ValidBirthYear(1850) {
		t.Error("ValidBirthYear")
	}
}

// BenchmarkAwardPrizes: a 1,000-pair final standings, the five categories.
func BenchmarkAwardPrizes(b *testing.B) {
	var standings []domain.Standing
	clubs := []string{"Circolo Roma", "Milano", "Torino", "Napoli", "Bari"}
	for i := 1; i <= 1000; i++ {
		sex := []string{"F", "M"}
		e := domain.Entrant{ID: strconv.Itoa(i), Club: clubs[i%len(clubs)], Players: []domain.Player{
			{Name: "A", Sex: sex[i%2], BirthYear: 1940 + i%60}, {Name: "B", Sex: sex[(i/2)%2], BirthYear: 1945 + i%50}}}
		standings = append(standings, domain.Standing{Rank: i, Entrant: e})
	}
	cats := fiveCategories()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := domain.AwardPrizes(cats, standings); err != nil {
			b.Fatal(err)
		}
	}
}
