package verifier

import (
	"bytes"
	"encoding/json"

	"segnapunti/domain"
	"segnapunti/tournamentfile"
)

// File reads and verifies a file's bytes: an unreadable or inconsistent
// file is the *tournamentfile.Error naming the field (exit 2, a 4xx);
// otherwise the report.
func File(data []byte, lang domain.Lang) (Report, error) {
	f, err := tournamentfile.DecodeBytes(data)
	if err != nil {
		return Report{}, err
	}
	c, err := tournamentfile.Check(f)
	if err != nil {
		return Report{}, err
	}
	return Verify(f, c, lang), nil
}

// jsonReport is the report of API §4.4.
type jsonReport struct {
	OK          bool             `json:"ok"`
	StandingsOK bool             `json:"standings_ok"`
	Verdict     string           `json:"verdict"`
	Differences []jsonDifference `json:"differences"`
}

type jsonDifference struct {
	Code    string  `json:"code"`
	Round   *int    `json:"round"`
	Table   *int    `json:"table"`
	Entrant *string `json:"entrant"`
	Detail  string  `json:"detail"`
	Rule    string  `json:"rule"`
}

// JSON writes the report as API §4.4 (round, table and entrant
// null when the difference has none), with the verdict line in lang.
func (r Report) JSON(lang domain.Lang) ([]byte, error) {
	out := jsonReport{OK: r.OK, StandingsOK: r.StandingsOK, Verdict: r.Verdict(lang), Differences: make([]jsonDifference, len(r.Differences))}
	for i, d := range r.Differences {
		jd := jsonDifference{Code: d.Code, Detail: d.Detail, Rule: d.Rule}
		if d.Round != 0 {
			jd.Round = new(d.Round)
		}
		if d.Table != 0 {
			jd.Table = new(d.Table)
		}
		if d.Entrant != "" {
			jd.Entrant = new(d.Entrant)
		}
		out.Differences[i] = jd
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
