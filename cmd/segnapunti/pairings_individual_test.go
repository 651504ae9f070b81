package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"segnapunti/domain"
	"segnapunti/exporters/workbook"
)

// The export of an individual tournament, as the service writes it
// (exporters/workbook WriteJSON: a line is its two players, the round's
// system and seed recorded), is checked by `segnapunti pairings check`
// as the service checks it (RULES §11): three drawn rounds pass; a fourth
// round seated by hand that puts former partners together again is a
// REPEATED_PARTNER.
func TestPairingsCheckIndividualExport(t *testing.T) {
	var ids []string
	var entrants []domain.Entrant
	for i := 1; i <= 18; i++ {
		ids = append(ids, strconv.Itoa(i))
		entrants = append(entrants, domain.Entrant{ID: strconv.Itoa(i), Players: []domain.Player{{Name: "Giocatore " + strconv.Itoa(i)}}})
	}
	tour := domain.Tournament{ID: "t", Name: "Individuale", Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), Level: domain.LevelClub,
		Ruleset: domain.FITAB2025, Kind: domain.KindIndividual, RoundsPlanned: 5, HandsPerRound: 3}
	var prev []domain.PairedRound
	var rounds []domain.Round
	for n := 1; n <= 3; n++ {
		seed := uint64(40 + n)
		p, err := domain.GeneratePairing(domain.PairingRequest{Ruleset: tour.Ruleset, Kind: tour.Kind, System: domain.SystemDraw, Round: n,
			RoundsPlanned: tour.RoundsPlanned, Entrants: ids, Previous: prev, Seed: &seed})
		if err != nil {
			t.Fatal(err)
		}
		prev = append(prev, p)
		r := domain.Round{Number: n, HandsPlanned: 3, Phase: domain.PhaseDanese, State: domain.RoundPlaying, System: p.System, Seed: p.Seed, Byes: p.Byes}
		for _, pt := range p.Tables {
			ta := domain.TableAssignment{Table: pt.Table}
			ta.SetLine(domain.NS, pt.NS)
			ta.SetLine(domain.EO, pt.EO)
			r.Tables = append(r.Tables, ta)
		}
		rounds = append(rounds, r)
	}
	// Round 4 by hand: round 1's first NS partners together again.
	again := rounds[0].Tables[0]
	r4 := domain.Round{Number: 4, HandsPlanned: 3, Phase: domain.PhaseDanese, State: domain.RoundPlaying}
	var others []string
	for _, id := range ids {
		if id != again.NS && id != again.NS2 {
			others = append(others, id)
		}
	}
	r4.Tables = append(r4.Tables, domain.TableAssignment{Table: 1, NS: again.NS, NS2: again.NS2, EO: others[0], EO2: others[1]})
	for i, t := 2, 2; i+3 < len(others); i, t = i+4, t+1 {
		r4.Tables = append(r4.Tables, domain.TableAssignment{Table: t, NS: others[i], NS2: others[i+1], EO: others[i+2], EO2: others[i+3]})
	}
	r4.Byes = others[len(others)-(len(others)-2)%4:] // the two players left over rest
	rounds = append(rounds, r4)

	var buf bytes.Buffer
	if err := workbook.WriteJSON(&buf, workbook.TournamentExport{Tournament: tour, ExportedAt: time.Now(),
		Entrants: workbook.Slice(entrants), Rounds: workbook.Slice(rounds)}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "individuale.json")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errText := runCLI(t, "pairings", "check", "--format", "json", file)
	var got struct {
		Rounds []jsonRoundCheck `json:"rounds"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("exit %d: %v\n%s %s", code, err, out, errText)
	}
	if code != exitFindings || len(got.Rounds) != 4 {
		t.Fatalf("exit %d, %d rounds:\n%s", code, len(got.Rounds), out)
	}
	for _, r := range got.Rounds[:3] {
		if !r.OK || r.System != "draw" {
			t.Errorf("round %d: %+v", r.Round, r)
		}
	}
	found := false
	for _, p := range got.Rounds[3].Problems {
		found = found || (p.Code == "REPEATED_PARTNER" && p.Table == 1)
	}
	if !found {
		t.Errorf("round 4: %+v, want REPEATED_PARTNER at table 1", got.Rounds[3])
	}
}
