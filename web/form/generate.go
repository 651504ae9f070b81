package form

import (
	"net/http"
	"strconv"
)

// Generate is the "genera turno" form (POST /tournaments/{tid}/rounds/generate):
// the fields of API §4.2's request, with the same names.
type Generate struct {
	Number       int
	System       string
	HandsPlanned int     // 0: the tournament's
	Seed         *uint64 // draw only; empty draws a fresh one
	// Raw keeps what was typed, to show it again with the errors.
	RawNumber, RawHands, RawSeed string
}

// ParseGenerate reads and checks the form's shape; the rules (systems the
// ruleset refuses, rounds already published) are the app's.
func ParseGenerate(w http.ResponseWriter, r *http.Request) (Generate, Errors, error) {
	if err := parse(w, r); err != nil {
		return Generate{}, nil, err
	}
	f := Generate{System: value(r, "system"), RawNumber: value(r, "number"), RawHands: value(r, "hands_planned"), RawSeed: value(r, "seed")}
	errs := Errors{}
	if n, err := strconv.Atoi(f.RawNumber); err != nil || n < 1 {
		errs["number"] = "pairing.whole_number"
	} else {
		f.Number = n
	}
	if f.RawHands != "" {
		if n, err := strconv.Atoi(f.RawHands); err != nil || n < 1 {
			errs["hands_planned"] = "pairing.whole_number"
		} else {
			f.HandsPlanned = n
		}
	}
	if f.System == "" {
		errs["system"] = "form.required"
	}
	if f.RawSeed != "" {
		if s, err := strconv.ParseUint(f.RawSeed, 10, 64); err != nil {
			errs["seed"] = "pairing.whole_number"
		} else {
			f.Seed = &s
		}
	}
	return f, errs, nil
}
