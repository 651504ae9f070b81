package form

import (
	"net/http"
	"strconv"
)

// Tournament is the new-tournament form (UI.md §3, the fields of API
// §4.1). The operation checks the values; this only reads them, and the
// numbers as numbers.
type Tournament struct {
	Name, Date, Level, Ruleset, Kind string
	RoundsPlanned, HandsPerRound     string // as typed, shown back on error
}

// Number parses a whole number typed in a form field; ok is false for
// anything else.
func Number(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// ParseTournament reads the new-tournament form.
func ParseTournament(w http.ResponseWriter, r *http.Request) (Tournament, Errors, error) {
	if err := parse(w, r); err != nil {
		return Tournament{}, nil, err
	}
	f := Tournament{
		Name: value(r, "name"), Date: value(r, "date"), Level: value(r, "level"), Ruleset: value(r, "ruleset"),
		Kind: value(r, "kind"), RoundsPlanned: value(r, "rounds_planned"), HandsPerRound: value(r, "hands_per_round"),
	}
	errs := Errors{}
	for name, v := range map[string]string{"rounds_planned": f.RoundsPlanned, "hands_per_round": f.HandsPerRound} {
		if _, ok := Number(v); !ok {
			errs[name] = "secretary.whole_number"
		}
	}
	return f, errs, nil
}
