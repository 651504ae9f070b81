package domain

import (
	"fmt"
	"strconv"
	"strings"
)

// PrizeKind is what a prize category rewards.
type PrizeKind string

// The prize categories a tournament may define.
const (
	PrizeOverall  PrizeKind = "overall"   // the final standings as they are
	PrizeLadies   PrizeKind = "ladies"    // every player of the entrant is F
	PrizeSeniors  PrizeKind = "seniors"   // every player born in or before BornBy
	PrizeBestClub PrizeKind = "best_club" // one award per club, see prizeBestClubReading
	PrizeHostClub PrizeKind = "host_club" // the entrants of the host club
	PrizeCustom   PrizeKind = "custom"    // by a player attribute, see PrizeAttribute
)

// PrizeKinds lists the kinds in the order the forms offer them.
var PrizeKinds = []PrizeKind{PrizeOverall, PrizeLadies, PrizeSeniors, PrizeBestClub, PrizeHostClub, PrizeCustom}

// PrizeAttribute is the player attribute of a custom category.
type PrizeAttribute string

// The attributes a custom category can test. Every player of the entrant
// must pass the test; a player whose attribute is not given fails it.
const (
	PrizeAttrSex      PrizeAttribute = "sex"       // Value "F" or "M"
	PrizeAttrBornBy   PrizeAttribute = "born_by"   // born in or before the year Value
	PrizeAttrBornFrom PrizeAttribute = "born_from" // born in or after the year Value
)

// PrizeAttributes lists the custom categories' attributes.
var PrizeAttributes = []PrizeAttribute{PrizeAttrSex, PrizeAttrBornBy, PrizeAttrBornFrom}

// PrizeCategory is one category of prizes of a tournament. The order of a
// tournament's categories is their order of value: see prizeOrderReading.
type PrizeCategory struct {
	ID     string // the category's name in URLs and pages (data-prize), e.g. "assoluta"
	Kind   PrizeKind
	Label  string // what the prize list prints, e.g. "Classifica assoluta"
	Places int    // how many awards
	// BornBy is the seniors' year: every player born in or before it.
	BornBy int
	// Club is the host club's name for host_club, compared with the
	// entrants' club ignoring case and surrounding spaces.
	Club      string
	Attribute PrizeAttribute // custom only
	Value     string         // custom only
	// Cumulative: an entrant may win this prize as well as another one;
	// such a prize neither needs nor uses up the entrant's one prize.
	Cumulative bool
}

// Award is one prize won: the Place-th award of category Category.
type Award struct {
	Category string // the category's ID
	Label    string
	Place    int // 1 for the first award of the category
	Standing Standing
}

// MaxPrizeCategories and MaxPrizePlaces bound what a tournament defines.
const (
	MaxPrizeCategories = 20
	MaxPrizePlaces     = 100
)

// validPrizeID: 1 to 40 of a-z, 0-9, '_' and '-', starting with a letter
// or digit. Checked by hand, not with regexp: domain is compiled into the
// phones' engine (cmd/engine-wasm), where regexp alone weighs 400 KB.
func validPrizeID(id string) bool {
	if id == "" || len(id) > 40 || id[0] == '_' || id[0] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// ValidatePrizeCategories checks a tournament's categories; the error
// wraps ErrInvalid and names the field, e.g. "prizes[2].places".
func ValidatePrizeCategories(cats []PrizeCategory) error {
	if len(cats) > MaxPrizeCategories {
		return refuse("prizes", "prize.too_many", MaxPrizeCategories)
	}
	seen := map[string]bool{}
	for i, c := range cats {
		f := func(name string) string { return fmt.Sprintf("prizes[%d].%s", i, name) }
		if !validPrizeID(c.ID) {
			return refuse(f("id"), "prize.bad_id", c.ID)
		}
		if seen[c.ID] {
			return refuse(f("id"), "prize.twice", c.ID)
		}
		seen[c.ID] = true
		if strings.TrimSpace(c.Label) == "" || len(c.Label) > 100 {
			return refuse(f("label"), "prize.label")
		}
		if c.Places < 1 || c.Places > MaxPrizePlaces {
			return refuse(f("places"), "prize.places", c.Places, MaxPrizePlaces)
		}
		switch c.Kind {
		case PrizeOverall, PrizeLadies, PrizeBestClub:
		case PrizeSeniors:
			if !plausibleYear(c.BornBy) {
				return refuse(f("born_by"), "prize.born_by", c.BornBy)
			}
		case PrizeHostClub:
			if strings.TrimSpace(c.Club) == "" {
				return refuse(f("club"), "prize.host_club")
			}
		case PrizeCustom:
			switch c.Attribute {
			case PrizeAttrSex:
				if c.Value != "F" && c.Value != "M" {
					return refuse(f("value"), "prize.sex", c.Value)
				}
			case PrizeAttrBornBy, PrizeAttrBornFrom:
				if y, err := strconv.Atoi(c.Value); err != nil || !plausibleYear(y) {
					return refuse(f("value"), "prize.year", c.Value)
				}
			default:
				return refuse(f("attribute"), "prize.attribute", c.Attribute)
			}
		default:
			return refuse(f("kind"), "prize.kind", c.Kind)
		}
	}
	return nil
}

// ValidPlayerSex checks an entrant player's optional sex: "", "F" or "M".
func ValidPlayerSex(s string) bool { return s == "" || s == "F" || s == "M" }

// ValidBirthYear checks an entrant player's optional birth year: 0 (not
// given) or a year between 1900 and 2100.
func ValidBirthYear(y int) bool { return y == 0 || plausibleYear(y) }

func plausibleYear(y int) bool { return y >= 1900 && y <= 2100 }

// Eligible says whether an entrant may win in the category by who its
// players are (best_club and overall: everybody with, for best_club, a
// club). An entrant without players is eligible only where no player
// attribute is tested.
func (c PrizeCategory) Eligible(e Entrant) bool {
	all := func(test func(Player) bool) bool {
		if len(e.Players) == 0 {
			return false
		}
		for _, p := range e.Players {
			if !test(p) {
				return false
			}
		}
		return true
	}
	switch c.Kind {
	case PrizeOverall:
		return true
	case PrizeLadies:
		return all(func(p Player) bool { return p.Sex == "F" })
	case PrizeSeniors:
		return all(func(p Player) bool { return p.BirthYear != 0 && p.BirthYear <= c.BornBy })
	case PrizeBestClub:
		return prizeClubKey(e.Club) != ""
	case PrizeHostClub:
		return prizeClubKey(e.Club) != "" && prizeClubKey(e.Club) == prizeClubKey(c.Club)
	case PrizeCustom:
		year, _ := strconv.Atoi(c.Value)
		switch c.Attribute {
		case PrizeAttrSex:
			return all(func(p Player) bool { return p.Sex == c.Value })
		case PrizeAttrBornBy:
			return all(func(p Player) bool { return p.BirthYear != 0 && p.BirthYear <= year })
		case PrizeAttrBornFrom:
			return all(func(p Player) bool { return p.BirthYear != 0 && p.BirthYear >= year })
		}
	}
	return false
}

func prizeClubKey(club string) string { return strings.ToLower(strings.TrimSpace(club)) }

// AwardPrizes gives the prizes of the categories from the final standings
// (in rank order, as Standings gives them). The categories are awarded one
// after the other in the order given; see prizeOrderReading and
// prizeBestClubReading for the readings they make. A category with fewer
// eligible entrants than places gives fewer awards. The awards come in
// category order, then place.
func AwardPrizes(cats []PrizeCategory, standings []Standing) ([]Award, error) {
	if err := ValidatePrizeCategories(cats); err != nil {
		return nil, err
	}
	won := map[string]bool{} // entrants that used up their one prize
	var out []Award
	for _, c := range cats {
		clubs := map[string]bool{}
		place := 0
		for _, s := range standings {
			if place == c.Places {
				break
			}
			if !prizeOrderReading(c, won[s.Entrant.ID]) || !c.Eligible(s.Entrant) {
				continue
			}
			if c.Kind == PrizeBestClub {
				key := prizeClubKey(s.Entrant.Club)
				if clubs[key] {
					continue
				}
				clubs[key] = true
			}
			place++
			out = append(out, Award{Category: c.ID, Label: c.Label, Place: place, Standing: s})
			if !c.Cumulative {
				won[s.Entrant.ID] = true
			}
		}
	}
	return out, nil
}
