package api

import (
	"encoding/json"
	"fmt"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/messages"
)

// Who sits at a line (API §4.2): in pairs and team tournaments one entrant
// id, "ns": "1"; in individual tournaments the line's two players, "ns":
// ["3", "11"]. A request may use either shape; the operation refuses the
// one the tournament's kind does not take, naming the field.

// lineJSON is a line in a response: a string for one entrant, an array for
// the players of an individual line.
type lineJSON []string

func (l lineJSON) MarshalJSON() ([]byte, error) {
	if len(l) == 1 {
		return json.Marshal(l[0])
	}
	if l == nil {
		return []byte(`""`), nil
	}
	return json.Marshal([]string(l))
}

// tableRequest is one table of POST/PUT .../rounds as written.
type tableRequest struct {
	Table int        `json:"table"`
	Match int        `json:"match"` // teams: the match of the table (RULES §12.5)
	NS    *jsonValue `json:"ns"`
	EO    *jsonValue `json:"eo"`
}

// roundInput turns a round request into the operation's input, keeping the
// shape each line was written in; a line that is neither a string nor an
// array of strings is a 422 naming it.
func roundInput(req roundRequest) (app.RoundInput, error) {
	in := app.RoundInput{Number: req.Number, HandsPlanned: req.HandsPlanned, Phase: req.Phase, Byes: req.Byes, Vacated: req.Vacated}
	var errs []fieldError
	for i, tb := range req.Tables {
		var lines [2]app.LineInput
		for l, v := range [2]*jsonValue{tb.NS, tb.EO} {
			ptr := fmt.Sprintf("/tables/%d/%s", i, domain.Line(l))
			switch {
			case v == nil || v.kind == jsonNull:
				lines[l] = app.LineInput{IDs: []string{""}} // the operation says it is required
			case v.kind == jsonString:
				lines[l] = app.One(v.text)
			case v.kind == jsonArray:
				ids := make([]string, 0, len(v.items))
				for j, it := range v.items {
					if it.kind != jsonString {
						errs = append(errs, fieldMsg(fieldError{Pointer: fmt.Sprintf("%s/%d", ptr, j)}, messages.New("api.line_want_player", it.kind.msg())))
						continue
					}
					ids = append(ids, it.text)
				}
				lines[l] = app.Players(ids...)
			default:
				errs = append(errs, fieldMsg(fieldError{Pointer: ptr}, messages.New("api.line_want_id", v.kind.msg())))
			}
		}
		ta := domain.TableAssignment{Table: tb.Table, Match: tb.Match}
		for _, l := range domain.Lines {
			ta.SetLine(l, lines[l].IDs)
		}
		in.Tables = append(in.Tables, ta)
		in.Written = append(in.Written, lines)
	}
	if len(errs) > 0 {
		return in, errInvalid(summary(errs), errs...)
	}
	return in, nil
}

// UnmarshalJSON reads either shape (the tests read answers with it).
func (l *lineJSON) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*l = lineJSON{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*l = many
	return nil
}
