package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"segnapunti/domain"
)

// runVP implements `segnapunti vp`: the VP pair for an MP difference, from
// a named table or from the table RULES §6.2 chooses.
func runVP(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("vp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	table := fs.String("table", "", "VP table: fitab-2, fitab-3, fitab-4, fibur-2, fibur-3, fibur-4, fibur-teams")
	ruleset := fs.String("ruleset", "", "ruleset, to choose the table from the planned hands (FITAB art. 18, FIBur-INT art. 17): fitab-2025, fitab-int, fibur-ita, fibur-int")
	hands := fs.Int("hands", 0, "with --ruleset: hands of the match (planned; played for fibur-int)")
	kind := fs.String("kind", "pairs", "with --ruleset: pairs, individual, teams or international")
	diff := fs.Int("diff", -1, "the MP difference (≥ 0)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: segnapunti vp --table TABLE --diff MP\n       segnapunti vp --ruleset RULESET --hands N --diff MP [--kind KIND]\n\nPrints the winner-loser VP pair, e.g. 14-6.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if *diff < 0 {
		return fmt.Errorf("%w: --diff must be given, a difference ≥ 0", errUsage)
	}
	var t domain.VPTable
	switch {
	case *table != "" && *ruleset != "":
		return fmt.Errorf("%w: give --table or --ruleset, not both", errUsage)
	case *table != "":
		var err error
		if t, err = domain.ParseVPTable(*table); err != nil {
			return fmt.Errorf("%w: --table: %v", errUsage, err)
		}
	case *ruleset != "":
		r, err := domain.ParseRuleset(*ruleset)
		if err != nil {
			return fmt.Errorf("%w: --ruleset: %v", errUsage, err)
		}
		k, err := domain.ParseKind(*kind)
		if err != nil {
			return fmt.Errorf("%w: --kind: %v", errUsage, err)
		}
		if *hands < 1 || *hands > 4 {
			return fmt.Errorf("%w: --hands must be 1 to 4", errUsage)
		}
		t = domain.ChooseVPTable(r, k, *hands, *hands, domain.VPTable{})
	default:
		return fmt.Errorf("%w: give --table or --ruleset with --hands", errUsage)
	}
	w, l := t.Lookup(*diff)
	_, err := fmt.Fprintf(stdout, "%d-%d\n", w, l)
	return err
}
