package app

import (
	"errors"
	"strings"
	"testing"

	"segnapunti/domain"
)

func reviewSheet() domain.Sheet {
	return domain.Sheet{Ruleset: domain.FITAB2025, HandsPlanned: 3, Hands: []domain.Hand{
		{End: domain.EndClosed, Lines: [2]domain.LineScore{{Base: 200, Points: 300, Total: domain.Int(600)}, {Base: 200, Points: 100}}}}}
}

// CorrectedValues changes only the figures the form changed, records the
// parts it changed before and after, and refuses what a correction may
// not change, naming the field.
func TestCorrectValues(t *testing.T) {
	cur := reviewSheet()
	sh, before, after, err := CorrectedValues(map[string]*int{"hands.0.ns.total": domain.Int(500), "hands.0.ns.base": domain.Int(200), "written.ns.total": nil}).Apply(cur)
	if err != nil {
		t.Fatal(err)
	}
	if *sh.Hands[0].Lines[domain.NS].Total != 500 || *cur.Hands[0].Lines[domain.NS].Total != 600 {
		t.Errorf("corrected %d, stored now %d: want 500 and the stored sheet untouched at 600", *sh.Hands[0].Lines[domain.NS].Total, *cur.Hands[0].Lines[domain.NS].Total)
	}
	if !strings.Contains(string(before), `"hands"`) || strings.Contains(string(before), `"written"`) || !strings.Contains(string(before), "600") || !strings.Contains(string(after), "500") {
		t.Errorf("parts before %s after %s: want only hands, 600 → 500", before, after)
	}
	for _, tc := range []struct {
		name   string
		values map[string]*int
		ptr    string
	}{
		{"nothing changed", map[string]*int{"hands.0.ns.base": domain.Int(200)}, "/corrected"},
		{"a base left empty", map[string]*int{"hands.0.ns.base": nil}, "/hands/0/ns/base"},
		{"a hand the sheet lacks", map[string]*int{"hands.3.ns.base": domain.Int(1)}, "/hands/3/ns/base"},
		{"not a sheet figure", map[string]*int{"sides.0.id": domain.Int(1)}, "/sides/0/id"},
	} {
		_, _, _, err := CorrectedValues(tc.values).Apply(cur)
		var ae *Error
		if !errors.As(err, &ae) || !errors.Is(err, domain.ErrInvalid) || len(ae.Fields) == 0 || ae.Fields[0].Pointer != tc.ptr {
			t.Errorf("%s: %v, want invalid at %s", tc.name, err, tc.ptr)
		}
	}
}

// A running total written wrong is a sum error the referee may correct
// (FITAB art. 20: "errore di somma"): the form's running_total changes
// it, and clearing it leaves the computed one.
func TestCorrectValuesRunningTotal(t *testing.T) {
	cur := reviewSheet()
	cur.Hands[0].Lines[domain.NS].RunningTotal = domain.Int(650)
	sh, before, after, err := CorrectedValues(map[string]*int{"hands.0.ns.running_total": domain.Int(600)}).Apply(cur)
	if err != nil {
		t.Fatal(err)
	}
	if got := sh.Hands[0].Lines[domain.NS].RunningTotal; got == nil || *got != 600 || *cur.Hands[0].Lines[domain.NS].RunningTotal != 650 {
		t.Errorf("corrected running total %v, stored %d: want 600 and the stored sheet untouched", got, *cur.Hands[0].Lines[domain.NS].RunningTotal)
	}
	if !strings.Contains(string(before), "650") || !strings.Contains(string(after), "600") {
		t.Errorf("parts before %s after %s: want 650 → 600", before, after)
	}
	sh, _, _, err = CorrectedValues(map[string]*int{"hands.0.ns.running_total": nil}).Apply(cur)
	if err != nil || sh.Hands[0].Lines[domain.NS].RunningTotal != nil {
		t.Errorf("clearing the running total: %v, %v", sh.Hands[0].Lines[domain.NS].RunningTotal, err)
	}
	if rep := domain.Validate(sh); hasCode(rep, domain.RunningTotalMismatch) {
		t.Error("the corrected sheet still has a wrong running total")
	}
}

func hasCode(r domain.Report, c domain.Code) bool {
	for _, f := range r.Findings {
		if f.Code == c {
			return true
		}
	}
	return false
}

// StandingsDiff marks the entrants whose rank, VP or MP changed.
func TestStandingsDiff(t *testing.T) {
	row := func(id string, rank, vp, mp int) domain.Standing {
		return domain.Standing{Entrant: domain.Entrant{ID: id}, Rank: rank, VP: vp, MP: mp}
	}
	before := StandingsTable{Rows: []domain.Standing{row("1", 1, 15, 600), row("2", 2, 5, -600), row("3", 3, 10, 0)}}
	after := StandingsTable{Rows: []domain.Standing{row("2", 1, 15, 600), row("1", 2, 5, -600), row("3", 3, 10, 0)}}
	d := StandingsDiff(before, after)
	if len(d) != 3 || d[0].Entrant != "2" || !d[0].Changed || d[0].RankBefore != 2 || d[0].Rank != 1 || d[2].Changed {
		t.Errorf("diff %+v", d)
	}
}
