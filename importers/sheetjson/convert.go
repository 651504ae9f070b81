package sheetjson

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"segnapunti/domain"
)

// Bounds on what a sheet may hold. A hand scores a few hundred points and a
// match a few thousand; the bounds keep nonsense (a membership number typed
// into a score, 1e300) out of the arithmetic and the database, well clear of
// any real sheet.
const (
	// MaxScore bounds the absolute value of every score number: base,
	// points, totals, running totals, the split of points, late points,
	// written total, MP and VP.
	MaxScore = 100000
	// MaxRoundOrTable bounds round and table numbers (from 1).
	MaxRoundOrTable = 10000
	// MaxBurrachiPerType bounds one burraco type's count for one line.
	MaxBurrachiPerType = 20
	// MinHandsPlanned and MaxHandsPlanned: a round is 2, 3 or 4 hands
	// (RULES §1, §6.1).
	MinHandsPlanned = 2
	MaxHandsPlanned = 4
	// MaxHands: a sheet has 1 to 4 hands; more hands than the round plans
	// is the finding HANDS_EXCEED_PLANNED (RULES §6.3), not a decode error.
	MaxHands = 4
)

// firstDealers are the seats that may deal first (FITAB art. 15).
var firstDealers = []string{"n", "e", "s", "o"}

// convert checks what the types alone do not say (required fields, ranges,
// enumerations) and builds the domain sheet. The *int of the wire structs
// are moved into the domain sheet as they are, without copying.
func convert(w *wireSheet) (domain.Sheet, *problem) {
	var s domain.Sheet
	var err error
	if w.Ruleset == nil {
		return s, required("/ruleset", "ruleset")
	}
	if s.Ruleset, err = domain.ParseRuleset(*w.Ruleset); err != nil {
		return s, fromDomain("/ruleset", err)
	}
	if w.HandsPlanned == nil {
		return s, required("/hands_planned", "hands_planned")
	}
	if s.HandsPlanned = *w.HandsPlanned; s.HandsPlanned < MinHandsPlanned || s.HandsPlanned > MaxHandsPlanned {
		return s, newProblem("/hands_planned", -1, "sheet.hands_planned", s.HandsPlanned)
	}
	s.Kind = domain.KindPairs // API §1: the default
	if w.Kind != nil {
		if s.Kind, err = domain.ParseKind(*w.Kind); err != nil {
			return s, fromDomain("/kind", err)
		}
	}
	if w.VPTable != nil && *w.VPTable != "" {
		if s.VPTable, err = domain.ParseVPTable(*w.VPTable); err != nil {
			return s, fromDomain("/vp_table", err)
		}
	}
	if w.Tournament != nil {
		s.Tournament = *w.Tournament
	}
	if w.Round != nil {
		if s.Round = *w.Round; s.Round < 1 || s.Round > MaxRoundOrTable {
			return s, newProblem("/round", -1, "sheet.round", MaxRoundOrTable, s.Round)
		}
	}
	if w.Table != nil {
		if s.Table = *w.Table; s.Table < 1 || s.Table > MaxRoundOrTable {
			return s, newProblem("/table", -1, "sheet.table", MaxRoundOrTable, s.Table)
		}
	}
	for l, side := range [2]*wireSide{w.NS, w.EO} {
		if side != nil {
			s.Sides[l] = domain.Side{}
			if side.ID != nil {
				s.Sides[l].ID = *side.ID
			}
			if len(side.Players) > 0 { // "players": [] says no more than no players
				s.Sides[l].Players = make([]string, len(side.Players))
			}
			for i, p := range side.Players {
				if p == nil {
					ptr := fmt.Sprintf("/%s/players/%d", domain.Line(l), i)
					return s, nullElement(shapeAt(jsontext.Pointer(ptr)), ptr, -1)
				}
				s.Sides[l].Players[i] = *p
			}
			for i, id := range side.IDs {
				if id == nil {
					ptr := fmt.Sprintf("/%s/ids/%d", domain.Line(l), i)
					return s, nullElement(shapeAt(jsontext.Pointer(ptr)), ptr, -1)
				}
				s.Sides[l].IDs = append(s.Sides[l].IDs, *id)
			}
		}
	}
	if w.FirstDealer != nil && *w.FirstDealer != "" {
		if !slices.Contains(firstDealers, *w.FirstDealer) {
			return s, newProblem("/first_dealer", -1, "sheet.first_dealer", *w.FirstDealer)
		}
		s.FirstDealer = *w.FirstDealer
	}
	if lp := w.LatePoints; lp != nil {
		for l, v := range [2]int{lp.NS, lp.EO} {
			if v < -MaxScore || v > MaxScore {
				return s, scoreRange("/late_points/"+domain.Line(l).String(), domain.Line(l).String(), v)
			}
			s.LatePoints[l] = v
		}
	}
	if w.Hands == nil {
		return s, required("/hands", "hands")
	}
	if n := len(w.Hands); n == 0 || n > MaxHands {
		return s, newProblem("/hands", -1, "sheet.hands", MaxHands, n)
	}
	s.Hands = make([]domain.Hand, len(w.Hands))
	for i, wh := range w.Hands {
		if wh == nil {
			ptr := fmt.Sprintf("/hands/%d", i)
			return s, nullElement(shapeAt(jsontext.Pointer(ptr)), ptr, -1)
		}
		if p := convertHand(wh, i, &s.Hands[i]); p != nil {
			return s, p
		}
	}
	if wr := w.Written; wr != nil {
		for l, r := range [2]*wireResult{wr.NS, wr.EO} {
			if r == nil {
				continue
			}
			line := domain.Line(l)
			for _, f := range [...]struct {
				name string
				v    *int
			}{{"total", r.Total}, {"mp", r.MP}, {"vp", r.VP}} {
				if f.v != nil && (*f.v < -MaxScore || *f.v > MaxScore) {
					return s, scoreRange(domain.WrittenPointer(line, f.name), f.name, *f.v)
				}
			}
			s.Written[l] = domain.WrittenResult{Total: r.Total, MP: r.MP, VP: r.VP}
		}
	}
	return s, nil
}

func convertHand(w *wireHand, i int, h *domain.Hand) *problem {
	var err error
	if w.End != "" {
		if h.End, err = domain.ParseHandEnd(w.End); err != nil {
			return fromDomain(fmt.Sprintf("/hands/%d/end", i), err)
		}
	}
	h.LostCount = w.LostCount
	for l, wl := range [2]*wireLine{w.NS, w.EO} {
		line := domain.Line(l)
		if wl == nil {
			return required(fmt.Sprintf("/hands/%d/%s", i, line), line.String())
		}
		if wl.Base == nil {
			return required(domain.HandPointer(i+1, line, "base"), "base")
		}
		if wl.Points == nil {
			return required(domain.HandPointer(i+1, line, "points"), "points")
		}
		// The split of points is made of card values and penalties that
		// RULES §5 subtracts or adds as magnitudes, so none is negative.
		for _, f := range [...]struct {
			name   string
			v      *int
			nonNeg bool
		}{
			{"base", wl.Base, false},
			{"points", wl.Points, false},
			{"total", wl.Total, false},
			{"running_total", wl.RunningTotal, false},
			{"table_points", wl.TablePoints, true},
			{"hand_points", wl.HandPoints, true},
			{"pozzetto_unplayed_points", wl.PozzettoUnplayedPoints, true},
			{"penalty_points", wl.PenaltyPoints, true},
		} {
			if f.v == nil {
				continue
			}
			if *f.v < -MaxScore || *f.v > MaxScore {
				return scoreRange(domain.HandPointer(i+1, line, f.name), f.name, *f.v)
			}
			if f.nonNeg && *f.v < 0 {
				return newProblem(domain.HandPointer(i+1, line, f.name), -1,
					"sheet.non_negative", f.name, *f.v)
			}
		}
		ls := &h.Lines[l]
		ls.Base, ls.Points = *wl.Base, *wl.Points
		ls.Total, ls.RunningTotal = wl.Total, wl.RunningTotal
		ls.TablePoints, ls.HandPoints = wl.TablePoints, wl.HandPoints
		ls.PozzettoUnplayedPoints, ls.PenaltyPoints = wl.PozzettoUnplayedPoints, wl.PenaltyPoints
		ls.Closed = wl.Closed
		if wl.Burrachi != nil {
			m, p := checkBurrachi(*wl.Burrachi, i+1, line)
			if p != nil {
				return p
			}
			ls.Burrachi = m // never nil: "burrachi": {} is given, and says no burraco
		}
		if ls.Pozzetto, err = domain.ParsePozzetto(wl.Pozzetto); err != nil {
			return fromDomain(domain.HandPointer(i+1, line, "pozzetto"), err)
		}
	}
	return nil
}

// checkBurrachi copies a breakdown into the domain's map, reporting the
// first bad entry (unknown type, null or out-of-range count) in type order,
// under the pointer of hand h's line l (worded only then: most breakdowns
// are good).
func checkBurrachi(wm map[domain.BurracoType]*int, h int, l domain.Line) (map[domain.BurracoType]int, *problem) {
	m := make(map[domain.BurracoType]int, len(wm))
	bad := false
	for t, n := range wm {
		if n == nil || burracoIndex(string(t)) < 0 || *n < 0 || *n > MaxBurrachiPerType {
			bad = true
			break
		}
		m[t] = *n
	}
	if !bad {
		return m, nil
	}
	ptr := domain.HandPointer(h, l, "burrachi")
	keys := make([]string, 0, len(wm))
	for t := range wm {
		keys = append(keys, string(t))
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := ptr + "/" + pointer([]string{k})[1:]
		if burracoIndex(k) < 0 {
			return nil, unknownBurraco(p, k, -1)
		}
		n := wm[domain.BurracoType(k)]
		if n == nil {
			return nil, newProblem(p, -1, "sheet.burraco_null")
		}
		if *n < 0 || *n > MaxBurrachiPerType {
			return nil, burracoCountRange(p, fmt.Sprint(*n), -1)
		}
	}
	return m, nil
}

func required(ptr, name string) *problem {
	return newProblem(ptr, -1, "sheet.required", name)
}

func scoreRange(ptr, name string, v int) *problem {
	return newProblem(ptr, -1, "sheet.score_range", name, -MaxScore, MaxScore, v)
}

// fromDomain turns a domain parse error ("invalid: unknown ruleset ...")
// into a detail without the sentinel's prefix.
func fromDomain(ptr string, err error) *problem {
	return rawProblem(ptr, -1, strings.TrimPrefix(err.Error(), domain.ErrInvalid.Error()+": "))
}
