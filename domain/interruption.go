package domain

import "fmt"

// Interruption is the ruling on a tournament interrupted by force majeure
// after its k-th completed round (RULES §12.6, FITAB art. 39): valid
// ("valido a tutti gli effetti") with the standings after round k, or void
// ("il torneo sarà invalidato").
type Interruption struct {
	AfterRound int
	Valid      bool
	// MinRounds is the completed rounds validity needs.
	MinRounds int
	Rule      string
	Reason    string // English
	ReasonIT  string // Italian
}

// ruleInterruption is the article; FIBur's codes say nothing, and the same
// rule applies (RULES §12.6 [INTERP], interruptionRule).
const ruleInterruption = "FITAB art. 39"

// RuleInterruption rules on an interruption after round k of a tournament
// of roundsPlanned rounds (FITAB art. 39): valid only if the third-to-last
// round was completed, k ≥ roundsPlanned − 2, except that a tournament of
// 4 rounds needs the third ("Qualora però il torneo preveda solo 4 turni
// … se è terminato il terzo turno"); interruptionMinRounds. k outside
// 0..roundsPlanned is ErrInvalid.
func RuleInterruption(rs Ruleset, roundsPlanned, k int) (Interruption, error) {
	if roundsPlanned < 1 {
		return Interruption{}, invalidf("rounds_planned: %d", roundsPlanned)
	}
	if k < 0 || k > roundsPlanned {
		return Interruption{}, invalidf("interrupted_after_round: %d is not a round of the %d planned (0 to %d)", k, roundsPlanned, roundsPlanned)
	}
	need := interruptionMinRounds(roundsPlanned)
	out := Interruption{AfterRound: k, Valid: k >= need, MinRounds: need, Rule: interruptionRule(rs)}
	if out.Valid {
		out.Reason = fmt.Sprintf("interrupted after round %d of %d: round %d, the one validity needs, was completed; the final standings are those after round %d", k, roundsPlanned, need, k)
		out.ReasonIT = fmt.Sprintf("interrotto dopo il turno %d di %d: il turno %d, necessario per la validità, è terminato; la classifica finale è quella dopo il turno %d", k, roundsPlanned, need, k)
	} else {
		out.Reason = fmt.Sprintf("interrupted after round %d of %d: validity needs round %d completed; the tournament is void (no final standings, entry fees refunded)", k, roundsPlanned, need)
		out.ReasonIT = fmt.Sprintf("interrotto dopo il turno %d di %d: la validità richiede il turno %d terminato; il torneo è annullato (nessuna classifica finale, quote d'iscrizione restituite)", k, roundsPlanned, need)
	}
	return out, nil
}
