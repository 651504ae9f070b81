package domain_test

import (
	"strconv"
	"testing"

	"segnapunti/domain"
)

// RULES §8 "Individual tournaments rank players (VP follow the player, not
// the pair)": both players of a line get the line's VP and MP; a bye and an
// adjustment are their player's own.
func TestOfficialStandings_S8_IndividualVPFollowThePlayer(t *testing.T) {
	var ents []domain.Entrant
	for i := 1; i <= 9; i++ {
		ents = append(ents, domain.Entrant{ID: strconv.Itoa(i)})
	}
	lr := func(mp, vp int) domain.LineResult { return domain.LineResult{MP: mp, VP: vp} }
	in := domain.OfficialStandingsInput{
		Tournament: domain.Tournament{ID: "t", Ruleset: domain.FITAB2025, Kind: domain.KindIndividual, HandsPerRound: 3},
		Entrants:   ents,
		Rounds: []domain.Round{
			{Number: 1, HandsPlanned: 3, Tables: []domain.TableAssignment{
				{Table: 1, NS: "1", NS2: "2", EO: "3", EO2: "4"},
				{Table: 2, NS: "5", NS2: "6", EO: "7", EO2: "8"},
			}, Byes: []string{"9"}},
			{Number: 2, HandsPlanned: 3, Tables: []domain.TableAssignment{
				{Table: 1, NS: "1", NS2: "3", EO: "2", EO2: "9"},
				{Table: 2, NS: "5", NS2: "7", EO: "6", EO2: "4"},
			}, Byes: []string{"8"}},
		},
		Results: []domain.TableResult{
			{Round: 1, Table: 1, NS: "1", NS2: "2", EO: "3", EO2: "4", Official: [2]domain.LineResult{lr(300, 14), lr(-300, 6)}},
			{Round: 1, Table: 2, NS: "5", NS2: "6", EO: "7", EO2: "8", Official: [2]domain.LineResult{lr(0, 10), lr(0, 10)}},
			{Round: 2, Table: 1, NS: "1", NS2: "3", EO: "2", EO2: "9", Official: [2]domain.LineResult{lr(100, 11), lr(-100, 9)}},
			{Round: 2, Table: 2, NS: "5", NS2: "7", EO: "6", EO2: "4", Official: [2]domain.LineResult{lr(-500, 3), lr(500, 17)}},
		},
	}
	got, err := domain.OfficialStandings(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 9 {
		t.Fatalf("%d rows, want one per player (9)", len(got.Rows))
	}
	bye, err := domain.AdjustmentCase{Reason: domain.ReasonBye, Ruleset: domain.FITAB2025, Kind: domain.KindIndividual, HandsPlanned: 3}.Effect()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id     string
		vp, mp int
	}{
		{"1", 14 + 11, 300 + 100},                     // partners 2 then 3: both lines won
		{"2", 14 + 9, 300 - 100},                      // partner of 1 in round 1, opponent in round 2
		{"3", 6 + 11, -300 + 100},                     // opponent of 1, then his partner
		{"4", 6 + 17, -300 + 500},                     //
		{"9", bye.Result.VP + 9, bye.Result.MP - 100}, // the bye of round 1 is player 9's
		{"8", 10 + bye.Result.VP, 0 + bye.Result.MP},
	} {
		if s := standingOf(t, got.Rows, tc.id); s.VP != tc.vp || s.MP != tc.mp {
			t.Errorf("player %s: %d VP %d MP, want %d VP %d MP", tc.id, s.VP, s.MP, tc.vp, tc.mp)
		}
	}

	// An adjustment replaces one player's result, not the partner's.
	in.Adjustments = []domain.RecordedAdjustment{{Entrant: "2", Round: 2, Effect: domain.AdjustmentEffect{Result: &domain.MatchScore{VP: 0, MP: -400}}}}
	got, err = domain.OfficialStandings(in)
	if err != nil {
		t.Fatal(err)
	}
	if s := standingOf(t, got.Rows, "2"); s.VP != 14 || s.MP != 300-400 {
		t.Errorf("player 2 after the adjustment: %d VP %d MP, want 14 VP −100 MP", s.VP, s.MP)
	}
	if s := standingOf(t, got.Rows, "9"); s.VP != bye.Result.VP+9 {
		t.Errorf("player 9 (2's partner) changed with 2's adjustment: %d VP", s.VP)
	}
}

// API §4.2: an individual line names two players ("ids"); a pairs line one
// entrant ("id"). The validator says where a sheet's lines are the wrong
// shape and where a player is named twice.
func TestValidate_LineIDs(t *testing.T) {
	base := func(kind domain.Kind, ns, eo domain.Side) domain.Sheet {
		return domain.Sheet{Ruleset: domain.FITAB2025, HandsPlanned: 1, Kind: kind, Sides: [2]domain.Side{ns, eo},
			Hands: []domain.Hand{{Lines: [2]domain.LineScore{{Base: 100, Points: 20}, {Base: 0, Points: -40}}}}}
	}
	ids := func(v ...string) domain.Side { return domain.Side{IDs: v} }
	id := func(v string) domain.Side { return domain.Side{ID: v} }
	for _, tc := range []struct {
		name     string
		sheet    domain.Sheet
		code     domain.Code
		severity domain.Severity
		pointer  string
	}{
		{"individual: two players each line", base(domain.KindIndividual, ids("3", "11"), ids("7", "2")), "", "", ""},
		{"individual: three players", base(domain.KindIndividual, ids("3", "11", "4"), ids("7", "2")), domain.LineIDsInvalid, domain.SeverityError, "/ns/ids"},
		{"individual: one player in ids", base(domain.KindIndividual, ids("3", "11"), ids("7")), domain.LineIDsInvalid, domain.SeverityError, "/eo/ids"},
		{"individual: a player at both lines", base(domain.KindIndividual, ids("3", "11"), ids("7", "3")), domain.PlayerSeatedTwice, domain.SeverityError, "/eo/ids/1"},
		{"individual: partners the same player", base(domain.KindIndividual, ids("3", "3"), ids("7", "2")), domain.PlayerSeatedTwice, domain.SeverityError, "/ns/ids/1"},
		{"individual: one id (stored before 00013) warns", base(domain.KindIndividual, id("3"), ids("7", "2")), domain.LineIDsInvalid, domain.SeverityWarning, "/ns/id"},
		{"pairs: ids refused", base(domain.KindPairs, ids("3", "11"), id("7")), domain.LineIDsInvalid, domain.SeverityError, "/ns/ids"},
		{"pairs: both id and ids", base(domain.KindPairs, domain.Side{ID: "1", IDs: []string{"1"}}, id("7")), domain.LineIDsInvalid, domain.SeverityError, "/ns/ids"},
		{"pairs: one pair at both lines", base(domain.KindPairs, id("4"), id("4")), domain.PlayerSeatedTwice, domain.SeverityError, "/eo/id"},
		{"pairs: one id each", base(domain.KindPairs, id("4"), id("5")), "", "", ""},
		{"no ids at all", base(domain.KindIndividual, domain.Side{}, domain.Side{}), "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := domain.Validate(tc.sheet)
			var found []domain.Finding
			for _, f := range rep.Findings {
				if f.Code == domain.LineIDsInvalid || f.Code == domain.PlayerSeatedTwice {
					found = append(found, f)
				}
			}
			if tc.code == "" {
				if len(found) > 0 {
					t.Fatalf("findings %+v, want none", found)
				}
				return
			}
			if len(found) != 1 || found[0].Code != tc.code || found[0].Severity != tc.severity || found[0].Pointer != tc.pointer {
				t.Fatalf("findings %+v, want one %s %s at %s", found, tc.severity, tc.code, tc.pointer)
			}
			if found[0].Message(domain.Italian) == "" || found[0].Rule != "FITAB art. 2" {
				t.Errorf("message/rule: %q %q", found[0].Message(domain.Italian), found[0].Rule)
			}
		})
	}
}
