package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/exporters/workbook"
	"segnapunti/store/dbtest"
)

// TestPairingsCheckReadsThePlanAndWithdrawals: `segnapunti pairings
// check` of a service export gives, round by round, the answer of the
// service's own GET …/rounds/{n}/check — the plan (RULES §12.1: a round
// seated by hand is checked against the plan's system), its sessions and
// the withdrawals (RULES §12.3: a withdrawn pair is seated by no later
// round, its would-be Mitchell opponent sits alone, "vacated", with the
// bye score; FITAB art. 37). A Mitchell event of 8 pairs in two sessions
// of 2 rounds: pair 6 withdraws from round 2; round 3 is posted by hand
// repeating round 1's meetings (REMATCH, MOVEMENT_BROKEN: FITAB art. 2 C).
func TestPairingsCheckReadsThePlanAndWithdrawals(t *testing.T) {
	ctx := context.Background()
	db := dbtest.SQLite(t)
	if _, err := db.CreateClub(ctx, domain.Club{ID: "c1", Name: "Circolo Uno"}); err != nil {
		t.Fatal(err)
	}
	a := app.New(db, nil, nil)
	admin := app.Principal{Role: domain.RoleAdmin, Name: "admin"}
	tr, err := a.CreateTournament(ctx, app.Principal{Role: domain.RoleClub, Name: "club", ClubID: "c1"}, app.TournamentInput{
		Name: "Mitchell in due sessioni", Date: "2026-11-28", Level: "club", Ruleset: "fitab-2025", Kind: "pairs", RoundsPlanned: 4, HandsPerRound: 3,
		Plan: &domain.PlanInput{FirstRound: "entry_order", Phases: []domain.PlanPhaseInput{{FromRound: 1, System: "mitchell"}}, Sessions: []int{2, 2}}})
	if err != nil {
		t.Fatal(err)
	}
	var ins []app.EntrantInput
	for i := 1; i <= 8; i++ {
		ins = append(ins, app.EntrantInput{ID: fmt.Sprint(i), Players: []domain.Player{{Name: fmt.Sprintf("A%d", i)}, {Name: fmt.Sprintf("B%d", i)}}})
	}
	if _, err := a.AddEntrants(ctx, admin, tr.ID, ins); err != nil {
		t.Fatal(err)
	}
	step := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	_, err = a.GenerateRound(ctx, admin, tr.ID, app.GenerateInput{Number: 1})
	step("generate 1", err)
	_, err = a.SetRoundState(ctx, admin, tr.ID, 1, "playing")
	step("publish 1", err)
	_, err = a.WithdrawFromRound(ctx, admin, tr.ID, "6", 2, "malore", "")
	step("withdraw 6", err)
	r2, err := a.GenerateRound(ctx, admin, tr.ID, app.GenerateInput{Number: 2})
	step("generate 2", err)
	if len(r2.Vacated) != 1 {
		t.Fatalf("round 2 vacated %v, want the one pair that was to meet 6", r2.Vacated)
	}
	_, err = a.SetRoundState(ctx, admin, tr.ID, 2, "playing")
	step("publish 2", err)
	r1, err := a.Round(ctx, admin, tr.ID, 1)
	step("round 1", err)
	// Round 3 by hand: round 1's tables again, 6's opponent alone.
	in := app.RoundInput{Number: 3}
	for _, tb := range r1.Tables {
		if tb.NS == "6" || tb.EO == "6" {
			other := tb.NS
			if other == "6" {
				other = tb.EO
			}
			in.Vacated = append(in.Vacated, other)
			continue
		}
		in.Tables = append(in.Tables, domain.TableAssignment{Table: tb.Table, NS: tb.NS, EO: tb.EO})
	}
	_, err = a.CreateRound(ctx, admin, tr.ID, in)
	step("round 3 by hand", err)

	ex, release, err := a.ExportTournament(ctx, admin, tr.ID, true)
	step("export", err)
	var buf bytes.Buffer
	err = workbook.WriteJSON(&buf, ex)
	release()
	step("write export", err)
	file := filepath.Join(t.TempDir(), "export.json")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errText := runCLI(t, "pairings", "check", "--format", "json", file)
	if code != exitFindings {
		t.Fatalf("exit %d, want 1 (round 3 repeats round 1): %s %s", code, out, errText)
	}
	var got struct {
		Rounds []jsonRoundCheck `json:"rounds"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Rounds) != 3 {
		t.Fatalf("%d rounds checked, want 3", len(got.Rounds))
	}
	for n := 1; n <= 3; n++ {
		online, err := a.CheckRound(ctx, admin, tr.ID, n)
		step("online check", err)
		want := toJSONCheck(n, online, domain.English)
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got.Rounds[n-1])
		if !bytes.Equal(wj, gj) {
			t.Errorf("round %d offline %s\nonline %s", n, gj, wj)
		}
	}
	if r := got.Rounds[1]; !r.OK || r.System != "mitchell" {
		t.Errorf("round 2 (generated, 6 withdrawn, its opponent vacated): %+v, want mitchell ok", r)
	}
	codes := map[string]int{}
	for _, p := range got.Rounds[2].Problems {
		codes[p.Code]++
	}
	if r := got.Rounds[2]; r.OK || r.System != "mitchell" || codes["REMATCH"] == 0 {
		t.Errorf("round 3 (by hand, round 1 again): %+v, want mitchell with REMATCH", r)
	}
}
