package app_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
	"segnapunti/tournamentfile"
	"segnapunti/verifier"
)

// idsAndExportTime blanks what API §4.4 lets differ between a file and the
// file of its import: the tournament's id and "exported_at", and the
// referees (docs/format.md: an import does not make the exporting
// instance's referees referees of its copy).
var idsAndExportTime = regexp.MustCompile(`("exported_at": "[^"]*"|"id": "t_[^"]*"|,\s*"referees": \[[^\]]*\])`)

// roundTrip exports tid, imports the file as p, exports the import, and
// checks that both files are the same bytes but for ids and exported_at.
func roundTrip(t *testing.T, a *app.App, p app.Principal, tid string) []byte {
	t.Helper()
	ctx := context.Background()
	first, _, err := a.MarshalTournamentFile(ctx, p, tid)
	if err != nil {
		t.Fatal(err)
	}
	imported, err := a.ImportTournamentFile(ctx, p, first)
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	if imported.ID == tid {
		t.Fatalf("the import reused the id %s", tid)
	}
	second, _, err := a.MarshalTournamentFile(ctx, p, imported.ID)
	if err != nil {
		t.Fatal(err)
	}
	a1, a2 := idsAndExportTime.ReplaceAll(first, nil), idsAndExportTime.ReplaceAll(second, nil)
	if !bytes.Equal(a1, a2) {
		t.Errorf("export → import → export differs:\nfirst:\n%s\nsecond:\n%s", first, second)
	}
	return first
}

func hand(nsBase, nsPoints, eoBase, eoPoints int) domain.Hand {
	return domain.Hand{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: nsBase, Points: nsPoints}, {Base: eoBase, Points: eoPoints}}}
}

// API §4.4: a pairs tournament with sheets (one with a written error),
// signatures, a correction with its ruling and an adjustment round-trips
// through the open format byte for byte, ids aside, on both databases.
func TestTournamentFileRoundTripPairs(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		own := f.who["own club"]
		tid := f.regional
		if _, err := f.app.AddEntrants(ctx, own, tid, []app.EntrantInput{
			{ID: "3", Players: []domain.Player{{Name: "Rossi Anna", Membership: "FT123456"}, {Name: "Bianchi Luca", Membership: "FT654321"}}},
			{ID: "4", Players: []domain.Player{{Name: "Verdi & Figli", Membership: ""}, {Name: "Neri Paolo"}}},
		}); err != nil {
			t.Fatal(err)
		}
		// round 1 exists with table 1 (1 v 2); seat 3 v 4 at table 2 of round 2 with 1 v 2.
		if _, err := f.app.CreateRound(ctx, own, tid, app.RoundInput{Number: 2, Phase: "danese",
			Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "3"}, {Table: 2, NS: "2", EO: "4"}}}); err != nil {
			t.Fatal(err)
		}
		put := func(round, table int, written *int, hands ...domain.Hand) {
			t.Helper()
			if _, err := putSheet(f.app, ctx, own, tid, round, table, func(g app.SheetTarget) (domain.Sheet, error) {
				sh := g.EmptySheet()
				sh.Hands = hands
				if written != nil {
					sh.Written[domain.NS].Total = written
				}
				return sh, nil
			}, 0); err != nil {
				t.Fatal(err)
			}
		}
		put(1, 1, nil, hand(300, 235, 100, -120), hand(200, 100, 0, -50), hand(150, 90, 300, 200))
		put(2, 1, domain.Int(999), hand(300, 235, 100, -120), hand(200, 100, 0, -50), hand(150, 90, 300, 200))
		put(2, 2, nil, hand(100, 35, 400, 220), hand(0, -100, 300, 150), hand(200, 80, 200, 90))
		if _, err := f.app.EndSheet(ctx, own, tid, 2, 2, "ns", "2"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.ConfirmSheet(ctx, own, tid, 2, 2, "eo", "4"); err != nil {
			t.Fatal(err)
		}
		ref := f.who["its referee"]
		scope, err := f.app.TournamentScope(ctx, ref, tid, app.TournamentCorrect)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.CreateCorrection(ctx, scope, app.CorrectionInput{Round: 2, Table: 1, Kind: domain.CorrectionSum, Reason: "NS total re-added",
			Change: app.CorrectedValues{"written.ns.total": nil}}); err != nil {
			t.Fatalf("correction: %v", err)
		}
		if _, err := f.app.CreateAdjustment(ctx, ref, tid, app.AdjustmentInput{Entrant: "3", Round: new(2), Reason: "warning", Note: "telefono"}); err != nil {
			t.Fatalf("adjustment: %v", err)
		}
		file := roundTrip(t, f.app, own, tid)
		// Every figure of the service's own file re-derives (the wrong
		// total of round 2, table 1 was corrected, and the correction's
		// ruling is the codes'), but round 1, seated before entrants 3
		// and 4 were entered, leaves them out (RULES §11: a real finding).
		if _, rep, err := f.app.VerifyTournament(ctx, own, tid, domain.English); err != nil {
			t.Error(err)
		} else if len(rep.Differences) != 2 || !rep.StandingsOK {
			t.Errorf("differences %+v, want round 1's two missing entrants only", rep.Differences)
		} else {
			for _, d := range rep.Differences {
				if d.Code != "PAIRING" || d.Round != 1 || !strings.HasPrefix(d.Detail, "MISSING_ENTRANT") {
					t.Errorf("difference %+v", d)
				}
			}
		}
		for _, want := range []string{`"membership": "FT123456"`, `"kind": "confirm"`, `"ruling": "apply"`, `"reason": "warning"`, `"Verdi & Figli"`} {
			if !bytes.Contains(file, []byte(want)) {
				t.Errorf("the file lacks %s", want)
			}
		}
	})
}

// API §4.2, §4.4: an individual tournament (a line is two players)
// round-trips too.
func TestTournamentFileRoundTripIndividual(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		own := f.who["own club"]
		tr, err := f.app.CreateTournament(ctx, own, app.TournamentInput{Name: "Individuale", Date: "2026-11-22", Level: "club",
			Ruleset: "fitab-2025", Kind: "individual", RoundsPlanned: 2, HandsPerRound: 2})
		if err != nil {
			t.Fatal(err)
		}
		var es []app.EntrantInput
		for _, id := range []string{"1", "2", "3", "4", "5"} {
			es = append(es, app.EntrantInput{ID: id, Players: []domain.Player{{Name: "Giocatore " + id, Membership: "FT00000" + id}}})
		}
		if _, err := f.app.AddEntrants(ctx, own, tr.ID, es); err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.CreateRound(ctx, own, tr.ID, app.RoundInput{Number: 1, Phase: "mitchell", Byes: []string{"5"},
			Tables: []domain.TableAssignment{{Table: 1, NS: "1", NS2: "2", EO: "3", EO2: "4"}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := putSheet(f.app, ctx, own, tr.ID, 1, 1, func(g app.SheetTarget) (domain.Sheet, error) {
			sh := g.EmptySheet()
			sh.Hands = []domain.Hand{hand(300, 235, 100, -120), hand(200, 100, 0, -50)}
			return sh, nil
		}, 0); err != nil {
			t.Fatal(err)
		}
		file := roundTrip(t, f.app, own, tr.ID)
		if _, rep, err := f.app.VerifyTournament(ctx, own, tr.ID, domain.English); err != nil || !rep.OK {
			t.Errorf("the service's own individual file does not verify: %v %+v", err, rep.Differences)
		}
		if !bytes.Contains(file, []byte(`"ns": [`+"\n")) {
			t.Errorf("an individual line is not a list of players:\n%s", file)
		}
		// A file written before plans were stored carries the default plan
		// (entry_order, one danese phase), which an individual tournament
		// cannot have: it reads as no plan announced.
		old := bytes.Replace(file, []byte(`"vp_table": null`), []byte(`"vp_table": null, "plan": {"first_round": "entry_order", "phases": [{"from_round": 1, "system": "danese"}], "sessions": [2]}`), 1)
		if bytes.Equal(old, file) {
			t.Fatal("the file has no vp_table")
		}
		if imported, err := f.app.ImportTournamentFile(ctx, own, old); err != nil {
			t.Errorf("an individual file with the old default plan: %v", err)
		} else if again, _, err := f.app.MarshalTournamentFile(ctx, own, imported.ID); err != nil || bytes.Contains(again, []byte(`"plan"`)) {
			t.Errorf("re-exported with a plan (%v)", err)
		}
	})
}

// API §4: a hostile file is refused naming the field, and nothing is
// stored.
func TestTournamentFileImportRefusesNamingTheField(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		own := f.who["own club"]
		good, _, err := f.app.MarshalTournamentFile(ctx, own, f.regional)
		if err != nil {
			t.Fatal(err)
		}
		before, err := f.app.ListTournaments(ctx, own)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ name, from, to, pointer string }{
			{"another format", `"segnapunti-tournament"`, `"usebio"`, "/format"},
			{"a later version", `"version": 1`, `"version": 2`, "/version"},
			{"an unknown ruleset", `"ruleset": "fitab-2025",` + "\n    \"kind\"", `"ruleset": "bridge",` + "\n    \"kind\"", "/tournament/ruleset"},
			{"a table seating an entrant not entered", `"eo": [` + "\n            \"2\"", `"eo": [` + "\n            \"77\"", "/rounds/0/tables/0/eo/0"},
			{"an unknown field", `"format"`, `"colour": "red", "format"`, "/colour"},
			{"a wrong type", `"rounds_planned": 3`, `"rounds_planned": "three"`, "/tournament/rounds_planned"},
			{"a control character in a player's name (as POST …/entrants)", `"name": "A 1"`, `"name": "A\u0007 1"`, "/entrants/0/players/0/name"},
			{"an entrant id POST …/entrants refuses", `"id": "1",`, `"id": "1 bis",`, "/entrants/0/id"},
			{"a pair of three players (as POST …/entrants)", `"name": "A 1",`, `"name": "Z 1", "membership": ""}, {"name": "A 1",`, "/entrants/0/players"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				bad := bytes.Replace(good, []byte(tc.from), []byte(tc.to), 1)
				if bytes.Equal(bad, good) {
					t.Fatalf("the file has no %s", tc.from)
				}
				_, err := f.app.ImportTournamentFile(ctx, own, bad)
				var ae *app.Error
				if !errors.As(err, &ae) || !errors.Is(err, domain.ErrInvalid) || len(ae.Fields) == 0 || ae.Fields[0].Pointer != tc.pointer {
					t.Fatalf("import: %v (%+v), want a refusal at %s", err, ae, tc.pointer)
				}
			})
		}
		after, err := f.app.ListTournaments(ctx, own)
		if err != nil {
			t.Fatal(err)
		}
		if len(after) != len(before) {
			t.Errorf("refused imports stored %d tournaments", len(after)-len(before))
		}
	})
}

// putTeamSheets enters the sheets of round 1's match of teams 1 and 2
// (table 1: 1 NS v 2 EO, table 2: 2 NS v 1 EO), signed by both lines
// when signed.
func putTeamSheets(t *testing.T, a *app.App, p app.Principal, tid string, signed bool) {
	t.Helper()
	ctx := context.Background()
	for _, tb := range []struct {
		table  int
		ns, eo string
	}{{1, "1", "2"}, {2, "2", "1"}} {
		if _, err := putSheet(a, ctx, p, tid, 1, tb.table, func(g app.SheetTarget) (domain.Sheet, error) {
			sh := g.EmptySheet()
			sh.Hands = []domain.Hand{hand(300, 235, 100, -120), hand(200, 100*tb.table, 0, -50)}
			return sh, nil
		}, 0); err != nil {
			t.Fatal(err)
		}
		if !signed {
			continue
		}
		if _, err := a.EndSheet(ctx, p, tid, 1, tb.table, "ns", tb.ns); err != nil {
			t.Fatal(err)
		}
		if _, err := a.ConfirmSheet(ctx, p, tid, 1, tb.table, "eo", tb.eo); err != nil {
			t.Fatal(err)
		}
	}
}

// API §4.3, §4.4: a teams tournament (entrants with a team name and four
// players) round-trips too, and its own file verifies.
func TestTournamentFileRoundTripTeams(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		own := f.who["own club"]
		tr, err := f.app.CreateTournament(ctx, own, app.TournamentInput{Name: "Squadre", Date: "2026-11-23", Level: "club",
			Ruleset: "fitab-2025", Kind: "teams", RoundsPlanned: 1, HandsPerRound: 2})
		if err != nil {
			t.Fatal(err)
		}
		var es []app.EntrantInput
		for _, id := range []string{"1", "2"} {
			var ps []domain.Player
			for k := range 4 {
				ps = append(ps, domain.Player{Name: fmt.Sprintf("Giocatore %s.%d", id, k), Membership: fmt.Sprintf("FT%s%d", id, k)})
			}
			es = append(es, app.EntrantInput{ID: id, Team: new("Squadra " + id), Players: ps})
		}
		if _, err := f.app.AddEntrants(ctx, own, tr.ID, es); err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.CreateRound(ctx, own, tr.ID, app.RoundInput{Number: 1, Phase: "danese",
			// the match of two tables, the teams swapped (RULES §12.5, API §4.3)
			Tables: []domain.TableAssignment{{Table: 1, Match: 1, NS: "1", EO: "2"}, {Table: 2, Match: 1, NS: "2", EO: "1"}}}); err != nil {
			t.Fatal(err)
		}
		putTeamSheets(t, f.app, own, tr.ID, false)
		file := roundTrip(t, f.app, own, tr.ID)
		if !bytes.Contains(file, []byte(`"team": "Squadra 1"`)) {
			t.Errorf("the file lacks the team's name")
		}
		if _, rep, err := f.app.VerifyTournament(ctx, own, tr.ID, domain.English); err != nil || !rep.StandingsOK {
			t.Errorf("the service's own teams file: %v %+v", err, rep.Differences)
		}
	})
}

// API §4.3, §4.4, RULES §12, issue 22: a team tournament with a plan of
// two sessions, players with sex and birth year, a substitution, the
// line-ups of a match, prize categories, a withdrawal, an interruption
// and the public flag round-trips byte for byte (ids aside), every one of
// them is in the file, and the file verifies.
func TestTournamentFileRoundTripCarriesRULES12(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		own := f.who["own club"]
		tr, err := f.app.CreateTournament(ctx, own, app.TournamentInput{Name: "Squadre §12", Date: "2026-11-24", Level: "club",
			Ruleset: "fitab-2025", Kind: "teams", RoundsPlanned: 2, HandsPerRound: 2,
			Plan: &domain.PlanInput{FirstRound: "entry_order", Sessions: []int{1, 1}}})
		if err != nil {
			t.Fatal(err)
		}
		var es []app.EntrantInput
		for _, id := range []string{"1", "2", "3"} {
			var ps []domain.Player
			for k := range 4 {
				ps = append(ps, domain.Player{Name: fmt.Sprintf("Giocatrice %s.%d", id, k), Membership: fmt.Sprintf("FT%s%d", id, k), Sex: "F", BirthYear: 1950 + k})
			}
			es = append(es, app.EntrantInput{ID: id, Team: new("Squadra " + id), Players: ps})
		}
		if _, err := f.app.AddEntrants(ctx, own, tr.ID, es); err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.Substitute(ctx, own, tr.ID, "2", domain.Substitution{FromRound: 1, Out: "FT23",
			In: domain.Player{Name: "Sostituta", Membership: "FT29"}, Reason: "malore"}); err != nil {
			t.Fatalf("substitution: %v", err)
		}
		if _, err := f.app.CreateRound(ctx, own, tr.ID, app.RoundInput{Number: 1, Phase: "danese", Byes: []string{"3"},
			Tables: []domain.TableAssignment{{Table: 1, Match: 1, NS: "1", EO: "2"}, {Table: 2, Match: 1, NS: "2", EO: "1"}}}); err != nil {
			t.Fatal(err)
		}
		for _, l := range []domain.Lineup{{Table: 1, NS: []string{"FT10", "FT11"}, EO: []string{"FT20", "FT21"}},
			{Table: 2, NS: []string{"FT22", "FT29"}, EO: []string{"FT12", "FT13"}}} {
			if _, err := f.app.SetLineup(ctx, own, tr.ID, 1, l); err != nil {
				t.Fatalf("line-up of table %d: %v", l.Table, err)
			}
		}
		putTeamSheets(t, f.app, own, tr.ID, true)
		if _, err := f.app.SetPrizeCategories(ctx, own, tr.ID, []domain.PrizeCategory{
			{ID: "assoluta", Kind: domain.PrizeOverall, Label: "Assoluta", Places: 1},
			{ID: "signore", Kind: domain.PrizeLadies, Label: "Signore", Places: 1}}); err != nil {
			t.Fatalf("prizes: %v", err)
		}
		if _, err := f.app.WithdrawFromRound(ctx, own, tr.ID, "3", 2, "trasferta", ""); err != nil {
			t.Fatalf("withdrawal: %v", err)
		}
		for _, st := range []string{"playing", "sheets_delivered"} {
			if _, err := f.app.SetRoundState(ctx, own, tr.ID, 1, st); err != nil {
				t.Fatalf("round 1 %s: %v", st, err)
			}
		}
		if _, _, err := f.app.InterruptTournament(ctx, own, tr.ID, 1, "blackout"); err != nil {
			t.Fatalf("interruption: %v", err)
		}
		if _, err := f.app.PatchTournament(ctx, own, tr.ID, app.PublicPatch{Public: new(true)}); err != nil {
			t.Fatal(err)
		}
		file := roundTrip(t, f.app, own, tr.ID)
		for _, want := range []string{`"first_round": "entry_order"`, `"sessions": [`, `"session": 1`, `"public": true`,
			`"interrupted_after_round": 1`, `"void": false`, `"interruption_reason": "blackout"`,
			`"withdrawn_from_round": 2`, `"withdrawn_reason": "trasferta"`, `"sex": "F"`, `"birth_year": 1951`,
			`"substitutions": [`, `"out": "FT23"`, `"seated": [`, `"name": "Sostituta"`, `"lineups": [`, `"FT29"`,
			`"team_matches": [`, `"prize_categories": [`, `"kind": "ladies"`, `"prizes": [`, `"category": "signore"`} {
			if !bytes.Contains(file, []byte(want)) {
				t.Errorf("the file lacks %s", want)
			}
		}
		if _, rep, err := f.app.VerifyTournament(ctx, own, tr.ID, domain.English); err != nil || !rep.OK {
			t.Errorf("the service's own file does not verify: %v %+v", err, rep.Differences)
		}
		// Defects planted in this honest file are named (RULES §12.4,
		// §12.5): the team VP of a match, a line-up seating a player of the
		// other team, a substitute left out of who sat.
		for _, tc := range []struct {
			name, code, sub, entrant string
			plant                    func(*tournamentfile.File)
		}{
			{"team VP edited", "VP_DIFFER", "", "1", func(f *tournamentfile.File) { f.TeamMatches[0].VP = [2]int{20, 0} }},
			{"a line-up with a player of the other team", "PAIRING", verifier.SubLineup, "1", func(f *tournamentfile.File) { f.Rounds[0].Lineups[0].NS[1] = "FT20" }},
			{"the substitute left out of who sat", "PAIRING", verifier.SubSeated, "2", func(f *tournamentfile.File) { f.Rounds[0].Seated = nil }},
		} {
			t.Run(tc.name, func(t *testing.T) {
				ff, err := tournamentfile.DecodeBytes(file)
				if err != nil {
					t.Fatal(err)
				}
				tc.plant(&ff)
				b, err := tournamentfile.Marshal(ff)
				if err != nil {
					t.Fatal(err)
				}
				rep, err := verifier.File(b, domain.English)
				if err != nil {
					t.Fatal(err)
				}
				i := slices.IndexFunc(rep.Differences, func(d verifier.Difference) bool {
					return d.Code == tc.code && strings.HasPrefix(d.Detail, tc.sub) && d.Entrant == tc.entrant && d.Round == 1
				})
				if i < 0 || rep.OK {
					t.Fatalf("no %s %s for %s in round 1: %+v", tc.code, tc.sub, tc.entrant, rep.Differences)
				}
				if d := rep.Differences[i]; d.Rule != "FITAB art. 2.2" && d.Rule != "FITAB art. 37" {
					t.Errorf("difference %+v: want FITAB art. 2.2 or 37", d)
				}
			})
		}
	})
}
