package api

import (
	"cmp"
	"slices"
	"strconv"
	"unicode/utf8"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/messages"
)

// appendStandings appends the answer of GET .../standings for st: the
// bytes of marshalJSON(toStandingsResponse(st)), written field by field
// instead of through reflection (TestStandingsEncodingAgrees holds them
// equal, byte for byte). A table of 10,000 entrants encodes to ~5 MB:
// through the response structs and encoding/json it took 23 MB and
// 140,000 allocations (issue 26); here the buffer is the only large
// allocation. Two things are done once per table instead of once per
// row: the tie-break text of a tie-break shared by a run of entrants
// (domain.Standings gives the members of a run the same notes) and a
// team tournament's matches by team.
func appendStandings(b []byte, st app.StandingsTable) ([]byte, error) {
	b = append(b, `{"after_round":`...)
	b = strconv.AppendInt(b, int64(st.AfterRound), 10)
	b = append(b, `,"standings":[`...)
	var matches map[string][]domain.TeamMatchResult
	if st.Teams {
		matches = teamMatchesByTeam(st.TeamMatches)
	}
	type notesKey struct {
		first *domain.Note
		n     int
	}
	tiebreaks := map[notesKey]string{}
	for i := range st.Rows {
		r := &st.Rows[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"rank":`...)
		b = strconv.AppendInt(b, int64(r.Rank), 10)
		b = append(b, `,"entrant":`...)
		b = appendEncodedString(b, r.Entrant.ID)
		b = append(b, `,"players":[`...)
		for k, p := range r.Entrant.Players {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = appendEncodedString(b, p.Name)
			b = append(b, `,"membership":`...)
			b = appendEncodedString(b, p.Membership)
			b = append(b, '}')
		}
		b = append(b, `],"vp":`...)
		b = strconv.AppendInt(b, int64(r.VP), 10)
		b = append(b, `,"mp":`...)
		b = strconv.AppendInt(b, int64(r.MP), 10)
		b = append(b, `,"wins":`...)
		b = strconv.AppendInt(b, int64(r.Wins), 10)
		b = append(b, `,"adjustments":[`...)
		for k, a := range st.Adjustments[r.Entrant.ID] {
			if k > 0 {
				b = append(b, ',')
			}
			// Few and many-shaped: the library's encoding of the same struct.
			aj, err := marshalJSON(toAdjustmentJSON(a))
			if err != nil {
				return nil, err
			}
			b = append(b, aj...)
		}
		b = append(b, `],"tiebreak":`...)
		if len(r.Tiebreak) > 0 {
			k := notesKey{&r.Tiebreak[0], len(r.Tiebreak)}
			text, ok := tiebreaks[k]
			if !ok {
				text = messages.Notes(domain.English, r.Tiebreak)
				tiebreaks[k] = text
			}
			b = appendEncodedString(b, text)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, `,"discrepancies":[`...)
		for k, d := range st.Discrepancies[r.Entrant.ID] {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"round":`...)
			b = strconv.AppendInt(b, int64(d.Round), 10)
			b = append(b, `,"table":`...)
			b = strconv.AppendInt(b, int64(d.Table), 10)
			b = append(b, `,"line":`...)
			b = appendEncodedString(b, d.Line.String())
			b = append(b, `,"official":`...)
			b = appendLineResult(b, d.Official)
			b = append(b, `,"computed":`...)
			b = appendLineResult(b, d.Computed)
			b = append(b, `,"kind":`...)
			b = appendEncodedString(b, string(d.Kind))
			b = append(b, `,"correctable":`...)
			b = appendEncodedString(b, string(d.Correctable))
			b = append(b, '}')
		}
		b = append(b, `],"withdrawn_from_round":`...)
		if w := r.Entrant.WithdrawnFromRound; w != nil {
			b = strconv.AppendInt(b, int64(*w), 10)
		} else {
			b = append(b, "null"...)
		}
		if st.Teams {
			b = append(b, `,"team":`...)
			b = appendEncodedString(b, r.Entrant.Team)
			if ms := matches[r.Entrant.ID]; len(ms) > 0 {
				b = append(b, `,"matches":[`...)
				for k, m := range ms {
					if k > 0 {
						b = append(b, ',')
					}
					b = appendTeamMatch(b, r.Entrant.ID, m)
				}
				b = append(b, ']')
			}
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if st.InterruptedAfterRound != nil {
		b = append(b, `,"interrupted_after_round":`...)
		b = strconv.AppendInt(b, int64(*st.InterruptedAfterRound), 10)
		b = append(b, `,"void":`...)
		b = strconv.AppendBool(b, st.Void)
	}
	return append(b, '}'), nil
}

// teamMatchesByTeam is domain.TeamMatchesOf for every team at once: each
// team's matches in the order of all, then sorted by round the same way.
func teamMatchesByTeam(all []domain.TeamMatchResult) map[string][]domain.TeamMatchResult {
	out := map[string][]domain.TeamMatchResult{}
	for _, m := range all {
		out[m.Teams[0]] = append(out[m.Teams[0]], m)
		if m.Teams[1] != m.Teams[0] {
			out[m.Teams[1]] = append(out[m.Teams[1]], m)
		}
	}
	for _, ms := range out {
		slices.SortFunc(ms, compareTeamMatchRounds)
	}
	return out
}

// compareTeamMatchRounds is domain.TeamMatchesOf's order: by round.
func compareTeamMatchRounds(a, b domain.TeamMatchResult) int { return cmp.Compare(a.Round, b.Round) }

// appendTeamMatch is teamMatchJSON of m from team's side.
func appendTeamMatch(b []byte, team string, m domain.TeamMatchResult) []byte {
	i := 0
	if m.Teams[1] == team {
		i = 1
	}
	b = append(b, `{"round":`...)
	b = strconv.AppendInt(b, int64(m.Round), 10)
	b = append(b, `,"match":`...)
	b = strconv.AppendInt(b, int64(m.Match), 10)
	b = append(b, `,"tables":[`...)
	for k, t := range m.Tables {
		if k > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(t), 10)
	}
	b = append(b, `],"opponent":`...)
	b = appendEncodedString(b, m.Teams[1-i])
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(m.Totals[i]), 10)
	b = append(b, `,"opponent_total":`...)
	b = strconv.AppendInt(b, int64(m.Totals[1-i]), 10)
	b = append(b, `,"mp":`...)
	b = strconv.AppendInt(b, int64(m.MP[i]), 10)
	b = append(b, `,"vp":`...)
	b = strconv.AppendInt(b, int64(m.VP[i]), 10)
	return append(b, '}')
}

func appendLineResult(b []byte, r domain.LineResult) []byte {
	b = append(b, `{"total":`...)
	b = strconv.AppendInt(b, int64(r.Total), 10)
	b = append(b, `,"mp":`...)
	b = strconv.AppendInt(b, int64(r.MP), 10)
	b = append(b, `,"vp":`...)
	b = strconv.AppendInt(b, int64(r.VP), 10)
	return append(b, '}')
}

// appendEncodedString appends s as encoding/json writes a string with
// SetEscapeHTML(false) (marshalJSON): quote, backslash and control
// characters escaped (\b \f \n \r \t, else \u00XX), invalid UTF-8 as
// \ufffd, U+2028 and U+2029 escaped; everything else as it is.
func appendEncodedString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
