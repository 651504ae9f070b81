package form

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// Correction is the referee's correction form (UI.md §4): kind, reason,
// the facts RULES §9 needs that the records lack, the sheet version it was
// made on, and the corrected values named like the sheet form's inputs
// (UI.md §5: "written.ns.total", "hands.0.ns.points",
// "hands.0.ns.running_total").
type Correction struct {
	Kind                 string
	Reason               string
	Version              int
	BothLinesAcknowledge bool
	RefereeCountersigned bool
	StandingsContested   bool
	Values               map[string]*int // nil: left empty
	Raw                  map[string]string
}

// Kinds are the correction kinds of API §4.1.
var Kinds = []string{"sum", "inversion", "transcription", "other"}

var valueName = regexp.MustCompile(`^(written\.(ns|eo)\.(total|mp|vp)|hands\.[0-9]{1,3}\.(ns|eo)\.(base|points|total|running_total))$`)

// maxReason bounds the reason (API: notes are short).
const maxReason = 500

// ParseCorrection reads and checks the correction form.
func ParseCorrection(w http.ResponseWriter, r *http.Request) (Correction, Errors, error) {
	if err := parse(w, r); err != nil {
		return Correction{}, nil, err
	}
	f := Correction{
		Kind: value(r, "kind"), Reason: value(r, "reason"),
		BothLinesAcknowledge: r.PostFormValue("both_lines_acknowledge") != "",
		RefereeCountersigned: r.PostFormValue("referee_countersigned") != "",
		StandingsContested:   r.PostFormValue("standings_contested") != "",
		Values:               map[string]*int{}, Raw: map[string]string{},
	}
	errs := Errors{}
	kindOK := false
	for _, k := range Kinds {
		kindOK = kindOK || f.Kind == k
	}
	if !kindOK {
		errs["kind"] = "referee.err_kind"
	}
	switch {
	case f.Reason == "":
		errs["reason"] = "referee.err_reason"
	case len(f.Reason) > maxReason:
		errs["reason"] = "referee.err_reason_long"
	}
	if v, err := strconv.Atoi(value(r, "version")); err != nil || v < 1 {
		errs["version"] = "referee.err_version"
	} else {
		f.Version = v
	}
	for name, vals := range r.PostForm {
		if !valueName.MatchString(name) || len(vals) == 0 {
			continue
		}
		s := strings.TrimSpace(vals[0])
		f.Raw[name] = s
		if s == "" {
			f.Values[name] = nil
			continue
		}
		n, err := Score(s)
		if err != nil {
			errs[name] = scoreError(err, "referee.err_number")
			continue
		}
		f.Values[name] = &n
	}
	return f, errs, nil
}
