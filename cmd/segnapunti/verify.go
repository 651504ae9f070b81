package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"segnapunti/domain"
	"segnapunti/tournamentfile"
	"segnapunti/verifier"
)

// runVerify implements `segnapunti verify`: a tournament file (API §4.4,
// docs/format.md) re-derived from itself alone, offline. Exit 0 every
// figure re-derives, 1 differences, 2 unreadable file or bad usage.
func runVerify(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json (the report of API §4.4)")
	lang := fs.String("lang", "en", "language of the report: en or it")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: segnapunti verify [--format text|json] [--lang en|it] FILE\n\n"+
			"Verifies a tournament file (format segnapunti-tournament, docs/format.md) from the file alone:\n"+
			"every sheet re-validated, MP and VP recomputed, every round's seating re-checked, every\n"+
			"correction's ruling decided again, the standings recomputed. No database.\n"+
			"Exit status: 0 all re-derived, 1 differences, 2 unreadable file or bad usage.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, errHelp
		}
		return exitUsage, fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := checkReportFlags(*format, *lang); err != nil {
		return exitUsage, err
	}
	if fs.NArg() != 1 {
		return exitUsage, fmt.Errorf("%w: give exactly one FILE (run 'segnapunti verify --help')", errUsage)
	}
	l := domain.Lang(*lang)
	in, err := os.Open(fs.Arg(0))
	if err != nil {
		return exitUsage, err
	}
	defer in.Close()
	f, err := tournamentfile.Decode(in)
	if err != nil {
		return exitUsage, fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	c, err := tournamentfile.Check(f)
	if err != nil {
		return exitUsage, fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	rep := verifier.Verify(f, c, l)
	if *format == "json" {
		b, err := rep.JSON(l)
		if err != nil {
			return exitUsage, err
		}
		if _, err := stdout.Write(b); err != nil {
			return exitUsage, err
		}
	} else if err := writeVerifyText(stdout, rep, l); err != nil {
		return exitUsage, err
	}
	if !rep.OK {
		return exitFindings, nil
	}
	return exitOK, nil
}

// writeVerifyText prints one line per difference, then the verdict.
func writeVerifyText(w io.Writer, rep verifier.Report, l domain.Lang) error {
	for _, d := range rep.Differences {
		where := ""
		if d.Round != 0 {
			where += fmt.Sprintf(" %s %d", pick(l, "round", "turno"), d.Round)
		}
		if d.Table != 0 {
			where += fmt.Sprintf(" %s %d", pick(l, "table", "tavolo"), d.Table)
		}
		if d.Entrant != "" {
			where += fmt.Sprintf(" %s %s", pick(l, "entrant", "iscritto"), d.Entrant)
		}
		if _, err := fmt.Fprintf(w, "%s%s: %s (%s)\n", d.Code, where, d.Detail, d.Rule); err != nil {
			return err
		}
	}
	if rep.OK {
		if _, err := fmt.Fprintln(w, pick(l, "Every figure of the file re-derives.", "Ogni dato del file si ricava dalle regole.")); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, rep.Verdict(l))
	return err
}

func pick(l domain.Lang, en, it string) string {
	if l == domain.Italian {
		return it
	}
	return en
}
