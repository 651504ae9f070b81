package domain_test

// Decision-table tests for the hand rules, written from RULES.md §3, §4, §5
// and §5.1 (and the contract decisions of the validation report) — not from
// the implementation. Each code of §5.1 has sheets that must raise it and
// near-misses that must not. A case also fails when the report carries an
// error the rule does not call for: a sheet with one defect gets one kind of
// error (RULES principle: an error only when no reading is consistent).

import (
	"fmt"
	"strings"
	"testing"

	"segnapunti/domain"
)

// ---- sheet builders -------------------------------------------------------

// dtOpt changes one line of one hand.
type dtOpt func(*domain.LineScore)

// dtLine is one line as a paper sheet has it: base, points and the written
// total base + points.
func dtLine(base, points int, opts ...dtOpt) domain.LineScore {
	l := domain.LineScore{Base: base, Points: points, Total: domain.Int(base + points)}
	for _, o := range opts {
		o(&l)
	}
	return l
}

func dtTotal(v int) dtOpt   { return func(l *domain.LineScore) { l.Total = domain.Int(v) } }
func dtNoTotal() dtOpt      { return func(l *domain.LineScore) { l.Total = nil } }
func dtClosed(b bool) dtOpt { return func(l *domain.LineScore) { l.Closed = domain.Bool(b) } }
func dtPozz(p domain.Pozzetto) dtOpt {
	return func(l *domain.LineScore) { l.Pozzetto = p }
}

// dtBur gives the burraco breakdown; dtBur() is "no burrachi" (a given,
// empty breakdown), not "not written".
func dtBur(kv ...any) dtOpt {
	return func(l *domain.LineScore) {
		l.Burrachi = map[domain.BurracoType]int{}
		for i := 0; i+1 < len(kv); i += 2 {
			l.Burrachi[kv[i].(domain.BurracoType)] += kv[i+1].(int)
		}
	}
}

// dtSplit gives table and hand card points (RULES §5).
func dtSplit(table, hand int) dtOpt {
	return func(l *domain.LineScore) {
		l.TablePoints, l.HandPoints = domain.Int(table), domain.Int(hand)
	}
}
func dtUnplayed(v int) dtOpt {
	return func(l *domain.LineScore) { l.PozzettoUnplayedPoints = domain.Int(v) }
}
func dtPenalty(v int) dtOpt { return func(l *domain.LineScore) { l.PenaltyPoints = domain.Int(v) } }

func dtHand(end domain.HandEnd, ns, eo domain.LineScore) domain.Hand {
	return domain.Hand{End: end, Lines: [2]domain.LineScore{ns, eo}}
}

func dtLost(h domain.Hand) domain.Hand { h.LostCount = true; return h }

// dtSheet is a pairs sheet of the given hands, planned as many hands as
// played (at least 2, the smallest round).
func dtSheet(r domain.Ruleset, hands ...domain.Hand) domain.Sheet {
	return domain.Sheet{Ruleset: r, HandsPlanned: max(2, len(hands)), Kind: domain.KindPairs, Hands: hands}
}

func dtPlanned(s domain.Sheet, n int) domain.Sheet { s.HandsPlanned = n; return s }

// dtClosedNS is one closed hand, NS closing with a pulito (300) and EO with
// a sporco (100): the neutral hand most cases vary.
func dtClosedNS(ns, eo domain.LineScore) domain.Hand { return dtHand(domain.EndClosed, ns, eo) }

// ---- expectations ---------------------------------------------------------

type dtLineSel int

const (
	dtAnyLine dtLineSel = iota // not checked
	dtNoLine                   // Line must be nil
	dtNS
	dtEO
)

// dtWant is one finding the rule calls for. Zero field/written/expected are
// not checked.
type dtWant struct {
	code     domain.Code
	sev      domain.Severity
	hand     int
	line     dtLineSel
	field    string
	written  *int
	expected *int
}

// dtCase is one row of a decision table.
type dtCase struct {
	name  string
	sheet domain.Sheet
	want  []dtWant
	// absent codes must not be reported at all, at any severity.
	absent []domain.Code
	// mayAlso are further error codes the rule tolerates next to want.
	mayAlso []domain.Code
	// count: exact number of findings with the code.
	count map[domain.Code]int
}

// dtT is the part of testing.T the checks use, so that the property tests
// can collect complaints about one generated sheet.
type dtT interface {
	Helper()
	Errorf(format string, args ...any)
}

// dtCollect is a dtT that keeps the complaints.
type dtCollect struct{ msgs []string }

func (c *dtCollect) Helper() {}
func (c *dtCollect) Errorf(format string, args ...any) {
	c.msgs = append(c.msgs, fmt.Sprintf(format, args...))
}

func dtRun(t *testing.T, cases []dtCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dtCheck(t, domain.Validate(c.sheet), c)
		})
	}
}

func dtCheck(t dtT, rep domain.Report, c dtCase) {
	t.Helper()
	dtInvariants(t, rep)
	allowed := map[domain.Code]bool{}
	for _, code := range c.mayAlso {
		allowed[code] = true
	}
	for _, w := range c.want {
		if w.sev == domain.SeverityError {
			allowed[w.code] = true
		}
		dtExpect(t, rep, w)
	}
	for _, f := range rep.Findings {
		if f.Severity == domain.SeverityError && !allowed[f.Code] {
			t.Errorf("unexpected error finding %s", dtFmt(f))
		}
	}
	for _, code := range c.absent {
		for _, f := range rep.Findings {
			if f.Code == code {
				t.Errorf("%s must not be reported here: %s", code, dtFmt(f))
			}
		}
	}
	for code, n := range c.count {
		got := 0
		for _, f := range rep.Findings {
			if f.Code == code {
				got++
			}
		}
		if got != n {
			t.Errorf("%d findings %s, want %d; findings:\n%s", got, code, n, dtFmtAll(rep))
		}
	}
}

// dtInvariants holds for every report (API §2, RULES §5.1).
func dtInvariants(t dtT, rep domain.Report) {
	t.Helper()
	if rep.OK() != (rep.Count(domain.SeverityError) == 0) {
		t.Errorf("OK() = %v with %d error findings", rep.OK(), rep.Count(domain.SeverityError))
	}
	for _, f := range rep.Findings {
		switch f.Severity {
		case domain.SeverityError, domain.SeverityWarning, domain.SeverityInfo:
		default:
			t.Errorf("finding with severity %q: %s", f.Severity, dtFmt(f))
		}
		if f.Code == "" || f.Rule == "" || f.Message(domain.English) == "" || f.Message(domain.Italian) == "" {
			t.Errorf("finding without code, rule or message: %s", dtFmt(f))
		}
		for _, lang := range []domain.Lang{domain.English, domain.Italian} {
			if m := f.Message(lang); strings.Contains(m, "%!") {
				t.Errorf("badly formatted %s message %q", lang, m)
			}
		}
		// RULES §5.1: UNVERIFIABLE_* says nothing is wrong, just unproven.
		if strings.HasPrefix(string(f.Code), "UNVERIFIABLE_") && f.Severity != domain.SeverityInfo {
			t.Errorf("%s must be info: %s", f.Code, dtFmt(f))
		}
	}
}

func dtLineMatches(sel dtLineSel, l *domain.Line) bool {
	switch sel {
	case dtNoLine:
		return l == nil
	case dtNS:
		return l != nil && *l == domain.NS
	case dtEO:
		return l != nil && *l == domain.EO
	}
	return true
}

// dtMismatch says how f differs from w, "" when it is what w wants.
func dtMismatch(w dtWant, f domain.Finding) string {
	var d []string
	if f.Severity != w.sev {
		d = append(d, fmt.Sprintf("severity %s, want %s", f.Severity, w.sev))
	}
	if w.field != "" && f.Field != w.field {
		d = append(d, fmt.Sprintf("field %q, want %q", f.Field, w.field))
	}
	if w.written != nil && (f.Written == nil || *f.Written != *w.written) {
		d = append(d, fmt.Sprintf("written %s, want %d", dtIntp(f.Written), *w.written))
	}
	if w.expected != nil && (f.Expected == nil || *f.Expected != *w.expected) {
		d = append(d, fmt.Sprintf("expected %s, want %d", dtIntp(f.Expected), *w.expected))
	}
	if w.field != "" && (w.line == dtNS || w.line == dtEO) {
		l := domain.NS
		if w.line == dtEO {
			l = domain.EO
		}
		want := domain.WrittenPointer(l, w.field)
		if w.field == "late_points" {
			want = domain.LatePointsPointer(l)
		}
		if w.hand > 0 {
			want = domain.HandPointer(w.hand, l, w.field)
		}
		if f.Pointer != want {
			d = append(d, fmt.Sprintf("pointer %q, want %q", f.Pointer, want))
		}
	}
	return strings.Join(d, "; ")
}

func dtExpect(t dtT, rep domain.Report, w dtWant) {
	t.Helper()
	var cands []domain.Finding
	for _, f := range rep.Findings {
		if f.Code == w.code && f.Hand == w.hand && dtLineMatches(w.line, f.Line) {
			cands = append(cands, f)
		}
	}
	if len(cands) == 0 {
		t.Errorf("missing %s (%s) on hand %d %s; findings:\n%s", w.code, w.sev, w.hand, dtSelName(w.line), dtFmtAll(rep))
		return
	}
	for _, f := range cands {
		if dtMismatch(w, f) == "" {
			return
		}
	}
	t.Errorf("%s on hand %d %s: %s\n  got %s", w.code, w.hand, dtSelName(w.line), dtMismatch(w, cands[0]), dtFmt(cands[0]))
}

func dtSelName(s dtLineSel) string {
	return [...]string{"(any line)", "(no line)", "line ns", "line eo"}[s]
}

func dtIntp(p *int) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

func dtFmt(f domain.Finding) string {
	line := "-"
	if f.Line != nil {
		line = f.Line.String()
	}
	return fmt.Sprintf("%s/%s hand=%d line=%s field=%q written=%s expected=%s rule=%q pointer=%q msg=%q",
		f.Code, f.Severity, f.Hand, line, f.Field, dtIntp(f.Written), dtIntp(f.Expected), f.Rule, f.Pointer, f.Message(domain.English))
}

func dtFmtAll(rep domain.Report) string {
	if len(rep.Findings) == 0 {
		return "  (none)"
	}
	var b strings.Builder
	for _, f := range rep.Findings {
		b.WriteString("  " + dtFmt(f) + "\n")
	}
	return b.String()
}

// Shorthands for the wanted findings.
func dtErr(code domain.Code, hand int, line dtLineSel) dtWant {
	return dtWant{code: code, sev: domain.SeverityError, hand: hand, line: line}
}
func dtWarn(code domain.Code, hand int, line dtLineSel) dtWant {
	return dtWant{code: code, sev: domain.SeverityWarning, hand: hand, line: line}
}
func dtInfo(code domain.Code, hand int, line dtLineSel) dtWant {
	return dtWant{code: code, sev: domain.SeverityInfo, hand: hand, line: line}
}
func (w dtWant) at(field string) dtWant { w.field = field; return w }
func (w dtWant) values(written, expected int) dtWant {
	w.written, w.expected = domain.Int(written), domain.Int(expected)
	return w
}
func (w dtWant) wrote(written int) dtWant { w.written = domain.Int(written); return w }

// Short names for the burraco types and pozzetto states.
const (
	dtReale   = domain.Reale
	dtRealeS  = domain.RealeSporco
	dtSuper   = domain.Super
	dtSuperS  = domain.SuperSporco
	dtPulito  = domain.Pulito
	dtSemi    = domain.Semipulito
	dtSporco  = domain.Sporco
	dtTaken   = domain.PozzettoTaken
	dtUntaken = domain.PozzettoNotTaken
	dtUnplay  = domain.PozzettoTakenUnplay
)

// ---- §2, §3, §4: the catalogue --------------------------------------------

// dtAllowed is RULES §2: the burraco types of each ruleset.
var dtAllowed = map[domain.Ruleset][]domain.BurracoType{
	domain.FITAB2025: {dtReale, dtRealeS, dtSuper, dtSuperS, dtPulito, dtSemi, dtSporco}, // FITAB art. 13, 18
	domain.FITABInt:  {dtPulito, dtSporco},                                               // FITAB Title V
	domain.FIBurIta:  {dtPulito, dtSemi, dtSporco},                                       // FIBur-INT art. 13
	domain.FIBurInt:  {dtPulito, dtSporco},                                               // FIBur-INT
}

// dtBonus and dtMinCards are RULES §4.
var (
	dtBonus    = map[domain.BurracoType]int{dtReale: 300, dtRealeS: 250, dtSuper: 250, dtSuperS: 200, dtPulito: 200, dtSemi: 150, dtSporco: 100}
	dtMinCards = map[domain.BurracoType]int{dtReale: 13, dtRealeS: 14, dtSuper: 8, dtSuperS: 9, dtSemi: 8, dtPulito: 7, dtSporco: 7}
)

// RULES §2 and §4: which burraco types each ruleset has, their bonuses and
// their minimum cards; RULES §3: the deck.
func TestRulesCatalogue(t *testing.T) {
	allowed := dtAllowed
	all := []domain.BurracoType{dtReale, dtRealeS, dtSuper, dtSuperS, dtPulito, dtSemi, dtSporco}
	for r, want := range allowed {
		t.Run("RULES §2/types of "+string(r), func(t *testing.T) {
			got := map[domain.BurracoType]bool{}
			for _, bt := range r.BurracoTypes() {
				got[bt] = true
			}
			if len(got) != len(want) {
				t.Errorf("BurracoTypes() = %v, want %v", r.BurracoTypes(), want)
			}
			for _, bt := range all {
				in := false
				for _, w := range want {
					in = in || w == bt
				}
				if r.Allows(bt) != in || got[bt] != in {
					t.Errorf("Allows(%s) = %v, BurracoTypes has it: %v; RULES §2 says %v", bt, r.Allows(bt), got[bt], in)
				}
			}
		})
	}
	bonus, minCards := dtBonus, dtMinCards
	for _, bt := range all {
		t.Run("RULES §4/"+string(bt), func(t *testing.T) {
			if bt.Bonus() != bonus[bt] {
				t.Errorf("Bonus() = %d, want %d", bt.Bonus(), bonus[bt])
			}
			if bt.MinCards() != minCards[bt] {
				t.Errorf("MinCards() = %d, want %d", bt.MinCards(), minCards[bt])
			}
		})
	}
	t.Run("RULES §3/card values and counts", func(t *testing.T) {
		type rc struct{ count, value int }
		want := map[domain.Rank]rc{domain.Joker: {4, 30}, domain.Two: {8, 20}, domain.Ace: {8, 15}}
		for _, r := range []domain.Rank{domain.King, domain.Queen, domain.Jack, domain.Ten, domain.Nine, domain.Eight} {
			want[r] = rc{8, 10}
		}
		for _, r := range []domain.Rank{domain.Seven, domain.Six, domain.Five, domain.Four, domain.Three} {
			want[r] = rc{8, 5}
		}
		cards, value := 0, 0
		for r, w := range want {
			if r.CountInDeck() != w.count || r.Value() != w.value {
				t.Errorf("%s: count %d value %d, want %d and %d", r, r.CountInDeck(), r.Value(), w.count, w.value)
			}
			cards += w.count
			value += w.count * w.value
		}
		if cards != 108 || value != 1080 || domain.DeckCards != 108 || domain.DeckValue != 1080 {
			t.Errorf("deck: %d cards worth %d (constants %d, %d), want 108 worth 1080", cards, value, domain.DeckCards, domain.DeckValue)
		}
	})
	t.Run("RULES §4/closing bonus 100", func(t *testing.T) {
		if domain.ClosingBonus != 100 || domain.PozzettoPenalty != 100 {
			t.Errorf("ClosingBonus %d, PozzettoPenalty %d, want 100, 100", domain.ClosingBonus, domain.PozzettoPenalty)
		}
	})
}

// ---- §5.1, one decision table per code --------------------------------------

func TestRulesHandTotalMismatch(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name: "FITAB art. 18/HAND_TOTAL_MISMATCH/sum error NS hand 2",
			sheet: dtSheet(domain.FITAB2025,
				dtClosedNS(dtLine(300, 235), dtLine(100, -120)),
				dtClosedNS(dtLine(400, 100, dtTotal(650)), dtLine(100, -50))),
			want: []dtWant{dtErr(domain.HandTotalMismatch, 2, dtNS).at("total").values(650, 500)},
		},
		{
			name: "FIBur-INT art. 17/HAND_TOTAL_MISMATCH/sum error EO hand 1",
			sheet: dtSheet(domain.FIBurIta,
				dtClosedNS(dtLine(300, 235), dtLine(100, -120, dtTotal(-220)))),
			want: []dtWant{dtErr(domain.HandTotalMismatch, 1, dtEO).at("total").values(-220, -20)},
		},
		{
			name: "FITAB art. 18/HAND_TOTAL_MISMATCH/negative points added instead of subtracted",
			sheet: dtSheet(domain.FITABInt,
				dtClosedNS(dtLine(300, 235), dtLine(100, -120, dtTotal(220)))),
			want: []dtWant{dtErr(domain.HandTotalMismatch, 1, dtEO).at("total").values(220, -20)},
		},
		{
			name:   "FITAB art. 18/HAND_TOTAL_MISMATCH/near-miss: totals add up",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(100, -120)), dtClosedNS(dtLine(400, 100), dtLine(100, -50))),
			absent: []domain.Code{domain.HandTotalMismatch},
		},
		{
			name:   "FITAB art. 18/HAND_TOTAL_MISMATCH/near-miss: total not written",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235, dtNoTotal()), dtLine(100, -120, dtNoTotal()))),
			absent: []domain.Code{domain.HandTotalMismatch},
		},
	})
}

func TestRulesHandAfterTimeOut(t *testing.T) {
	timeOut := dtHand(domain.EndTimeOut, dtLine(200, 150), dtLine(100, 40))
	dtRun(t, []dtCase{
		{
			name:  "FITAB art. 15/HAND_AFTER_TIME_OUT/a hand follows the time-out hand",
			sheet: dtSheet(domain.FITAB2025, timeOut, dtClosedNS(dtLine(300, 235), dtLine(100, -120))),
			want:  []dtWant{dtErr(domain.HandAfterTimeOut, 2, dtNoLine)},
		},
		{
			name:  "FIBur-INT art. 15/HAND_AFTER_TIME_OUT/a hand follows the time-out hand",
			sheet: dtSheet(domain.FIBurInt, timeOut, dtClosedNS(dtLine(300, 235), dtLine(100, -120))),
			want:  []dtWant{dtErr(domain.HandAfterTimeOut, 2, dtNoLine)},
		},
		{
			name:   "FITAB art. 15/HAND_AFTER_TIME_OUT/near-miss: the time-out hand is the last",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(100, -120)), timeOut),
			absent: []domain.Code{domain.HandAfterTimeOut},
		},
		{
			name:   "FITAB art. 15/HAND_AFTER_TIME_OUT/near-miss: time-out cut a 3-hand round to 2",
			sheet:  dtPlanned(dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(100, -120)), timeOut), 3),
			absent: []domain.Code{domain.HandAfterTimeOut},
		},
	})
}

func TestRulesClosureImpossible(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name:  "FITAB art. 17/CLOSURE_IMPOSSIBLE/closed but bases 150 and 100",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(dtLine(150, 200), dtLine(100, -50))),
			want:  []dtWant{dtErr(domain.ClosureImpossible, 1, dtNoLine)},
		},
		{
			name:  "FITAB art. 17/CLOSURE_IMPOSSIBLE/closed but both bases 0",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(dtLine(0, 100), dtLine(0, -50))),
			want:  []dtWant{dtErr(domain.ClosureImpossible, 1, dtNoLine)},
		},
		{
			name:  "FITAB-INT rule 1/CLOSURE_IMPOSSIBLE/closed but bases 200 and 200 (a pulito is needed: 300)",
			sheet: dtSheet(domain.FITABInt, dtClosedNS(dtLine(200, 200), dtLine(200, -50))),
			want:  []dtWant{dtErr(domain.ClosureImpossible, 1, dtNoLine)},
		},
		{
			name:  "FIBur-INT art. 16/CLOSURE_IMPOSSIBLE/closed but bases 200 and 100",
			sheet: dtSheet(domain.FIBurInt, dtClosedNS(dtLine(200, 200), dtLine(100, -50))),
			want:  []dtWant{dtErr(domain.ClosureImpossible, 1, dtNoLine)},
		},
		{
			name:   "FITAB art. 17/CLOSURE_IMPOSSIBLE/near-miss: 200 is a sporco plus the closing",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(200, 200), dtLine(100, -50))),
			absent: []domain.Code{domain.ClosureImpossible},
		},
		{
			name:   "FIBur-INT art. 16/CLOSURE_IMPOSSIBLE/near-miss: 300 is a pulito plus the closing",
			sheet:  dtSheet(domain.FIBurInt, dtClosedNS(dtLine(300, 200), dtLine(200, -50))),
			absent: []domain.Code{domain.ClosureImpossible},
		},
		{
			name:   "FITAB art. 17/CLOSURE_IMPOSSIBLE/near-miss: end not written, low bases read as stock exhausted",
			sheet:  dtSheet(domain.FITAB2025, dtHand(domain.EndUnknown, dtLine(150, 200), dtLine(100, -50))),
			absent: []domain.Code{domain.ClosureImpossible},
		},
		{
			name:   "FITAB art. 17/CLOSURE_IMPOSSIBLE/near-miss: stock exhausted",
			sheet:  dtSheet(domain.FITAB2025, dtHand(domain.EndStockExhausted, dtLine(100, 200), dtLine(100, -50))),
			absent: []domain.Code{domain.ClosureImpossible},
		},
	})
}

func TestRulesNotMultipleOf5(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name:  "FITAB art. 18/NOT_MULTIPLE_OF_5/NS points 233",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 233), dtLine(100, -120))),
			want:  []dtWant{dtErr(domain.NotMultipleOf5, 1, dtNS).at("points").wrote(233)},
		},
		{
			name:  "FIBur-INT art. 17/NOT_MULTIPLE_OF_5/EO points -122",
			sheet: dtSheet(domain.FIBurIta, dtClosedNS(dtLine(300, 235), dtLine(100, -122))),
			want:  []dtWant{dtErr(domain.NotMultipleOf5, 1, dtEO).at("points").wrote(-122)},
		},
		{
			name:  "FITAB art. 18/NOT_MULTIPLE_OF_5/NS total 537 (and the sum is wrong)",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235, dtTotal(537)), dtLine(100, -120))),
			want: []dtWant{
				dtErr(domain.NotMultipleOf5, 1, dtNS).at("total").wrote(537),
				dtErr(domain.HandTotalMismatch, 1, dtNS).at("total").values(537, 535),
			},
		},
		{
			name:   "FITAB art. 18/NOT_MULTIPLE_OF_5/near-miss: zero and negative multiples of 5",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 0), dtLine(0, -355))),
			absent: []domain.Code{domain.NotMultipleOf5},
		},
	})
}

func TestRulesBaseNotRepresentable(t *testing.T) {
	closer := dtLine(300, 235)
	dtRun(t, []dtCase{
		{
			name:  "FITAB art. 13/BASE_NOT_REPRESENTABLE/EO base 130 (+30)",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(130, -120))),
			want:  []dtWant{dtErr(domain.BaseNotRepresentable, 1, dtEO).at("base").wrote(130)},
		},
		{
			name:  "FITAB art. 13/BASE_NOT_REPRESENTABLE/EO base 80 (below the smallest bonus; 180 is no bonus sum either)",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(80, -120))),
			want:  []dtWant{dtErr(domain.BaseNotRepresentable, 1, dtEO).at("base").wrote(80)},
		},
		{
			// RULES §5 (as corrected): the club convention
			// applies only to a line marked not_taken; unmarked, base 50 is
			// simply not representable.
			name:   "FITAB art. 13/BASE_NOT_REPRESENTABLE/pozzetto not written, base 50 is not read as 150 − 100",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(50, -120))),
			want:   []dtWant{dtErr(domain.BaseNotRepresentable, 1, dtEO).at("base").wrote(50)},
			absent: []domain.Code{domain.PozzettoInBase},
		},
		{
			name:  "FITAB-INT rule 2/BASE_NOT_REPRESENTABLE/EO base 150 (int bases are multiples of 100)",
			sheet: dtSheet(domain.FITABInt, dtClosedNS(closer, dtLine(150, -120))),
			want:  []dtWant{dtErr(domain.BaseNotRepresentable, 1, dtEO).at("base").wrote(150)},
		},
		{
			name:  "FIBur-INT art. 17/BASE_NOT_REPRESENTABLE/EO base 250 in fibur-int",
			sheet: dtSheet(domain.FIBurInt, dtClosedNS(closer, dtLine(250, -120))),
			want:  []dtWant{dtErr(domain.BaseNotRepresentable, 1, dtEO).at("base").wrote(250)},
		},
		{
			name:  "FIBur-INT art. 17/BASE_NOT_REPRESENTABLE/closing NS base 350 in fibur-int",
			sheet: dtSheet(domain.FIBurInt, dtClosedNS(dtLine(350, 235), dtLine(100, -120))),
			want:  []dtWant{dtErr(domain.BaseNotRepresentable, 1, dtNS).at("base").wrote(350)},
		},
		{
			// Flipping the pozzetto flag alone would make the base the LUG
			// convention, so (as for points, RULES §5.1 last paragraph) the
			// flag is what is wrong: POZZETTO_PENALTY_INVALID; a
			// BASE_NOT_REPRESENTABLE next to it is tolerated.
			name:    "FITAB art. 18/BASE_NOT_REPRESENTABLE/base -100 on a line that took its pozzetto: the -100 is the error",
			sheet:   dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(-100, 80, dtPozz(dtTaken)))),
			want:    []dtWant{dtErr(domain.PozzettoPenaltyInvalid, 1, dtEO)},
			mayAlso: []domain.Code{domain.BaseNotRepresentable},
			absent:  []domain.Code{domain.PozzettoInBase},
		},
		{
			name:   "LUG/BASE_NOT_REPRESENTABLE/base -100 and points already carry the -100: no base convention",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(-100, -20, dtPozz(dtUntaken), dtSplit(100, 20)))),
			want:   []dtWant{dtErr(domain.BaseNotRepresentable, 1, dtEO).at("base").wrote(-100)},
			absent: []domain.Code{domain.PozzettoInBase},
		},
		{
			name:   "FITAB art. 13/BASE_NOT_REPRESENTABLE/near-miss: EO 150 is a semipulito",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(150, -120))),
			absent: []domain.Code{domain.BaseNotRepresentable},
		},
		{
			name:   "FITAB art. 13/BASE_NOT_REPRESENTABLE/near-miss: EO 0 (no burraco)",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(0, -120))),
			absent: []domain.Code{domain.BaseNotRepresentable},
		},
		{
			name:   "FITAB art. 13/BASE_NOT_REPRESENTABLE/near-miss: NS 350 and EO 1000",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(350, 235), dtLine(1000, -120))),
			absent: []domain.Code{domain.BaseNotRepresentable},
		},
		{
			name:   "FIBur-INT art. 13/BASE_NOT_REPRESENTABLE/near-miss: fibur-ita 150 and 250 (semipulito)",
			sheet:  dtSheet(domain.FIBurIta, dtClosedNS(dtLine(250, 235), dtLine(150, -120))),
			absent: []domain.Code{domain.BaseNotRepresentable},
		},
		{
			name:   "FITAB-INT rule 2/BASE_NOT_REPRESENTABLE/near-miss: fitab-int 300 and 400",
			sheet:  dtSheet(domain.FITABInt, dtClosedNS(closer, dtLine(400, -120))),
			absent: []domain.Code{domain.BaseNotRepresentable},
		},
	})
}

func TestRulesBurracoTypeNotAllowed(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name: "FIBur-INT art. 13/BURRACO_TYPE_NOT_ALLOWED/semipulito in fibur-int",
			sheet: dtSheet(domain.FIBurInt, dtClosedNS(
				dtLine(600, 235, dtBur(dtSemi, 2, dtPulito, 1), dtClosed(true)), dtLine(100, -120))),
			want:    []dtWant{dtErr(domain.BurracoTypeNotAllowed, 1, dtNS).at("burrachi")},
			mayAlso: []domain.Code{domain.BonusBreakdownMismatch},
		},
		{
			name: "FITAB-INT rule 2/BURRACO_TYPE_NOT_ALLOWED/super in fitab-int",
			sheet: dtSheet(domain.FITABInt, dtClosedNS(
				dtLine(300, 235), dtLine(500, -120, dtBur(dtSuper, 2), dtClosed(false)))),
			want:    []dtWant{dtErr(domain.BurracoTypeNotAllowed, 1, dtEO).at("burrachi")},
			mayAlso: []domain.Code{domain.BonusBreakdownMismatch},
		},
		{
			name: "FITAB-INT rule 2/BURRACO_TYPE_NOT_ALLOWED/semipulito in fitab-int",
			sheet: dtSheet(domain.FITABInt, dtClosedNS(
				dtLine(300, 235), dtLine(300, -120, dtBur(dtSemi, 2), dtClosed(false)))),
			want:    []dtWant{dtErr(domain.BurracoTypeNotAllowed, 1, dtEO).at("burrachi")},
			mayAlso: []domain.Code{domain.BonusBreakdownMismatch},
		},
		{
			name: "FIBur-INT art. 13/BURRACO_TYPE_NOT_ALLOWED/reale in fibur-ita",
			sheet: dtSheet(domain.FIBurIta, dtClosedNS(
				dtLine(400, 235, dtBur(dtReale, 1), dtClosed(true)), dtLine(100, -120))),
			want:    []dtWant{dtErr(domain.BurracoTypeNotAllowed, 1, dtNS).at("burrachi")},
			mayAlso: []domain.Code{domain.BonusBreakdownMismatch},
		},
		{
			name: "FIBur-INT art. 13/BURRACO_TYPE_NOT_ALLOWED/near-miss: semipulito in fibur-ita",
			sheet: dtSheet(domain.FIBurIta, dtClosedNS(
				dtLine(300, 235, dtBur(dtPulito, 1), dtClosed(true)), dtLine(150, -120, dtBur(dtSemi, 1), dtClosed(false)))),
			absent: []domain.Code{domain.BurracoTypeNotAllowed},
		},
		{
			name: "FITAB art. 13/BURRACO_TYPE_NOT_ALLOWED/near-miss: reale, super sporco, semipulito in fitab-2025",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(400, 235, dtBur(dtReale, 1), dtClosed(true)), dtLine(350, -120, dtBur(dtSuperS, 1, dtSemi, 1), dtClosed(false)))),
			absent: []domain.Code{domain.BurracoTypeNotAllowed},
		},
		{
			name: "FITAB-INT rule 2/BURRACO_TYPE_NOT_ALLOWED/near-miss: pulito and sporchi in fitab-int",
			sheet: dtSheet(domain.FITABInt, dtClosedNS(
				dtLine(300, 235, dtBur(dtPulito, 1), dtClosed(true)), dtLine(200, -120, dtBur(dtSporco, 2), dtClosed(false)))),
			absent: []domain.Code{domain.BurracoTypeNotAllowed},
		},
	})
}

func TestRulesBonusBreakdownMismatch(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name: "FITAB art. 18/BONUS_BREAKDOWN_MISMATCH/pulito + closing written as 350",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(350, 235, dtBur(dtPulito, 1), dtClosed(true)), dtLine(100, -120))),
			want: []dtWant{dtErr(domain.BonusBreakdownMismatch, 1, dtNS).at("base").values(350, 300)},
		},
		{
			name: "FITAB art. 18/BONUS_BREAKDOWN_MISMATCH/two sporchi, not closed, written as 300",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 235), dtLine(300, -120, dtBur(dtSporco, 2), dtClosed(false)))),
			want: []dtWant{dtErr(domain.BonusBreakdownMismatch, 1, dtEO).at("base").values(300, 200)},
		},
		{
			name: "FITAB art. 13/BONUS_BREAKDOWN_MISMATCH/reale + sporco + closing written as 400",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(400, 235, dtBur(dtReale, 1, dtSporco, 1), dtClosed(true)), dtLine(100, -120))),
			want: []dtWant{dtErr(domain.BonusBreakdownMismatch, 1, dtNS).at("base").values(400, 500)},
		},
		{
			name: "LUG/BONUS_BREAKDOWN_MISMATCH/base convention: 50 + 100 is not the pulito's 200",
			sheet: dtSheet(domain.FIBurIta, dtClosedNS(
				dtLine(300, 235), dtLine(50, 80, dtBur(dtPulito, 1), dtPozz(dtUntaken)))),
			want: []dtWant{dtErr(domain.BonusBreakdownMismatch, 1, dtEO)},
		},
		{
			name: "FITAB art. 18/BONUS_BREAKDOWN_MISMATCH/near-miss: closed flag not written, 300 = pulito + closing",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 235, dtBur(dtPulito, 1)), dtLine(100, -120, dtBur(dtSporco, 1)))),
			absent: []domain.Code{domain.BonusBreakdownMismatch},
		},
		{
			name: "FITAB art. 18/BONUS_BREAKDOWN_MISMATCH/near-miss: stock exhausted, 200 = pulito",
			sheet: dtSheet(domain.FITAB2025, dtHand(domain.EndStockExhausted,
				dtLine(200, 235, dtBur(dtPulito, 1)), dtLine(100, -120, dtBur(dtSporco, 1)))),
			absent: []domain.Code{domain.BonusBreakdownMismatch},
		},
		{
			name: "FITAB art. 18/BONUS_BREAKDOWN_MISMATCH/near-miss: pulito + sporco + closing = 400",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(400, 235, dtBur(dtPulito, 1, dtSporco, 1), dtClosed(true)), dtLine(0, -120, dtBur(), dtClosed(false)))),
			absent: []domain.Code{domain.BonusBreakdownMismatch},
		},
		{
			name: "LUG/BONUS_BREAKDOWN_MISMATCH/near-miss: base convention, 50 + 100 is the semipulito",
			sheet: dtSheet(domain.FIBurIta, dtClosedNS(
				dtLine(300, 235), dtLine(50, 80, dtBur(dtSemi, 1), dtPozz(dtUntaken), dtSplit(100, 20)))),
			want:   []dtWant{dtWarn(domain.PozzettoInBase, 1, dtEO).at("base")},
			absent: []domain.Code{domain.BonusBreakdownMismatch, domain.BaseNotRepresentable, domain.PozzettoPenaltyInvalid},
		},
	})
}

func TestRulesPointsBreakdownMismatch(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name: "FITAB art. 18/POINTS_BREAKDOWN_MISMATCH/255 - 20 written as 245",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 245, dtPozz(dtTaken), dtSplit(255, 20)), dtLine(100, -120))),
			want: []dtWant{dtErr(domain.PointsBreakdownMismatch, 1, dtNS).at("points").values(245, 235)},
		},
		{
			name: "FITAB art. 18/POINTS_BREAKDOWN_MISMATCH/penalty cards not subtracted",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 235), dtLine(100, 120, dtPozz(dtTaken), dtSplit(150, 30), dtPenalty(20)))),
			want: []dtWant{dtErr(domain.PointsBreakdownMismatch, 1, dtEO).at("points").values(120, 100)},
		},
		{
			name: "FIBur-INT art. 17/POINTS_BREAKDOWN_MISMATCH/unplayed pozzetto miscounted",
			sheet: dtSheet(domain.FIBurIta, dtClosedNS(
				dtLine(300, 235), dtLine(100, 130, dtPozz(dtUnplay), dtSplit(150, 30), dtUnplayed(60)))),
			want: []dtWant{dtErr(domain.PointsBreakdownMismatch, 1, dtEO).at("points").values(130, 60)},
		},
		{
			name: "FITAB art. 18/POINTS_BREAKDOWN_MISMATCH/pozzetto flip explains it: POZZETTO_PENALTY_INVALID instead",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 235), dtLine(100, -20, dtPozz(dtTaken), dtSplit(100, 20)))),
			want:   []dtWant{dtErr(domain.PozzettoPenaltyInvalid, 1, dtEO)},
			absent: []domain.Code{domain.PointsBreakdownMismatch},
		},
		{
			name: "FITAB art. 18/POINTS_BREAKDOWN_MISMATCH/near-miss: split adds up, -100 for the untaken pozzetto",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 235, dtPozz(dtTaken), dtSplit(255, 20)), dtLine(100, -20, dtPozz(dtUntaken), dtSplit(100, 20)))),
			absent: []domain.Code{domain.PointsBreakdownMismatch, domain.PozzettoPenaltyInvalid},
		},
		{
			name: "FITAB art. 18/POINTS_BREAKDOWN_MISMATCH/near-miss: unplayed pozzetto and penalty subtracted",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 235), dtLine(100, 40, dtPozz(dtUnplay), dtSplit(150, 30), dtUnplayed(60), dtPenalty(20)))),
			absent: []domain.Code{domain.PointsBreakdownMismatch},
		},
	})
}

func TestRulesMultipleClosures(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name: "FITAB art. 17/MULTIPLE_CLOSURES/both lines marked closed",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 235, dtBur(dtPulito, 1), dtClosed(true), dtPozz(dtTaken)),
				dtLine(300, 100, dtBur(dtPulito, 1), dtClosed(true), dtPozz(dtTaken)))),
			want: []dtWant{dtErr(domain.MultipleClosures, 1, dtNoLine)},
		},
		{
			name: "FIBur-INT art. 16/MULTIPLE_CLOSURES/both lines marked closed, no breakdown",
			sheet: dtSheet(domain.FIBurIta, dtClosedNS(
				dtLine(300, 235, dtClosed(true)), dtLine(300, 100, dtClosed(true)))),
			want: []dtWant{dtErr(domain.MultipleClosures, 1, dtNoLine)},
		},
		{
			name: "FITAB art. 17/MULTIPLE_CLOSURES/both bases only explicable with a closing bonus",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 235, dtBur(dtPulito, 1)), dtLine(200, 100, dtBur(dtSporco, 1)))),
			want:    []dtWant{dtErr(domain.MultipleClosures, 1, dtNoLine)},
			mayAlso: []domain.Code{domain.BonusBreakdownMismatch},
		},
		{
			name:   "FITAB art. 17/MULTIPLE_CLOSURES/near-miss: both 300 without breakdown (a reale, or pulito + sporco)",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(300, 100))),
			absent: []domain.Code{domain.MultipleClosures},
		},
		{
			name: "FITAB art. 17/MULTIPLE_CLOSURES/near-miss: one line closed, the other not",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 235, dtClosed(true)), dtLine(300, 100, dtClosed(false)))),
			absent: []domain.Code{domain.MultipleClosures},
		},
	})
}

func TestRulesClosureWithoutBurraco(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name: "FITAB art. 17/CLOSURE_WITHOUT_BURRACO/closed with an empty breakdown",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(100, 235, dtBur(), dtClosed(true)), dtLine(200, -50))),
			want: []dtWant{dtErr(domain.ClosureWithoutBurraco, 1, dtNS)},
		},
		{
			name: "FITAB art. 17/CLOSURE_WITHOUT_BURRACO/closed with base 100 (the closing bonus alone)",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(100, 235, dtClosed(true)), dtLine(200, -50))),
			want: []dtWant{dtErr(domain.ClosureWithoutBurraco, 1, dtNS)},
		},
		{
			name: "FIBur-INT art. 16/CLOSURE_WITHOUT_BURRACO/fibur-int closed with a sporco only",
			sheet: dtSheet(domain.FIBurInt, dtClosedNS(
				dtLine(200, 235, dtBur(dtSporco, 1), dtClosed(true)), dtLine(300, -50, dtBur(dtPulito, 1, dtSporco, 1), dtClosed(false)))),
			want:    []dtWant{dtErr(domain.ClosureWithoutBurraco, 1, dtNS)},
			mayAlso: []domain.Code{domain.ClosureImpossible},
		},
		{
			name: "FITAB-INT rule 1/CLOSURE_WITHOUT_BURRACO/fitab-int closed with two sporchi",
			sheet: dtSheet(domain.FITABInt, dtClosedNS(
				dtLine(300, 235, dtBur(dtSporco, 2), dtClosed(true)), dtLine(100, -50))),
			want: []dtWant{dtErr(domain.ClosureWithoutBurraco, 1, dtNS)},
		},
		{
			name: "FITAB art. 17/CLOSURE_WITHOUT_BURRACO/near-miss: a sporco is enough in fitab-2025",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(200, 235, dtBur(dtSporco, 1), dtClosed(true)), dtLine(100, -50))),
			absent: []domain.Code{domain.ClosureWithoutBurraco},
		},
		{
			name: "FIBur-INT art. 16/CLOSURE_WITHOUT_BURRACO/near-miss: fibur-int closed with a pulito",
			sheet: dtSheet(domain.FIBurInt, dtClosedNS(
				dtLine(300, 235, dtBur(dtPulito, 1), dtClosed(true)), dtLine(100, -50))),
			absent: []domain.Code{domain.ClosureWithoutBurraco},
		},
		{
			name:   "FITAB-INT rule 1/CLOSURE_WITHOUT_BURRACO/near-miss: fitab-int closed with 300, no breakdown",
			sheet:  dtSheet(domain.FITABInt, dtClosedNS(dtLine(300, 235, dtClosed(true)), dtLine(100, -50))),
			absent: []domain.Code{domain.ClosureWithoutBurraco},
		},
	})
}

func TestRulesClosureWithoutPozzetto(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name: "FITAB art. 17/CLOSURE_WITHOUT_POZZETTO/closed without taking the pozzetto",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 135, dtClosed(true), dtPozz(dtUntaken)), dtLine(100, -120))),
			want: []dtWant{dtErr(domain.ClosureWithoutPozzetto, 1, dtNS)},
		},
		{
			name: "FIBur-INT art. 16/CLOSURE_WITHOUT_POZZETTO/EO closed without taking the pozzetto",
			sheet: dtSheet(domain.FIBurIta, dtHand(domain.EndClosed,
				dtLine(100, -120, dtClosed(false)), dtLine(300, 135, dtBur(dtPulito, 1), dtClosed(true), dtPozz(dtUntaken)))),
			want: []dtWant{dtErr(domain.ClosureWithoutPozzetto, 1, dtEO)},
		},
		{
			name: "FITAB art. 17/CLOSURE_WITHOUT_POZZETTO/near-miss: partner holds the unplayed pozzetto (taken_not_played)",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 220, dtBur(dtPulito, 1), dtClosed(true), dtPozz(dtUnplay), dtSplit(300, 0), dtUnplayed(80)),
				dtLine(100, -120))),
			absent: []domain.Code{domain.ClosureWithoutPozzetto},
		},
		{
			name: "FITAB art. 17/CLOSURE_WITHOUT_POZZETTO/near-miss: closer took it",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(300, 235, dtClosed(true), dtPozz(dtTaken)), dtLine(100, -220, dtPozz(dtUntaken)))),
			absent: []domain.Code{domain.ClosureWithoutPozzetto},
		},
	})
}

func TestRulesClosureBonusNotDue(t *testing.T) {
	var cases []dtCase
	for _, end := range []domain.HandEnd{domain.EndStockExhausted, domain.EndTimeOut, domain.EndStall, domain.EndInterrupted} {
		cases = append(cases, dtCase{
			name: "FITAB art. 15-17, 22.4, 36/CLOSURE_BONUS_NOT_DUE/closing bonus in a hand ended " + string(end),
			sheet: dtSheet(domain.FITAB2025, dtHand(end,
				dtLine(300, 235, dtBur(dtPulito, 1), dtClosed(true), dtPozz(dtTaken)), dtLine(100, -120))),
			want: []dtWant{dtErr(domain.ClosureBonusNotDue, 1, dtNS)},
		})
	}
	cases = append(cases,
		dtCase{
			name: "FIBur-INT art. 15/CLOSURE_BONUS_NOT_DUE/stock exhausted, pulito written as 300",
			sheet: dtSheet(domain.FIBurIta, dtHand(domain.EndStockExhausted,
				dtLine(300, 235, dtBur(dtPulito, 1)), dtLine(100, -120))),
			want:    []dtWant{dtErr(domain.ClosureBonusNotDue, 1, dtNS)},
			mayAlso: []domain.Code{domain.BonusBreakdownMismatch},
		},
		dtCase{
			name:   "FITAB art. 17/CLOSURE_BONUS_NOT_DUE/near-miss: stock exhausted, 300 without breakdown is a reale",
			sheet:  dtSheet(domain.FITAB2025, dtHand(domain.EndStockExhausted, dtLine(300, 235), dtLine(100, -120))),
			absent: []domain.Code{domain.ClosureBonusNotDue},
		},
		dtCase{
			name: "FITAB art. 17/CLOSURE_BONUS_NOT_DUE/near-miss: stock exhausted, pulito 200, no closing",
			sheet: dtSheet(domain.FITAB2025, dtHand(domain.EndStockExhausted,
				dtLine(200, 235, dtBur(dtPulito, 1), dtClosed(false)), dtLine(100, -120))),
			absent: []domain.Code{domain.ClosureBonusNotDue},
		},
		dtCase{
			name: "FITAB art. 15/CLOSURE_BONUS_NOT_DUE/near-miss: closing during the final round after the time-out ends the hand closed",
			sheet: dtSheet(domain.FITAB2025, dtHand(domain.EndClosed,
				dtLine(300, 235, dtBur(dtPulito, 1), dtClosed(true), dtPozz(dtTaken)), dtLine(100, -120))),
			absent: []domain.Code{domain.ClosureBonusNotDue},
		},
	)
	dtRun(t, cases)
}

func TestRulesPozzettoPenaltyInvalid(t *testing.T) {
	closer := dtLine(300, 235, dtPozz(dtTaken))
	stall := func(ns, eo domain.LineScore) domain.Sheet {
		return dtSheet(domain.FITAB2025, dtHand(domain.EndStall, ns, eo))
	}
	dtRun(t, []dtCase{
		{
			name:   "FITAB art. 18/POZZETTO_PENALTY_INVALID/-100 charged to a line that took its pozzetto",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(100, -20, dtPozz(dtTaken), dtSplit(100, 20)))),
			want:   []dtWant{dtErr(domain.PozzettoPenaltyInvalid, 1, dtEO)},
			absent: []domain.Code{domain.PointsBreakdownMismatch},
		},
		{
			name:   "FIBur-INT art. 17/POZZETTO_PENALTY_INVALID/-100 missing for a line that did not take it",
			sheet:  dtSheet(domain.FIBurIta, dtClosedNS(closer, dtLine(100, 80, dtPozz(dtUntaken), dtSplit(100, 20)))),
			want:   []dtWant{dtErr(domain.PozzettoPenaltyInvalid, 1, dtEO)},
			absent: []domain.Code{domain.PointsBreakdownMismatch, domain.PozzettoInBase},
		},
		{
			name:   "FITAB art. 18/POZZETTO_PENALTY_INVALID/near-miss: -100 for the untaken pozzetto",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(100, -20, dtPozz(dtUntaken), dtSplit(100, 20)))),
			absent: []domain.Code{domain.PozzettoPenaltyInvalid},
		},
		{
			name: "FITAB art. 16/POZZETTO_PENALTY_INVALID/near-miss: stall, the untaken line pays, hand cards not subtracted",
			sheet: stall(dtLine(200, 150, dtPozz(dtTaken), dtSplit(150, 40)),
				dtLine(100, 20, dtPozz(dtUntaken), dtSplit(120, 30))),
			absent: []domain.Code{domain.PozzettoPenaltyInvalid, domain.PointsBreakdownMismatch},
		},
		{
			// "Qualora una coppia abbia preso il pozzetto, l'altra dovrà pagare 100 punti."
			name: "FITAB art. 16/POZZETTO_PENALTY_INVALID/stall, one line took it, the other let off: error",
			sheet: stall(dtLine(200, 150, dtPozz(dtTaken), dtSplit(150, 40)),
				dtLine(100, 120, dtPozz(dtUntaken), dtSplit(120, 30))),
			want:   []dtWant{dtErr(domain.PozzettoPenaltyInvalid, 1, dtEO)},
			absent: []domain.Code{domain.PointsBreakdownMismatch},
		},
		{
			name: "FITAB art. 16/POZZETTO_PENALTY_INVALID/stall, the taker charged as well: error on the taker",
			sheet: stall(dtLine(200, 50, dtPozz(dtTaken), dtSplit(150, 40)),
				dtLine(100, 20, dtPozz(dtUntaken), dtSplit(120, 30))),
			want: []dtWant{dtErr(domain.PozzettoPenaltyInvalid, 1, dtNS)},
		},
		{
			name: "FITAB art. 16/POZZETTO_PENALTY_INVALID/stall, the taker charged instead of the other: error on both",
			sheet: stall(dtLine(200, 50, dtPozz(dtTaken), dtSplit(150, 40)),
				dtLine(100, 120, dtPozz(dtUntaken), dtSplit(120, 30))),
			want: []dtWant{dtErr(domain.PozzettoPenaltyInvalid, 1, dtNS), dtErr(domain.PozzettoPenaltyInvalid, 1, dtEO)},
		},
		{
			name: "FITAB art. 16/POZZETTO_PENALTY_INVALID/stall, the taker charged in the base column: error",
			sheet: stall(dtLine(-100, 150, dtPozz(dtTaken), dtSplit(150, 40)),
				dtLine(100, 20, dtPozz(dtUntaken), dtSplit(120, 30))),
			want: []dtWant{dtErr(domain.PozzettoPenaltyInvalid, 1, dtNS).at("base")},
		},
		{
			name: "FITAB art. 16/POZZETTO_PENALTY_INVALID/stall, both took it, one charged: info only",
			sheet: stall(dtLine(200, 50, dtPozz(dtTaken), dtSplit(150, 40)),
				dtLine(100, 120, dtPozz(dtTaken), dtSplit(120, 30))),
			want: []dtWant{dtInfo(domain.PozzettoPenaltyInvalid, 1, dtNS)},
		},
		{
			name: "FITAB art. 33/POZZETTO_PENALTY_INVALID/lost-count stall, one line took it, the other let off: info",
			sheet: func() domain.Sheet {
				s := stall(dtLine(200, 150, dtPozz(dtTaken), dtSplit(150, 40)),
					dtLine(100, 120, dtPozz(dtUntaken), dtSplit(120, 30)))
				s.Hands[0].LostCount = true
				return s
			}(),
			want: []dtWant{dtInfo(domain.PozzettoPenaltyInvalid, 1, dtEO)},
		},
		{
			name: "FITAB art. 16/POZZETTO_PENALTY_INVALID/near-miss: stall, neither took it, neither pays",
			sheet: stall(dtLine(200, 150, dtPozz(dtUntaken), dtSplit(150, 40)),
				dtLine(100, 120, dtPozz(dtUntaken), dtSplit(120, 30))),
			absent: []domain.Code{domain.PozzettoPenaltyInvalid, domain.PointsBreakdownMismatch},
		},
		{
			name: "FITAB art. 16/POZZETTO_PENALTY_INVALID/stall, neither took it, both charged: info only",
			sheet: stall(dtLine(200, 50, dtPozz(dtUntaken), dtSplit(150, 40)),
				dtLine(100, 20, dtPozz(dtUntaken), dtSplit(120, 30))),
			want: []dtWant{dtInfo(domain.PozzettoPenaltyInvalid, 1, dtNS), dtInfo(domain.PozzettoPenaltyInvalid, 1, dtEO)},
		},
		{
			name: "FIBur-INT art. 17/POZZETTO_PENALTY_INVALID/stall in FIBur: same treatment as FITAB art. 16, error",
			sheet: dtSheet(domain.FIBurIta, dtHand(domain.EndStall, dtLine(200, 150, dtPozz(dtTaken), dtSplit(150, 40)),
				dtLine(100, 120, dtPozz(dtUntaken), dtSplit(120, 30)))),
			want: []dtWant{dtErr(domain.PozzettoPenaltyInvalid, 1, dtEO)},
		},
	})
}

func TestRulesPozzettoInBase(t *testing.T) {
	closer := dtLine(300, 235)
	dtRun(t, []dtCase{
		{
			name:   "LUG/POZZETTO_IN_BASE/-100 in the base column, no split",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(-100, 80, dtPozz(dtUntaken)))),
			want:   []dtWant{dtWarn(domain.PozzettoInBase, 1, dtEO).at("base")},
			absent: []domain.Code{domain.BaseNotRepresentable, domain.PozzettoPenaltyInvalid, domain.HandTotalMismatch},
		},
		{
			name:   "LUG/POZZETTO_IN_BASE/-100 in the base column, split without the -100",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(-100, 80, dtPozz(dtUntaken), dtSplit(100, 20)))),
			want:   []dtWant{dtWarn(domain.PozzettoInBase, 1, dtEO).at("base")},
			absent: []domain.Code{domain.BaseNotRepresentable, domain.PozzettoPenaltyInvalid, domain.PointsBreakdownMismatch},
		},
		{
			name:   "LUG/POZZETTO_IN_BASE/fibur-int -100 in the base column",
			sheet:  dtSheet(domain.FIBurInt, dtClosedNS(closer, dtLine(-100, 80, dtPozz(dtUntaken)))),
			want:   []dtWant{dtWarn(domain.PozzettoInBase, 1, dtEO).at("base")},
			absent: []domain.Code{domain.BaseNotRepresentable, domain.PozzettoPenaltyInvalid},
		},
		{
			// RULES §5: "When a line is marked pozzetto not_taken, its base is
			// not representable but base + 100 is ..." — no mark, no convention.
			name:   "LUG/POZZETTO_IN_BASE/near-miss: base 50 in fitab-2025 on an unmarked line is BASE_NOT_REPRESENTABLE",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(50, -20))),
			want:   []dtWant{dtErr(domain.BaseNotRepresentable, 1, dtEO).at("base").wrote(50)},
			absent: []domain.Code{domain.PozzettoInBase},
		},
		{
			name:   "LUG/POZZETTO_IN_BASE/near-miss: base -100 on an unmarked line is BASE_NOT_REPRESENTABLE",
			sheet:  dtSheet(domain.FIBurIta, dtClosedNS(closer, dtLine(-100, 80))),
			want:   []dtWant{dtErr(domain.BaseNotRepresentable, 1, dtEO).at("base").wrote(-100)},
			absent: []domain.Code{domain.PozzettoInBase},
		},
		{
			name:   "LUG/POZZETTO_IN_BASE/base 50 in fitab-2025 marked not_taken: the convention (150 = semipulito)",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(50, -20, dtPozz(dtUntaken)))),
			want:   []dtWant{dtWarn(domain.PozzettoInBase, 1, dtEO).at("base")},
			absent: []domain.Code{domain.BaseNotRepresentable},
		},
		{
			name:   "LUG/POZZETTO_IN_BASE/near-miss: -100 in the points column",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(closer, dtLine(100, -20, dtPozz(dtUntaken)))),
			absent: []domain.Code{domain.PozzettoInBase},
		},
		{
			name: "LUG/POZZETTO_IN_BASE/near-miss: base 100 is representable, so the missing -100 is a penalty error",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(closer,
				dtLine(100, 80, dtPozz(dtUntaken), dtSplit(100, 20)))),
			want:   []dtWant{dtErr(domain.PozzettoPenaltyInvalid, 1, dtEO)},
			absent: []domain.Code{domain.PozzettoInBase},
		},
	})
}

func TestRulesCardPointsImpossible(t *testing.T) {
	tk, ut := dtPozz(dtTaken), dtPozz(dtUntaken)
	cl := func(ns, eo domain.LineScore) domain.Sheet { return dtSheet(domain.FITAB2025, dtClosedNS(ns, eo)) }
	impossible := []dtWant{dtErr(domain.CardPointsImpossible, 1, dtNoLine)}
	dtRun(t, []dtCase{
		{
			name:   "FITAB art. 1/CARD_POINTS_IMPOSSIBLE/near-miss: 700 + 365 = 1065 exactly",
			sheet:  cl(dtLine(300, 700, tk), dtLine(100, 365, tk)),
			absent: []domain.Code{domain.CardPointsImpossible},
		},
		{
			name:  "FITAB art. 1/CARD_POINTS_IMPOSSIBLE/700 + 370 = 1070 > 1065",
			sheet: cl(dtLine(300, 700, tk), dtLine(100, 370, tk)),
			want:  impossible,
		},
		{
			name:   "FITAB art. 1/CARD_POINTS_IMPOSSIBLE/near-miss: 700 + |-365| = 1065",
			sheet:  cl(dtLine(300, 700, tk), dtLine(100, -365, tk)),
			absent: []domain.Code{domain.CardPointsImpossible},
		},
		{
			name:  "FITAB art. 1/CARD_POINTS_IMPOSSIBLE/700 + |-370| = 1070",
			sheet: cl(dtLine(300, 700, tk), dtLine(100, -370, tk)),
			want:  impossible,
		},
		{
			name:   "FITAB art. 1/CARD_POINTS_IMPOSSIBLE/near-miss: one untaken pozzetto, 700 + |-410 + 100| = 1010",
			sheet:  cl(dtLine(300, 700, tk), dtLine(100, -410, ut)),
			absent: []domain.Code{domain.CardPointsImpossible},
		},
		{
			name:  "FITAB art. 1/CARD_POINTS_IMPOSSIBLE/one untaken pozzetto, 700 + |-415 + 100| = 1015 > 1010",
			sheet: cl(dtLine(300, 700, tk), dtLine(100, -415, ut)),
			want:  impossible,
		},
		{
			name: "FITAB art. 1/CARD_POINTS_IMPOSSIBLE/near-miss: two untaken pozzetti, 500 + 455 = 955",
			sheet: dtSheet(domain.FITAB2025, dtHand(domain.EndStockExhausted,
				dtLine(100, -600, ut), dtLine(100, -555, ut))),
			absent: []domain.Code{domain.CardPointsImpossible},
		},
		{
			name: "FITAB art. 1/CARD_POINTS_IMPOSSIBLE/two untaken pozzetti, 500 + 460 = 960 > 955",
			sheet: dtSheet(domain.FITAB2025, dtHand(domain.EndStockExhausted,
				dtLine(100, -600, ut), dtLine(100, -560, ut))),
			want: impossible,
		},
		{
			name:  "FITAB art. 1/CARD_POINTS_IMPOSSIBLE/pozzetto not written: 700 + 370 fails every reading",
			sheet: cl(dtLine(300, 700), dtLine(100, 370)),
			want:  impossible,
		},
		{
			name:   "FITAB art. 1/CARD_POINTS_IMPOSSIBLE/near-miss: pozzetto not written, -370 reads as untaken (700 + 270 ≤ 1010)",
			sheet:  cl(dtLine(300, 700), dtLine(100, -370)),
			absent: []domain.Code{domain.CardPointsImpossible},
		},
		{
			name:   "FITAB art. 1/CARD_POINTS_IMPOSSIBLE/near-miss: split 600 + 0 + 300 + 165 = 1065",
			sheet:  cl(dtLine(300, 600, tk, dtSplit(600, 0)), dtLine(100, 135, tk, dtSplit(300, 165))),
			absent: []domain.Code{domain.CardPointsImpossible},
		},
		{
			name:  "FITAB art. 1/CARD_POINTS_IMPOSSIBLE/split 600 + 0 + 300 + 170 = 1070",
			sheet: cl(dtLine(300, 600, tk, dtSplit(600, 0)), dtLine(100, 130, tk, dtSplit(300, 170))),
			want:  impossible,
		},
		{
			name: "FIBur-INT art. 1/CARD_POINTS_IMPOSSIBLE/split with penalty and unplayed pozzetto over the deck",
			sheet: dtSheet(domain.FIBurIta, dtClosedNS(dtLine(300, 500, tk, dtSplit(500, 0)),
				dtLine(100, 150, dtPozz(dtUnplay), dtSplit(400, 100), dtUnplayed(100), dtPenalty(50)))),
			want: impossible,
		},
	})
}

func TestRulesTooManyBurrachi(t *testing.T) {
	tk, ut := dtPozz(dtTaken), dtPozz(dtUntaken)
	// Totals above 1500 are legal but unusual (a warning); only errors are
	// restricted here.
	dtRun(t, []dtCase{
		{
			name: "FITAB art. 1/TOO_MANY_BURRACHI/near-miss: 4 reali + 3 reali and a reale sporco = 105 cards",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(1300, 500, dtBur(dtReale, 4), dtClosed(true), tk),
				dtLine(1150, 500, dtBur(dtReale, 3, dtRealeS, 1), dtClosed(false), tk))),
			absent: []domain.Code{domain.TooManyBurrachi},
		},
		{
			name: "FITAB art. 1/TOO_MANY_BURRACHI/4 reali + 2 reali and 2 reali sporchi = 106 cards",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(1300, 500, dtBur(dtReale, 4), dtClosed(true), tk),
				dtLine(1100, 500, dtBur(dtReale, 2, dtRealeS, 2), dtClosed(false), tk))),
			// NS's burrachi need 52 cards, EO's 54: EO is named.
			want: []dtWant{dtErr(domain.TooManyBurrachi, 1, dtEO).at("base").values(106, 105)},
		},
		{
			name: "FITAB art. 1/TOO_MANY_BURRACHI/near-miss: one untaken pozzetto, 49 + 45 = 94 cards",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(1500, 300, dtBur(dtPulito, 7), dtClosed(true), tk),
				dtLine(1000, 100, dtBur(dtRealeS, 1, dtSuperS, 1, dtSuper, 1, dtPulito, 1, dtSporco, 1), dtClosed(false), ut))),
			absent: []domain.Code{domain.TooManyBurrachi},
		},
		{
			name: "FITAB art. 1/TOO_MANY_BURRACHI/one untaken pozzetto, 49 + 46 = 95 cards (a semipulito has 8)",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(1500, 300, dtBur(dtPulito, 7), dtClosed(true), tk),
				dtLine(950, 100, dtBur(dtRealeS, 1, dtSuperS, 1, dtSuper, 1, dtSemi, 1, dtSporco, 1), dtClosed(false), ut))),
			// NS's seven puliti need 49 cards, EO's burrachi 46: NS is named.
			want: []dtWant{dtErr(domain.TooManyBurrachi, 1, dtNS).at("base").values(95, 94)},
		},
		{
			name: "FITAB art. 13/TOO_MANY_BURRACHI/near-miss: 2 burrachi on 70 table points",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(500, 70, dtBur(dtPulito, 2), dtClosed(true), tk, dtSplit(70, 0)), dtLine(100, -120))),
			absent: []domain.Code{domain.TooManyBurrachi},
		},
		{
			name: "FITAB art. 13/TOO_MANY_BURRACHI/2 burrachi on 65 table points (< 35 each)",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(500, 65, dtBur(dtPulito, 2), dtClosed(true), tk, dtSplit(65, 0)), dtLine(100, -120))),
			want: []dtWant{dtErr(domain.TooManyBurrachi, 1, dtNS)},
		},
	})
}

// RULES §4: minimum card points per burraco type, the
// international second and third pulito, and the 12 wild cards of a deal.
func TestRulesBurracoCardPoints(t *testing.T) {
	tk := dtPozz(dtTaken)
	tableErr := func(l dtLineSel, written, want int) []dtWant {
		return []dtWant{dtErr(domain.TooManyBurrachi, 1, l).at("table_points").values(written, want)}
	}
	closedWith := func(rs domain.Ruleset, base, table int, bur dtOpt) domain.Sheet {
		return dtSheet(rs, dtClosedNS(dtLine(base, table, bur, dtClosed(true), tk, dtSplit(table, 0)), dtLine(100, -120)))
	}
	lostCount := func(s domain.Sheet) domain.Sheet { s.Hands[0].LostCount = true; return s }
	dtRun(t, []dtCase{
		{name: "FITAB art. 13/TOO_MANY_BURRACHI/a reale on 100 table points (A, 2..K of one suit is 120)",
			sheet: closedWith(domain.FITAB2025, 400, 100, dtBur(dtReale, 1)), want: tableErr(dtNS, 100, 120)},
		{name: "FITAB art. 13/TOO_MANY_BURRACHI/near-miss: a reale on 120 table points",
			sheet: closedWith(domain.FITAB2025, 400, 120, dtBur(dtReale, 1)), absent: []domain.Code{domain.TooManyBurrachi}},
		{name: "FITAB art. 13/TOO_MANY_BURRACHI/a reale sporco on 135 table points (140 with the wild)",
			sheet: closedWith(domain.FITAB2025, 350, 135, dtBur(dtRealeS, 1)), want: tableErr(dtNS, 135, 140)},
		{name: "FITAB art. 13/TOO_MANY_BURRACHI/a super sporco on 55 table points (eight 3s and a wild are 60)",
			sheet: closedWith(domain.FITAB2025, 300, 55, dtBur(dtSuperS, 1)), want: tableErr(dtNS, 55, 60)},
		{name: "FITAB art. 13/TOO_MANY_BURRACHI/near-miss: a super on 40 table points (eight 3s)",
			sheet: closedWith(domain.FITAB2025, 350, 40, dtBur(dtSuper, 1)), absent: []domain.Code{domain.TooManyBurrachi}},
		{name: "FITAB art. 13/TOO_MANY_BURRACHI/a sporco on 40 table points (six 3s and a wild are 50)",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(100, 40, dtBur(dtSporco, 1), dtClosed(false), tk, dtSplit(40, 0)))),
			want:  tableErr(dtEO, 40, 50)},
		{name: "FITAB art. 13/TOO_MANY_BURRACHI/near-miss: a sporco on 50 table points",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(100, 50, dtBur(dtSporco, 1), dtClosed(false), tk, dtSplit(50, 0)))),
			absent: []domain.Code{domain.TooManyBurrachi}},
		{name: "FIBur-INT art. 13/TOO_MANY_BURRACHI/a semipulito and a pulito on 85 table points (55 + 35 = 90)",
			sheet: closedWith(domain.FIBurIta, 450, 85, dtBur(dtSemi, 1, dtPulito, 1)), want: tableErr(dtNS, 85, 90)},
		{name: "FITAB-INT rule 2/TOO_MANY_BURRACHI/two international puliti on 70 table points (35 + 45)",
			sheet: closedWith(domain.FITABInt, 500, 70, dtBur(dtPulito, 2)), want: tableErr(dtNS, 70, 80)},
		{name: "FITAB-INT rule 2/TOO_MANY_BURRACHI/near-miss: two international puliti on 80 table points",
			sheet: closedWith(domain.FITABInt, 500, 80, dtBur(dtPulito, 2)), absent: []domain.Code{domain.TooManyBurrachi}},
		{name: "FIBur-INT art. 30/TOO_MANY_BURRACHI/three international puliti on 120 table points (35 + 45 + 45)",
			sheet: closedWith(domain.FIBurInt, 700, 120, dtBur(dtPulito, 3)), want: tableErr(dtNS, 120, 125)},
		{name: "FIBur-INT art. 30/TOO_MANY_BURRACHI/near-miss: three international puliti on 125 table points",
			sheet: closedWith(domain.FIBurInt, 700, 125, dtBur(dtPulito, 3)), absent: []domain.Code{domain.TooManyBurrachi}},
		{name: "FITAB art. 13/TOO_MANY_BURRACHI/near-miss: two puliti on 70 in fitab-2025 (combinations of any rank)",
			sheet: closedWith(domain.FITAB2025, 500, 70, dtBur(dtPulito, 2)), absent: []domain.Code{domain.TooManyBurrachi}},
		{name: "FITAB art. 33/TOO_MANY_BURRACHI/lost count: a reale on 100 table points is info",
			sheet: lostCount(closedWith(domain.FITAB2025, 400, 100, dtBur(dtReale, 1))),
			want:  []dtWant{dtInfo(domain.TooManyBurrachi, 1, dtNS).at("table_points")}},
		{name: "FITAB art. 9/TOO_MANY_BURRACHI/thirteen sporchi in one hand (12 wild cards, one per meld)",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(800, 300, dtBur(dtSporco, 7), dtClosed(true), tk), dtLine(600, 200, dtBur(dtSporco, 6), dtClosed(false), tk))),
			want: []dtWant{dtErr(domain.TooManyBurrachi, 1, dtNS).at("burrachi").values(13, 12)}},
		{name: "FITAB art. 9/TOO_MANY_BURRACHI/the line with more wild-bearing burrachi is named: EO's 7 against NS's 6",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(700, 300, dtBur(dtSporco, 6), dtClosed(true), tk), dtLine(700, 200, dtBur(dtSporco, 7), dtClosed(false), tk))),
			want: []dtWant{dtErr(domain.TooManyBurrachi, 1, dtEO).at("burrachi").values(13, 12)}},
		{name: "FIBur-INT art. 9/TOO_MANY_BURRACHI/7 sporchi + 3 semipuliti + 3 sporchi: 13 wild-bearing burrachi",
			sheet: dtSheet(domain.FIBurIta, dtClosedNS(
				dtLine(800, 300, dtBur(dtSporco, 7), dtClosed(true), tk), dtLine(750, 200, dtBur(dtSemi, 3, dtSporco, 3), dtClosed(false), tk))),
			want: []dtWant{dtErr(domain.TooManyBurrachi, 1, dtNS).at("burrachi")}},
		{name: "FITAB art. 9/TOO_MANY_BURRACHI/near-miss: twelve sporchi and a pulito",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(
				dtLine(900, 300, dtBur(dtSporco, 6, dtPulito, 1), dtClosed(true), tk), dtLine(600, 200, dtBur(dtSporco, 6), dtClosed(false), tk))),
			absent: []domain.Code{domain.TooManyBurrachi}},
	})
}

func TestRulesCardPointsImplausible(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name:   "RULES §5.1 [INTERP]/CARD_POINTS_IMPLAUSIBLE/near-miss: points 700",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 700), dtLine(100, -120))),
			absent: []domain.Code{domain.CardPointsImplausible},
		},
		{
			name:  "RULES §5.1 [INTERP]/CARD_POINTS_IMPLAUSIBLE/points 705",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 705), dtLine(100, -120))),
			want:  []dtWant{dtWarn(domain.CardPointsImplausible, 1, dtNS).at("points")},
		},
		{
			name:   "RULES §5.1 [INTERP]/CARD_POINTS_IMPLAUSIBLE/near-miss: points -700",
			sheet:  dtSheet(domain.FIBurIta, dtClosedNS(dtLine(300, 235), dtLine(100, -700))),
			absent: []domain.Code{domain.CardPointsImplausible},
		},
		{
			name:  "RULES §5.1 [INTERP]/CARD_POINTS_IMPLAUSIBLE/points -705",
			sheet: dtSheet(domain.FIBurIta, dtClosedNS(dtLine(300, 235), dtLine(100, -705))),
			want:  []dtWant{dtWarn(domain.CardPointsImplausible, 1, dtEO).at("points")},
		},
		{
			name:   "RULES §5.1 [INTERP]/CARD_POINTS_IMPLAUSIBLE/near-miss: total 1500",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(1000, 500), dtLine(100, -120))),
			absent: []domain.Code{domain.CardPointsImplausible},
		},
		{
			name:  "RULES §5.1 [INTERP]/CARD_POINTS_IMPLAUSIBLE/total 1505",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(dtLine(1000, 505), dtLine(100, -120))),
			want:  []dtWant{dtWarn(domain.CardPointsImplausible, 1, dtNS).at("total")},
		},
	})
}

// FITAB art. 33 (lost count): the listed codes become info, the others stay
// errors.
func TestRulesLostCount(t *testing.T) {
	closer := dtLine(300, 235)
	sheet := func(h domain.Hand) domain.Sheet { return dtSheet(domain.FITAB2025, dtLost(h)) }
	dtRun(t, []dtCase{
		{
			name:  "FITAB art. 33/POINTS_BREAKDOWN_MISMATCH becomes info",
			sheet: sheet(dtClosedNS(dtLine(300, 245, dtPozz(dtTaken), dtSplit(255, 20)), dtLine(100, -120))),
			want:  []dtWant{dtInfo(domain.PointsBreakdownMismatch, 1, dtNS)},
		},
		{
			name:  "FITAB art. 33/POZZETTO_PENALTY_INVALID becomes info",
			sheet: sheet(dtClosedNS(closer, dtLine(100, -20, dtPozz(dtTaken), dtSplit(100, 20)))),
			want:  []dtWant{dtInfo(domain.PozzettoPenaltyInvalid, 1, dtEO)},
		},
		{
			name:  "FITAB art. 33/CARD_POINTS_IMPOSSIBLE becomes info",
			sheet: sheet(dtClosedNS(dtLine(300, 700, dtPozz(dtTaken)), dtLine(100, 370, dtPozz(dtTaken)))),
			want:  []dtWant{dtInfo(domain.CardPointsImpossible, 1, dtNoLine)},
		},
		{
			name: "FITAB art. 33/the 35-points-per-burraco table check becomes info",
			sheet: sheet(dtClosedNS(
				dtLine(500, 65, dtBur(dtPulito, 2), dtClosed(true), dtPozz(dtTaken), dtSplit(65, 0)), dtLine(100, -120))),
			want: []dtWant{dtInfo(domain.TooManyBurrachi, 1, dtNS)},
		},
		{
			name:  "FITAB art. 33/CARD_POINTS_IMPLAUSIBLE becomes info",
			sheet: sheet(dtClosedNS(dtLine(300, 705), dtLine(100, -120))),
			want:  []dtWant{dtInfo(domain.CardPointsImplausible, 1, dtNS)},
		},
		{
			name:  "FITAB art. 33/HAND_TOTAL_MISMATCH stays an error",
			sheet: sheet(dtClosedNS(dtLine(300, 235, dtTotal(545)), dtLine(100, -120))),
			want:  []dtWant{dtErr(domain.HandTotalMismatch, 1, dtNS).at("total").values(545, 535)},
		},
		{
			name:  "FITAB art. 33/NOT_MULTIPLE_OF_5 stays an error",
			sheet: sheet(dtClosedNS(dtLine(300, 233), dtLine(100, -120))),
			want:  []dtWant{dtErr(domain.NotMultipleOf5, 1, dtNS).at("points")},
		},
		{
			name: "FITAB art. 33/the burraco-card bound stays an error",
			sheet: sheet(dtClosedNS(
				dtLine(1300, 500, dtBur(dtReale, 4), dtClosed(true), dtPozz(dtTaken)),
				dtLine(1100, 500, dtBur(dtReale, 2, dtRealeS, 2), dtClosed(false), dtPozz(dtTaken)))),
			want: []dtWant{dtErr(domain.TooManyBurrachi, 1, dtEO)},
		},
		{
			name:  "FITAB art. 33/BASE_NOT_REPRESENTABLE is not downgraded (each burraco keeps its bonus)",
			sheet: sheet(dtClosedNS(closer, dtLine(130, -120))),
			want:  []dtWant{dtErr(domain.BaseNotRepresentable, 1, dtEO).at("base")},
		},
	})
}

// FITAB art. 22.4, 36: an interrupted hand counts only the points before the
// episode; hand cards, unplayed pozzetto and the -100 are not checked.
func TestRulesInterruptedHand(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name: "FITAB art. 36/interrupted: hand cards not subtracted and no -100 is fine",
			sheet: dtSheet(domain.FITAB2025, dtHand(domain.EndInterrupted,
				dtLine(200, 150, dtPozz(dtTaken), dtSplit(150, 40)),
				dtLine(100, 90, dtPozz(dtUntaken), dtSplit(120, 30)))),
			absent: []domain.Code{domain.PointsBreakdownMismatch, domain.PozzettoPenaltyInvalid},
		},
		{
			name: "FITAB art. 36/interrupted: the -100 charged is fine too",
			sheet: dtSheet(domain.FITAB2025, dtHand(domain.EndInterrupted,
				dtLine(200, 110, dtPozz(dtTaken), dtSplit(150, 40)),
				dtLine(100, -10, dtPozz(dtUntaken), dtSplit(120, 30)))),
			absent: []domain.Code{domain.PointsBreakdownMismatch},
		},
		{
			name: "FITAB art. 22.4/interrupted: low bases are no closing problem",
			sheet: dtSheet(domain.FIBurInt, dtHand(domain.EndInterrupted,
				dtLine(100, 150), dtLine(0, 90))),
			absent: []domain.Code{domain.ClosureImpossible},
		},
		{
			name: "FITAB art. 36/interrupted: no closing bonus",
			sheet: dtSheet(domain.FITAB2025, dtHand(domain.EndInterrupted,
				dtLine(300, 150, dtBur(dtPulito, 1), dtClosed(true)), dtLine(100, 90))),
			want: []dtWant{dtErr(domain.ClosureBonusNotDue, 1, dtNS)},
		},
	})
}

// RULES principle: a paper sheet with only base/points/total is checked for
// what can be checked; several readings of a base are no error.
func TestRulesPaperSheetReadings(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name: "RULES §5 principle/base 200 may be a pulito or two sporchi",
			sheet: dtSheet(domain.FITAB2025,
				dtClosedNS(dtLine(300, 235), dtLine(200, -50)),
				dtHand(domain.EndClosed, dtLine(200, -80), dtLine(500, 310)),
				dtHand(domain.EndUnknown, dtLine(250, 105), dtLine(400, 60))),
		},
		{
			name: "RULES §5 principle/fibur-int paper sheet",
			sheet: dtSheet(domain.FIBurInt,
				dtClosedNS(dtLine(300, 235), dtLine(200, -50)),
				dtHand(domain.EndClosed, dtLine(0, -180), dtLine(700, 310))),
		},
	})
}

func TestRulesPozzettoUnplayedInvalid(t *testing.T) {
	// RULES §5.1: a pozzetto taken but not played is its 11 cards (FITAB
	// art. 18 "secondo il valore delle carte"), worth 55 at least, in 5s.
	un := dtPozz(dtUnplay)
	lostCount := func(s domain.Sheet) domain.Sheet { s.Hands[0].LostCount = true; return s }
	bad := func(l dtLineSel, written int) []dtWant {
		return []dtWant{dtErr(domain.PozzettoUnplayedInvalid, 1, l).at("pozzetto_unplayed_points").values(written, 55)}
	}
	dtRun(t, []dtCase{
		{name: "FITAB art. 18/POZZETTO_UNPLAYED_INVALID/worth 0 points",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(100, 120, un, dtSplit(150, 30), dtUnplayed(0)))),
			want:  bad(dtEO, 0)},
		{name: "FITAB art. 18/POZZETTO_UNPLAYED_INVALID/split given, unplayed value left out (0)",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(100, 120, un, dtSplit(150, 30)))),
			want:  bad(dtEO, 0)},
		{name: "FITAB art. 18/POZZETTO_UNPLAYED_INVALID/50 points, one 5 short of eleven 5s",
			sheet: dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(100, 70, un, dtSplit(150, 30), dtUnplayed(50)))),
			want:  bad(dtEO, 50)},
		{name: "FIBur-INT art. 17/POZZETTO_UNPLAYED_INVALID/57 points, not a multiple of 5",
			sheet:   dtSheet(domain.FIBurIta, dtClosedNS(dtLine(300, 235), dtLine(100, 63, un, dtSplit(150, 30), dtUnplayed(57)))),
			want:    bad(dtEO, 57),
			mayAlso: []domain.Code{domain.NotMultipleOf5}},
		{name: "FITAB art. 18/POZZETTO_UNPLAYED_INVALID/near-miss: 55 points (eleven 5s)",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(100, 65, un, dtSplit(150, 30), dtUnplayed(55)))),
			absent: []domain.Code{domain.PozzettoUnplayedInvalid, domain.PointsBreakdownMismatch}},
		{name: "FITAB art. 18/POZZETTO_UNPLAYED_INVALID/near-miss: no split given, nothing to check",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(100, 65, un))),
			absent: []domain.Code{domain.PozzettoUnplayedInvalid}},
		{name: "FITAB art. 18/POZZETTO_UNPLAYED_INVALID/near-miss: 0 for a pozzetto taken and played",
			sheet:  dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(100, 120, dtPozz(dtTaken), dtSplit(150, 30), dtUnplayed(0)))),
			absent: []domain.Code{domain.PozzettoUnplayedInvalid}},
		{name: "FITAB art. 33/POZZETTO_UNPLAYED_INVALID/lost count: info",
			sheet: lostCount(dtSheet(domain.FITAB2025, dtClosedNS(dtLine(300, 235), dtLine(100, 120, un, dtSplit(150, 30), dtUnplayed(0))))),
			want:  []dtWant{dtInfo(domain.PozzettoUnplayedInvalid, 1, dtEO)}},
	})
}
