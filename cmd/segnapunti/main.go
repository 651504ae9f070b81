// Command segnapunti validates Burraco tournament score sheets offline and
// runs the segnapunti REST service.
//
// main only wires the process to run, which takes its arguments, environment
// and streams as parameters so that tests drive it directly.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // exports show times in Europe/Rome even where the OS has no zone database
)

// Exit statuses of API §3.
const (
	exitOK       = 0 // no sheet has an error finding
	exitFindings = 1 // some sheet has an error finding
	exitUsage    = 2 // unreadable input or bad usage
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `segnapunti — validates Burraco score sheets and runs the segnapunti service.

Usage:
  segnapunti validate [--format text|json] [--lang en|it] FILE...
  segnapunti vp --table TABLE --diff MP
  segnapunti vp --ruleset RULESET --hands N --diff MP [--kind KIND]
  segnapunti pairings generate --system SYSTEM (--entrants N | --from FILE) [flags]
  segnapunti pairings check [--round N] [--format text|json] FILE
  segnapunti verify [--format text|json] [--lang en|it] FILE
  segnapunti serve [--addr :8080] [--db segnapunti.db]
  segnapunti migrate [--db segnapunti.db]
  segnapunti token create --role ROLE --name TEXT [--club ID] [--db segnapunti.db]
  segnapunti user create --role ROLE --name NAME [--club ID] [--db segnapunti.db]

Commands:
  validate  check sheets offline (.json sheet or batch, .xlsx workbook); no database.
            Exit status: 0 no errors, 1 some sheet has an error finding, 2 unreadable input or bad usage.
  vp        print the VP pair for an MP difference, e.g. 14-6.
  pairings  seat a round (generate) or check the rounds of a tournament export JSON (check)
            offline; no database. Exit status: 0 ok, 1 check found problems, 2 bad input or usage.
  verify    re-derive a tournament file (format segnapunti-tournament, docs/format.md) from the file
            alone, offline; no database. Exit status: 0 all re-derived, 1 differences, 2 unreadable file or usage.
  serve     run the service: web pages at /, REST API at /v1. DATABASE_URL (postgres://...) selects PostgreSQL; without it an
            embedded database file (--db, env SEGNAPUNTI_DB, default segnapunti.db). Env SEGNAPUNTI_ADDR,
            SEGNAPUNTI_PUBLIC_URL (the address phones open; default: this machine's LAN address),
            SEGNAPUNTI_LOG_LEVEL (debug, info, warn, error; default info), SEGNAPUNTI_PG_SHEET_WRITERS.
  migrate   apply pending database migrations and exit.
  token     create an API token (printed once); roles: club, referee, federation, admin.
  user      create a person who signs in to the web pages; password from standard input, or generated.

Run 'segnapunti COMMAND --help' for a command's flags.
`

// errUsage marks an error that is the caller's: exit status 2.
var errUsage = errors.New("usage")

// run executes one command line and returns the exit status.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	if asksHelp(args[1:]) {
		// Asked-for help is output, not an error: the commands' flag sets
		// print it on their error stream, so that stream is stdout here.
		stderr = stdout
	}
	var (
		code int
		err  error
	)
	switch args[0] {
	case "validate":
		code, err = runValidate(args[1:], getenv, stdout, stderr)
	case "vp":
		err = runVP(args[1:], stdout, stderr)
	case "pairings":
		code, err = runPairings(args[1:], stdout, stderr)
	case "verify":
		code, err = runVerify(args[1:], stdout, stderr)
	case "serve":
		err = runServe(ctx, args[1:], getenv, stderr)
	case "migrate":
		err = runMigrate(ctx, args[1:], getenv, stdout, stderr)
	case "token":
		err = runToken(ctx, args[1:], getenv, stdout, stderr)
	case "user":
		err = runUser(ctx, args[1:], getenv, stdin, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "segnapunti: unknown command %q (run 'segnapunti --help')\n", args[0])
		return exitUsage
	}
	switch {
	case errors.Is(err, errHelp):
		return exitOK
	case err != nil:
		fmt.Fprintf(stderr, "segnapunti %s: %s\n", args[0], oneLine(err.Error()))
		if code == exitOK || code == exitFindings {
			code = exitUsage
		}
		if !errors.Is(err, errUsage) && args[0] != "validate" && args[0] != "vp" && args[0] != "pairings" && args[0] != "verify" {
			code = 1 // a service command that failed at run time
		}
	}
	return code
}

// asksHelp reports whether a command's arguments ask for its help.
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}

// oneLine keeps a reason on one line, as API §3 promises for exit status 2.
func oneLine(s string) string {
	out := []rune(s)
	for i, r := range out {
		if r == '\n' || r == '\r' {
			out[i] = ' '
		}
	}
	return string(out)
}
