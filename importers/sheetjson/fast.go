package sheetjson

import (
	"unicode/utf16"
	"unicode/utf8"

	"segnapunti/domain"
)

// The fast path. Almost every sheet that reaches the decoder is well
// formed, and for those the general path (encoding/json, then the key
// walk, then convert) costs more than all the rest of `segnapunti
// validate`. fastParser reads exactly the API §1 schema in one pass over
// the bytes into the same wire structs, and hands them to the same
// convert, so the domain.Sheet is built by the same code either way.
//
// It only ever says "this is a good sheet, here it is" or "not sure".
// Whenever it is not sure (any syntax it does not expect, a wrong type, an
// unknown or repeated key, a null where the key walk refuses one, a number
// with a fraction or an exponent, too many hands, a value convert refuses,
// the input ending inside the sheet) the general path reads the sheet
// again and produces the error, with its pointer and position, exactly as
// before. So the fast path may only change how quickly a good sheet is
// read, never what is accepted or what an error says.
//
// What it accepts is what the general path accepts:
//   - JSON as RFC 8259 and encoding/json's scanner read it: blanks are
//     space, tab, CR and LF; strings have no raw control characters and
//     only the escapes \" \\ \/ \b \f \n \r \t \uXXXX;
//   - strings decoded as encoding/json decodes them: a surrogate pair
//     becomes one rune, a lone surrogate and each byte of invalid UTF-8
//     become U+FFFD;
//   - keys spelt exactly as in API §1 once unescaped, each at most once
//     per object (walk.go);
//   - null as an object field's value means absent; null as a hand, a
//     player or a burraco count is refused (walk.go);
//   - whole numbers only: -?(0|[1-9][0-9]*), "-0" is 0; a burraco count
//     is 0 to MaxBurrachiPerType without a sign (walk.go smallCount).

// fastStatus is the fast path's answer.
type fastStatus uint8

const (
	fastOK    fastStatus = iota // a good sheet, decoded
	fastNo                      // not sure: let the general path decide
	fastShort                   // the bytes end inside the sheet
)

// fastParser holds the wire structs a sheet is read into. They are reused
// from sheet to sheet: convert copies out of them everything it keeps,
// except what is allocated afresh for each sheet (players, burraco maps,
// free-text strings) and the optional numbers, which come from ints.
type fastParser struct {
	data  []byte
	pos   int
	short bool // data ended before the sheet did

	w       wireSheet
	hands   [MaxHands]wireHand
	lines   [2 * MaxHands]wireLine
	maps    [2 * MaxHands]map[domain.BurracoType]int
	sides   [2]wireSide
	late    wireLate
	written wireWritten
	results [2]wireResult
	strs    [5]string // the *string fields of wireSheet point here
	nLines  int

	// ints and bools are chunks the optional numbers and flags of
	// domain.Sheet point into: one allocation serves many sheets. Each
	// element is handed out once, so no two pointers share a value.
	ints  []int
	bools []bool

	esc []byte // a string being unescaped
}

// slab sizes: a chunk lasts a few sheets, and a kept sheet keeps at most
// one chunk of each alive beyond its own values.
const (
	intChunk  = 128
	boolChunk = 32
)

// parse reads one sheet object starting at data[0] == '{'. On fastOK it
// returns the sheet and the length of its bytes.
func (p *fastParser) parse(data []byte) (domain.Sheet, int, fastStatus) {
	p.data, p.pos, p.short = data, 0, false
	p.w = wireSheet{}
	p.nLines = 0
	ok := p.sheet()
	p.data = nil
	if !ok {
		if p.short {
			return domain.Sheet{}, 0, fastShort
		}
		return domain.Sheet{}, 0, fastNo
	}
	s, prob := convert(&p.w, true)
	if prob != nil {
		return domain.Sheet{}, 0, fastNo
	}
	return s, p.pos, fastOK
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

// open reads the opening bracket c and the blanks after it; more says
// whether the object or array has a first member, which then starts at
// p.pos.
func (p *fastParser) open(c, close byte) (more, ok bool) {
	if p.pos >= len(p.data) {
		p.short = true
		return false, false
	}
	if p.data[p.pos] != c {
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
// at p.pos, after blanks) or the closing bracket.
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
		// A comma before the closing bracket is not JSON; the member
		// readers refuse anything that does not start a value.
		return true, true
	case close:
		p.pos++
		return false, true
	}
	return false, false
}

// member reads `"key":` and the blanks after it, and returns the key's
// index in keys, or -1 when it is not one of them (or not a string).
func (p *fastParser) member(keys []string) int {
	if p.data[p.pos] != '"' {
		return -1
	}
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

// null consumes a null literal if one is next.
func (p *fastParser) null() (isNull, ok bool) {
	if p.data[p.pos] != 'n' {
		return false, true
	}
	return true, p.literal("null")
}

func (p *fastParser) literal(lit string) bool {
	end := p.pos + len(lit)
	if end > len(p.data) {
		if string(p.data[p.pos:]) == lit[:len(p.data)-p.pos] {
			p.short = true
		}
		return false
	}
	if string(p.data[p.pos:end]) != lit {
		return false
	}
	p.pos = end
	return true
}

func (p *fastParser) bool() (v, ok bool) {
	if p.data[p.pos] == 't' {
		return true, p.literal("true")
	}
	if p.data[p.pos] == 'f' {
		return false, p.literal("false")
	}
	return false, false
}

// int reads a whole number: -?(0|[1-9][0-9]*) with no fraction and no
// exponent. More than 18 digits is refused: every number of API §1 is
// range-checked far below that, so the general path refuses it too.
func (p *fastParser) int() (int, bool) {
	data, i := p.data, p.pos
	neg := false
	if data[i] == '-' {
		neg = true
		i++
		if i >= len(data) {
			p.short = true
			return 0, false
		}
	}
	n := 0
	switch c := data[i]; {
	case c == '0':
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
	switch c := data[i]; {
	case c == '.' || c == 'e' || c == 'E' || (c >= '0' && c <= '9'):
		return 0, false // a fraction, an exponent or a leading zero
	}
	p.pos = i
	if neg {
		n = -n
	}
	return n, true
}

// strBytes reads the string at p.pos and returns its decoded contents:
// the raw bytes when there is nothing to decode, else p.esc. Either is
// only valid until the next call.
func (p *fastParser) strBytes() ([]byte, bool) {
	data := p.data
	for i := p.pos + 1; i < len(data); i++ {
		c := data[i]
		if c == '"' {
			b := data[p.pos+1 : i]
			p.pos = i + 1
			return b, true
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			return p.strSlow(i)
		}
	}
	p.short = true
	return nil, false
}

// strSlow goes on from data[i], the first byte that needs decoding, as
// encoding/json's unquoteBytes does (decode.go), refusing what its
// scanner refuses.
func (p *fastParser) strSlow(i int) ([]byte, bool) {
	data := p.data
	b := append(p.esc[:0], data[p.pos+1:i]...)
	defer func() { p.esc = b[:0] }()
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return b, true
		case c < 0x20:
			return nil, false
		case c < utf8.RuneSelf && c != '\\':
			b = append(b, c)
			i++
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, data[i:i+size]...)
			}
			i += size
		default: // a backslash
			if i+1 >= len(data) {
				p.short = true
				return nil, false
			}
			switch e := data[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
				i += 2
			case 'b':
				b = append(b, '\b')
				i += 2
			case 'f':
				b = append(b, '\f')
				i += 2
			case 'n':
				b = append(b, '\n')
				i += 2
			case 'r':
				b = append(b, '\r')
				i += 2
			case 't':
				b = append(b, '\t')
				i += 2
			case 'u':
				r, ok := p.u4(i)
				if !ok {
					return nil, false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					// The pair's second half only counts when it is a
					// \uXXXX escape right after and makes a valid pair;
					// otherwise this half alone becomes U+FFFD and the
					// next escape is read on its own.
					r2, ok2 := p.u4(i)
					p.short = false // a missing second half is not an error
					if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
						b = utf8.AppendRune(b, dec)
						i += 6
						break
					}
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
			default:
				return nil, false
			}
		}
	}
	p.short = true
	return nil, false
}

// u4 reads the escape \uXXXX at data[i].
func (p *fastParser) u4(i int) (rune, bool) {
	data := p.data
	if i+6 > len(data) {
		p.short = true
		return -1, false
	}
	if data[i] != '\\' || data[i+1] != 'u' {
		return -1, false
	}
	var r rune
	for _, c := range data[i+2 : i+6] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}

// str reads a string value. Values from a closed set come back as
// constants, so the common sheet allocates no string for them.
func (p *fastParser) str(known []string) (string, bool) {
	if p.data[p.pos] != '"' {
		return "", false
	}
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
	sideKeys  = keysOf(sheetShape.fields[7].shape)
	lateKeys  = keysOf(sheetShape.fields[10].shape)
	handKeys  = keysOf(sheetShape.fields[11].shape.elem)
	lineKeys  = keysOf(sheetShape.fields[11].shape.elem.fields[2].shape)
	wKeys     = keysOf(sheetShape.fields[12].shape)
	resKeys   = keysOf(sheetShape.fields[12].shape.fields[0].shape)
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
	knownDealers  = firstDealers
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

// object reads an object whose keys are keys: each at most once, null
// meaning absent (member is not called), member reading the value of key i.
func (p *fastParser) object(keys []string, member func(i int) bool) bool {
	more, ok := p.open('{', '}')
	var seen uint32
	for ok && more {
		i := p.member(keys)
		if i < 0 || seen&(1<<i) != 0 {
			return false
		}
		seen |= 1 << i
		isNull, nok := p.null()
		if !nok || !isNull && !member(i) {
			return false
		}
		more, ok = p.next('}')
	}
	return ok
}

func (p *fastParser) sheet() bool {
	w := &p.w
	return p.object(sheetKeys, func(i int) bool {
		ok := true
		switch i {
		case sRuleset, sKind, sVPTable, sTournament, sFirstDealer:
			var known []string
			slot := 0
			switch i {
			case sRuleset:
				known, slot = knownRulesets, 0
			case sKind:
				known, slot = knownKinds, 1
			case sVPTable:
				known, slot = knownVPTables, 2
			case sTournament:
				slot = 3
			case sFirstDealer:
				known, slot = knownDealers, 4
			}
			var v string
			if v, ok = p.str(known); ok {
				p.strs[slot] = v
				switch i {
				case sRuleset:
					w.Ruleset = &p.strs[slot]
				case sKind:
					w.Kind = &p.strs[slot]
				case sVPTable:
					w.VPTable = &p.strs[slot]
				case sTournament:
					w.Tournament = &p.strs[slot]
				case sFirstDealer:
					w.FirstDealer = &p.strs[slot]
				}
			}
		case sHandsPlanned, sRound, sTable:
			var n int
			if n, ok = p.int(); ok {
				switch i {
				case sHandsPlanned:
					w.HandsPlanned = p.newInt(n)
				case sRound:
					w.Round = p.newInt(n)
				default:
					w.Table = p.newInt(n)
				}
			}
		case sNS, sEO:
			side := &p.sides[i-sNS]
			*side = wireSide{}
			if ok = p.side(side); ok {
				if i == sNS {
					w.NS = side
				} else {
					w.EO = side
				}
			}
		case sLatePoints:
			p.late = wireLate{}
			if ok = p.latePoints(&p.late); ok {
				w.LatePoints = &p.late
			}
		case sHands:
			ok = p.handList()
		case sWritten:
			p.written = wireWritten{}
			if ok = p.writtenResults(&p.written); ok {
				w.Written = &p.written
			}
		}
		if !ok {
			return false
		}
		return ok
	})
}

func (p *fastParser) side(s *wireSide) bool {
	return p.object(sideKeys, func(i int) bool {
		ok := true
		if i == 0 {
			s.ID, ok = p.str(nil)
		} else {
			s.Players, ok = p.players()
		}
		if !ok {
			return false
		}
		return ok
	})
}

// players reads an array of names; "players": [] is an empty, non-nil
// slice as encoding/json makes it (convert treats it as none).
func (p *fastParser) players() ([]string, bool) {
	var buf [4]string
	names := buf[:0]
	more, ok := p.open('[', ']')
	for ok && more {
		var name string
		if name, ok = p.str(nil); !ok {
			return nil, false
		}
		names = append(names, name)
		more, ok = p.next(']')
	}
	if !ok {
		return nil, false
	}
	return append(make([]string, 0, len(names)), names...), true
}

func (p *fastParser) latePoints(l *wireLate) bool {
	return p.object(lateKeys, func(i int) bool {
		n, ok := p.int()
		if !ok {
			return false
		}
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
		n++
		more, ok = p.next(']')
	}
	if !ok {
		return false
	}
	p.w.Hands = p.hands[:n] // non-nil even when empty, as encoding/json
	return true
}

func (p *fastParser) hand(h *wireHand) bool {
	return p.object(handKeys, func(i int) bool { // a null hand is not '{': refused
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
		if !ok {
			return false
		}
		return ok
	})
}

func (p *fastParser) line(l *wireLine) bool {
	return p.object(lineKeys, func(i int) bool {
		ok := true
		switch i {
		case 4: // burrachi
			m := &p.maps[p.nLines-1]
			if *m, ok = p.burrachi(); ok {
				l.Burrachi = m
			}
		case 5: // closed
			var b bool
			if b, ok = p.bool(); ok {
				l.Closed = p.newBool(b)
			}
		case 6: // pozzetto
			l.Pozzetto, ok = p.str(knownPozzetti)
		default:
			var n int
			if n, ok = p.int(); ok {
				v := p.newInt(n)
				switch i {
				case 0:
					l.Base = v
				case 1:
					l.Points = v
				case 2:
					l.Total = v
				case 3:
					l.RunningTotal = v
				case 7:
					l.TablePoints = v
				case 8:
					l.HandPoints = v
				case 9:
					l.PozzettoUnplayedPoints = v
				default:
					l.PenaltyPoints = v
				}
			}
		}
		if !ok {
			return false
		}
		return ok
	})
}

// burrachi reads a breakdown: known types, each once, counts 0 to
// MaxBurrachiPerType with no sign (walk.go). "burrachi": {} is an empty
// map, not nil, as encoding/json makes it.
func (p *fastParser) burrachi() (map[domain.BurracoType]int, bool) {
	var counts [8]int
	var seen uint32
	more, ok := p.open('{', '}')
	for ok && more {
		i := p.member(burKeys)
		if i < 0 || seen&(1<<i) != 0 || p.data[p.pos] == '-' {
			return nil, false
		}
		seen |= 1 << i
		var n int
		if n, ok = p.int(); !ok || n > MaxBurrachiPerType {
			return nil, false
		}
		counts[i] = n
		more, ok = p.next('}')
	}
	if !ok {
		return nil, false
	}
	m := make(map[domain.BurracoType]int, len(burKeys))
	for i, t := range domain.BurracoTypes {
		if seen&(1<<i) != 0 {
			m[t] = counts[i]
		}
	}
	return m, true
}

func (p *fastParser) writtenResults(wr *wireWritten) bool {
	return p.object(wKeys, func(i int) bool {
		ok := true
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
		return ok
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
		return ok
	})
}
