package sheetjson

import (
	"bytes"
	"encoding/json"
	"fmt"

	"segnapunti/domain"
)

// Encode writes a sheet as API §1 JSON, leaving out what the sheet does not
// say (nil optionals, zero round and table, no late points). It refuses,
// with an *Error, a sheet that Decode would refuse (a missing ruleset, a
// number out of range, more than four hands...), so what it writes always
// reads back: Decode(Encode(s)) == s for every sheet Decode returns.
// Cells is not part of the interchange and is not written.
func Encode(s domain.Sheet) ([]byte, error) {
	w := toWire(s)
	if _, p := convert(&w); p != nil {
		return nil, &Error{Pointer: p.ptr, Detail: p.detail}
	}
	var b bytes.Buffer
	if err := encodeWire(&b, &w); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// MarshalSheet is Encode, under the name the standard library's habits
// suggest.
func MarshalSheet(s domain.Sheet) ([]byte, error) { return Encode(s) }

// EncodeBatch writes sheets as a batch {"sheets": [...]}; an error names
// the bad sheet's pointer (/sheets/<index>/...).
func EncodeBatch(sheets []domain.Sheet) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"sheets":[`)
	for i, s := range sheets {
		w := toWire(s)
		if _, p := convert(&w); p != nil {
			return nil, &Error{Pointer: fmt.Sprintf("/sheets/%d%s", i, p.ptr), Detail: p.detail}
		}
		if i > 0 {
			b.WriteByte(',')
		}
		if err := encodeWire(&b, &w); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // the encoder's newline
	}
	b.WriteString("]}")
	return b.Bytes(), nil
}

// encodeWire writes w and a newline. HTML escaping is off: the output is
// data, and names like "Rossi & Figli" stay readable.
func encodeWire(b *bytes.Buffer, w *wireSheet) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	return enc.Encode(w)
}

// toWire is the inverse of convert; the wire sheet shares the sheet's
// pointers.
func toWire(s domain.Sheet) wireSheet {
	rs := string(s.Ruleset)
	hp := s.HandsPlanned
	w := wireSheet{Ruleset: &rs, HandsPlanned: &hp}
	optString := func(v string) *string {
		if v == "" {
			return nil
		}
		return &v
	}
	optInt := func(v int) *int {
		if v == 0 {
			return nil
		}
		return &v
	}
	w.Kind = optString(string(s.Kind))
	w.VPTable = optString(s.VPTable.ID())
	w.Tournament = optString(s.Tournament)
	w.Round, w.Table = optInt(s.Round), optInt(s.Table)
	sides := [2]*wireSide{}
	for l, side := range s.Sides {
		if side.ID != "" || len(side.IDs) > 0 || len(side.Players) > 0 {
			ws := &wireSide{}
			if side.ID != "" {
				ws.ID = &side.ID
			}
			for _, id := range side.IDs {
				ws.IDs = append(ws.IDs, &id)
			}
			for _, p := range side.Players {
				ws.Players = append(ws.Players, &p)
			}
			sides[l] = ws
		}
	}
	w.NS, w.EO = sides[0], sides[1]
	w.FirstDealer = optString(s.FirstDealer)
	if s.LatePoints != [2]int{} {
		w.LatePoints = &wireLate{NS: s.LatePoints[0], EO: s.LatePoints[1]}
	}
	w.Hands = make([]*wireHand, len(s.Hands))
	for i, h := range s.Hands {
		wh := &wireHand{}
		w.Hands[i] = wh
		wh.End, wh.LostCount = string(h.End), h.LostCount
		lines := [2]*wireLine{}
		for l, ls := range h.Lines {
			wl := &wireLine{
				Base: &ls.Base, Points: &ls.Points, Total: ls.Total, RunningTotal: ls.RunningTotal,
				Closed: ls.Closed, Pozzetto: string(ls.Pozzetto),
				TablePoints: ls.TablePoints, HandPoints: ls.HandPoints,
				PozzettoUnplayedPoints: ls.PozzettoUnplayedPoints, PenaltyPoints: ls.PenaltyPoints,
			}
			if ls.Burrachi != nil {
				m := make(map[domain.BurracoType]*int, len(ls.Burrachi))
				for t, n := range ls.Burrachi {
					m[t] = &n
				}
				wl.Burrachi = &m
			}
			lines[l] = wl
		}
		wh.NS, wh.EO = lines[0], lines[1]
	}
	var wr wireWritten
	for l, r := range s.Written {
		if r.Total == nil && r.MP == nil && r.VP == nil {
			continue
		}
		res := &wireResult{Total: r.Total, MP: r.MP, VP: r.VP}
		if l == 0 {
			wr.NS = res
		} else {
			wr.EO = res
		}
	}
	if wr.NS != nil || wr.EO != nil {
		w.Written = &wr
	}
	return w
}
