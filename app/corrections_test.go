package app

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
)

// CorrectionSituation reads RULES §9's inputs from the stored rounds; each
// derivation (see its comment) has a case.
func TestCorrectionSituationDerivation(t *testing.T) {
	tour := domain.Tournament{ID: "t", Ruleset: domain.FITAB2025, Level: domain.LevelNational, RoundsPlanned: 4}
	round := func(n int, phase domain.Phase, state domain.RoundState) domain.Round {
		return domain.Round{Number: n, HandsPlanned: 3, Phase: phase, State: state}
	}
	const (
		M = domain.PhaseMitchell
		D = domain.PhaseDanese
	)
	for _, tc := range []struct {
		name   string
		rounds []domain.Round
		err    int
		facts  CorrectionFacts
		want   domain.CorrectionSituation
	}{
		{"RULES §10 the latest round playing is the current round, started",
			[]domain.Round{round(1, M, domain.RoundNextPairingPublished), round(2, D, domain.RoundPlaying)}, 1, CorrectionFacts{},
			domain.CorrectionSituation{Phase: D, CurrentRound: 2, CurrentRoundStarted: true, StandingsPublished: true, PositionsPublished: true}},
		{"API §4.1 a delivered latest round is still the current round (the next is not stored): round 1, not 2",
			[]domain.Round{round(1, M, domain.RoundSheetsDelivered)}, 1, CorrectionFacts{},
			domain.CorrectionSituation{Phase: M, CurrentRound: 1, CurrentRoundStarted: true}},
		{"standings published, next pairing not yet",
			[]domain.Round{round(1, D, domain.RoundStandingsPublished)}, 1, CorrectionFacts{},
			domain.CorrectionSituation{Phase: D, CurrentRound: 1, CurrentRoundStarted: true, StandingsPublished: true}},
		{"next pairing published, next round not stored yet",
			[]domain.Round{round(1, D, domain.RoundNextPairingPublished)}, 1, CorrectionFacts{},
			domain.CorrectionSituation{Phase: D, CurrentRound: 1, CurrentRoundStarted: true, StandingsPublished: true, PositionsPublished: true}},
		{"the next round stored publishes the positions even before the state says so",
			[]domain.Round{round(1, D, domain.RoundSheetsDelivered), round(2, D, domain.RoundPlaying)}, 1, CorrectionFacts{},
			domain.CorrectionSituation{Phase: D, CurrentRound: 2, CurrentRoundStarted: true, PositionsPublished: true}},
		{"FITAB art. 20 closed: the last planned round delivered",
			[]domain.Round{round(1, D, domain.RoundNextPairingPublished), round(2, D, domain.RoundNextPairingPublished), round(3, D, domain.RoundNextPairingPublished), round(4, D, domain.RoundSheetsDelivered)}, 4, CorrectionFacts{},
			domain.CorrectionSituation{Phase: D, CurrentRound: 4, CurrentRoundStarted: true, TournamentClosed: true}},
		{"the last planned round still playing is not closed",
			[]domain.Round{round(3, D, domain.RoundNextPairingPublished), round(4, D, domain.RoundPlaying)}, 3, CorrectionFacts{},
			domain.CorrectionSituation{Phase: D, CurrentRound: 4, CurrentRoundStarted: true, StandingsPublished: true, PositionsPublished: true}},
		{"what the records lack comes from the request",
			[]domain.Round{round(1, domain.PhaseGironi, domain.RoundStandingsPublished)}, 1,
			CorrectionFacts{StandingsContested: true, BothLinesAcknowledge: true, RefereeCountersigned: true},
			domain.CorrectionSituation{Phase: domain.PhaseGironi, CurrentRound: 1, CurrentRoundStarted: true, StandingsPublished: true, StandingsContested: true, BothLinesAcknowledge: true, RefereeCountersigned: true}},
		{"the latest stored round counts, not the order the rounds are listed in",
			[]domain.Round{round(2, D, domain.RoundPlaying), round(1, M, domain.RoundSheetsDelivered)}, 1, CorrectionFacts{},
			domain.CorrectionSituation{Phase: D, CurrentRound: 2, CurrentRoundStarted: true, PositionsPublished: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			want.Ruleset, want.Level, want.Kind, want.ErrorRound = tour.Ruleset, tour.Level, domain.CorrectionSum, tc.err
			got := CorrectionSituation(tour, tc.rounds, tc.err, domain.CorrectionSum, tc.facts)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("situation (-want +got):\n%s", d)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("derived situation does not validate: %v", err)
			}
		})
	}
}
