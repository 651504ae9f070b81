package verifier

import (
	"os"
	"slices"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/tournamentfile"
	"segnapunti/tournamentfile/filetest"
)

func verify(t *testing.T, f tournamentfile.File) Report {
	t.Helper()
	b, err := tournamentfile.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := File(b, domain.English)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	return rep
}

func codes(r Report) []string {
	var out []string
	for _, d := range r.Differences {
		out = append(out, d.Code)
	}
	return out
}

var danese = []domain.PairingSystem{domain.SystemEntryOrder, domain.SystemDanese, domain.SystemDanese}

func TestVerifyAConsistentFileRederives(t *testing.T) {
	rep := verify(t, filetest.Generate(t, 12, danese, 1))
	if !rep.OK || !rep.StandingsOK {
		t.Fatalf("a file made by the rules does not verify: %+v", rep.Differences)
	}
}

// API §4.4, RULES §8 (FITAB art. 18): standings edited by hand are named
// by entrant and article.
func TestVerifyHandEditedStandingsNameTheEntrantFITABArt18(t *testing.T) {
	f := filetest.Generate(t, 12, danese, 2)
	row := &f.Standings.Rows[3]
	row.VP += 2
	edited := row.Entrant
	rep := verify(t, f)
	if rep.OK || rep.StandingsOK {
		t.Fatalf("hand-edited standings pass: %+v", rep)
	}
	i := slices.IndexFunc(rep.Differences, func(d Difference) bool { return d.Code == CodeStandingsDiffer && d.Entrant == edited })
	if i < 0 {
		t.Fatalf("no STANDINGS_DIFFER for entrant %s: %+v", edited, rep.Differences)
	}
	if d := rep.Differences[i]; d.Rule != "FITAB art. 18" || d.Round != 3 {
		t.Errorf("difference %+v: want rule FITAB art. 18 after round 3", d)
	}
	if !strings.Contains(rep.Verdict(domain.English), "NOT right") || !strings.Contains(rep.Verdict(domain.Italian), "NON è corretta") {
		t.Errorf("the verdict does not say the standings are wrong: %q", rep.Verdict(domain.English))
	}
}

// API §4.4, RULES §11 (Mitchell): a round 3 that repeats round 2's
// meetings in a Mitchell phase is named, with the rematches.
func TestVerifyMitchellRoundRepeatingMeetingsNamesTheRematchesRULES11(t *testing.T) {
	mitchell := []domain.PairingSystem{domain.SystemEntryOrder, domain.SystemMitchell, domain.SystemMitchell}
	f := filetest.Generate(t, 12, mitchell, 3)
	if rep := verify(t, f); !rep.OK {
		t.Fatalf("the Mitchell file does not verify before the edit: %+v", rep.Differences)
	}
	f.Rounds[2].Tables = f.Rounds[1].Tables
	f.Sheets = slices.DeleteFunc(f.Sheets, func(s tournamentfile.Sheet) bool { return s.Round == 3 })
	// the standings stay as published after round 2's sheets: re-derive
	f.Standings.AfterRound = 2
	rep := verify(t, f)
	var rematches int
	for _, d := range rep.Differences {
		if d.Code == CodePairing && d.Round == 3 && strings.HasPrefix(d.Detail, string(domain.PairingRematch)) {
			rematches++
		}
	}
	if rematches != len(f.Rounds[2].Tables) {
		t.Errorf("%d rematches named in round 3, want %d: %+v", rematches, len(f.Rounds[2].Tables), rep.Differences)
	}
	if rep.OK {
		t.Error("a round of rematches verifies")
	}
}

// RULES §6: a written VP edited on one sheet is a finding of that sheet
// and a VP difference of the official result, at its round and table.
func TestVerifyEditedSheetVPIsNamedRULES6(t *testing.T) {
	f := filetest.Generate(t, 8, danese, 4)
	s := &f.Sheets[5]
	s.Official.NS.VP = 20 - s.Official.NS.VP + 1
	rep := verify(t, f)
	i := slices.IndexFunc(rep.Differences, func(d Difference) bool {
		return d.Code == CodeVPDiffer && d.Round == s.Round && d.Table == s.Table
	})
	if i < 0 {
		t.Fatalf("no VP_DIFFER at round %d table %d: %+v", s.Round, s.Table, rep.Differences)
	}
}

// RULES §9 (FITAB art. 20): a correction recorded as applied although its
// situation rejects it is a RULING_DIFFER.
func TestVerifyCorrectionRulingIsDecidedAgainRULES9(t *testing.T) {
	f := filetest.Generate(t, 8, danese, 5)
	s := f.Sheets[0]
	situation := tournamentfile.Situation{Ruleset: "fitab-2025", Kind: "sum", Level: "regional", Phase: "danese", ErrorRound: 1,
		CurrentRound: 3, CurrentRoundStarted: true, TournamentClosed: true, StandingsPublished: true, PositionsPublished: true}
	decided := domain.Decide(domain.CorrectionSituation{Ruleset: domain.FITAB2025, Kind: domain.CorrectionSum, Level: domain.LevelRegional,
		Phase: domain.PhaseDanese, ErrorRound: 1, CurrentRound: 3, CurrentRoundStarted: true, TournamentClosed: true,
		StandingsPublished: true, PositionsPublished: true})
	wrong := domain.RulingApply
	if decided.Ruling == domain.RulingApply {
		wrong = domain.RulingReject
	}
	f.Corrections = []tournamentfile.Correction{{Round: s.Round, Table: s.Table, Kind: "sum", Situation: situation,
		Ruling: string(wrong), Applied: wrong != domain.RulingReject, SheetVersion: 2, By: "arbitro", At: "2026-11-21T22:00:00Z"}}
	rep := verify(t, f)
	if !slices.Contains(codes(rep), CodeRulingDiffer) {
		t.Fatalf("ruling %s recorded where the codes give %s: no RULING_DIFFER: %+v", wrong, decided.Ruling, rep.Differences)
	}
	f.Corrections[0].Ruling, f.Corrections[0].Applied = string(decided.Ruling), decided.Ruling != domain.RulingReject
	if rep := verify(t, f); slices.Contains(codes(rep), CodeRulingDiffer) {
		t.Errorf("the right ruling is reported: %+v", rep.Differences)
	}
}

// API §4.4: a hostile file is an error naming the field, never a crash
// and never a report.
func TestVerifyHostileFileIsAnErrorNamingTheField(t *testing.T) {
	good, err := tournamentfile.Marshal(filetest.Generate(t, 4, danese[:1], 6))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, from, to, pointer string }{
		{"not JSON", `{`, `{{`, ""},
		{"a sheet with a hand of text", `"base": `, `"base": "x", "_": `, "/sheets/0/sheet/hands/0/ns/base"},
		{"a negative round", `"number": 1`, `"number": -1`, "/rounds/0/number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(string(good), tc.from, tc.to, 1)
			_, err := File([]byte(bad), domain.English)
			fe, ok := err.(*tournamentfile.Error)
			if !ok {
				t.Fatalf("error %v, want a *tournamentfile.Error", err)
			}
			if tc.pointer != "" && !strings.HasPrefix(fe.Pointer, tc.pointer) {
				t.Errorf("pointer %q, want %q (%v)", fe.Pointer, tc.pointer, fe)
			}
		})
	}
}

// FuzzVerifyFile: no file crashes the reader or the verifier.
func FuzzVerifyFile(f *testing.F) {
	good, err := tournamentfile.Marshal(filetest.Generate(f, 4, danese[:2], 7))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"format":"segnapunti-tournament","version":1}`))
	// RULES §12 and the prizes: a team tournament exported by the service
	// with its plan, substitution, line-ups, team match, prizes,
	// withdrawal and interruption (app's TestTournamentFileRoundTripCarriesRULES12).
	twelve, err := os.ReadFile("../tournamentfile/testdata/teams-rules12.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(twelve)
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := File(data, domain.Italian)
		if err == nil {
			if _, err := rep.JSON(domain.Italian); err != nil {
				t.Fatal(err)
			}
		}
	})
}
