package domain_test

import (
	"testing"

	"segnapunti/domain"
)

// A 5-pair fitab-2025 tournament of 2 rounds, 2 tables each and one bye.
func officialStandingsInput() domain.OfficialStandingsInput {
	ents := []domain.Entrant{{ID: "1"}, {ID: "2"}, {ID: "3"}, {ID: "4"}, {ID: "5"}}
	lr := func(total, mp, vp int) domain.LineResult { return domain.LineResult{Total: total, MP: mp, VP: vp} }
	return domain.OfficialStandingsInput{
		Tournament: domain.Tournament{ID: "t", Ruleset: domain.FITAB2025, Kind: domain.KindPairs, HandsPerRound: 3},
		Entrants:   ents,
		Rounds: []domain.Round{
			{Number: 1, HandsPlanned: 3, Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}, {Table: 2, NS: "3", EO: "4"}}, Byes: []string{"5"}},
			{Number: 2, HandsPlanned: 3, Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "3"}, {Table: 2, NS: "2", EO: "5"}}, Byes: []string{"4"}},
		},
		Results: []domain.TableResult{
			// Round 1 table 1: the sheet says 15-5 (±450), the hands 12-8
			// (±250): the written result counts (RULES §8).
			{Round: 1, Table: 1, NS: "1", EO: "2",
				Official: [2]domain.LineResult{lr(1255, 450, 15), lr(805, -450, 5)},
				Computed: [2]domain.LineResult{lr(1055, 250, 12), lr(805, -250, 8)},
				Differs:  true, Kind: domain.CorrectionSum},
			{Round: 1, Table: 2, NS: "3", EO: "4",
				Official: [2]domain.LineResult{lr(500, 0, 10), lr(500, 0, 10)},
				Computed: [2]domain.LineResult{lr(500, 0, 10), lr(500, 0, 10)}},
			{Round: 2, Table: 1, NS: "1", EO: "3",
				Official: [2]domain.LineResult{lr(600, 100, 11), lr(500, -100, 9)},
				Computed: [2]domain.LineResult{lr(600, 100, 11), lr(500, -100, 9)}},
		},
	}
}

func standingOf(t *testing.T, rows []domain.Standing, id string) domain.Standing {
	t.Helper()
	for _, r := range rows {
		if r.Entrant.ID == id {
			return r
		}
	}
	t.Fatalf("no standing for entrant %s", id)
	return domain.Standing{}
}

func TestOfficialStandings_S8_WrittenResultCounts(t *testing.T) {
	got, err := domain.OfficialStandings(officialStandingsInput())
	if err != nil {
		t.Fatal(err)
	}
	if got.AfterRound != 2 {
		t.Errorf("after round = %d, want 2 (the last round with a result)", got.AfterRound)
	}
	// 1: 15 (written, not the computed 12) + 11; MP 450 + 100.
	if s := standingOf(t, got.Rows, "1"); s.VP != 26 || s.MP != 550 || s.Rank != 1 {
		t.Errorf("entrant 1 = rank %d VP %d MP %d, want rank 1, 26 VP, 550 MP", s.Rank, s.VP, s.MP)
	}
	// 2: 5 written VP, −450 MP; no sheet yet in round 2.
	if s := standingOf(t, got.Rows, "2"); s.VP != 5 || s.MP != -450 {
		t.Errorf("entrant 2 = VP %d MP %d, want 5, -450", s.VP, s.MP)
	}
	// 5: a bye in round 1, FITAB 3 hands 14 VP / 365 MP (RULES §7).
	if s := standingOf(t, got.Rows, "5"); s.VP != 14 || s.MP != 365 || s.Wins != 0 {
		t.Errorf("entrant 5 = VP %d MP %d wins %d, want the bye score 14/365 and no win", s.VP, s.MP, s.Wins)
	}
	if len(got.Differing) != 1 || got.Differing[0].Round != 1 || got.Differing[0].Table != 1 {
		t.Errorf("differing = %+v, want round 1 table 1", got.Differing)
	}
}

func TestOfficialStandings_S8_AfterRound(t *testing.T) {
	in := officialStandingsInput()
	in.AfterRound = 1
	got, err := domain.OfficialStandings(in)
	if err != nil {
		t.Fatal(err)
	}
	if s := standingOf(t, got.Rows, "1"); s.VP != 15 {
		t.Errorf("entrant 1 after round 1 = %d VP, want 15", s.VP)
	}
	if s := standingOf(t, got.Rows, "4"); s.VP != 10 {
		t.Errorf("entrant 4 after round 1 = %d VP, want 10 (its round-2 bye not counted)", s.VP)
	}
}

func TestOfficialStandings_S7_AdjustmentsReplaceAndAdd(t *testing.T) {
	in := officialStandingsInput()
	// An awarded match replaces entrant 2's round-2 result; a referee score
	// of −2 VP adds to entrant 3's totals.
	in.Adjustments = []domain.RecordedAdjustment{
		{Entrant: "2", Round: 2, Effect: domain.AdjustmentEffect{Result: &domain.MatchScore{VP: 12, MP: 165}, Awarded: true}},
		{Entrant: "3", Round: 0, Case: domain.AdjustmentCase{Reason: domain.ReasonRefereeScore, Note: "x"}, Effect: domain.AdjustmentEffect{Delta: domain.MatchScore{VP: -2, MP: -130}}},
	}
	got, err := domain.OfficialStandings(in)
	if err != nil {
		t.Fatal(err)
	}
	if s := standingOf(t, got.Rows, "2"); s.VP != 17 || s.MP != -285 || s.Wins != 1 {
		t.Errorf("entrant 2 = VP %d MP %d wins %d, want 17, -285, 1 win", s.VP, s.MP, s.Wins)
	}
	if s := standingOf(t, got.Rows, "3"); s.VP != 10+9-2 || s.MP != -100-130 {
		t.Errorf("entrant 3 = VP %d MP %d, want 17, -230", s.VP, s.MP)
	}
	if len(got.Counted["3"]) != 1 || got.Counted["3"][0] != 1 {
		t.Errorf("counted = %v", got.Counted)
	}
}

func TestOfficialStandings_UnknownRoundIsAnError(t *testing.T) {
	in := officialStandingsInput()
	in.Results[0].Round = 9
	if _, err := domain.OfficialStandings(in); err == nil {
		t.Error("a result of a round that does not exist was accepted")
	}
}
