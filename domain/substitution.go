package domain

import (
	"fmt"
	"strings"
)

// Substitution is a player replaced from a round on (RULES §12.4, FITAB
// art. 37, FIBur-INT art. 33): the substitute In plays under the same
// entrant in the place of the player whose membership number is Out.
type Substitution struct {
	Entrant   string
	FromRound int
	Out       string // membership number of the player replaced
	In        Player
	Reason    string
}

// Articles of substitutions.
const (
	ruleSubstitutionFITAB = "FITAB art. 37"
	ruleSubstitutionFIBur = "FIBur-INT art. 33"
)

// CheckSubstitution checks a substitution against the ruleset (RULES
// §12.4): the round is one of the tournament's; under fibur-* only while
// "non si sia superata la metà degli incontri previsti"
// (substitutionInTime); under fitab-* at any round, for force majeure
// confirmed by the referee, so the reason is required. The error wraps
// ErrInvalid and names the field first ("from_round: …").
func CheckSubstitution(rs Ruleset, roundsPlanned int, s Substitution) error {
	if s.FromRound < 1 || s.FromRound > roundsPlanned {
		return invalidf("from_round: %d is not a round of the %d planned", s.FromRound, roundsPlanned)
	}
	if strings.TrimSpace(s.In.Name) == "" {
		return invalidf("in.name: the substitute's name is required")
	}
	if strings.TrimSpace(s.Out) == "" {
		return invalidf("out: the membership number of the player replaced is required")
	}
	if rs.Federation() == FITAB {
		if strings.TrimSpace(s.Reason) == "" {
			return invalidf("reason: a substitution is admitted for force majeure confirmed by the referee (%s \"causa forza maggiore (accertata dal Direttore di gara)\"): give it", ruleSubstitutionFITAB)
		}
		return nil
	}
	if !substitutionInTime(roundsPlanned, s.FromRound) {
		latest := 1
		for substitutionInTime(roundsPlanned, latest+1) {
			latest++
		}
		return invalidf("from_round: %s admits a substitution only \"fintanto che non si sia superata la metà degli incontri previsti\": with %d rounds, from round %d at the latest, not %d",
			ruleSubstitutionFIBur, roundsPlanned, latest, s.FromRound)
	}
	return nil
}

// SubstitutionRule is the article of substitutions under the ruleset.
func SubstitutionRule(rs Ruleset) string {
	if rs.Federation() == FITAB {
		return ruleSubstitutionFITAB
	}
	return ruleSubstitutionFIBur
}

// String is the substitution in a sentence, for logs and audits.
func (s Substitution) String() string {
	return fmt.Sprintf("entrant %s from round %d: %s in for %s", s.Entrant, s.FromRound, s.In.Name, s.Out)
}

// PlayersAt are the players who sit for entrant e in round n (RULES
// §12.4: "each round records who actually sat in each line"): its players,
// each replaced by the substitute of the latest substitution of that
// player (by membership number) from round n or earlier.
func PlayersAt(e Entrant, subs []Substitution, n int) []Player {
	out := make([]Player, len(e.Players))
	for i, p := range e.Players {
		out[i] = p
		best := 0
		for _, s := range subs {
			if s.Entrant == e.ID && s.Out != "" && s.Out == p.Membership && s.FromRound <= n && s.FromRound > best {
				out[i], best = s.In, s.FromRound
			}
		}
	}
	return out
}
