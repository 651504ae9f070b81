package domain

import (
	"fmt"
	"strconv"
	"strings"
)

// Validate checks a sheet against its ruleset and computes totals, MP and VP
// (RULES §5, §6). It never fails: every problem is a finding, and Computed
// is always filled from the entered hands.
//
// The principle of RULES.md: a finding of severity error is raised only when
// no reading of the entered data is consistent with the rules. Where the
// sheet leaves something out (the burraco breakdown, the pozzetto, who
// closed), every value it could have had is tried.
func Validate(s Sheet) Report {
	v := validator{s: &s, rs: s.Ruleset, sums: sumsFor(s.Ruleset)}
	prevEnd := EndUnknown
	for i := range s.Hands {
		v.hand(i+1, &s.Hands[i], prevEnd)
		prevEnd = s.Hands[i].End
	}
	v.match()
	v.lineIDs()
	v.attachCells()
	return Report{
		Ruleset:  s.Ruleset,
		VPTable:  v.table,
		Computed: v.computed,
		Findings: v.findings,
	}
}

type validator struct {
	s        *Sheet
	rs       Ruleset
	sums     *bonusSums
	table    VPTable
	computed Computed
	findings []Finding
}

// lineFacts is what the base analysis learnt of one line in one hand.
type lineFacts struct {
	ls *LineScore
	// baseOK: some reading of the base exists (possibly with the −100 in
	// it); when false, checks that depend on the base are skipped, so one
	// wrong figure is reported once.
	baseOK bool
	eff    int  // the base the bonus checks read: base, or base+100
	inBase bool // the pozzetto −100 is written in the base column
	// forcedClosed/forcedOpen: the data allows only closing / only
	// non-closing readings (the closed flag, or the breakdown).
	forcedClosed bool
	forcedOpen   bool
	breakdown    bool
	typesOK      bool // a breakdown is given and every type in it is the ruleset's
	sigma        int  // Σ bonuses of the breakdown
	bdCards      int  // Σ MinCards of the breakdown
	bdCount      int  // number of burrachi in the breakdown
}

// hand runs the hand checks of RULES §5.1.
func (v *validator) hand(h int, hd *Hand, prevEnd HandEnd) {
	if prevEnd == EndTimeOut {
		v.add(Finding{Code: HandAfterTimeOut, Severity: SeverityError, Hand: h, Field: "end",
			Rule: v.ruleFor(HandAfterTimeOut), Pointer: fmt.Sprintf("/hands/%d/end", h-1)},
			fmt.Sprintf("hand %d follows a hand that ended on time-out: the time-out starts the final round, no hand may follow it", h),
			fmt.Sprintf("la smazzata %d segue una smazzata chiusa per fine tempo: il tempo scaduto apre l'ultimo giro, nessuna smazzata può seguirla", h))
	}
	var f [2]lineFacts
	for _, l := range Lines {
		v.arithmetic(h, hd, l)
		f[l] = v.base(h, hd, l)
	}
	closer := v.closing(h, hd, &f)
	for _, l := range Lines {
		v.split(h, hd, l, &f, closer)
		v.unplayedPozzetto(h, hd, l)
	}
	v.deck(h, hd, &f, closer)
	for _, l := range Lines {
		v.plausible(h, hd, l)
		v.unverifiable(h, hd, l, &f[l], closer)
	}
}

// arithmetic: NOT_MULTIPLE_OF_5 and HAND_TOTAL_MISMATCH (RULES §5.1).
func (v *validator) arithmetic(h int, hd *Hand, l Line) {
	ls := &hd.Lines[l]
	if ls.Points%5 != 0 {
		v.addLine(h, l, Finding{Code: NotMultipleOf5, Severity: SeverityError, Field: "points", Written: Int(ls.Points)},
			"points %d are not a multiple of 5: card values are", "i punti %d non sono un multiplo di 5, come tutti i valori delle carte", ls.Points)
	}
	if ls.Total == nil {
		return
	}
	if *ls.Total%5 != 0 {
		v.addLine(h, l, Finding{Code: NotMultipleOf5, Severity: SeverityError, Field: "total", Written: Int(*ls.Total)},
			"total %d is not a multiple of 5", "il totale %d non è un multiplo di 5", *ls.Total)
	}
	if want := ls.Base + ls.Points; *ls.Total != want {
		v.addLine(h, l, Finding{Code: HandTotalMismatch, Severity: SeverityError, Field: "total", Written: Int(*ls.Total), Expected: Int(want)},
			fmt.Sprintf("%d + %d is %d, not %d", ls.Base, ls.Points, want, *ls.Total),
			fmt.Sprintf("%d + %d fa %d, non %d", ls.Base, ls.Points, want, *ls.Total))
	}
}

// base reads a line's base against the bonuses of the ruleset:
// BURRACO_TYPE_NOT_ALLOWED, BONUS_BREAKDOWN_MISMATCH, BASE_NOT_REPRESENTABLE
// and the club convention of the −100 in the base (RULES §5).
func (v *validator) base(h int, hd *Hand, l Line) lineFacts {
	ls := &hd.Lines[l]
	f := lineFacts{ls: ls, eff: ls.Base}
	flag := ls.Closed
	// fits says whether b is a reading of the line's base, and whether that
	// reading closes.
	fits := func(b int) (closed, ok bool) {
		if b < 0 {
			return false, false
		}
		if f.breakdown {
			switch {
			case b == f.sigma && (flag == nil || !*flag):
				return false, true
			case b == f.sigma+ClosingBonus && (flag == nil || *flag):
				return true, true
			}
			return false, false
		}
		return flag != nil && *flag, v.rs.Representable(b)
	}
	if ls.Burrachi != nil {
		f.breakdown = true
		var bad []BurracoType
		for _, t := range BurracoTypes { // fixed order: deterministic findings
			n := ls.Burrachi[t]
			if n <= 0 {
				continue
			}
			if !v.rs.Allows(t) {
				bad = append(bad, t)
			}
			f.sigma += n * t.Bonus()
			f.bdCards += n * t.MinCards()
			f.bdCount += n
		}
		for t, n := range ls.Burrachi {
			if n > 0 && t.Bonus() == 0 { // a type no ruleset knows
				bad = append(bad, t)
			}
		}
		if len(bad) > 0 {
			v.addLine(h, l, Finding{Code: BurracoTypeNotAllowed, Severity: SeverityError, Field: "burrachi"},
				fmt.Sprintf("the breakdown names %s, which %s does not have", bad[0], v.rs),
				fmt.Sprintf("il dettaglio indica %s, che %s non prevede", bad[0], v.rs))
			return f
		}
		f.typesOK = true
	}
	if closed, ok := fits(ls.Base); ok {
		f.baseOK, f.forcedClosed = true, closed
		f.forcedOpen = (flag != nil && !*flag) || (f.breakdown && !closed)
		if flag != nil && *flag {
			f.forcedClosed = true
		}
		return f
	}
	// The club convention (LUG): the pozzetto −100 written in the base. Only
	// a base that is no reading at all can carry it (RULES §5: "its base is
	// not representable but base + 100 is").
	if closed, ok := fits(ls.Base + PozzettoPenalty); ok && !v.rs.Representable(ls.Base) {
		switch {
		case ls.Pozzetto.Taken():
			sev := v.pozzettoSeverity(hd)
			if hd.End == EndStall && stallChargeDecided(ls.Pozzetto, hd.Lines[l.Other()].Pozzetto) {
				sev = v.stallSeverity(hd) // FITAB art. 16: the taker pays nothing
			}
			v.addLine(h, l, Finding{Code: PozzettoPenaltyInvalid, Severity: sev, Field: "base", Written: Int(ls.Base), Expected: Int(ls.Base + PozzettoPenalty)},
				fmt.Sprintf("the base %d carries the pozzetto −100, but the line took its pozzetto", ls.Base),
				fmt.Sprintf("la base %d contiene il −100 del pozzetto, ma la linea ha preso il pozzetto", ls.Base))
			f.baseOK, f.eff = true, ls.Base+PozzettoPenalty
			f.forcedClosed, f.forcedOpen = closed, !closed && (f.breakdown || flag != nil)
			return f
		case ls.Pozzetto == PozzettoNotTaken && !v.pointsCarryPenalty(hd, l):
			// Only a line marked not_taken can carry the convention (RULES
			// §5): an unmarked line's unrepresentable base is just that.
			v.addLine(h, l, Finding{Code: PozzettoInBase, Severity: SeverityWarning, Field: "base", Written: Int(ls.Base), Expected: Int(ls.Base + PozzettoPenalty)},
				fmt.Sprintf("the pozzetto −100 is written in the base (%d): the codes define the base as burraco and closing bonuses only, so it should read %d with −100 in the points", ls.Base, ls.Base+PozzettoPenalty),
				fmt.Sprintf("il −100 del pozzetto è scritto nella base (%d): per i codici la base comprende solo burraco e chiusura, quindi dovrebbe essere %d con −100 nei punti", ls.Base, ls.Base+PozzettoPenalty))
			f.baseOK, f.inBase, f.eff = true, true, ls.Base+PozzettoPenalty
			f.forcedClosed, f.forcedOpen = closed, !closed && (f.breakdown || flag != nil)
			return f
		}
	}
	if f.breakdown {
		want := f.sigma
		if flag != nil && *flag {
			want += ClosingBonus
		}
		v.addLine(h, l, Finding{Code: BonusBreakdownMismatch, Severity: SeverityError, Field: "base", Written: Int(ls.Base), Expected: Int(want)},
			fmt.Sprintf("the burraco breakdown adds up to %d (%d with the closing bonus), not to the base %d", f.sigma, f.sigma+ClosingBonus, ls.Base),
			fmt.Sprintf("i burraco indicati valgono %d (%d con la chiusura), non la base %d", f.sigma, f.sigma+ClosingBonus, ls.Base))
		return f
	}
	v.addLine(h, l, Finding{Code: BaseNotRepresentable, Severity: SeverityError, Field: "base", Written: Int(ls.Base)},
		fmt.Sprintf("base %d cannot be made of %s burraco bonuses plus 0 or 100 for the closing", ls.Base, v.rs),
		fmt.Sprintf("la base %d non si ottiene con i premi burraco di %s più 0 o 100 di chiusura", ls.Base, v.rs))
	return f
}

// pointsCarryPenalty: the split shows the −100 already in the points, so it
// cannot also be in the base (RULES §5, base convention).
func (v *validator) pointsCarryPenalty(hd *Hand, l Line) bool {
	ls := &hd.Lines[l]
	if !splitGiven(ls) {
		return false
	}
	return ls.Points == expectedPoints(ls, true, true) && ls.Points != expectedPoints(ls, true, false)
}

// hasClosingReading: the base can be read as a closing with a burraco (a
// pulito in the international rulesets), RULES §4.
func (v *validator) hasClosingReading(f *lineFacts) bool {
	if f.breakdown {
		return f.forcedClosed && closingAllowed(v.rs, f.ls.Burrachi)
	}
	rest := f.eff - ClosingBonus
	if rest <= 0 {
		return false
	}
	if v.rs.International() {
		return v.sums.at(rest).pulitoOK()
	}
	return v.sums.at(rest).ok()
}

// closable: the line can have been the one that closed.
func (v *validator) closable(f *lineFacts) bool {
	return f.baseOK && !f.forcedOpen && f.ls.Pozzetto != PozzettoNotTaken && !f.inBase && v.hasClosingReading(f)
}

var nonClosingEnds = map[HandEnd]bool{EndStockExhausted: true, EndTimeOut: true, EndStall: true, EndInterrupted: true}

// closing runs the closing checks (FITAB art. 15-17, 22.4, 36; FIBur-INT
// art. 15-16) and returns the line that closed, or -1 when unknown or none.
func (v *validator) closing(h int, hd *Hand, f *[2]lineFacts) Line {
	closer := Line(-1)
	closed := 0
	for _, l := range Lines {
		if f[l].baseOK && f[l].forcedClosed {
			closed++
			closer = l
		}
	}
	if closed == 2 {
		v.add(Finding{Code: MultipleClosures, Severity: SeverityError, Hand: h, Field: "closed", Rule: v.ruleFor(MultipleClosures),
			Pointer: HandPointer(h, NS, "closed")},
			fmt.Sprintf("hand %d: both lines closed (or both bases include the closing bonus); only one line can close", h),
			fmt.Sprintf("smazzata %d: entrambe le linee risultano in chiusura; può chiudere una sola linea", h))
		closer = -1
	}
	for _, l := range Lines {
		fl := &f[l]
		if !fl.baseOK || !fl.forcedClosed {
			continue
		}
		if nonClosingEnds[hd.End] {
			v.addLine(h, l, Finding{Code: ClosureBonusNotDue, Severity: SeverityError, Field: "base", Written: Int(fl.ls.Base), Expected: Int(fl.ls.Base - ClosingBonus)},
				fmt.Sprintf("closing bonus counted, but the hand ended %s: no closing bonus is due", hd.End),
				fmt.Sprintf("premio di chiusura contato, ma la smazzata è finita per %s: la chiusura non spetta", endIT(hd.End)))
		}
		if fl.ls.Pozzetto == PozzettoNotTaken || fl.inBase {
			v.addLine(h, l, Finding{Code: ClosureWithoutPozzetto, Severity: SeverityError, Field: "pozzetto"},
				"the line closed without having taken its pozzetto",
				"la linea ha chiuso senza aver preso il pozzetto")
		}
		if !v.hasClosingReading(fl) {
			what, whatIT := "a burraco", "un burraco"
			if v.rs.International() {
				what, whatIT = "a pulito burraco", "un burraco pulito"
			}
			v.addLine(h, l, Finding{Code: ClosureWithoutBurraco, Severity: SeverityError, Field: "base", Written: Int(fl.ls.Base)},
				fmt.Sprintf("the line closed with base %d, which holds no %s besides the closing bonus", fl.ls.Base, what),
				fmt.Sprintf("la linea ha chiuso con base %d, che oltre alla chiusura non contiene %s", fl.ls.Base, whatIT))
		}
	}
	if hd.End != EndClosed || closed > 0 {
		return closer
	}
	// The hand ended closed but no line is marked: some line must be able
	// to have closed.
	var closables []Line
	for _, l := range Lines {
		if !f[l].baseOK {
			return -1 // an unreadable base could be the closing one: say nothing more
		}
		if v.closable(&f[l]) {
			closables = append(closables, l)
		}
	}
	switch len(closables) {
	case 1:
		return closables[0]
	case 2:
		return -1
	}
	// Nobody could have closed. Name the cause on the line that came nearest.
	minBase := v.rs.MinClosingBase()
	cand := Line(-1)
	for _, l := range Lines {
		if !f[l].forcedOpen && f[l].eff >= minBase && (cand < 0 || f[l].eff > f[cand].eff) {
			cand = l
		}
	}
	if cand < 0 {
		v.add(Finding{Code: ClosureImpossible, Severity: SeverityError, Hand: h, Field: "end", Rule: v.ruleFor(ClosureImpossible),
			Pointer: fmt.Sprintf("/hands/%d/end", h-1), Expected: Int(minBase)},
			fmt.Sprintf("hand %d ended closed, but neither line's base reaches %d (a burraco plus the closing bonus)", h, minBase),
			fmt.Sprintf("smazzata %d chiusa, ma nessuna base arriva a %d (un burraco più la chiusura)", h, minBase))
		return -1
	}
	fl := &f[cand]
	if fl.ls.Pozzetto == PozzettoNotTaken || fl.inBase {
		v.addLine(h, cand, Finding{Code: ClosureWithoutPozzetto, Severity: SeverityError, Field: "pozzetto"},
			"the hand ended closed, but the only line that could have closed did not take its pozzetto",
			"la smazzata è chiusa, ma l'unica linea che poteva chiudere non ha preso il pozzetto")
	} else {
		v.addLine(h, cand, Finding{Code: ClosureWithoutBurraco, Severity: SeverityError, Field: "base", Written: Int(fl.ls.Base)},
			fmt.Sprintf("the hand ended closed, but base %d cannot hold the closing bonus and a burraco this ruleset accepts for closing", fl.ls.Base),
			fmt.Sprintf("la smazzata è chiusa, ma la base %d non può contenere la chiusura e un burraco valido per chiudere", fl.ls.Base))
	}
	return -1
}

func splitGiven(ls *LineScore) bool { return ls.TablePoints != nil && ls.HandPoints != nil }

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// expectedPoints is the points formula of FITAB art. 18 / FIBur-INT art. 17:
// table − hand − unplayed pozzetto − penalties − 100 if charged. In a stall
// only table cards count (FITAB art. 16), hence subtractHand.
func expectedPoints(ls *LineScore, subtractHand, charge bool) int {
	p := deref(ls.TablePoints) - deref(ls.PenaltyPoints)
	if subtractHand {
		p -= deref(ls.HandPoints) + deref(ls.PozzettoUnplayedPoints)
	}
	if charge {
		p -= PozzettoPenalty
	}
	return p
}

// charges lists whether the −100 may be in the points, given the marks.
func charges(fl *lineFacts) []bool {
	switch {
	case fl.inBase, fl.ls.Pozzetto.Taken():
		return []bool{false}
	case fl.ls.Pozzetto == PozzettoNotTaken:
		return []bool{true}
	}
	return []bool{false, true}
}

// split checks points against their table/hand split: POINTS_BREAKDOWN_MISMATCH
// and POZZETTO_PENALTY_INVALID (RULES §5.1).
func (v *validator) split(h int, hd *Hand, l Line, f *[2]lineFacts, closer Line) {
	fl := &f[l]
	ls := fl.ls
	if !splitGiven(ls) {
		return
	}
	matches := func(subtractHand, charge bool) bool { return ls.Points == expectedPoints(ls, subtractHand, charge) }
	switch hd.End {
	case EndInterrupted:
		// Only the points before the episode count: hand cards, the
		// unplayed pozzetto and the −100 are not checked (FITAB art. 22.4, 36).
		for _, sub := range []bool{true, false} {
			for _, c := range []bool{false, true} {
				if matches(sub, c) {
					return
				}
			}
		}
		v.pointsMismatch(h, hd, l, expectedPoints(ls, false, false))
		return
	case EndStall:
		// FITAB art. 16: only table cards count.
		if fl.inBase || ls.Pozzetto == PozzettoUnknown {
			if matches(false, false) || (!fl.inBase && matches(false, true)) {
				return
			}
			v.pointsMismatch(h, hd, l, expectedPoints(ls, false, false))
			return
		}
		want := stallPays(ls.Pozzetto, f[l.Other()].ls.Pozzetto)
		if matches(false, want) {
			return
		}
		if matches(false, !want) {
			if stallChargeDecided(ls.Pozzetto, f[l.Other()].ls.Pozzetto) {
				en, it := "stall: the line took its pozzetto and the other did not, so the other line pays 100 and this one nothing (FITAB art. 16), but the points carry the −100",
					"stallo: la linea ha preso il pozzetto e l'altra no, quindi paga 100 l'altra linea e questa niente (art. 16 FITAB), ma i punti contengono il −100"
				if want {
					en, it = "stall: the other line took its pozzetto and this one did not, so this line pays 100 (FITAB art. 16), but the −100 is missing from its points",
						"stallo: l'altra linea ha preso il pozzetto e questa no, quindi questa paga 100 (art. 16 FITAB), ma nei punti manca il −100"
				}
				v.addLine(h, l, Finding{Code: PozzettoPenaltyInvalid, Severity: v.stallSeverity(hd), Field: "points", Written: Int(ls.Points), Expected: Int(expectedPoints(ls, false, want))}, en, it)
				return
			}
			v.addLine(h, l, Finding{Code: PozzettoPenaltyInvalid, Severity: SeverityInfo, Field: "points", Written: Int(ls.Points), Expected: Int(expectedPoints(ls, false, want))},
				"stall: both lines or neither took their pozzetto, and FITAB art. 16 does not say who pays the 100 then; the charge is accepted",
				"stallo: entrambe le linee o nessuna hanno preso il pozzetto, e l'art. 16 FITAB non dice chi paga i 100 in quel caso; l'addebito è accettato")
			return
		}
		v.pointsMismatch(h, hd, l, expectedPoints(ls, false, want))
		return
	}
	allowed := charges(fl)
	for _, c := range allowed {
		if matches(true, c) {
			return
		}
	}
	if len(allowed) == 1 && matches(true, !allowed[0]) {
		// Flipping the pozzetto flag alone explains it (RULES §5.1).
		sev := v.pozzettoSeverity(hd)
		en, it := "the points carry the pozzetto −100, but the line took its pozzetto", "i punti contengono il −100 del pozzetto, ma la linea ha preso il pozzetto"
		if allowed[0] {
			en, it = "the line did not take its pozzetto, but the −100 is missing from its points", "la linea non ha preso il pozzetto, ma nei punti manca il −100"
		}
		v.addLine(h, l, Finding{Code: PozzettoPenaltyInvalid, Severity: sev, Field: "points", Written: Int(ls.Points), Expected: Int(expectedPoints(ls, true, allowed[0]))}, en, it)
		return
	}
	v.pointsMismatch(h, hd, l, expectedPoints(ls, true, allowed[len(allowed)-1]))
}

func (v *validator) pointsMismatch(h int, hd *Hand, l Line, want int) {
	ls := &hd.Lines[l]
	sev := SeverityError
	if hd.LostCount {
		sev = SeverityInfo // FITAB art. 33: the referee's lost-count score
	}
	v.addLine(h, l, Finding{Code: PointsBreakdownMismatch, Severity: sev, Field: "points", Written: Int(ls.Points), Expected: Int(want)},
		fmt.Sprintf("points %d do not follow from the split (table %d, hand %d, unplayed pozzetto %d, penalties %d): expected %d", ls.Points, deref(ls.TablePoints), deref(ls.HandPoints), deref(ls.PozzettoUnplayedPoints), deref(ls.PenaltyPoints), want),
		fmt.Sprintf("i punti %d non tornano con il dettaglio (tavolo %d, mano %d, pozzetto non giocato %d, penalità %d): dovrebbero essere %d", ls.Points, deref(ls.TablePoints), deref(ls.HandPoints), deref(ls.PozzettoUnplayedPoints), deref(ls.PenaltyPoints), want))
}

// unplayedPozzetto: POZZETTO_UNPLAYED_INVALID (RULES §5.1). A pozzetto
// taken but not played is its 11 cards (FITAB art. 18, FIBur-INT art. 17:
// subtracted "secondo il valore delle carte"), so when the split is given
// its value is at least MinPozzettoValue and a multiple of 5. In stall,
// interrupted and lost-count hands the unplayed pozzetto is not checked
// (RULES §5): info only.
func (v *validator) unplayedPozzetto(h int, hd *Hand, l Line) {
	ls := &hd.Lines[l]
	if ls.Pozzetto != PozzettoTakenUnplay || !splitGiven(ls) {
		return
	}
	got := deref(ls.PozzettoUnplayedPoints)
	if got >= MinPozzettoValue && got%5 == 0 {
		return
	}
	v.addLine(h, l, Finding{Code: PozzettoUnplayedInvalid, Severity: v.pozzettoSeverity(hd), Field: "pozzetto_unplayed_points", Written: Int(got), Expected: Int(MinPozzettoValue)},
		"the pozzetto taken but not played is written as %d points: its 11 cards are worth at least %d, in multiples of 5",
		"il pozzetto preso e non giocato vale %d punti sullo score: le sue 11 carte valgono almeno %d, in multipli di 5", got, MinPozzettoValue)
}

// pozzettoSeverity: POZZETTO_PENALTY_INVALID is an error, except in a
// lost-count hand (FITAB art. 33) and in stall or interrupted hands, where
// the −100 is not checked (RULES §5).
func (v *validator) pozzettoSeverity(hd *Hand) Severity {
	if hd.LostCount || hd.End == EndStall || hd.End == EndInterrupted {
		return SeverityInfo
	}
	return SeverityError
}

// stallSeverity is the severity of a stall charge FITAB art. 16 decides
// (exactly one line took its pozzetto): an error, except in a lost-count
// hand (FITAB art. 33).
func (v *validator) stallSeverity(hd *Hand) Severity {
	if hd.LostCount {
		return SeverityInfo
	}
	return SeverityError
}

// pozzettoOption is one reading of a line's pozzetto for the deck bounds:
// untaken (n) and the −100 charged in the points (c).
type pozzettoOption struct{ untaken, charged bool }

func (v *validator) pozzettoOptions(hd *Hand, fl *lineFacts) []pozzettoOption {
	loose := hd.End == EndStall || hd.End == EndInterrupted // the −100 is not checked there
	switch {
	case fl.inBase:
		return optsInBase
	case fl.ls.Pozzetto.Taken():
		return optsTaken
	case fl.ls.Pozzetto == PozzettoNotTaken && loose:
		return optsNotTakenLoose
	case fl.ls.Pozzetto == PozzettoNotTaken:
		return optsNotTaken
	case loose:
		return optsUnknownLoose
	}
	return optsUnknown
}

// The pozzetto readings, shared and never written.
var (
	optsInBase        = []pozzettoOption{{true, false}}
	optsTaken         = []pozzettoOption{{false, false}}
	optsNotTaken      = []pozzettoOption{{true, true}}
	optsNotTakenLoose = []pozzettoOption{{true, true}, {true, false}}
	optsUnknown       = []pozzettoOption{{false, false}, {true, true}}
	optsUnknownLoose  = []pozzettoOption{{false, false}, {true, true}, {true, false}}
)

// deck runs the bounds of one 108-card deck: CARD_POINTS_IMPOSSIBLE and
// TOO_MANY_BURRACHI (RULES §3, §5.1).
func (v *validator) deck(h int, hd *Hand, f *[2]lineFacts, closer Line) {
	// Card points: try every reading of the pozzetti; error only if all fail.
	cards := func(l Line, o pozzettoOption) int {
		ls := f[l].ls
		if splitGiven(ls) {
			return deref(ls.TablePoints) + deref(ls.HandPoints) + deref(ls.PozzettoUnplayedPoints) + deref(ls.PenaltyPoints)
		}
		p := ls.Points
		if o.charged {
			p += PozzettoPenalty
		}
		if p < 0 {
			p = -p
		}
		return p
	}
	best, bestBound := -1, 0
	for _, a := range v.pozzettoOptions(hd, &f[NS]) {
		for _, b := range v.pozzettoOptions(hd, &f[EO]) {
			untaken := btoi(a.untaken) + btoi(b.untaken)
			sum, bound := cards(NS, a)+cards(EO, b), MaxCardPoints(untaken)
			if best < 0 || sum-bound < best-bestBound {
				best, bestBound = sum, bound
			}
		}
	}
	if best > bestBound {
		sev := SeverityError
		if hd.LostCount {
			sev = SeverityInfo
		}
		v.add(Finding{Code: CardPointsImpossible, Severity: sev, Hand: h, Field: "points", Written: Int(best), Expected: Int(bestBound),
			Rule: v.ruleFor(CardPointsImpossible), Pointer: HandPointer(h, NS, "points")},
			fmt.Sprintf("hand %d: the two lines' card points (%d) exceed what one 108-card deck can give (%d)", h, best, bestBound),
			fmt.Sprintf("smazzata %d: i punti carta delle due linee (%d) superano quanto può dare un mazzo di 108 carte (%d)", h, best, bestBound))
	}

	// Burraco cards: the readings that use the fewest cards.
	var minCards [2]int
	untaken := 0
	for _, l := range Lines {
		fl := &f[l]
		if fl.inBase || fl.ls.Pozzetto == PozzettoNotTaken {
			untaken++
		}
		if !fl.baseOK {
			continue
		}
		minCards[l], _ = v.minBurrachi(fl, closer == l)
	}
	if bound := MaxBurracoCards(untaken); minCards[NS]+minCards[EO] > bound {
		l := tooManyBurrachiLine(minCards[NS], minCards[EO])
		fnd := Finding{Code: TooManyBurrachi, Severity: SeverityError, Hand: h, Line: lineRef(l), Field: "base", Written: Int(minCards[NS] + minCards[EO]), Expected: Int(bound),
			Rule: v.ruleFor(TooManyBurrachi), Pointer: HandPointer(h, l, "base")}
		v.add(fnd,
			fmt.Sprintf("hand %d: the burrachi of the two bases need at least %d cards, more than the %d one deck can hold", h, minCards[NS]+minCards[EO], bound),
			fmt.Sprintf("smazzata %d: i burraco delle due basi richiedono almeno %d carte, più delle %d disponibili in un mazzo", h, minCards[NS]+minCards[EO], bound))
	}
	// Wild cards: 12 in a deal, at most one per meld (RULES §4).
	wild := [2]int{}
	for _, l := range Lines {
		if f[l].typesOK {
			wild[l] = WildBurrachi(f[l].ls.Burrachi)
		}
	}
	if n := wild[NS] + wild[EO]; n > MaxWildBurrachi {
		l := tooManyBurrachiLine(wild[NS], wild[EO])
		v.add(Finding{Code: TooManyBurrachi, Severity: SeverityError, Hand: h, Line: lineRef(l), Field: "burrachi", Written: Int(n), Expected: Int(MaxWildBurrachi),
			Rule: v.ruleFor(TooManyBurrachi), Pointer: HandPointer(h, l, "burrachi")},
			fmt.Sprintf("hand %d: the breakdowns hold %d burrachi with a wild, but a deal has only %d wild cards and a burraco holds at most one", h, n, MaxWildBurrachi),
			fmt.Sprintf("smazzata %d: i dettagli contano %d burraco con una matta, ma un mazzo ha solo %d matte e un burraco ne contiene al massimo una", h, n, MaxWildBurrachi))
	}
	// With a table split: every burraco lies on the table. With the types
	// known, each holds at least its type's card points (RULES §4);
	// otherwise at least 35 (seven 3s).
	for _, l := range Lines {
		fl := &f[l]
		if fl.ls.TablePoints == nil {
			continue
		}
		sev := SeverityError
		if hd.LostCount {
			sev = SeverityInfo
		}
		if fl.typesOK {
			if want := MinBurrachiPoints(v.rs, fl.ls.Burrachi); *fl.ls.TablePoints < want {
				v.addLine(h, l, Finding{Code: TooManyBurrachi, Severity: sev, Field: "table_points", Written: Int(*fl.ls.TablePoints), Expected: Int(want)},
					"table points %d are fewer than the %d card points the burrachi of the breakdown hold at the least",
					"i punti in tavola %d sono meno dei %d punti carta che i burraco del dettaglio contengono come minimo", *fl.ls.TablePoints, want)
			}
			continue
		}
		if !fl.baseOK {
			continue
		}
		_, count := v.minBurrachi(fl, closer == l)
		if want := MinBurracoTablePoints * count; *fl.ls.TablePoints < want {
			v.addLine(h, l, Finding{Code: TooManyBurrachi, Severity: sev, Field: "table_points", Written: Int(*fl.ls.TablePoints), Expected: Int(want)},
				fmt.Sprintf("table points %d cannot hold %d burrachi (at least %d points each)", *fl.ls.TablePoints, count, MinBurracoTablePoints),
				fmt.Sprintf("i punti in tavola %d non possono contenere %d burraco (almeno %d punti ciascuno)", *fl.ls.TablePoints, count, MinBurracoTablePoints))
		}
	}
}

// minBurrachi is the least Σ MinCards and the least number of burrachi over
// the line's consistent readings.
func (v *validator) minBurrachi(fl *lineFacts, isCloser bool) (cards, count int) {
	if fl.breakdown {
		return fl.bdCards, fl.bdCount
	}
	const none = 1 << 20
	cards, count = none, none
	if !fl.forcedClosed && !isCloser {
		if s := v.sums.at(fl.eff); s.ok() {
			cards, count = int(s.minCards), int(s.minCount)
		}
	}
	if !fl.forcedOpen && fl.eff-ClosingBonus > 0 {
		s := v.sums.at(fl.eff - ClosingBonus)
		if v.rs.International() && s.pulitoOK() {
			cards, count = min(cards, int(s.pulitoMinCards)), min(count, int(s.pulitoMinCount))
		} else if !v.rs.International() && s.ok() {
			cards, count = min(cards, int(s.minCards)), min(count, int(s.minCount))
		}
	}
	if cards == none {
		return 0, 0 // no reading: the base finding already says so
	}
	return cards, count
}

// plausible: CARD_POINTS_IMPLAUSIBLE (RULES §5.1 [INTERP] thresholds).
func (v *validator) plausible(h int, hd *Hand, l Line) {
	ls := &hd.Lines[l]
	sev := SeverityWarning
	if hd.LostCount {
		sev = SeverityInfo
	}
	switch total := ls.Base + ls.Points; {
	case ls.Points > ImplausibleLinePoints || ls.Points < -ImplausibleLinePoints:
		v.addLine(h, l, Finding{Code: CardPointsImplausible, Severity: sev, Field: "points", Written: Int(ls.Points)},
			fmt.Sprintf("points %d are legal but unusual (beyond ±%d for one line): please check", ls.Points, ImplausibleLinePoints),
			fmt.Sprintf("punti %d possibili ma insoliti (oltre ±%d per una linea): verificare", ls.Points, ImplausibleLinePoints))
	case total > ImplausibleLineTotal:
		v.addLine(h, l, Finding{Code: CardPointsImplausible, Severity: sev, Field: "total", Written: Int(total)},
			fmt.Sprintf("a hand total of %d is legal but unusual (above %d for one line): please check", total, ImplausibleLineTotal),
			fmt.Sprintf("un totale di smazzata di %d è possibile ma insolito (oltre %d per una linea): verificare", total, ImplausibleLineTotal))
	}
}

// unverifiable: UNVERIFIABLE_BREAKDOWN, only the base given and several
// readings possible (RULES §5.1).
func (v *validator) unverifiable(h int, hd *Hand, l Line, fl *lineFacts, closer Line) {
	if fl.breakdown || !fl.baseOK {
		return
	}
	ways := 0
	if !fl.forcedClosed && closer != l {
		ways += int(v.sums.at(fl.eff).ways)
	}
	// A closing reading only where the hand can have been closed by this line.
	canClose := !nonClosingEnds[hd.End] && (closer < 0 || closer == l)
	if canClose && !fl.forcedOpen && fl.eff-ClosingBonus > 0 {
		s := v.sums.at(fl.eff - ClosingBonus)
		if v.rs.International() {
			ways += int(s.pulitoWays)
		} else {
			ways += int(s.ways)
		}
	}
	if ways < 2 {
		return
	}
	v.addLine(h, l, Finding{Code: UnverifiableBreakdown, Severity: SeverityInfo, Field: "base", Written: Int(fl.ls.Base)},
		"base %d has several readings (burrachi, closing); without the breakdown it cannot be checked further",
		"la base %d ammette più letture (burraco, chiusura); senza il dettaglio non si può verificare oltre", fl.ls.Base)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// lineValues backs the Line pointers of findings, so that naming a line
// allocates nothing; nobody writes through a finding's Line.
var lineValues = [2]Line{NS, EO}

func lineRef(l Line) *Line { return &lineValues[l&1] }

// add appends a finding with its messages (plain text); Rule defaults to
// the code's.
func (v *validator) add(f Finding, en, it string) {
	f.text = lazyText{en: escapePercent(en), it: escapePercent(it)}
	v.push(f)
}

func (v *validator) push(f Finding) {
	if f.Rule == "" {
		f.Rule = v.ruleFor(f.Code)
	}
	if v.findings == nil {
		v.findings = make([]Finding, 0, 4)
	}
	v.findings = append(v.findings, f)
}

// addLine appends a finding about one line of one hand; the messages get
// the "hand h, NS:" prefix. With ints, en and it are format strings with
// that many %d verbs; without, plain text.
func (v *validator) addLine(h int, l Line, f Finding, en, it string, ints ...int) {
	if len(ints) == 0 {
		en, it = escapePercent(en), escapePercent(it)
	}
	f.Hand, f.Line, f.Pointer = h, lineRef(l), handPointer(h, l, f.Field)
	t := lazyText{en: en, it: it, hand: h, line: l}
	t.n = copy(t.ints[:], ints)
	f.text = t
	v.push(f)
}

// escapePercent makes plain text safe to use as a format string.
func escapePercent(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	return strings.ReplaceAll(s, "%", "%%")
}

// handPointer is HandPointer without fmt or allocation on the hot path:
// the pointers of the fields findings name are built once.
func handPointer(h int, l Line, field string) string {
	if p, ok := handPointers[pointerKey{h, l, field}]; ok {
		return p
	}
	return "/hands/" + strconv.Itoa(h-1) + "/" + l.String() + "/" + field
}

type pointerKey struct {
	hand  int
	line  Line
	field string
}

var handPointers = func() map[pointerKey]string {
	m := map[pointerKey]string{}
	for h := 1; h <= 4; h++ {
		for _, l := range Lines {
			for _, f := range []string{"base", "points", "total", "running_total", "burrachi", "closed", "pozzetto", "table_points"} {
				m[pointerKey{h, l, f}] = "/hands/" + strconv.Itoa(h-1) + "/" + l.String() + "/" + f
			}
		}
	}
	return m
}()

func endIT(e HandEnd) string {
	switch e {
	case EndStockExhausted:
		return "esaurimento del tallone"
	case EndTimeOut:
		return "tempo scaduto"
	case EndStall:
		return "stallo"
	case EndInterrupted:
		return "interruzione dell'arbitro"
	}
	return string(e)
}

// attachCells copies the spreadsheet cell of each finding's field, when the
// sheet came from one. A finding about a whole hand falls back to the
// hand's first cell.
func (v *validator) attachCells() {
	if len(v.s.Cells) == 0 {
		return
	}
	for i := range v.findings {
		f := &v.findings[i]
		if c, ok := v.s.Cells[f.Pointer]; ok {
			f.Cell = c
			continue
		}
		// The finding's own line first, then the other.
		lines := Lines
		if f.Line != nil && *f.Line == EO {
			lines = [2]Line{EO, NS}
		}
		var fallbacks []string
		for _, l := range lines {
			if f.Hand > 0 {
				for _, fld := range []string{f.Field, "base", "total", "points"} {
					fallbacks = append(fallbacks, handPointer(f.Hand, l, fld))
				}
			} else {
				fallbacks = append(fallbacks, WrittenPointer(l, f.Field), WrittenPointer(l, "total"))
			}
		}
		for _, p := range fallbacks {
			if c, ok := v.s.Cells[p]; ok {
				f.Cell = c
				break
			}
		}
	}
}
