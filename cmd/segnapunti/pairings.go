package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"segnapunti/domain"
)

const pairingsUsage = `Usage:
  segnapunti pairings generate --system SYSTEM (--entrants N | --from FILE) [flags]
  segnapunti pairings check [--round N] [--group-size G] [--format text|json] [--lang en|it] FILE

Pairings and movements offline, no database (FITAB art. 2, FIBur-INT art. 2; docs/rules.md §11).

generate  seats one round and prints it.
          --entrants N seats entrants 1..N (a first round, or an individual round);
          --from FILE reads a tournament export JSON (segnapunti.tournament-export/1): its
          entrants, ruleset, kind and rounds; the standings are computed from its matches
          and adjustments (FITAB art. 18; docs/rules.md §8). Systems: choice is not generated (it is the referee's
          list); entry_order and draw seat a first round; mitchell, danese, danese_modificato
          (refused under fitab-* rulesets, FITAB art. 2), italiana and gironi pair later
          rounds. Individual tournaments are seated by draw in every round.
check     re-derives every round of a tournament export JSON (or --round N) from the
          records and lists where it departs from its system (the round's system and
          seed as the service's export records them; a round seated by hand against the
          plan's system for it; rests counted per session of the plan; withdrawn
          entrants and the lines left alone by them, as the service's own check does,
          docs/rules.md §12; an export without a plan: the round's phase, and round 1, or
          an individual round, as the referee's choice): ENTRANT_TWICE, UNKNOWN_ENTRANT,
          MISSING_ENTRANT, LINE_SIZE, TABLE_TWICE, REMATCH, WRONG_ORDER, SECOND_REST,
          MOVEMENT_BROKEN, REPEATED_PARTNER, WRONG_REST, WITHDRAWN_SEATED, NOT_DERIVABLE.

Exit status: 0 ok (check: no problem), 1 check found problems, 2 unreadable input or bad usage.

generate flags:
  --system SYSTEM       choice|entry_order|draw|mitchell|danese|danese_modificato|italiana|gironi (required)
  --entrants N          entrants numbered 1..N (without --from)
  --from FILE           a tournament export JSON
  --round N             the round to seat (default 1; with --from the round after the last one in FILE)
  --seed N              seed of a draw (default: a fresh one, printed so that the draw can be replayed)
  --ruleset RULESET     fitab-2025|fitab-int|fibur-ita|fibur-int (default fitab-2025; with --from, FILE's)
  --kind KIND           pairs|individual|teams|international (default pairs; with --from, FILE's)
  --rounds-planned N    rounds of the session (danese_modificato allows a rematch in the last; with --from, FILE's)
  --group-size G        size of the gironi groups
  --format text|json    output (default text)

check flags:
  --round N             check only round N (json: one {"system","ok","problems"} document)
  --group-size G        size of the gironi groups, needed to check gironi rounds
  --format text|json    output (default text; json: {"rounds": [{"round", "system", "ok", "problems"}]})
  --lang en|it          language of the problem details (default en)
`

// maxExportBytes bounds a tournament export read by pairings.
const maxExportBytes = 64 << 20

// runPairings implements `segnapunti pairings`.
func runPairings(args []string, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		return exitUsage, fmt.Errorf("%w: want generate or check (run 'segnapunti pairings --help')", errUsage)
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(stdout, pairingsUsage)
		return exitOK, errHelp
	case "generate":
		return runPairingsGenerate(args[1:], stdout)
	case "check":
		return runPairingsCheck(args[1:], stdout)
	}
	return exitUsage, fmt.Errorf("%w: unknown subcommand %q (want generate or check)", errUsage, args[0])
}

// parsePairingsFlags parses with help on stdout and errors returned, not printed.
func parsePairingsFlags(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, pairingsUsage)
			return errHelp
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}

func runPairingsGenerate(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("pairings generate", flag.ContinueOnError)
	system := fs.String("system", "", "")
	entrants := fs.Int("entrants", 0, "")
	from := fs.String("from", "", "")
	round := fs.Int("round", 0, "")
	seed := fs.String("seed", "", "")
	ruleset := fs.String("ruleset", "", "")
	kind := fs.String("kind", "", "")
	planned := fs.Int("rounds-planned", 0, "")
	group := fs.Int("group-size", 0, "")
	format := fs.String("format", "text", "")
	if err := parsePairingsFlags(fs, args, stdout); err != nil {
		return exitUsage, err
	}
	if fs.NArg() > 0 {
		return exitUsage, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if *format != "text" && *format != "json" {
		return exitUsage, fmt.Errorf("%w: --format must be text or json, not %q", errUsage, *format)
	}
	sys, err := domain.ParsePairingSystem(*system)
	if err != nil {
		return exitUsage, fmt.Errorf("%w: --system: %v", errUsage, err)
	}
	if sys == domain.SystemChoice {
		return exitUsage, fmt.Errorf("%w: --system choice is the referee's own list; there is nothing to generate", errUsage)
	}
	req := domain.PairingRequest{System: sys, GroupSize: *group, Ruleset: domain.FITAB2025, Kind: domain.KindPairs}
	if *seed != "" {
		s, err := strconv.ParseUint(*seed, 10, 64)
		if err != nil {
			return exitUsage, fmt.Errorf("%w: --seed: %q is not a number 0..18446744073709551615", errUsage, *seed)
		}
		req.Seed = &s
	}
	switch {
	case *from != "" && *entrants != 0:
		return exitUsage, fmt.Errorf("%w: give --entrants or --from, not both", errUsage)
	case *from != "":
		ex, err := readExport(*from)
		if err != nil {
			return exitUsage, err
		}
		req.Ruleset, req.Kind, req.RoundsPlanned = ex.ruleset, ex.kind, ex.Tournament.RoundsPlanned
		req.Entrants, req.Previous = ex.entrantIDs(), ex.rounds
		req.Withdrawn = ex.withdrawn // RULES §12.3: nobody withdrawn is seated
		req.Round = len(ex.rounds) + 1
		if *round != 0 {
			if *round < 1 || *round > len(ex.rounds)+1 {
				return exitUsage, fmt.Errorf("%w: --round: %s has rounds 1..%d, so rounds 1..%d can be seated", errUsage, *from, len(ex.rounds), len(ex.rounds)+1)
			}
			req.Round = *round
			req.Previous = ex.rounds[:*round-1]
		}
		if ex.plan != nil {
			req.SessionStart = ex.plan.SessionStart(req.Round) // RULES §12.1: rests per session
		}
		if req.Standings, err = ex.standingsFor(req); err != nil {
			return exitUsage, err
		}
	case *entrants > 0:
		for i := 1; i <= *entrants; i++ {
			req.Entrants = append(req.Entrants, strconv.Itoa(i))
		}
		req.Round = max(*round, 1)
		if req.Round != 1 {
			return exitUsage, fmt.Errorf("%w: --entrants seats round 1 only; later rounds need the earlier ones (--from FILE)", errUsage)
		}
	default:
		return exitUsage, fmt.Errorf("%w: give --entrants N or --from FILE", errUsage)
	}
	if *ruleset != "" {
		if req.Ruleset, err = domain.ParseRuleset(*ruleset); err != nil {
			return exitUsage, fmt.Errorf("%w: --ruleset: %v", errUsage, err)
		}
	}
	if *kind != "" {
		if req.Kind, err = domain.ParseKind(*kind); err != nil {
			return exitUsage, fmt.Errorf("%w: --kind: %v", errUsage, err)
		}
	}
	if *planned != 0 {
		req.RoundsPlanned = *planned
	}
	got, err := domain.GeneratePairing(req)
	if err != nil {
		return exitUsage, fmt.Errorf("%w: %v", errUsage, err)
	}
	if *format == "json" {
		return exitOK, writeJSON(stdout, toJSONRound(got, req.Kind))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "round %d (%s", got.Number, got.System)
	if got.Seed != nil {
		fmt.Fprintf(&b, ", seed %d", *got.Seed)
	}
	b.WriteString(")\n")
	for _, t := range got.Tables {
		fmt.Fprintf(&b, "table %d: NS %s v EO %s\n", t.Table, strings.Join(t.NS, "+"), strings.Join(t.EO, "+"))
	}
	if len(got.Byes) > 0 {
		fmt.Fprintf(&b, "rest: %s\n", strings.Join(got.Byes, ", "))
	}
	_, err = io.WriteString(stdout, b.String())
	return exitOK, err
}

func runPairingsCheck(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("pairings check", flag.ContinueOnError)
	round := fs.Int("round", 0, "")
	group := fs.Int("group-size", 0, "")
	format := fs.String("format", "text", "")
	lang := fs.String("lang", "en", "")
	// Flags may follow FILE: parse what comes after it too.
	var file string
	rest := args
	for {
		if err := parsePairingsFlags(fs, rest, stdout); err != nil {
			return exitUsage, err
		}
		if fs.NArg() == 0 {
			break
		}
		if file != "" {
			return exitUsage, fmt.Errorf("%w: one FILE only, got %q and %q", errUsage, file, fs.Arg(0))
		}
		file, rest = fs.Arg(0), fs.Args()[1:]
	}
	if file == "" {
		return exitUsage, fmt.Errorf("%w: no FILE given (run 'segnapunti pairings --help')", errUsage)
	}
	if *format != "text" && *format != "json" {
		return exitUsage, fmt.Errorf("%w: --format must be text or json, not %q", errUsage, *format)
	}
	if *lang != "en" && *lang != "it" {
		return exitUsage, fmt.Errorf("%w: --lang must be en or it, not %q", errUsage, *lang)
	}
	ex, err := readExport(file)
	if err != nil {
		return exitUsage, err
	}
	first, last := 1, len(ex.rounds)
	if *round != 0 {
		if *round < 1 || *round > len(ex.rounds) {
			return exitUsage, fmt.Errorf("%w: --round: %s has rounds 1..%d", errUsage, file, len(ex.rounds))
		}
		first, last = *round, *round
	}
	var out []jsonRoundCheck
	code := exitOK
	for n := first; n <= last; n++ {
		r := ex.rounds[n-1]
		req := domain.PairingRequest{Ruleset: ex.ruleset, Kind: ex.kind, System: r.System, Round: n, RoundsPlanned: ex.Tournament.RoundsPlanned,
			Entrants: ex.entrantIDs(), Previous: ex.rounds[:n-1], GroupSize: *group}
		req.Seed = r.Seed
		switch {
		case ex.plan != nil:
			// The same request as GET …/rounds/{n}/check (app.CheckRound):
			// rests per session, withdrawals (RULES §12.1, §12.3).
			req.SessionStart, req.Withdrawn = ex.plan.SessionStart(n), ex.withdrawn
		case r.System == "" || (n == 1 && r.Seed == nil && r.System != domain.SystemEntryOrder):
			req.System = domain.SystemChoice // the export does not record how round 1 was seated
		}
		if req.System == domain.SystemGironi && *group < 2 && !slices.ContainsFunc(ex.rounds[:n], func(r domain.PairedRound) bool { return len(r.Groups) > 0 }) {
			return exitUsage, fmt.Errorf("%w: round %d is a gironi round: give --group-size", errUsage, n)
		}
		if req.Standings, err = ex.standingsFor(req); err != nil {
			return exitUsage, err
		}
		chk := domain.CheckRound(req, r)
		if !chk.OK {
			code = exitFindings
		}
		out = append(out, toJSONCheck(n, chk, domain.Lang(*lang)))
	}
	if *format == "json" {
		if *round != 0 {
			return code, writeJSON(stdout, out[0].jsonCheck)
		}
		return code, writeJSON(stdout, struct {
			Rounds []jsonRoundCheck `json:"rounds"`
		}{out})
	}
	var b strings.Builder
	for _, c := range out {
		if c.OK {
			fmt.Fprintf(&b, "round %d (%s): ok\n", c.Round, c.System)
			continue
		}
		fmt.Fprintf(&b, "round %d (%s): %d problem(s)\n", c.Round, c.System, len(c.Problems))
		for _, p := range c.Problems {
			where := "round"
			if p.Table > 0 {
				where = "table " + strconv.Itoa(p.Table)
			}
			fmt.Fprintf(&b, "  %s %s: %s (%s)\n", where, p.Code, p.Detail, p.Rule)
		}
	}
	_, err = io.WriteString(stdout, b.String())
	return code, err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// JSON shapes of API §4.2.
type jsonPairedTable struct {
	Table int `json:"table"`
	NS    any `json:"ns"` // a string for pairs and teams, two ids for individual
	EO    any `json:"eo"`
}

type jsonPairedRound struct {
	Number int               `json:"number"`
	System string            `json:"system"`
	Seed   *uint64           `json:"seed"`
	Tables []jsonPairedTable `json:"tables"`
	Byes   []string          `json:"byes"`
}

func toJSONRound(r domain.PairedRound, k domain.Kind) jsonPairedRound {
	out := jsonPairedRound{Number: r.Number, System: string(r.System), Seed: r.Seed, Tables: []jsonPairedTable{}, Byes: r.Byes}
	if out.Byes == nil {
		out.Byes = []string{}
	}
	line := func(ids []string) any {
		if k == domain.KindIndividual || len(ids) != 1 {
			return ids
		}
		return ids[0]
	}
	for _, t := range r.Tables {
		out.Tables = append(out.Tables, jsonPairedTable{Table: t.Table, NS: line(t.NS), EO: line(t.EO)})
	}
	return out
}

type jsonProblem struct {
	Table  int    `json:"table"`
	Code   string `json:"code"`
	Detail string `json:"detail"`
	Rule   string `json:"rule"`
}

type jsonCheck struct {
	System   string        `json:"system"`
	OK       bool          `json:"ok"`
	Problems []jsonProblem `json:"problems"`
}

type jsonRoundCheck struct {
	Round int `json:"round"`
	jsonCheck
}

func toJSONCheck(n int, c domain.PairingCheck, l domain.Lang) jsonRoundCheck {
	out := jsonRoundCheck{Round: n, jsonCheck: jsonCheck{System: string(c.System), OK: c.OK, Problems: []jsonProblem{}}}
	for _, p := range c.Problems {
		out.Problems = append(out.Problems, jsonProblem{Table: p.Table, Code: string(p.Code), Detail: p.Message(l), Rule: p.Rule})
	}
	return out
}

// exportDoc is the part of a tournament export (exporters/workbook
// WriteJSON, tournament-export.schema.json) that pairings read.
type exportDoc struct {
	Format     string `json:"format"`
	Tournament struct {
		Ruleset       string `json:"ruleset"`
		Kind          string `json:"kind"`
		RoundsPlanned int    `json:"rounds_planned"`
		// Plan: RULES §12.1 (exports since issue 21); absent in older
		// exports, whose rounds are then read by their phase.
		Plan *struct {
			FirstRound string `json:"first_round"`
			Phases     []struct {
				FromRound int    `json:"from_round"`
				System    string `json:"system"`
			} `json:"phases"`
			Sessions []int `json:"sessions"`
		} `json:"plan"`
	} `json:"tournament"`
	Entrants []struct {
		ID                 string `json:"id"`
		WithdrawnFromRound *int   `json:"withdrawn_from_round"`
	} `json:"entrants"`
	Rounds []struct {
		Number int    `json:"number"`
		Phase  string `json:"phase"`
		// System and Seed: how the service seated the round (its export
		// records them); absent, the phase stands for the system.
		System string  `json:"system"`
		Seed   *uint64 `json:"seed"`
		Tables []struct {
			Table int             `json:"table"`
			Match int             `json:"match"`
			NS    json.RawMessage `json:"ns"`
			EO    json.RawMessage `json:"eo"`
		} `json:"tables"`
		Byes []string `json:"byes"`
		// Vacated and Groups: RULES §12.3, §12.1.
		Vacated []string   `json:"vacated"`
		Groups  [][]string `json:"groups"`
	} `json:"rounds"`
	Matches []struct {
		Round int         `json:"round"`
		Table int         `json:"table"`
		NS    exportMatch `json:"ns"`
		EO    exportMatch `json:"eo"`
	} `json:"matches"`
	Adjustments []struct {
		Entrant string `json:"entrant"`
		Round   *int   `json:"round"`
		Reason  string `json:"reason"`
		VP      *int   `json:"vp"`
		MP      *int   `json:"mp"`
	} `json:"adjustments"`

	ruleset domain.Ruleset
	kind    domain.Kind
	rounds  []domain.PairedRound
	// plan is the export's plan (RULES §12.1), nil in older exports;
	// withdrawn the entrants that left for good (RULES §12.3).
	plan      *domain.Plan
	withdrawn map[string]int
}

type exportMatch struct {
	ID string `json:"id"`
	MP int    `json:"mp"`
	VP int    `json:"vp"`
}

const exportFormatPrefix = "segnapunti.tournament-export/"

// readExport reads and checks a tournament export; its errors name the
// file and the member and wrap errUsage (exit status 2).
func readExport(path string) (*exportDoc, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxExportBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errUsage, path, err)
	}
	if len(data) > maxExportBytes {
		return nil, fmt.Errorf("%w: %s: larger than %d MiB", errUsage, path, maxExportBytes>>20)
	}
	var ex exportDoc
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&ex); err != nil {
		return nil, fmt.Errorf("%w: %s: not a tournament export JSON: %v", errUsage, path, err)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s: "+format, append([]any{errUsage, path}, a...)...)
	}
	if !strings.HasPrefix(ex.Format, exportFormatPrefix) {
		return nil, bad("format: %q is not a tournament export (%s1)", ex.Format, exportFormatPrefix)
	}
	if ex.ruleset, err = domain.ParseRuleset(ex.Tournament.Ruleset); err != nil {
		return nil, bad("tournament.ruleset: %v", err)
	}
	if ex.kind, err = domain.ParseKind(ex.Tournament.Kind); err != nil {
		return nil, bad("tournament.kind: %v", err)
	}
	if p := ex.Tournament.Plan; p != nil {
		plan := domain.Plan{Sessions: p.Sessions}
		if plan.FirstRound, err = domain.ParsePairingSystem(p.FirstRound); err != nil {
			return nil, bad("tournament.plan.first_round: %v", err)
		}
		for i, ph := range p.Phases {
			s, err := domain.ParsePairingSystem(ph.System)
			if err != nil {
				return nil, bad("tournament.plan.phases[%d].system: %v", i, err)
			}
			plan.Phases = append(plan.Phases, domain.PlanPhase{FromRound: ph.FromRound, System: s})
		}
		ex.plan = &plan
	}
	for i, e := range ex.Entrants {
		if w := e.WithdrawnFromRound; w != nil {
			if *w < 1 {
				return nil, bad("entrants[%d].withdrawn_from_round: %d is not a round", i, *w)
			}
			if ex.withdrawn == nil {
				ex.withdrawn = map[string]int{}
			}
			ex.withdrawn[e.ID] = *w
		}
	}
	for i, r := range ex.Rounds {
		if r.Number != i+1 {
			return nil, bad("rounds[%d].number: %d, want %d (rounds in order from 1)", i, r.Number, i+1)
		}
		pr := domain.PairedRound{Number: r.Number, Byes: r.Byes, Seed: r.Seed, Vacated: r.Vacated, Groups: r.Groups}
		switch {
		case r.System != "":
			if pr.System, err = domain.ParsePairingSystem(r.System); err != nil {
				return nil, bad("rounds[%d].system: %v", i, err)
			}
		case ex.plan != nil:
			// Seated by hand: checked against the plan's system for it, as
			// the service's own check does (RULES §12.1, app.pairedOf).
			pr.System = ex.plan.HandSeatedSystem(r.Number)
		case r.Phase != "" && ex.kind != domain.KindIndividual:
			// An export without systems: the phase stands for the system.
			// An individual round without one was seated by hand (the
			// phase does not seat individuals): choice.
			if pr.System, err = domain.ParsePairingSystem(r.Phase); err != nil {
				return nil, bad("rounds[%d].phase: %v", i, err)
			}
		}
		for j, t := range r.Tables {
			ns, err1 := lineIDs(t.NS)
			eo, err2 := lineIDs(t.EO)
			if err := errors.Join(err1, err2); err != nil {
				return nil, bad("rounds[%d].tables[%d]: %v", i, j, err)
			}
			pr.Tables = append(pr.Tables, domain.PairedTable{Table: t.Table, Match: t.Match, NS: ns, EO: eo})
		}
		ex.rounds = append(ex.rounds, pr)
	}
	return &ex, nil
}

// lineIDs reads a line: one entrant id, or an array of player ids
// (individual tournaments, API §4.2).
func lineIDs(raw json.RawMessage) ([]string, error) {
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, fmt.Errorf("a line is an id or an array of ids, not %s", raw)
	}
	return many, nil
}

func (ex *exportDoc) entrantIDs() []string {
	out := make([]string, len(ex.Entrants))
	for i, e := range ex.Entrants {
		out[i] = e.ID
	}
	return out
}

// standingsFor computes, when the system pairs from standings, the
// standings after the previous round (gironi: after the round before the
// phase's first round) from the export's matches and adjustments (FITAB art. 18; docs/rules.md §8).
func (ex *exportDoc) standingsFor(req domain.PairingRequest) ([]string, error) {
	after := req.Round - 1
	switch req.System {
	case domain.SystemDanese, domain.SystemDaneseModificato:
	case domain.SystemGironi:
		after = domain.PhaseStart(req) - 1
	default:
		return nil, nil
	}
	if ex.kind == domain.KindIndividual {
		return nil, fmt.Errorf("%w: %s pairs from standings, which an individual tournament does not use for seating", errUsage, req.System)
	}
	in := domain.StandingsInput{Kind: ex.kind, AfterRound: max(after, 0)}
	for _, e := range ex.Entrants {
		in.Entrants = append(in.Entrants, domain.Entrant{ID: e.ID})
	}
	for _, m := range ex.Matches {
		if m.Round > after {
			continue
		}
		in.Results = append(in.Results,
			domain.MatchResult{Round: m.Round, Entrant: m.NS.ID, Opponent: m.EO.ID, VP: m.NS.VP, MP: m.NS.MP},
			domain.MatchResult{Round: m.Round, Entrant: m.EO.ID, Opponent: m.NS.ID, VP: m.EO.VP, MP: m.EO.MP})
	}
	for _, a := range ex.Adjustments {
		adj := domain.Adjustment{Entrant: a.Entrant, Reason: domain.AdjustmentReason(a.Reason)}
		if a.Round != nil {
			adj.Round = *a.Round
		}
		if a.VP != nil {
			adj.VP = *a.VP
		}
		if a.MP != nil {
			adj.MP = *a.MP
		}
		in.Adjustments = append(in.Adjustments, adj)
	}
	rows, err := domain.Standings(in)
	if err != nil {
		return nil, fmt.Errorf("%w: standings after round %d: %v", errUsage, after, err)
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Entrant.ID
	}
	return out, nil
}
