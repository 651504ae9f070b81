package form

import (
	"net/http"
	"strconv"
)

// Adjustment is the referee's adjustment form (POST
// /tournaments/{tid}/adjustments): the fields of API §4.1's request, with
// the same names — entrant, round (empty: the whole tournament), reason,
// note, vp, mp.
type Adjustment struct {
	Entrant, Reason, Note string
	Round, VP, MP         *int
	// Raw keeps what was typed, to show it again with the errors.
	RawRound, RawVP, RawMP string
}

// ParseAdjustment reads the form and checks its shape (whole numbers);
// what a reason needs is the app's rule.
func ParseAdjustment(w http.ResponseWriter, r *http.Request) (Adjustment, Errors, error) {
	if err := parse(w, r); err != nil {
		return Adjustment{}, nil, err
	}
	f := Adjustment{Entrant: value(r, "entrant"), Reason: value(r, "reason"), Note: value(r, "note"),
		RawRound: value(r, "round"), RawVP: value(r, "vp"), RawMP: value(r, "mp")}
	errs := Errors{}
	num := func(name, raw string, min int) *int {
		if raw == "" {
			return nil
		}
		n, err := strconv.Atoi(raw)
		if err != nil || n < min {
			errs[name] = "adjust.err_number"
			return nil
		}
		return &n
	}
	f.Round = num("round", f.RawRound, 1)
	f.VP = num("vp", f.RawVP, -1<<31)
	f.MP = num("mp", f.RawMP, -1<<31)
	if f.Entrant == "" {
		errs["entrant"] = "form.required"
	}
	if f.Reason == "" {
		errs["reason"] = "form.required"
	}
	return f, errs, nil
}
