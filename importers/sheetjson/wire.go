package sheetjson

import (
	"github.com/go-json-experiment/json/jsontext"

	"segnapunti/domain"
)

// The wire structs mirror API §1 field for field. Pointers mark what may be
// absent, so a required field left out is told apart from a zero; they are
// also what encoding/json needs to omit absent optionals when encoding.
// Elements that must not be null (a hand, a player, a burraco count) are
// pointers too: the JSON library reads null as a zero value, a nil pointer
// lets convert refuse it.

type wireSheet struct {
	Ruleset      *string      `json:"ruleset"`
	HandsPlanned *int         `json:"hands_planned"`
	Kind         *string      `json:"kind,omitempty"`
	VPTable      *string      `json:"vp_table,omitempty"`
	Tournament   *string      `json:"tournament,omitempty"`
	Round        *int         `json:"round,omitempty"`
	Table        *int         `json:"table,omitempty"`
	NS           *wireSide    `json:"ns,omitempty"`
	EO           *wireSide    `json:"eo,omitempty"`
	FirstDealer  *string      `json:"first_dealer,omitempty"`
	LatePoints   *wireLate    `json:"late_points,omitempty"`
	Hands        []*wireHand  `json:"hands"`
	Written      *wireWritten `json:"written,omitempty"`
}

type wireSide struct {
	ID *string `json:"id,omitempty"` // nil: absent or null (Defaults)
	// IDs: the two players of a line of an individual tournament (API §4.2).
	IDs     []*string `json:"ids,omitempty"`
	Players []*string `json:"players,omitempty"`
}

type wireLate struct {
	NS int `json:"ns"`
	EO int `json:"eo"`
}

type wireHand struct {
	End       string    `json:"end,omitempty"`
	LostCount bool      `json:"lost_count,omitempty"`
	NS        *wireLine `json:"ns"`
	EO        *wireLine `json:"eo"`
}

type wireLine struct {
	Base         *int `json:"base"`
	Points       *int `json:"points"`
	Total        *int `json:"total,omitempty"`
	RunningTotal *int `json:"running_total,omitempty"`
	// A pointer to the map keeps "burrachi": {} (a breakdown with no
	// burraco) apart from no breakdown at all.
	Burrachi               *map[domain.BurracoType]*int `json:"burrachi,omitempty"`
	Closed                 *bool                        `json:"closed,omitempty"`
	Pozzetto               string                       `json:"pozzetto,omitempty"`
	TablePoints            *int                         `json:"table_points,omitempty"`
	HandPoints             *int                         `json:"hand_points,omitempty"`
	PozzettoUnplayedPoints *int                         `json:"pozzetto_unplayed_points,omitempty"`
	PenaltyPoints          *int                         `json:"penalty_points,omitempty"`
}

type wireWritten struct {
	NS *wireResult `json:"ns,omitempty"`
	EO *wireResult `json:"eo,omitempty"`
}

type wireResult struct {
	Total *int `json:"total,omitempty"`
	MP    *int `json:"mp,omitempty"`
	VP    *int `json:"vp,omitempty"`
}

// shape is the schema of API §1 as the error messages name it: shapeAt
// finds the shape of the value a library error points at.
type shape struct {
	kind  shapeKind
	label string // how a message names a value of this shape
	// fields of an object, in API order; index is the bit in a seen-mask.
	fields []field
	elem   *shape // array element or map value
}

type field struct {
	key   string
	shape *shape
}

type shapeKind uint8

const (
	kindObject shapeKind = iota
	kindArray
	kindBurrachi // object from burraco type to count
	kindString
	kindInt
	kindBool
)

func object(label string, fields ...field) *shape {
	return &shape{kind: kindObject, label: label, fields: fields}
}

// shapeAt returns the shape of the value at ptr (relative to a sheet), or
// nil when ptr leaves the schema.
func shapeAt(ptr jsontext.Pointer) *shape {
	s := sheetShape
	for tok := range ptr.Tokens() {
		switch s.kind {
		case kindObject:
			var next *shape
			for _, f := range s.fields {
				if f.key == tok {
					next = f.shape
				}
			}
			if next == nil {
				return nil
			}
			s = next
		case kindArray, kindBurrachi:
			s = s.elem
		default:
			return nil
		}
	}
	return s
}

func scalar(k shapeKind, label string) *shape { return &shape{kind: k, label: label} }

// names lists the keys of an object shape for messages.
func (s *shape) names() string {
	out := ""
	for i, f := range s.fields {
		switch {
		case i == 0:
		case i == len(s.fields)-1:
			out += " and "
		default:
			out += ", "
		}
		out += f.key
	}
	return out
}

// sheetShape is API §1. It is built once and never changed.
var sheetShape = func() *shape {
	str := func(l string) *shape { return scalar(kindString, l) }
	num := func(l string) *shape { return scalar(kindInt, l) }
	side := object("a line's entrant",
		field{"id", str("id")},
		field{"players", &shape{kind: kindArray, label: "players", elem: str("a player's name")}},
		field{"ids", &shape{kind: kindArray, label: "ids", elem: str("a player's entrant id")}},
	)
	late := object("late_points", field{"ns", num("ns")}, field{"eo", num("eo")})
	line := func() *shape {
		return object("a line's row",
			field{"base", num("base")},
			field{"points", num("points")},
			field{"total", num("total")},
			field{"running_total", num("running_total")},
			field{"burrachi", &shape{kind: kindBurrachi, label: "burrachi", elem: num("a burraco count")}},
			field{"closed", scalar(kindBool, "closed")},
			field{"pozzetto", str("pozzetto")},
			field{"table_points", num("table_points")},
			field{"hand_points", num("hand_points")},
			field{"pozzetto_unplayed_points", num("pozzetto_unplayed_points")},
			field{"penalty_points", num("penalty_points")},
		)
	}
	hand := object("a hand",
		field{"end", str("end")},
		field{"lost_count", scalar(kindBool, "lost_count")},
		field{"ns", line()},
		field{"eo", line()},
	)
	result := func() *shape {
		return object("a line's written result", field{"total", num("total")}, field{"mp", num("mp")}, field{"vp", num("vp")})
	}
	return object("a sheet",
		field{"ruleset", str("ruleset")},
		field{"hands_planned", num("hands_planned")},
		field{"kind", str("kind")},
		field{"vp_table", str("vp_table")},
		field{"tournament", str("tournament")},
		field{"round", num("round")},
		field{"table", num("table")},
		field{"ns", side},
		field{"eo", side},
		field{"first_dealer", str("first_dealer")},
		field{"late_points", late},
		field{"hands", &shape{kind: kindArray, label: "hands", elem: hand}},
		field{"written", object("written", field{"ns", result()}, field{"eo", result()})},
	)
}()
