package app

import (
	"segnapunti/domain"
	"segnapunti/tournamentfile"
)

// The fields of the open tournament file that belong to RULES §12 (API
// §4.3: the plan, sessions, withdrawals, team matches, interruption) are
// written here, and only here, from what the store holds today: it has no
// plan, no sessions, no withdrawals, no matches and no interruption yet.
// When those records exist, fill these functions from them; nothing else
// in the export needs to change, and the format already carries them.

// filePlan is the tournament's plan: today the API's default (API §4.3:
// no plan is first_round "entry_order", one phase "danese", one session
// of every planned round).
func filePlan(t domain.Tournament) *tournamentfile.Plan {
	return &tournamentfile.Plan{
		FirstRound: string(domain.SystemEntryOrder),
		Phases:     []tournamentfile.PlanPhase{{FromRound: 1, System: string(domain.PhaseDanese)}},
		Sessions:   []int{t.RoundsPlanned},
	}
}

// fileInterruption is interrupted_after_round and void: absent until
// interruptions are recorded.
func fileInterruption(domain.Tournament) (afterRound *int, void *bool) { return nil, nil }

// fileSession is the session round r belongs to: one session today.
func fileSession(domain.Round) int { return 1 }

// fileWithdrawn is the round an entrant withdrew from: never today.
func fileWithdrawn(domain.Entrant) *int { return nil }

// fileMatch is the team match a table belongs to (RULES §12.5); nil
// outside team tournaments.
func fileMatch(_ domain.Round, ta domain.TableAssignment) *int {
	if ta.Match == 0 {
		return nil
	}
	m := ta.Match
	return &m
}
