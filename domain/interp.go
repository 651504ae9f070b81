package domain

// The [INTERP] choices of RULES.md that the validator makes, each in one
// named place so that a change of reading is a one-line change.

// Plausibility thresholds of CARD_POINTS_IMPLAUSIBLE (RULES §5.1 [INTERP]):
// legal but unusual figures for one line in one hand.
const (
	ImplausibleLinePoints = 700
	ImplausibleLineTotal  = 1500
)

// stallPays says whether a line pays the 100 for its pozzetto in a stall.
// FITAB art. 16: "Qualora una coppia abbia preso il pozzetto, l'altra dovrà
// pagare 100 punti" — when exactly one line took its pozzetto, the other
// pays and the taker does not (RULES §5). FIBur has no stall article and
// gets the same treatment.
func stallPays(own, other Pozzetto) bool {
	return own == PozzettoNotTaken && other.Taken()
}

// stallChargeDecided says whether FITAB art. 16 decides who pays in a stall:
// only when exactly one line took its pozzetto. When both took it, or
// neither did, the text does not say [INTERP] (RULES §5): any charge is
// accepted with an info finding.
func stallChargeDecided(a, b Pozzetto) bool {
	known := func(p Pozzetto) bool { return p != PozzettoUnknown }
	return known(a) && known(b) && a.Taken() != b.Taken()
}

// tooManyBurrachiLine [INTERP RULES §5.1 TOO_MANY_BURRACHI, "on the line
// whose burrachi break the bound; both lines' count is the sum"]: when the
// two lines' burraco cards together exceed one deck, the finding names the
// line whose burrachi need more cards (a line that alone exceeds the bound
// always does); on a tie, NS, the first line of the sheet.
func tooManyBurrachiLine(nsCards, eoCards int) Line {
	if eoCards > nsCards {
		return EO
	}
	return NS
}

// interruptionMinRounds is the completed rounds an interrupted tournament
// needs to be valid (FITAB art. 39): the third-to-last, roundsPlanned − 2;
// with exactly 4 rounds the third (the article's own exception). RULES
// §12.6 words the 4-round case as if it followed from k ≥ rounds_planned
// − 2 (which gives 2): the article wins. [INTERP] With fewer than 3
// rounds there is no third-to-last round: at least one round completed,
// so that there are standings to be final.
func interruptionMinRounds(roundsPlanned int) int {
	if roundsPlanned == 4 {
		return 3
	}
	return max(roundsPlanned-2, 1)
}

// interruptionRule [INTERP RULES §12.6]: FIBur's codes say nothing of an
// interrupted tournament; the FITAB article applies to every ruleset and
// is cited as such.
func interruptionRule(Ruleset) string { return ruleInterruption }

// substitutionInTime [INTERP RULES §12.4, FIBur-INT art. 33 "fintanto che
// non si sia superata la metà degli incontri previsti"]: the rounds played
// before the substitute's first round, r − 1, may reach half the rounds
// planned but not exceed it (half reached is not half exceeded): r − 1 ≤
// rounds_planned / 2; with 4 rounds, from round 3 at the latest.
func substitutionInTime(roundsPlanned, fromRound int) bool {
	return 2*(fromRound-1) <= roundsPlanned
}

// prizeOrderReading [INTERP prizes]: "each entrant winning at
// most one prize unless the category says otherwise". A tournament's
// categories are listed in order of value, the first the most valuable;
// they are awarded in that order, each from the final standings in rank
// order, so an entrant that could win two prizes gets the earlier
// category's and the later category passes to the next eligible entrant.
// A cumulative category gives its prize also to an entrant that already
// won one, and its prize does not keep the entrant from a later category.
// Entrants that share a rank are taken in the standings' order. It says
// whether an entrant that has (alreadyWon) or has not used up its one
// prize may win in category c.
func prizeOrderReading(c PrizeCategory, alreadyWon bool) bool {
	return c.Cumulative || !alreadyWon
}

// prizeBestClubReading [INTERP "best club"]: the codes do not
// say how a club is best. The reading: each club is represented by its
// best-ranked entrant still able to win (prizeOrderReading); the clubs are
// ranked by that entrant, and the category's places go to the first
// clubs, one award per club, to that entrant. Clubs are the entrants' club
// names compared ignoring case and surrounding spaces; an entrant without
// a club is not eligible. (AwardPrizes applies it; this constant names the
// reading for pages and documents.)
const prizeBestClubReading = "best_club: one award per club, to its best-ranked entrant still able to win, clubs in the order of that entrant"

// PrizeBestClubReading exposes the reading's one-line summary.
func PrizeBestClubReading() string { return prizeBestClubReading }

// teamPairingSeat [INTERP RULES §12.5 "Teams are paired like pairs
// (§11)"]: the codes do not say which of a match's two tables stands for
// the pairing of its teams when a movement (Mitchell) or the checker reads
// the round as pairs. The lower-numbered table does: its NS team is the
// pairing's NS. It reports whether table should replace current as the
// match's pairing table.
func teamPairingSeat(table, current int) bool { return table < current }
