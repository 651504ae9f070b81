package verifier

import (
	"slices"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/tournamentfile"
	"segnapunti/tournamentfile/filetest"
)

// find is the first difference with code whose detail starts with sub
// (sub "" any) for entrant (entrant "" any).
func find(r Report, code, sub, entrant string) (Difference, bool) {
	i := slices.IndexFunc(r.Differences, func(d Difference) bool {
		return d.Code == code && strings.HasPrefix(d.Detail, sub) && (entrant == "" || d.Entrant == entrant)
	})
	if i < 0 {
		return Difference{}, false
	}
	return r.Differences[i], true
}

func mustOK(t *testing.T, f tournamentfile.File) {
	t.Helper()
	if rep := verify(t, f); !rep.OK || !rep.StandingsOK {
		t.Fatalf("the honest file does not verify: %+v", rep.Differences)
	}
}

// RULES §12.3 (FITAB art. 37): an entrant withdrawn from a round after
// the last one played verifies; withdrawn from a round it still played,
// its result there is named with the entrant, round and article, and its
// seating by the pairing checker.
func TestVerifyWithdrawalRULES12_3(t *testing.T) {
	honest := filetest.Generate(t, 12, danese, 3)
	honest.Tournament.RoundsPlanned = 4
	id := honest.Entrants[4].ID
	honest.Entrants[4].WithdrawnFromRound = new(4)
	honest.Entrants[4].WithdrawnReason = "rientro a casa"
	mustOK(t, honest)

	planted := filetest.Generate(t, 12, danese, 3)
	planted.Entrants[4].WithdrawnFromRound = new(3)
	rep := verify(t, planted)
	d, ok := find(rep, CodeStandingsDiffer, SubWithdrawnCounted, id)
	if !ok {
		t.Fatalf("no %s for entrant %s: %+v", SubWithdrawnCounted, id, rep.Differences)
	}
	if d.Round != 3 || d.Rule != "FITAB art. 37" {
		t.Errorf("difference %+v: want round 3, FITAB art. 37", d)
	}
	if _, ok := find(rep, CodePairing, string(domain.PairingWithdrawnSeated), ""); !ok {
		t.Errorf("the seating of the withdrawn entrant in round 3 is not named: %+v", rep.Differences)
	}
}

// FITAB art. 39 (the seed; RULES §12.6): a tournament of 4 planned rounds
// interrupted after round 3 is valid with the standings after round 3;
// interrupted after round 2 it is void (4 planned need 3 completed,
// although rounds_planned − 2 = 2), and a file calling it valid is named
// with the article.
func TestVerifyInterruptionFITABArt39(t *testing.T) {
	honest := filetest.Generate(t, 12, danese, 4)
	honest.Tournament.RoundsPlanned = 4
	honest.Tournament.InterruptedAfterRound, honest.Tournament.Void = new(3), new(false)
	honest.Tournament.InterruptionReason = "allerta meteo"
	mustOK(t, honest)

	planted := filetest.Generate(t, 12, danese[:2], 4)
	planted.Tournament.RoundsPlanned = 4
	planted.Tournament.InterruptedAfterRound, planted.Tournament.Void = new(2), new(false)
	rep := verify(t, planted)
	d, ok := find(rep, CodeStandingsDiffer, SubInterruption, "")
	if !ok {
		t.Fatalf("no %s: %+v", SubInterruption, rep.Differences)
	}
	if d.Round != 2 || d.Rule != "FITAB art. 39" || !strings.Contains(d.Detail, "void") {
		t.Errorf("difference %+v: want after round 2, FITAB art. 39, void", d)
	}
	if rep.StandingsOK {
		t.Error("the standings of a tournament the file wrongly calls valid are called right")
	}

	// a sheet of a round after the interruption
	late := filetest.Generate(t, 12, danese, 4)
	late.Tournament.RoundsPlanned = 4
	late.Tournament.InterruptedAfterRound, late.Tournament.Void = new(2), new(true)
	late.Standings.AfterRound = 2
	rep = verify(t, late)
	if d, ok := find(rep, CodeStandingsDiffer, SubInterruption, ""); !ok || d.Round != 3 {
		t.Errorf("a sheet of round 3 after an interruption after round 2: %+v", rep.Differences)
	}
}

// Issue 22: the prize list re-derives from the final standings and the
// categories; a prize given to the wrong entrant, and an entrant given two
// prizes of categories that are not cumulative, are named.
func TestVerifyPrizesFromTheStandings(t *testing.T) {
	f := filetest.Generate(t, 12, danese, 5)
	f.Tournament.PrizeCategories = []tournamentfile.PrizeCategory{
		{ID: "assoluta", Kind: "overall", Label: "Assoluta", Places: 2},
		{ID: "bis", Kind: "overall", Label: "Ancora", Places: 1}}
	rows := f.Standings.Rows
	f.Prizes = []tournamentfile.Prize{{Category: "assoluta", Place: 1, Entrant: rows[0].Entrant},
		{Category: "assoluta", Place: 2, Entrant: rows[1].Entrant}, {Category: "bis", Place: 1, Entrant: rows[2].Entrant}}
	mustOK(t, f)

	f.Prizes[2].Entrant = rows[0].Entrant // the winner again, in a category that is not cumulative
	rep := verify(t, f)
	if _, ok := find(rep, CodeStandingsDiffer, SubPrize, rows[0].Entrant); !ok {
		t.Fatalf("a second prize to %s is not named: %+v", rows[0].Entrant, rep.Differences)
	}
	if len(rep.Differences) != 2 || !strings.Contains(rep.Differences[0].Detail+rep.Differences[1].Detail, rows[2].Entrant) {
		t.Errorf("want the double prize and the prize due to %s: %+v", rows[2].Entrant, rep.Differences)
	}
}

// RULES §12.1: a gironi round recorded its groups; the checker reads the
// group size back from them, so an honest gironi phase verifies, and a
// round inside the groups that seats two entrants of different groups
// is named.
func TestVerifyGironiReadsTheGroupSize(t *testing.T) {
	systems := []domain.PairingSystem{domain.SystemEntryOrder, domain.SystemDanese, domain.SystemGironi, domain.SystemGironi}
	f := filetest.Generate(t, 12, systems, 6)
	if len(f.Rounds[2].Groups) != 12/filetest.GroupSize {
		t.Fatalf("round 3 formed %d groups", len(f.Rounds[2].Groups))
	}
	mustOK(t, f)

	tb := &f.Rounds[3].Tables
	(*tb)[0].EO, (*tb)[len(*tb)-1].EO = (*tb)[len(*tb)-1].EO, (*tb)[0].EO // across two groups
	rep := verify(t, f)
	if d, ok := find(rep, CodePairing, "", ""); !ok || d.Round != 4 {
		t.Errorf("the round mixing groups is not named: %+v", rep.Differences)
	}
}

// RULES §12.1 (FITAB art. 38: a line rests at most once per session): a
// file whose plan has two sessions of two rounds, where pair 5 rests in
// round 2 and again in round 4, verifies; the same rounds without the
// plan (one session) are named as a second rest of pair 5 in round 4.
func TestVerifyRestsCountPerSessionOfThePlan(t *testing.T) {
	systems := []domain.PairingSystem{domain.SystemEntryOrder, domain.SystemDanese, domain.SystemDanese, domain.SystemDanese}
	f := filetest.GeneratePlanned(t, 5, systems, []int{2, 2}, 1)
	if !slices.Equal(f.Rounds[1].Byes, []string{"5"}) || !slices.Equal(f.Rounds[3].Byes, []string{"5"}) {
		t.Fatalf("rests %v and %v: the generated file no longer has pair 5 resting in rounds 2 and 4", f.Rounds[1].Byes, f.Rounds[3].Byes)
	}
	mustOK(t, f)

	wrong := f
	wrong.Rounds = slices.Clone(f.Rounds)
	wrong.Rounds[2].Session = 1
	if d, ok := find(verify(t, wrong), CodePairing, SubSession, ""); !ok || d.Round != 3 {
		t.Errorf("round 3 put in session 1 against the plan's 2,2 is not named")
	}

	f.Tournament.Plan = nil
	for i := range f.Rounds {
		f.Rounds[i].Session = 1
	}
	rep := verify(t, f)
	i := slices.IndexFunc(rep.Differences, func(d Difference) bool {
		return d.Code == CodePairing && d.Round == 4 && strings.HasPrefix(d.Detail, string(domain.PairingSecondRest)) && strings.Contains(d.Detail, "5")
	})
	if i < 0 {
		t.Fatalf("no SECOND_REST of pair 5 in round 4: %+v", rep.Differences)
	}
	if d := rep.Differences[i]; d.Rule != "FITAB art. 38" {
		t.Errorf("difference %+v: want FITAB art. 38", d)
	}
}

// restand writes f's standings as its own records give them (the
// verifier's standings), for a test that changes the records honestly.
func restand(t *testing.T, f *tournamentfile.File) {
	t.Helper()
	c, err := tournamentfile.Check(*f)
	if err != nil {
		t.Fatal(err)
	}
	v := verification{f: *f, c: c, lang: domain.English, rs: c.Tournament.Ruleset}
	v.sheets()
	st, err := v.standingsAfter(f.Standings.AfterRound)
	if err != nil {
		t.Fatal(err)
	}
	f.Standings = tournamentfile.StandingsOf(st.AfterRound, st.Rows)
}

// RULES §12.3 (FITAB art. 37): a withdrawal during the round being
// played is also an abandon of that round — the leaving pair the offender,
// its opponent the innocent line. A file with that abandon verifies (the
// pair sat in that round, and the abandon takes the place of its result);
// without the abandon, its result of that round is named.
func TestVerifyWithdrawalDuringARoundIsAnAbandonFITABArt37(t *testing.T) {
	f := filetest.Generate(t, 12, danese, 8)
	ta := f.Rounds[2].Tables[0]
	leaving, opponent := ta.NS[0], ta.EO[0]
	k := slices.IndexFunc(f.Entrants, func(e tournamentfile.Entrant) bool { return e.ID == leaving })
	f.Entrants[k].WithdrawnFromRound = new(3)
	for _, side := range []struct {
		id    string
		party domain.Party
	}{{leaving, domain.PartyOffender}, {opponent, domain.PartyInnocent}} {
		cs := domain.AdjustmentCase{Reason: domain.ReasonAbandonUnjustified, Party: side.party, Ruleset: domain.FITAB2025, Kind: domain.KindPairs,
			HandsPlanned: 3, Phase: domain.PhaseDanese, Note: "se ne va"}
		e, err := cs.Effect()
		if err != nil {
			t.Fatal(err)
		}
		f.Adjustments = append(f.Adjustments, tournamentfile.Adjustment{Entrant: side.id, Round: new(3), By: "arbitro", At: "2026-11-21T22:00:00Z",
			Case: tournamentfile.AdjustCase{Reason: string(cs.Reason), Party: string(cs.Party), Ruleset: string(cs.Ruleset), Kind: string(cs.Kind),
				HandsPlanned: 3, Phase: string(cs.Phase), Note: cs.Note},
			Effect: tournamentfile.Effect{Result: tournamentfile.ScoreOf(e.Result), Delta: tournamentfile.Score{VP: e.Delta.VP, MP: e.Delta.MP}, Rules: e.Rules, Reason: e.Reason}})
	}
	restand(t, &f)
	mustOK(t, f)

	f.Adjustments = f.Adjustments[1:] // the leaving pair's abandon left out
	rep := verify(t, f)
	if d, ok := find(rep, CodeStandingsDiffer, SubWithdrawnCounted, leaving); !ok || d.Round != 3 || d.Rule != "FITAB art. 37" {
		t.Errorf("the result of %s in round 3 is not named: %+v", leaving, rep.Differences)
	}
}
