package domain

import (
	"errors"
	"fmt"
)

// Sentinel errors, wrapped with %w and translated once at the edges.
var (
	ErrInvalid  = errors.New("invalid")
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("conflict")
)

// Rank is a card rank as far as scoring cares (RULES §3).
type Rank string

const (
	Joker Rank = "joker" // jolly, a wild
	Two   Rank = "2"     // pinella, a wild unless natural in its sequence
	Ace   Rank = "A"
	King  Rank = "K"
	Queen Rank = "Q"
	Jack  Rank = "J"
	Ten   Rank = "10"
	Nine  Rank = "9"
	Eight Rank = "8"
	Seven Rank = "7"
	Six   Rank = "6"
	Five  Rank = "5"
	Four  Rank = "4"
	Three Rank = "3"
)

// Ranks lists every rank, wilds first.
var Ranks = []Rank{Joker, Two, Ace, King, Queen, Jack, Ten, Nine, Eight, Seven, Six, Five, Four, Three}

// Value is the card's point value (FITAB art. 18, FIBur-INT art. 17).
func (r Rank) Value() int {
	switch r {
	case Joker:
		return 30
	case Two:
		return 20
	case Ace:
		return 15
	case King, Queen, Jack, Ten, Nine, Eight:
		return 10
	default:
		return 5
	}
}

// CountInDeck is how many cards of the rank two 54-card decks hold.
func (r Rank) CountInDeck() int {
	switch r {
	case Joker:
		return 4
	default:
		return 8
	}
}

// Deck facts of RULES §3 (FITAB art. 1, 17; FIBur-INT art. 1, 16).
const (
	DeckCards = 108  // two 54-card decks
	DeckValue = 1080 // the value of all 108 cards
	// MinOutOfPlayCards: the stock never goes below 2 cards and the discard
	// pile holds at least the last discard, so 3 cards score for nobody.
	MinOutOfPlayCards = 3
	// MinOutOfPlayValue is the least those 3 cards can be worth (three 5s).
	MinOutOfPlayValue = 15
	PozzettoCards     = 11
	// MinPozzettoValue is the least an untaken pozzetto can be worth.
	MinPozzettoValue = 55
	ClosingBonus     = 100
	// PozzettoPenalty is charged to a line that did not take its pozzetto.
	PozzettoPenalty = 100
	// MinBurracoTablePoints: a burraco has at least 7 cards of at least 5
	// points (RULES §5.1 TOO_MANY_BURRACHI, the table-split check).
	MinBurracoTablePoints = 35
)

// MaxCardPoints is the most card points the two lines can score between
// them in one hand: the deck less the cards out of play and any untaken
// pozzetto (RULES §5.1 CARD_POINTS_IMPOSSIBLE).
func MaxCardPoints(untakenPozzetti int) int {
	return DeckValue - MinOutOfPlayValue - MinPozzettoValue*untakenPozzetti
}

// MaxBurracoCards is how many cards can lie in burrachi at the end of a
// hand (RULES §5.1 TOO_MANY_BURRACHI).
func MaxBurracoCards(untakenPozzetti int) int {
	return DeckCards - MinOutOfPlayCards - PozzettoCards*untakenPozzetti
}

// BurracoType is a kind of burraco (a meld of at least 7 cards), RULES §4.
type BurracoType string

const (
	Reale       BurracoType = "reale"
	RealeSporco BurracoType = "reale_sporco"
	Super       BurracoType = "super"
	SuperSporco BurracoType = "super_sporco"
	Pulito      BurracoType = "pulito"
	Semipulito  BurracoType = "semipulito"
	Sporco      BurracoType = "sporco"
)

// BurracoTypes lists every type of every ruleset, highest bonus first.
var BurracoTypes = []BurracoType{Reale, RealeSporco, Super, SuperSporco, Pulito, Semipulito, Sporco}

// ParseBurracoType returns the type with the given id.
func ParseBurracoType(id string) (BurracoType, error) {
	for _, t := range BurracoTypes {
		if string(t) == id {
			return t, nil
		}
	}
	return "", fmt.Errorf("%w: unknown burraco type %q", ErrInvalid, id)
}

// Bonus is the burraco's bonus (FITAB art. 13, 18; FIBur-INT art. 13, 17).
func (t BurracoType) Bonus() int {
	switch t {
	case Reale:
		return 300
	case RealeSporco, Super:
		return 250
	case SuperSporco, Pulito:
		return 200
	case Semipulito:
		return 150
	case Sporco:
		return 100
	}
	return 0
}

// MinCards is the least number of cards a burraco of the type holds
// (RULES §4): a reale runs A..K (13), a super is 8 equal cards.
func (t BurracoType) MinCards() int {
	switch t {
	case Reale:
		return 13
	case RealeSporco:
		return 14
	case Super, Semipulito:
		return 8
	case SuperSporco:
		return 9
	default:
		return 7
	}
}

// MinPoints is the least card points a burraco of the type holds, its
// cards at their RULES §3 values and a wild counted as a 2 at 20 (RULES §4):
// a reale is A, 2..K of one suit (120), a super eight 3s (40), a pulito seven
// 3s (35), a sporco six 3s and a wild (50), a semipulito seven 3s and a wild
// (55).
func (t BurracoType) MinPoints() int {
	switch t {
	case Reale:
		return 120
	case RealeSporco:
		return 140
	case Super:
		return 40
	case SuperSporco:
		return 60
	case Pulito:
		return 35
	case Semipulito:
		return 55
	case Sporco:
		return 50
	}
	return MinBurracoTablePoints
}

// CarriesWild reports whether a burraco of the type holds a wild card (a
// joker or a 2 out of its natural place), RULES §4.
func (t BurracoType) CarriesWild() bool {
	return t == Sporco || t == Semipulito || t == RealeSporco || t == SuperSporco
}

// MaxWildBurrachi: a deal has 12 wild cards (4 jokers, 8 twos) and a meld
// holds at most one (FITAB art. 9, FIBur-INT art. 9), so both lines together
// hold at most 12 burrachi that carry a wild (RULES §4).
const MaxWildBurrachi = 12

// IntlLaterPulitoMinPoints is the least card points of a line's second and
// each further pulito in fitab-int and fibur-int: combinations are only of
// aces or threes and no two equal combinations may be opened (FITAB-INT
// rule 2, FIBur-INT art. 30), so after one combination of seven 3s the next
// cheapest pulito is a sequence 3..9 (RULES §4).
const IntlLaterPulitoMinPoints = 45

// MinBurrachiPoints is the least card points the burrachi of one line's
// breakdown hold in the ruleset (RULES §4). Types no ruleset knows count as
// MinBurracoTablePoints.
func MinBurrachiPoints(rs Ruleset, burrachi map[BurracoType]int) int {
	sum := 0
	for t, n := range burrachi {
		if n <= 0 {
			continue
		}
		if t == Pulito && rs.International() {
			sum += Pulito.MinPoints() + (n-1)*IntlLaterPulitoMinPoints
			continue
		}
		sum += n * t.MinPoints()
	}
	return sum
}

// WildBurrachi is the number of burrachi of a breakdown that carry a wild.
func WildBurrachi(burrachi map[BurracoType]int) int {
	n := 0
	for t, c := range burrachi {
		if c > 0 && t.CarriesWild() {
			n += c
		}
	}
	return n
}

// UnknownBurracoMinCards is the card count assumed for a burraco whose type
// is not known (RULES §5.1 TOO_MANY_BURRACHI).
const UnknownBurracoMinCards = 7
