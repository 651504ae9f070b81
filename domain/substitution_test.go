package domain

import (
	"errors"
	"strings"
	"testing"
)

func TestSubstitutionFIBurArt33FITABArt37(t *testing.T) {
	sub := func(r int, reason string) Substitution {
		return Substitution{Entrant: "3", FromRound: r, Out: "FT01", In: Player{Name: "Sostituto", Membership: "FT99"}, Reason: reason}
	}
	cases := []struct {
		name    string
		rs      Ruleset
		planned int
		s       Substitution
		want    string // "" accepted, else in the error
	}{
		{"FIBur-INT art. 33: 4 rounds, from round 3 (two played, half reached)", FIBurIta, 4, sub(3, ""), ""},
		{"FIBur-INT art. 33: 4 rounds, from round 4 (three played, half exceeded)", FIBurIta, 4, sub(4, ""), "FIBur-INT art. 33"},
		{"FIBur-INT art. 33: 5 rounds, from round 3 (two played of 2.5)", FIBurInt, 5, sub(3, ""), ""},
		{"FIBur-INT art. 33: 5 rounds, from round 4 (three played)", FIBurInt, 5, sub(4, ""), "from round 3 at the latest"},
		{"FIBur-INT art. 33: 6 rounds, from round 4", FIBurIta, 6, sub(4, ""), ""},
		{"FIBur-INT art. 33: 6 rounds, from round 5", FIBurIta, 6, sub(5, ""), "FIBur-INT art. 33"},
		{"FITAB art. 37: any round, with the referee's reason", FITAB2025, 4, sub(4, "malore accertato"), ""},
		{"FITAB art. 37: no reason, refused", FITAB2025, 4, sub(2, " "), "reason: "},
		{"RULES §12.4: a round beyond the plan", FITAB2025, 4, sub(5, "x"), "from_round: "},
		{"RULES §12.4: the substitute has a name", FIBurIta, 4, Substitution{FromRound: 2, Out: "FT01"}, "in.name: "},
		{"RULES §12.4: the player replaced is named", FIBurIta, 4, Substitution{FromRound: 2, In: Player{Name: "X"}}, "out: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckSubstitution(c.rs, c.planned, c.s)
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want ErrInvalid containing %q", err, c.want)
			}
		})
	}
}

// RULES §12.4: each round names the players who sat.
func TestPlayersAtRULES12_4(t *testing.T) {
	e := Entrant{ID: "3", Players: []Player{{Name: "Rossi", Membership: "FT1"}, {Name: "Bianchi", Membership: "FT2"}}}
	subs := []Substitution{
		{Entrant: "3", FromRound: 3, Out: "FT2", In: Player{Name: "Verdi", Membership: "FT9"}},
		{Entrant: "4", FromRound: 1, Out: "FT1", In: Player{Name: "Altro"}},
	}
	for n, want := range map[int]string{1: "Rossi Bianchi", 2: "Rossi Bianchi", 3: "Rossi Verdi", 4: "Rossi Verdi"} {
		var names []string
		for _, p := range PlayersAt(e, subs, n) {
			names = append(names, p.Name)
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("round %d: %s, want %s", n, got, want)
		}
	}
}
