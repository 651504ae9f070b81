package sheetjson

import (
	"unicode/utf8"

	"segnapunti/domain"
)

// The fast path: a first pass for well-formed sheets only.
//
// Why a piece of hand-written parsing stays, with the numbers (the goal:
// `segnapunti validate` at or below the CPU time of a bare
// encoding/json v1 decode of the same batch). BenchmarkCLIRatio in
// cmd/segnapunti: CPU time of `validate --format json` on the
// 100,000-sheet batch over a bare v1 decode of the same file in the same
// run, 2 cores shared with other work, 2026-11-25:
//
//	library only (json.UnmarshalDecode from the stream)     1.26-1.76x
//	library framing (ReadValue) + this pass on its bytes   1.13-1.29x
//	this pass straight from the stream, library on decline 0.81-0.83x
//
// The library's reflection-driven unmarshal into pointer-rich wire structs,
// and its framing pass, are the difference: with them alone the target
// cannot be met. The fast path reads the sheets of a batch from the kept
// input itself; the library's decoder is restarted where it declines
// (Decoder.restart), and a lone sheet is framed by the library first.
//
// The fast path never decides anything doubtful. It reads one sheet object
// into the same wire structs as the library, and hands them to the same
// convert. It accepts only JSON it checks itself: the bytes it reads are
// well formed, strings are valid UTF-8, no name repeats. It declines
// (returns ok == false) on anything it does not expect: a string with an
// escape, a control byte or invalid UTF-8; a key not spelt exactly as in
// API §1 or given twice; null anywhere; a number with a sign on zero, a
// fraction, an exponent or more than 18 digits; a wrong JSON type; more
// hands or players than its buffers hold; a problem found by convert. The
// library path then reads the same bytes and produces the error (or the
// sheet), so errors stay exactly the library path's. FuzzFastAgrees and
// TestFastAgrees check that for any input the fast path either declines or
// returns exactly the sheet of the library path.

// fastParser holds the wire structs a sheet is read into. They are reused
// from sheet to sheet: convert copies out everything it keeps except the
// optional numbers and flags, which point into chunks handed out once.
type fastParser struct {
	data  []byte
	pos   int
	short bool // data ended before the sheet did

	w        wireSheet
	handPtrs [MaxHands]*wireHand
	hands    [MaxHands]wireHand
	lines    [2 * MaxHands]wireLine
	nLines   int
	// bmaps and bcounts hold the burraco breakdown of each line: convert
	// copies them into a map of its own, so they serve every sheet.
	bmaps   [2 * MaxHands]map[domain.BurracoType]*int
	bcounts [2 * MaxHands][8]int
	sides   [2]wireSide
	ids     [2]string // the sides' ids point here
	// def fills what the sheet leaves out (DecodeSheet), before convert.
	def     *Defaults
	players [2][maxFastPlayers]*string
	names   [2][maxFastPlayers]string
	late    wireLate
	written wireWritten
	results [2]wireResult
	strs    [5]string // the *string fields of wireSheet point here

	// ints and bools are chunks the optional numbers and flags of
	// domain.Sheet point into: one allocation serves many sheets. Each
	// element is handed out once, so no two pointers share a value.
	ints  []int
	bools []bool
}

// maxFastPlayers is the most players of one line the fast path reads; a
// longer list goes to the library path.
const maxFastPlayers = 8

const (
	intChunk  = 256
	boolChunk = 64
)

// decode reads data that must be one sheet value and nothing else but
// blanks. ok false means "not sure": use the library path.
func (p *fastParser) decode(data []byte) (s domain.Sheet, ok bool) {
	s, n, ok := p.decodeValue(data)
	if !ok {
		return domain.Sheet{}, false
	}
	p.data, p.pos = data, n
	ok = p.end()
	p.data = nil
	return s, ok
}

// decodeValue reads the sheet object at data[0] and returns its length.
// When it declines, short says whether data ended inside the sheet.
func (p *fastParser) decodeValue(data []byte) (s domain.Sheet, n int, ok bool) {
	p.data, p.pos, p.short = data, 0, false
	p.w = wireSheet{}
	p.nLines = 0
	ok = p.sheet()
	n, p.data = p.pos, nil
	if !ok {
		return domain.Sheet{}, 0, false
	}
	p.def.apply(&p.w)
	s, prob := convert(&p.w)
	if prob != nil {
		return domain.Sheet{}, 0, false
	}
	return s, n, true
}

func (p *fastParser) newInt(v int) *int {
	if len(p.ints) == 0 {
		p.ints = make([]int, intChunk)
	}
	q := &p.ints[0]
	*q = v
	p.ints = p.ints[1:]
	return q
}

func (p *fastParser) newBool(v bool) *bool {
	if len(p.bools) == 0 {
		p.bools = make([]bool, boolChunk)
	}
	q := &p.bools[0]
	*q = v
	p.bools = p.bools[1:]
	return q
}

// ws skips blanks and reports whether a byte follows.
func (p *fastParser) ws() bool {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return true
		}
	}
	p.short = true
	return false
}

// end reports whether only blanks are left.
func (p *fastParser) end() bool { return !p.ws() }

// at reports whether a byte is at p.pos, noting when data ran out.
func (p *fastParser) at() bool {
	if p.pos < len(p.data) {
		return true
	}
	p.short = true
	return false
}

// open reads the opening bracket c; more says whether a first member
// follows, which then starts at p.pos.
func (p *fastParser) open(c, close byte) (more, ok bool) {
	if !p.at() || p.data[p.pos] != c {
		return false, false
	}
	p.pos++
	if !p.ws() {
		return false, false
	}
	if p.data[p.pos] == close {
		p.pos++
		return false, true
	}
	return true, true
}

// next reads what follows a member: a comma (then the next member starts
// at p.pos) or the closing bracket.
func (p *fastParser) next(close byte) (more, ok bool) {
	if !p.ws() {
		return false, false
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		if !p.ws() {
			return false, false
		}
		return true, true
	case close:
		p.pos++
		return false, true
	}
	return false, false
}

// member reads `"key":` and the blanks after it, and returns the key's
// index in keys, or -1 when it is not one of them exactly.
func (p *fastParser) member(keys []string) int {
	raw, ok := p.strBytes()
	if !ok {
		return -1
	}
	i := -1
	for k := range keys {
		if keys[k] == string(raw) {
			i = k
			break
		}
	}
	if i < 0 || !p.ws() || p.data[p.pos] != ':' {
		return -1
	}
	p.pos++
	if !p.ws() {
		return -1
	}
	return i
}

func (p *fastParser) literal(lit string) bool {
	end := p.pos + len(lit)
	if end > len(p.data) {
		p.short = true
		return false
	}
	if string(p.data[p.pos:end]) != lit {
		return false
	}
	p.pos = end
	return true
}

func (p *fastParser) bool() (v, ok bool) {
	if !p.at() {
		return false, false
	}
	switch p.data[p.pos] {
	case 't':
		return true, p.literal("true")
	case 'f':
		return false, p.literal("false")
	}
	return false, false
}

// int reads a whole number -?[1-9][0-9]{0,17} or 0; anything else ("-0",
// a fraction, an exponent, a leading zero, more digits) is declined.
func (p *fastParser) int() (int, bool) {
	data, i := p.data, p.pos
	neg := false
	if i < len(data) && data[i] == '-' {
		neg = true
		i++
	}
	if i >= len(data) {
		p.short = true
		return 0, false
	}
	n := 0
	switch c := data[i]; {
	case c == '0' && !neg:
		i++
	case c >= '1' && c <= '9':
		start := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			n = 10*n + int(data[i]-'0')
			i++
		}
		if i-start > 18 {
			return 0, false
		}
	default:
		return 0, false
	}
	if i >= len(data) {
		p.short = true // the number may go on
		return 0, false
	}
	if c := data[i]; c == '.' || c == 'e' || c == 'E' || (c >= '0' && c <= '9') {
		return 0, false
	}
	p.pos = i
	if neg {
		n = -n
	}
	return n, true
}

// strBytes reads the string at p.pos and returns its raw contents, which
// are its value: a string with an escape, a control byte or invalid UTF-8
// is declined. Valid only until data changes.
func (p *fastParser) strBytes() ([]byte, bool) {
	data := p.data
	if !p.at() || data[p.pos] != '"' {
		return nil, false
	}
	ascii := true
	for i := p.pos + 1; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			b := data[p.pos+1 : i]
			if !ascii && !utf8.Valid(b) {
				return nil, false
			}
			p.pos = i + 1
			return b, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	p.short = true
	return nil, false
}

// str reads a string value. Values from a closed set come back as
// constants, so the common sheet allocates no string for them.
func (p *fastParser) str(known []string) (string, bool) {
	b, ok := p.strBytes()
	if !ok {
		return "", false
	}
	for _, k := range known {
		if k == string(b) {
			return k, true
		}
	}
	return string(b), true
}

var (
	sheetKeys = keysOf(sheetShape)
	sideKeys  = keysOf(sheetShape.fields[sNS].shape)
	lateKeys  = keysOf(sheetShape.fields[sLatePoints].shape)
	handKeys  = keysOf(sheetShape.fields[sHands].shape.elem)
	lineKeys  = keysOf(sheetShape.fields[sHands].shape.elem.fields[2].shape)
	wKeys     = keysOf(sheetShape.fields[sWritten].shape)
	resKeys   = keysOf(sheetShape.fields[sWritten].shape.fields[0].shape)
	burKeys   = func() []string {
		k := make([]string, len(domain.BurracoTypes))
		for i, t := range domain.BurracoTypes {
			k[i] = string(t)
		}
		return k
	}()

	knownRulesets = []string{"fitab-2025", "fitab-int", "fibur-ita", "fibur-int"}
	knownKinds    = []string{"pairs", "individual", "teams", "international"}
	knownVPTables = []string{"fitab-2", "fitab-3", "fitab-4"}
	knownEnds     = []string{"closed", "stock_exhausted", "time_out", "stall", "interrupted"}
	knownPozzetti = []string{"taken", "not_taken", "taken_not_played"}
)

func keysOf(s *shape) []string {
	k := make([]string, len(s.fields))
	for i, f := range s.fields {
		k[i] = f.key
	}
	return k
}

// The field order of sheetShape, which the switches below follow.
const (
	sRuleset = iota
	sHandsPlanned
	sKind
	sVPTable
	sTournament
	sRound
	sTable
	sNS
	sEO
	sFirstDealer
	sLatePoints
	sHands
	sWritten
)

// line fields, in lineKeys order.
const (
	lBase = iota
	lPoints
	lTotal
	lRunningTotal
	lBurrachi
	lClosed
	lPozzetto
	lTablePoints
	lHandPoints
	lPozzettoUnplayed
	lPenalty
)

// object reads an object whose keys are keys, each at most once, member
// reading the value of key i. null, anywhere, is declined.
func (p *fastParser) object(keys []string, member func(i int) bool) bool {
	more, ok := p.open('{', '}')
	var seen uint32
	for ok && more {
		i := p.member(keys)
		if i < 0 || seen&(1<<i) != 0 || p.data[p.pos] == 'n' {
			return false
		}
		seen |= 1 << i
		if !member(i) {
			return false
		}
		more, ok = p.next('}')
	}
	return ok
}

func (p *fastParser) sheet() bool {
	w := &p.w
	return p.object(sheetKeys, func(i int) bool {
		switch i {
		case sRuleset, sKind, sVPTable, sTournament, sFirstDealer:
			var known []string
			var dst **string
			slot := 0
			switch i {
			case sRuleset:
				known, slot, dst = knownRulesets, 0, &w.Ruleset
			case sKind:
				known, slot, dst = knownKinds, 1, &w.Kind
			case sVPTable:
				known, slot, dst = knownVPTables, 2, &w.VPTable
			case sTournament:
				slot, dst = 3, &w.Tournament
			default:
				known, slot, dst = firstDealers, 4, &w.FirstDealer
			}
			v, ok := p.str(known)
			if !ok {
				return false
			}
			p.strs[slot] = v
			*dst = &p.strs[slot]
		case sHandsPlanned, sRound, sTable:
			n, ok := p.int()
			if !ok {
				return false
			}
			switch i {
			case sHandsPlanned:
				w.HandsPlanned = p.newInt(n)
			case sRound:
				w.Round = p.newInt(n)
			default:
				w.Table = p.newInt(n)
			}
		case sNS, sEO:
			side := &p.sides[i-sNS]
			*side = wireSide{}
			if !p.side(side, i-sNS) {
				return false
			}
			if i == sNS {
				w.NS = side
			} else {
				w.EO = side
			}
		case sLatePoints:
			p.late = wireLate{}
			if !p.latePoints(&p.late) {
				return false
			}
			w.LatePoints = &p.late
		case sHands:
			return p.handList()
		case sWritten:
			p.written = wireWritten{}
			if !p.writtenResults(&p.written) {
				return false
			}
			w.Written = &p.written
		}
		return true
	})
}

func (p *fastParser) side(s *wireSide, l int) bool {
	return p.object(sideKeys, func(i int) bool {
		ok := true
		switch i {
		case 0:
			p.ids[l], ok = p.str(nil)
			s.ID = &p.ids[l]
		case 1:
			s.Players, ok = p.playerList(l)
		default:
			return false // "ids" (individual lines): the library path reads it
		}
		return ok
	})
}

// playerList reads an array of names; "players": [] is an empty, non-nil
// slice as the library makes it (convert treats it as none).
func (p *fastParser) playerList(l int) ([]*string, bool) {
	out := p.players[l][:0]
	more, ok := p.open('[', ']')
	for ok && more {
		if len(out) == maxFastPlayers {
			return nil, false
		}
		name, sok := p.str(nil)
		if !sok {
			return nil, false
		}
		p.names[l][len(out)] = name
		out = append(out, &p.names[l][len(out)])
		more, ok = p.next(']')
	}
	return out, ok
}

func (p *fastParser) latePoints(l *wireLate) bool {
	return p.object(lateKeys, func(i int) bool {
		n, ok := p.int()
		if i == 0 {
			l.NS = n
		} else {
			l.EO = n
		}
		return ok
	})
}

func (p *fastParser) handList() bool {
	more, ok := p.open('[', ']')
	n := 0
	for ok && more {
		if n == MaxHands {
			return false // convert refuses more hands than MaxHands
		}
		h := &p.hands[n]
		*h = wireHand{}
		if !p.hand(h) {
			return false
		}
		p.handPtrs[n] = h
		n++
		more, ok = p.next(']')
	}
	if !ok {
		return false
	}
	p.w.Hands = p.handPtrs[:n] // non-nil even when empty, as the library
	return true
}

func (p *fastParser) hand(h *wireHand) bool {
	return p.object(handKeys, func(i int) bool {
		ok := true
		switch i {
		case 0:
			h.End, ok = p.str(knownEnds)
		case 1:
			h.LostCount, ok = p.bool()
		default:
			l := &p.lines[p.nLines]
			p.nLines++
			*l = wireLine{}
			if ok = p.line(l); ok {
				if i == 2 {
					h.NS = l
				} else {
					h.EO = l
				}
			}
		}
		return ok
	})
}

func (p *fastParser) line(l *wireLine) bool {
	return p.object(lineKeys, func(i int) bool {
		ok := true
		switch i {
		case lBurrachi:
			if ok = p.burrachi(p.nLines - 1); ok {
				l.Burrachi = &p.bmaps[p.nLines-1]
			}
		case lClosed:
			var b bool
			if b, ok = p.bool(); ok {
				l.Closed = p.newBool(b)
			}
		case lPozzetto:
			l.Pozzetto, ok = p.str(knownPozzetti)
		default:
			var n int
			if n, ok = p.int(); ok {
				v := p.newInt(n)
				switch i {
				case lBase:
					l.Base = v
				case lPoints:
					l.Points = v
				case lTotal:
					l.Total = v
				case lRunningTotal:
					l.RunningTotal = v
				case lTablePoints:
					l.TablePoints = v
				case lHandPoints:
					l.HandPoints = v
				case lPozzettoUnplayed:
					l.PozzettoUnplayedPoints = v
				default:
					l.PenaltyPoints = v
				}
			}
		}
		return ok
	})
}

// burrachi reads the breakdown of line slot k: known types, each once;
// convert checks the counts. "burrachi": {} is an empty map, not nil, as
// the library makes it.
func (p *fastParser) burrachi(k int) bool {
	counts := &p.bcounts[k]
	var seen uint32
	more, ok := p.open('{', '}')
	for ok && more {
		i := p.member(burKeys)
		if i < 0 || seen&(1<<i) != 0 {
			return false
		}
		seen |= 1 << i
		c, iok := p.int()
		if !iok {
			return false
		}
		counts[i] = c
		more, ok = p.next('}')
	}
	if !ok {
		return false
	}
	m := p.bmaps[k]
	if m == nil {
		m = make(map[domain.BurracoType]*int, len(domain.BurracoTypes))
		p.bmaps[k] = m
	}
	clear(m)
	for i, t := range domain.BurracoTypes {
		if seen&(1<<i) != 0 {
			m[t] = &counts[i]
		}
	}
	return true
}

func (p *fastParser) writtenResults(wr *wireWritten) bool {
	return p.object(wKeys, func(i int) bool {
		r := &p.results[i]
		*r = wireResult{}
		if !p.result(r) {
			return false
		}
		if i == 0 {
			wr.NS = r
		} else {
			wr.EO = r
		}
		return true
	})
}

func (p *fastParser) result(r *wireResult) bool {
	return p.object(resKeys, func(i int) bool {
		n, ok := p.int()
		if !ok {
			return false
		}
		v := p.newInt(n)
		switch i {
		case 0:
			r.Total = v
		case 1:
			r.MP = v
		default:
			r.VP = v
		}
		return true
	})
}
