package domain

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// AdjustmentReason is why a referee changes an entrant's score outside the
// hands the players wrote (RULES §7).
type AdjustmentReason string

const (
	// ReasonWarning is an ammonizione (FITAB art. 21, FIBur-INT art. 20).
	ReasonWarning AdjustmentReason = "warning"
	// ReasonLateUpTo5 is a line late at its table by up to five minutes
	// (FITAB art. 38, FIBur-INT art. 34).
	ReasonLateUpTo5 AdjustmentReason = "late_up_to_5"
	// ReasonLate5To10 is a line late by five to ten minutes.
	ReasonLate5To10 AdjustmentReason = "late_5_to_10"
	// ReasonLateOver10 is a line late by more than ten minutes: the match is
	// awarded.
	ReasonLateOver10 AdjustmentReason = "late_over_10"
	// ReasonBye is a rest at an incomplete table (riposo).
	ReasonBye AdjustmentReason = "bye"
	// ReasonAbandonTemporary is a line leaving the tournament for a while
	// (FITAB art. 37, FIBur-INT art. 33).
	ReasonAbandonTemporary AdjustmentReason = "abandon_temporary"
	// ReasonAbandonJustified is a line leaving for a justified reason.
	ReasonAbandonJustified AdjustmentReason = "abandon_justified"
	// ReasonAbandonUnjustified is a line leaving without justification
	// (a quarrel, a protest...).
	ReasonAbandonUnjustified AdjustmentReason = "abandon_unjustified"
	// ReasonForcedRemoval is a pair removed from the tournament during the
	// Mitchell phase (FITAB art. 37/bis).
	ReasonForcedRemoval AdjustmentReason = "forced_removal"
	// ReasonLateStart is a line missing the first rounds (FITAB art. 38/bis).
	ReasonLateStart AdjustmentReason = "late_start"
	// ReasonRefereeScore is any other punteggio arbitrale, with a mandatory
	// free-text reason.
	ReasonRefereeScore AdjustmentReason = "referee_score"
)

// AdjustmentReasons lists every reason in the order of RULES §7.
var AdjustmentReasons = []AdjustmentReason{
	ReasonWarning, ReasonLateUpTo5, ReasonLate5To10, ReasonLateOver10, ReasonBye,
	ReasonAbandonTemporary, ReasonAbandonJustified, ReasonAbandonUnjustified,
	ReasonForcedRemoval, ReasonLateStart, ReasonRefereeScore,
}

// ParseAdjustmentReason returns the reason with the given id.
func ParseAdjustmentReason(id string) (AdjustmentReason, error) {
	if r := AdjustmentReason(id); slices.Contains(AdjustmentReasons, r) {
		return r, nil
	}
	return "", fmt.Errorf("%w: unknown adjustment reason %q (want warning, late_up_to_5, late_5_to_10, late_over_10, bye, abandon_temporary, abandon_justified, abandon_unjustified, forced_removal, late_start or referee_score)", ErrInvalid, id)
}

// Party says which side of a lateness or an abandonment the adjusted entrant
// is on; the articles give each side a different score.
type Party string

const (
	// PartyNone is for reasons that concern one entrant only (warning, bye,
	// late_start, referee_score).
	PartyNone Party = ""
	// PartyOffender is the late, leaving or guilty line.
	PartyOffender Party = "offender"
	// PartyInnocent is the line present at the table, the line left at the
	// table, or (forced_removal) a line that met the removed pair.
	PartyInnocent Party = "innocent"
	// PartyBoth is each line when both lines are late or both abandon.
	PartyBoth Party = "both"
	// PartyLaterOpponent is a line that was to meet the leaving line in a
	// later round (FITAB art. 37, FIBur-INT art. 33).
	PartyLaterOpponent Party = "later_opponent"
)

// Parties lists every party id, PartyNone included.
var Parties = []Party{PartyNone, PartyOffender, PartyInnocent, PartyBoth, PartyLaterOpponent}

// ParseParty returns the party with the given id; "" is PartyNone.
func ParseParty(id string) (Party, error) {
	if p := Party(id); slices.Contains(Parties, p) {
		return p, nil
	}
	return "", fmt.Errorf("%w: unknown party %q (want offender, innocent, both or later_opponent)", ErrInvalid, id)
}

// parties says which parties each reason accepts; the first is the default
// when none is given.
func (r AdjustmentReason) parties() []Party {
	switch r {
	case ReasonLateUpTo5, ReasonLate5To10, ReasonLateOver10:
		return []Party{PartyOffender, PartyInnocent, PartyBoth}
	case ReasonAbandonTemporary, ReasonAbandonJustified, ReasonAbandonUnjustified:
		return []Party{PartyOffender, PartyInnocent, PartyBoth, PartyLaterOpponent}
	case ReasonForcedRemoval:
		return []Party{PartyInnocent}
	default:
		return []Party{PartyNone}
	}
}

// MatchScore is a line's VP and MP for one match.
type MatchScore struct {
	VP int
	MP int
}

// AdjustmentCase is one adjustment to assess: the reason, which party the
// entrant is, and what the reason needs to know.
type AdjustmentCase struct {
	Reason AdjustmentReason
	// Party is required for lateness and abandonment (offender, innocent,
	// both, later_opponent); forced_removal accepts innocent only; the
	// other reasons take none.
	Party   Party
	Ruleset Ruleset
	Kind    Kind // "" is pairs
	// HandsPlanned is the round's planned hands, 2..4; it picks the rows of
	// the articles and the equivalent-MP column. Not needed for
	// referee_score.
	HandsPlanned int
	// Phase is the round's phase; forced_removal requires mitchell.
	Phase Phase
	// WarningsBefore counts the warnings the entrant already had in the
	// tournament, lateness warnings included (warning, late_*).
	WarningsBefore int
	// ByesBefore counts the byes the entrant already had in this session
	// (bye).
	ByesBefore int
	// LateRound is which round of a late start this is: 1 for the first
	// round missed, 2 for the second... (late_start).
	LateRound int
	// Played is the innocent line's result against the removed pair
	// (forced_removal, required).
	Played *MatchScore
	// AtInterruption is the innocent line's score when play stopped, when
	// the referee established one (abandonment; optional).
	AtInterruption *MatchScore
	// Advantage: the referee finds that the score would bring the line an
	// advantage it might not have earned by playing — a prize, a
	// qualification (FITAB art. 37, 38; FIBur-INT art. 33, 34). The line
	// then scores 0.
	Advantage bool
	// Referee is the score the referee awards (referee_score, required).
	Referee *MatchScore
	// Note is the free-text reason; required for referee_score.
	Note string
}

// AdjustmentFlag is something the referee must look at after an adjustment.
type AdjustmentFlag string

// FlagSecondBye: the entrant rests for the second time in one session
// (FITAB art. 38, FIBur-INT art. 34: "una coppia può riposare solo una volta
// per sessione").
const FlagSecondBye AdjustmentFlag = "SECOND_BYE_IN_SESSION"

// AdjustmentEffect is what one adjustment does to one entrant.
type AdjustmentEffect struct {
	// Result, when not nil, is the entrant's result for the round's match:
	// it takes the place of a played result (bye, awarded match,
	// abandonment, late start, forced removal).
	Result *MatchScore
	// Bye marks Result as a rest score: it counts in the totals but is not
	// a win (RULES §8).
	Bye bool
	// Awarded marks Result as a match awarded to the entrant: it counts as a
	// win (RULES §8).
	Awarded bool
	// Delta is added to the entrant's overall standings (the cost of a
	// second warning, a referee score). Zero when nothing is added.
	Delta MatchScore
	// LatePoints are credited to the entrant's line on the match's sheet
	// (the sheet's late_points, RULES §6): lateness of the other line.
	LatePoints int
	// Warning: this adjustment is (or implies) a warning to the entrant,
	// and counts towards the next WarningsBefore.
	Warning bool
	Flags   []AdjustmentFlag
	Rules   []string // the articles applied
	Reason  string   // one sentence saying what was applied and why
}

// Adjustment is a referee adjustment as it enters the standings: VP and MP
// added to an entrant's total (RULES §7). Results that take the place of a
// match (byes, awarded matches) enter the standings as MatchResult.
type Adjustment struct {
	Entrant string
	Round   int // 0 when not tied to a round: it counts after every round
	Reason  AdjustmentReason
	VP      int
	MP      int
	Note    string
	Author  string // who made it
	At      time.Time
}

// Effect computes what the adjustment does to the entrant (RULES §7). It
// fails, wrapping ErrInvalid and naming the field, when the case lacks what
// its reason needs.
func (c AdjustmentCase) Effect() (AdjustmentEffect, error) {
	if err := c.validate(); err != nil {
		return AdjustmentEffect{}, err
	}
	if c.Kind == "" {
		c.Kind = KindPairs
	}
	if c.Party == PartyNone {
		c.Party = c.Reason.parties()[0]
	}
	switch c.Reason {
	case ReasonWarning:
		return c.warning(), nil
	case ReasonLateUpTo5, ReasonLate5To10:
		return c.lateShort(), nil
	case ReasonLateOver10:
		return c.lateOver10(), nil
	case ReasonBye:
		return c.bye(), nil
	case ReasonAbandonTemporary, ReasonAbandonJustified, ReasonAbandonUnjustified:
		return c.abandon(), nil
	case ReasonForcedRemoval:
		return c.forcedRemoval(), nil
	case ReasonLateStart:
		return c.lateStart(), nil
	default: // ReasonRefereeScore
		return AdjustmentEffect{
			Delta:  *c.Referee,
			Rules:  []string{refereeScoreRule(c.Ruleset)},
			Reason: "referee score: " + strings.TrimSpace(c.Note),
		}, nil
	}
}

func (c AdjustmentCase) validate() error {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, a...)...))
	}
	if !slices.Contains(AdjustmentReasons, c.Reason) {
		bad("reason: unknown adjustment reason %q", c.Reason)
		return errors.Join(errs...)
	}
	if !slices.Contains(Rulesets, c.Ruleset) {
		bad("ruleset: unknown ruleset %q", c.Ruleset)
	}
	if c.Kind != "" && !slices.Contains(Kinds, c.Kind) {
		bad("kind: unknown kind %q", c.Kind)
	}
	if c.Party != PartyNone && !slices.Contains(c.Reason.parties(), c.Party) {
		bad("party: %s does not apply to %s (want one of %s)", partyName(c.Party), c.Reason, partyList(c.Reason.parties()))
	}
	if c.Party == PartyNone && c.Reason.parties()[0] != PartyNone && len(c.Reason.parties()) > 1 {
		bad("party: required for %s (want one of %s)", c.Reason, partyList(c.Reason.parties()))
	}
	if c.Reason != ReasonRefereeScore && (c.HandsPlanned < 2 || c.HandsPlanned > 4) {
		bad("hands_planned: %d (want 2, 3 or 4)", c.HandsPlanned)
	}
	if c.WarningsBefore < 0 {
		bad("warnings_before: %d is negative", c.WarningsBefore)
	}
	if c.ByesBefore < 0 {
		bad("byes_before: %d is negative", c.ByesBefore)
	}
	switch c.Reason {
	case ReasonForcedRemoval:
		if c.Phase != PhaseMitchell {
			bad("phase: forced_removal applies in the mitchell phase only (FITAB art. 37/bis), not %q", c.Phase)
		}
		if c.Played == nil {
			bad("played: forced_removal needs the innocent line's result against the removed pair")
		} else if !validVP(c.Played.VP) {
			bad("played.vp: %d (want 0..%d)", c.Played.VP, MaxVP)
		}
	case ReasonLateStart:
		if c.LateRound < 1 {
			bad("late_round: %d (want 1 for the first round missed, 2 for the second...)", c.LateRound)
		}
	case ReasonRefereeScore:
		if strings.TrimSpace(c.Note) == "" {
			bad("note: a referee score needs a reason")
		}
		if c.Referee == nil {
			bad("vp: a referee score needs the VP and MP awarded")
		}
	}
	if c.AtInterruption != nil && !validVP(c.AtInterruption.VP) {
		bad("at_interruption.vp: %d (want 0..%d)", c.AtInterruption.VP, MaxVP)
	}
	return errors.Join(errs...)
}

func validVP(vp int) bool { return vp >= 0 && vp <= MaxVP }

func partyName(p Party) string {
	if p == PartyNone {
		return "no party"
	}
	return string(p)
}

func partyList(ps []Party) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = partyName(p)
	}
	return strings.Join(s, ", ")
}

// Warnings (FITAB art. 21, FIBur-INT art. 20): "la somma di due ammonizioni
// comporta la perdita di 1 Victory Point ed equivalenti Match Points in
// classifica generale (ciò non comporta alcun vantaggio per l'altra linea)".
const (
	warningsPerPenalty = 2 // every second warning costs
	warningPenaltyVP   = 1
)

func warningRule(r Ruleset) string {
	if r.Federation() == FITAB {
		return "FITAB art. 21"
	}
	return "FIBur-INT art. 20"
}

func lateRule(r Ruleset) string {
	if r.Federation() == FITAB {
		return "FITAB art. 38"
	}
	return "FIBur-INT art. 34"
}

func abandonRule(r Ruleset) string {
	if r.Federation() == FITAB {
		return "FITAB art. 37"
	}
	return "FIBur-INT art. 33"
}

func refereeScoreRule(r Ruleset) string {
	if r.Federation() == FITAB {
		return "FITAB definitions (punteggio arbitrale)"
	}
	return "FIBur-INT art. 20"
}

// equivalentMP is the MP worth vp VP for a line: positive above a draw,
// negative below (RULES §7 "equivalent MP" [INTERP], EquivalentMPTable).
func (c AdjustmentCase) equivalentMP(vp int) int {
	t := EquivalentMPTable(c.Ruleset, c.Kind, c.HandsPlanned)
	if vp >= MaxVP/2 {
		return t.EquivalentMP(vp - MaxVP/2)
	}
	return -t.EquivalentMP(MaxVP/2 - vp)
}

// scoreOf is vp VP with their equivalent MP.
func (c AdjustmentCase) scoreOf(vp int) MatchScore { return MatchScore{VP: vp, MP: c.equivalentMP(vp)} }

// addWarning marks the effect as a warning and charges the cost of every
// second one.
func (c AdjustmentCase) addWarning(e *AdjustmentEffect) {
	e.Warning = true
	e.Rules = append(e.Rules, warningRule(c.Ruleset))
	var what string
	if n := c.WarningsBefore + 1; n%warningsPerPenalty == 0 {
		e.Delta = MatchScore{VP: -warningPenaltyVP, MP: -c.equivalentMP(MaxVP/2 + warningPenaltyVP)}
		what = fmt.Sprintf("warning %d: −%d VP and −%d MP in the overall standings, the opponents gain nothing", n, warningPenaltyVP, -e.Delta.MP)
	} else {
		what = fmt.Sprintf("warning %d: no cost yet (every second warning costs %d VP)", n, warningPenaltyVP)
	}
	if e.Reason == "" {
		e.Reason = what
	} else {
		e.Reason += "; " + what
	}
}

func (c AdjustmentCase) warning() AdjustmentEffect {
	var e AdjustmentEffect
	c.addWarning(&e)
	return e
}

// Lateness credits (FITAB art. 38, FIBur-INT art. 34): 100 points to the
// present line for a delay up to five minutes, a further 50 from five to ten.
const (
	lateCredit        = 100
	lateFurtherCredit = 50
)

// latePoints is what the present line is credited for the other line's
// delay. The reason names the band the delay ended in, so late_5_to_10
// carries both credits, 100 + 50 [INTERP: one adjustment per late line and
// match, never late_up_to_5 and late_5_to_10 together].
func latePoints(r AdjustmentReason) int {
	if r == ReasonLate5To10 {
		return lateCredit + lateFurtherCredit
	}
	return lateCredit
}

// lateWarns says whether a delay in the reason's band earns the late line a
// warning. FITAB art. 38 warns a line not present within 2 minutes, so every
// recorded band does [INTERP: a delay worth recording is past the 2-minute
// grace]; FIBur-INT art. 34 warns only a line not present within five
// minutes, so late_up_to_5 carries no warning there.
func lateWarns(r Ruleset, reason AdjustmentReason) bool {
	if r.Federation() == FIBur {
		return reason != ReasonLateUpTo5
	}
	return true
}

// lateShort is late_up_to_5 and late_5_to_10: points on the sheet, no VP.
func (c AdjustmentCase) lateShort() AdjustmentEffect {
	e := AdjustmentEffect{Rules: []string{lateRule(c.Ruleset)}}
	pts := latePoints(c.Reason)
	switch c.Party {
	case PartyInnocent:
		e.LatePoints = pts
		e.Reason = fmt.Sprintf("the other line was late (%s): +%d points on the sheet", c.Reason, pts)
		return e
	case PartyBoth:
		// "le penalità vanno considerate separatamente": each line is
		// credited for the other's delay.
		e.LatePoints = pts
		e.Reason = fmt.Sprintf("both lines late (%s): each is credited +%d points for the other's delay", c.Reason, pts)
	default:
		e.Reason = fmt.Sprintf("late (%s): the present line is credited +%d points", c.Reason, pts)
	}
	if lateWarns(c.Ruleset, c.Reason) {
		c.addWarning(&e)
	}
	return e
}

// awardedPercent is the share of MaxVP a present line receives when the
// other is more than ten minutes late: FITAB art. 38 "60% (70% nei turni da
// tre mani)", FIBur-INT art. 34 "70% (60% nei turni da quattro mani)".
func awardedPercent(r Ruleset, hands int) int {
	if r.Federation() == FITAB {
		if hands == 3 {
			return 70
		}
		return 60
	}
	if hands == 4 {
		return 60
	}
	return 70
}

// absentVP is the VP of a line that loses a match it did not play: "6 o 8
// Victory Points secondo il numero delle mani" (FITAB art. 38, FIBur-INT art.
// 34). [INTERP] (RULES §7): the split follows the abandonment rows of FITAB
// art. 37 — 6 in 2- and 3-hand rounds, 8 in 4-hand rounds and in team
// matches. FIBur-INT art. 33 has no team row; the same 8 is used.
func absentVP(k Kind, hands int) int {
	if k == KindTeams || hands == 4 {
		return 8
	}
	return 6
}

// zeroScore is the score of a line the referee holds would gain an undue
// advantage, and of two lines that both abandon: "il punteggio … sarà uguale
// a 0" (FITAB art. 37, FIBur-INT art. 33). [INTERP]: 0 VP and 0 MP — the
// articles give no MP, and a zero score is no score.
var zeroScore = MatchScore{}

func (c AdjustmentCase) lateOver10() AdjustmentEffect {
	e := AdjustmentEffect{Rules: []string{lateRule(c.Ruleset)}}
	switch c.Party {
	case PartyInnocent:
		pct := awardedPercent(c.Ruleset, c.HandsPlanned)
		s := c.scoreOf(MaxVP * pct / 100)
		e.Result, e.Awarded = &s, true
		e.Reason = fmt.Sprintf("the other line was more than 10 minutes late: match awarded with %d%% of %d VP, %d VP and %d MP", pct, MaxVP, s.VP, s.MP)
		return e
	case PartyBoth:
		e.Reason = "both lines more than 10 minutes late: both lose the match"
	default:
		e.Reason = "more than 10 minutes late: the match is lost"
	}
	if c.Advantage {
		s := zeroScore
		e.Result = &s
		e.Reason += " with 0, the usual score bringing an unfair advantage"
	} else {
		s := c.scoreOf(absentVP(c.Kind, c.HandsPlanned))
		e.Result = &s
		e.Reason += fmt.Sprintf(" with %d VP and %d MP", s.VP, s.MP)
	}
	c.addWarning(&e)
	return e
}

// Byes: the rest score of FITAB art. 38 and FIBur-INT art. 34, by the
// round's planned hands, as the codes write it. The pair rows agree with the
// equivalent MP of RULES §7; the team rows are fixed numbers of the codes
// (FITAB 12/365, FIBur 12/355) and are used as written.
var (
	fitabByeScores = map[int]MatchScore{2: {14, 315}, 3: {14, 365}, 4: {12, 315}}
	fitabByeTeams  = MatchScore{12, 365}
	fiburByeScores = map[int]MatchScore{2: {14, 305}, 3: {14, 355}, 4: {12, 305}}
	fiburByeTeams  = MatchScore{12, 355}
)

// byeScore is the rest score of the case's federation, kind and hands.
func (c AdjustmentCase) byeScore() MatchScore {
	if c.Ruleset.Federation() == FITAB {
		if c.Kind == KindTeams {
			return fitabByeTeams
		}
		return fitabByeScores[c.HandsPlanned]
	}
	if c.Kind == KindTeams {
		return fiburByeTeams
	}
	return fiburByeScores[c.HandsPlanned]
}

func (c AdjustmentCase) bye() AdjustmentEffect {
	s := c.byeScore()
	e := AdjustmentEffect{
		Result: &s, Bye: true,
		Rules:  []string{lateRule(c.Ruleset)},
		Reason: fmt.Sprintf("rest at an incomplete table: %d VP and %d MP", s.VP, s.MP),
	}
	if c.ByesBefore >= 1 {
		e.Flags = append(e.Flags, FlagSecondBye)
		e.Reason += fmt.Sprintf("; bye number %d in this session, but a pair may rest only once per session", c.ByesBefore+1)
	}
	return e
}

// Temporary abandonment (FITAB art. 37 table; FIBur-INT art. 33 "Turni da 2
// o 3 mani 6 VP - Turni da 4 mani 8 VP"). FITAB writes the MP; FIBur gives
// none, so its MP are the equivalent MP of RULES §7 (−305, −355, −305, and
// −355 for teams).
var (
	fitabAbandonScores = map[int]MatchScore{2: {6, -315}, 3: {6, -365}, 4: {8, -315}}
	fitabAbandonTeams  = MatchScore{8, -365}
)

func (c AdjustmentCase) temporaryAbandonScore() MatchScore {
	if c.Ruleset.Federation() == FITAB {
		if c.Kind == KindTeams {
			return fitabAbandonTeams
		}
		return fitabAbandonScores[c.HandsPlanned]
	}
	return c.scoreOf(absentVP(c.Kind, c.HandsPlanned))
}

// innocentScore is the score of the line left at the table: the rest score,
// unless the referee established more at the interruption (FITAB art. 37,
// FIBur-INT art. 33).
func (c AdjustmentCase) innocentScore() (MatchScore, bool) {
	bye := c.byeScore()
	if a := c.AtInterruption; a != nil && (a.VP > bye.VP || (a.VP == bye.VP && a.MP > bye.MP)) {
		return *a, true
	}
	return bye, false
}

func (c AdjustmentCase) abandon() AdjustmentEffect {
	e := AdjustmentEffect{Rules: []string{abandonRule(c.Ruleset)}}
	set := func(s MatchScore) { e.Result = &s }
	switch c.Party {
	case PartyBoth:
		set(zeroScore)
		e.Reason = "both lines abandoned the match: both score 0"
	case PartyLaterOpponent:
		set(c.byeScore())
		e.Bye = true
		e.Reason = fmt.Sprintf("the line due to play was gone (%s): rest score, %d VP and %d MP", c.Reason, e.Result.VP, e.Result.MP)
	case PartyInnocent:
		s, more := c.innocentScore()
		set(s)
		// The abandoning line loses the match, so the line left at the
		// table has won it: an awarded match, a win in the standings.
		e.Awarded = true
		if more {
			e.Reason = fmt.Sprintf("the other line abandoned (%s): the %d VP and %d MP reached at the interruption, more than the rest score", c.Reason, s.VP, s.MP)
		} else {
			e.Reason = fmt.Sprintf("the other line abandoned (%s): rest score, %d VP and %d MP", c.Reason, s.VP, s.MP)
		}
	default: // PartyOffender
		switch c.Reason {
		case ReasonAbandonUnjustified:
			// "La coppia colpevole perde la partita a 0" [INTERP] (RULES
			// §7): with the negative of the MP its opponent receives.
			opp, _ := c.innocentScore()
			set(MatchScore{VP: 0, MP: -opp.MP})
			e.Reason = fmt.Sprintf("unjustified abandonment: the match is lost with 0 VP and %d MP; the line is referred to the disciplinary body", e.Result.MP)
			return e
		case ReasonAbandonJustified:
			e.Rules = []string{"FITAB art. 37"} // FIBur-INT art. 33 has no such paragraph; FITAB's is applied
			if c.Advantage {
				set(zeroScore)
				e.Reason = "justified abandonment: 0, the rest score bringing an advantage the line might not have earned"
			} else {
				set(c.byeScore())
				e.Bye = true
				e.Reason = fmt.Sprintf("justified abandonment: rest score, %d VP and %d MP", e.Result.VP, e.Result.MP)
			}
		default: // ReasonAbandonTemporary
			if c.Advantage {
				set(zeroScore)
				e.Reason = "temporary abandonment: 0, the usual score bringing an advantage the line might not have earned"
			} else {
				set(c.temporaryAbandonScore())
				e.Reason = fmt.Sprintf("temporary abandonment: %d VP and %d MP", e.Result.VP, e.Result.MP)
			}
		}
	}
	return e
}

// forcedRemovalVP is the least an innocent line scores against a pair
// removed during the Mitchell phase (FITAB art. 37/bis: 12 VP to the lines
// that lost; those that won with more keep their score).
const forcedRemovalVP = 12

func (c AdjustmentCase) forcedRemoval() AdjustmentEffect {
	e := AdjustmentEffect{Rules: []string{"FITAB art. 37/bis"}}
	if c.Played.VP >= forcedRemovalVP {
		s := *c.Played
		e.Result = &s
		e.Reason = fmt.Sprintf("the opponents were removed from the tournament: the line keeps the %d VP and %d MP it won", s.VP, s.MP)
		return e
	}
	s := c.scoreOf(forcedRemovalVP)
	e.Result, e.Awarded = &s, true
	e.Reason = fmt.Sprintf("the opponents were removed from the tournament: %d VP and %d MP instead of the %d VP played", s.VP, s.MP, c.Played.VP)
	return e
}

// Late start (FITAB art. 38/bis): the first round missed is lost with 8 VP,
// each further one with 2 fewer: 8 + 6 + 4 + 2.
const (
	lateStartFirstVP = 8
	lateStartStepVP  = 2
)

// lateStartVP is the VP for the n-th round missed, never below 0.
func lateStartVP(n int) int {
	return max(lateStartFirstVP-lateStartStepVP*(n-1), 0)
}

// lateStart gives the VP of FITAB art. 38/bis with their equivalent MP
// [INTERP: the article gives VP only; the MP follow RULES §7 "equivalent
// MP", as a lost match]. FIBur-INT has no such article; the FITAB scale is
// applied to every ruleset and cited.
func (c AdjustmentCase) lateStart() AdjustmentEffect {
	s := c.scoreOf(lateStartVP(c.LateRound))
	return AdjustmentEffect{
		Result: &s,
		Rules:  []string{"FITAB art. 38/bis"},
		Reason: fmt.Sprintf("round %d missed at the start of the tournament: lost with %d VP and %d MP", c.LateRound, s.VP, s.MP),
	}
}
