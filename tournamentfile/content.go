package tournamentfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"segnapunti/domain"
	"segnapunti/importers/sheetjson"
)

// Bounds of a file's content: what no tournament of RULES §10 comes near.
const (
	MaxRounds   = 30
	MaxEntrants = 20000
	MaxTables   = 10000 // per round
)

// Content is a file's content as domain values, checked: every id entered,
// every round, table and sheet where it says, every value one the domain
// knows. Check builds it; the importer stores it and the verifier
// re-derives it.
type Content struct {
	Tournament  domain.Tournament
	Club        domain.Club // zero when the file names no club
	Entrants    []domain.Entrant
	Rounds      []domain.Round
	Sheets      []SheetRecord
	Corrections []CorrectionRecord
	Adjustments []domain.RecordedAdjustment
	// Substitutions, Lineups (by round number), Referees and
	// PrizeCategories: RULES §12.4, §12.5, issue 22.
	Substitutions   []domain.Substitution
	Lineups         map[int][]domain.Lineup
	Referees        []string
	PrizeCategories []domain.PrizeCategory
}

// SheetRecord is one sheet of the file with its place and signatures.
type SheetRecord struct {
	Round, Table int
	Sheet        domain.Sheet
	Signatures   []SignatureRecord
	// Index is the sheet's index in the file's "sheets".
	Index int
	// StoredAt is when the sheet was last stored.
	StoredAt time.Time
}

// SignatureRecord is one signature as domain values.
type SignatureRecord struct {
	Line     domain.Line
	Kind     string // "end" or "confirm"
	SignedBy domain.Line
	Entrant  string
	By       string
	At       time.Time
}

// CorrectionRecord is one correction as domain values.
type CorrectionRecord struct {
	Round, Table int
	Kind         domain.CorrectionKind
	Reason       string
	Situation    domain.CorrectionSituation
	Ruling       domain.Ruling
	Rules        []string
	RulingReason string
	Applied      bool
	Before       json.RawMessage
	After        json.RawMessage
	SheetVersion int
	By           string
	At           time.Time
}

// Check reads f's content into domain values, or fails with an *Error
// naming the first field that cannot be right.
func Check(f File) (Content, error) {
	var c Content
	t, club, err := checkTournament(f.Tournament)
	if err != nil {
		return c, err
	}
	c.Tournament, c.Club = t, club
	if c.Entrants, err = checkEntrants(f.Entrants, t); err != nil {
		return c, err
	}
	entered := make(map[string]bool, len(c.Entrants))
	for _, e := range c.Entrants {
		entered[e.ID] = true
	}
	if c.Rounds, err = checkRounds(f.Rounds, t, entered); err != nil {
		return c, err
	}
	if err := checkTwelve(f, &c, entered); err != nil {
		return c, err
	}
	if c.Sheets, err = checkSheets(f.Sheets, t, c.Rounds); err != nil {
		return c, err
	}
	if c.Corrections, err = checkCorrections(f.Corrections, c.Sheets); err != nil {
		return c, err
	}
	if c.Adjustments, err = checkAdjustments(f.Adjustments, entered, c.Rounds); err != nil {
		return c, err
	}
	return c, nil
}

// domainError places a domain error (ErrInvalid: "...") at ptr.
func domainError(ptr string, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), domain.ErrInvalid.Error()+": ")
	return errorAt(ptr, "%s", msg)
}

func checkTournament(w Tournament) (domain.Tournament, domain.Club, error) {
	const p = "/tournament"
	var t domain.Tournament
	var club domain.Club
	t.ID, t.Name = w.ID, strings.TrimSpace(w.Name)
	if t.Name == "" {
		return t, club, errorAt(p+"/name", "missing: a tournament has a name")
	}
	d, err := time.Parse(time.DateOnly, w.Date)
	if err != nil {
		return t, club, errorAt(p+"/date", "%q is not a date YYYY-MM-DD", w.Date)
	}
	t.Date = d
	if w.Club != nil {
		club = domain.Club{ID: w.Club.ID, Name: w.Club.Name}
		t.ClubID = w.Club.ID
	}
	if t.Level, err = domain.ParseLevel(w.Level); err != nil {
		return t, club, domainError(p+"/level", err)
	}
	if t.Ruleset, err = domain.ParseRuleset(w.Ruleset); err != nil {
		return t, club, domainError(p+"/ruleset", err)
	}
	if t.Kind, err = domain.ParseKind(w.Kind); err != nil {
		return t, club, domainError(p+"/kind", err)
	}
	if w.RoundsPlanned < 1 || w.RoundsPlanned > MaxRounds {
		return t, club, errorAt(p+"/rounds_planned", "%d is not between 1 and %d", w.RoundsPlanned, MaxRounds)
	}
	t.RoundsPlanned = w.RoundsPlanned
	if w.HandsPerRound < 2 || w.HandsPerRound > 4 {
		return t, club, errorAt(p+"/hands_per_round", "%d is not 2, 3 or 4", w.HandsPerRound)
	}
	t.HandsPerRound = w.HandsPerRound
	if w.VPTable != nil {
		if t.VPTable, err = domain.ParseVPTable(*w.VPTable); err != nil {
			return t, club, domainError(p+"/vp_table", err)
		}
	}
	if pl := w.Plan; pl != nil && !(t.Kind == domain.KindIndividual && oldDefaultPlan(*pl, t.RoundsPlanned)) {
		if _, err := domain.ParsePairingSystem(pl.FirstRound); err != nil {
			return t, club, domainError(p+"/plan/first_round", err)
		}
		if len(pl.Phases) > MaxRounds {
			return t, club, errorAt(p+"/plan/phases", "%d phases: more than %d", len(pl.Phases), MaxRounds)
		}
		if len(pl.Sessions) > MaxRounds {
			return t, club, errorAt(p+"/plan/sessions", "%d sessions: more than %d", len(pl.Sessions), MaxRounds)
		}
		in := domain.PlanInput{FirstRound: pl.FirstRound, Sessions: pl.Sessions}
		for i, ph := range pl.Phases {
			if _, err := domain.ParsePairingSystem(ph.System); err != nil {
				return t, club, domainError(fmt.Sprintf("%s/plan/phases/%d/system", p, i), err)
			}
			if ph.FromRound < 1 || ph.FromRound > MaxRounds {
				return t, club, errorAt(fmt.Sprintf("%s/plan/phases/%d/from_round", p, i), "%d is not a round number", ph.FromRound)
			}
			in.Phases = append(in.Phases, domain.PlanPhaseInput{FromRound: ph.FromRound, System: ph.System})
		}
		for i, s := range pl.Sessions {
			if s < 1 || s > MaxRounds {
				return t, club, errorAt(fmt.Sprintf("%s/plan/sessions/%d", p, i), "%d is not a number of rounds", s)
			}
		}
		// RULES §12.1: the plan holds together for the tournament.
		plan, err := domain.ParsePlan(in, t.Ruleset, t.Kind, t.RoundsPlanned)
		var pe *domain.PlanError
		if errors.As(err, &pe) && len(pe.Problems) > 0 {
			return t, club, errorAt(p+"/plan"+pe.Problems[0].Pointer, "%s", pe.Problems[0].Detail)
		}
		if err != nil {
			return t, club, domainError(p+"/plan", err)
		}
		t.Plan = plan
	}
	if w.InterruptedAfterRound != nil {
		k := *w.InterruptedAfterRound
		if k < 0 || k > t.RoundsPlanned {
			return t, club, errorAt(p+"/interrupted_after_round", "%d is not a round of the %d planned (0 to %d)", k, t.RoundsPlanned, t.RoundsPlanned)
		}
		t.InterruptedAfterRound, t.InterruptionReason = &k, w.InterruptionReason
	} else if w.Void != nil || w.InterruptionReason != "" {
		return t, club, errorAt(p+"/interrupted_after_round", "missing: void and interruption_reason belong to an interrupted tournament")
	}
	t.Public = w.Public
	return t, club, nil
}

// oldDefaultPlan reports whether pl is the default plan files written
// before plans were stored carried for every tournament (first round
// entry_order, one danese phase, one session): in an individual
// tournament, which has no phases, it reads as no plan announced.
func oldDefaultPlan(pl Plan, roundsPlanned int) bool {
	return pl.FirstRound == string(domain.SystemEntryOrder) && len(pl.Phases) == 1 && pl.Phases[0] == PlanPhase{FromRound: 1, System: string(domain.SystemDanese)} &&
		len(pl.Sessions) == 1 && pl.Sessions[0] == roundsPlanned
}

func checkEntrants(ws []Entrant, t domain.Tournament) ([]domain.Entrant, error) {
	if len(ws) > MaxEntrants {
		return nil, errorAt("/entrants", "%d entrants: more than %d", len(ws), MaxEntrants)
	}
	out := make([]domain.Entrant, len(ws))
	seen := make(map[string]bool, len(ws))
	for i, w := range ws {
		p := fmt.Sprintf("/entrants/%d", i)
		if strings.TrimSpace(w.ID) == "" || len(w.ID) > 64 {
			return nil, errorAt(p+"/id", "an entrant id is 1 to 64 characters")
		}
		if seen[w.ID] {
			return nil, errorAt(p+"/id", "entrant %q is given twice", w.ID)
		}
		seen[w.ID] = true
		e := domain.Entrant{ID: w.ID, Club: w.Club, WithdrawnReason: w.WithdrawnReason}
		if w.Team != nil {
			e.Team = *w.Team
		}
		if r := w.WithdrawnFromRound; r != nil {
			if *r < 1 || *r > t.RoundsPlanned {
				return nil, errorAt(p+"/withdrawn_from_round", "%d is not a round of the %d planned", *r, t.RoundsPlanned)
			}
			e.WithdrawnFromRound = new(*r)
		} else if w.WithdrawnReason != "" {
			return nil, errorAt(p+"/withdrawn_from_round", "missing: a withdrawal reason belongs to a withdrawal")
		}
		if len(w.Players) == 0 {
			return nil, errorAt(p+"/players", "entrant %q has no players", w.ID)
		}
		for j, pl := range w.Players {
			if strings.TrimSpace(pl.Name) == "" {
				return nil, errorAt(fmt.Sprintf("%s/players/%d/name", p, j), "missing: a player has a name")
			}
			dp, err := checkPlayer(fmt.Sprintf("%s/players/%d", p, j), pl)
			if err != nil {
				return nil, err
			}
			e.Players = append(e.Players, dp)
		}
		out[i] = e
	}
	return out, nil
}

func checkRounds(ws []Round, t domain.Tournament, entered map[string]bool) ([]domain.Round, error) {
	if len(ws) > MaxRounds {
		return nil, errorAt("/rounds", "%d rounds: more than %d", len(ws), MaxRounds)
	}
	lineSize := 1
	if t.Kind == domain.KindIndividual {
		lineSize = 2
	}
	out := make([]domain.Round, len(ws))
	numbers := map[int]bool{}
	for i, w := range ws {
		p := fmt.Sprintf("/rounds/%d", i)
		if w.Number < 1 || w.Number > MaxRounds {
			return nil, errorAt(p+"/number", "%d is not a round number (1 to %d)", w.Number, MaxRounds)
		}
		if numbers[w.Number] {
			return nil, errorAt(p+"/number", "round %d is given twice", w.Number)
		}
		numbers[w.Number] = true
		r := domain.Round{Number: w.Number, Byes: w.Byes, Seed: w.Seed, Session: w.Session, Groups: w.Groups, Vacated: w.Vacated}
		if w.HandsPlanned < 2 || w.HandsPlanned > 4 {
			return nil, errorAt(p+"/hands_planned", "%d is not 2, 3 or 4", w.HandsPlanned)
		}
		r.HandsPlanned = w.HandsPlanned
		var err error
		if r.Phase, err = domain.ParsePhase(w.Phase); err != nil {
			return nil, domainError(p+"/phase", err)
		}
		if r.State, err = domain.ParseRoundState(w.State); err != nil {
			return nil, domainError(p+"/state", err)
		}
		if r.System, err = domain.ParsePairingSystem(w.System); err != nil {
			return nil, domainError(p+"/system", err)
		}
		if w.Session < 0 || w.Session > MaxRounds { // 0: absent, the first session
			return nil, errorAt(p+"/session", "%d is not a session number", w.Session)
		}
		if len(w.Tables) > MaxTables {
			return nil, errorAt(p+"/tables", "%d tables: more than %d", len(w.Tables), MaxTables)
		}
		seated := map[string]string{}
		atTables := map[string]int{}
		tables := map[int]bool{}
		for j, tw := range w.Tables {
			tp := fmt.Sprintf("%s/tables/%d", p, j)
			if tw.Table < 1 || tw.Table > MaxTables {
				return nil, errorAt(tp+"/table", "%d is not a table number", tw.Table)
			}
			if tables[tw.Table] {
				return nil, errorAt(tp+"/table", "table %d is given twice in round %d", tw.Table, w.Number)
			}
			tables[tw.Table] = true
			var ta domain.TableAssignment
			ta.Table = tw.Table
			if tw.Match != nil {
				if t.Kind != domain.KindTeams || *tw.Match < 1 {
					return nil, errorAt(tp+"/match", "match %d: only the tables of a team tournament have a match number (from 1)", *tw.Match)
				}
				ta.Match = *tw.Match
			}
			for _, l := range domain.Lines {
				ids := tw.NS
				if l == domain.EO {
					ids = tw.EO
				}
				lp := tp + "/" + l.String()
				if len(ids) != lineSize {
					return nil, errorAt(lp, "a line of a %s tournament is %d entrant id(s), not %d", t.Kind, lineSize, len(ids))
				}
				for k, id := range ids {
					if !entered[id] {
						return nil, errorAt(fmt.Sprintf("%s/%d", lp, k), "entrant %q is not among the entrants", id)
					}
					if where, ok := seated[id]; ok && !(ta.Match > 0 && atTables[id] == 1) {
						return nil, errorAt(fmt.Sprintf("%s/%d", lp, k), "entrant %q is seated twice in round %d (also %s)", id, w.Number, where)
					}
					atTables[id]++ // a team sits at the two tables of its match (RULES §12.5)
					seated[id] = fmt.Sprintf("table %d", tw.Table)
				}
				ta.SetLine(l, ids)
			}
			r.Tables = append(r.Tables, ta)
		}
		if t.Kind == domain.KindTeams && slices.ContainsFunc(r.Tables, func(ta domain.TableAssignment) bool { return ta.Match > 0 }) {
			// RULES §12.5; a file of a team tournament seated one table a
			// match (before match numbers) reads as it is.
			mts := make([]domain.MatchTable, len(r.Tables))
			for j, ta := range r.Tables {
				mts[j] = domain.MatchTable{Table: ta.Table, Match: ta.Match, NS: ta.NS, EO: ta.EO}
			}
			if table, err := domain.TeamRoundProblem(t.Ruleset, mts, nil); err != nil {
				return nil, domainError(fmt.Sprintf("%s/tables/%d", p, slices.IndexFunc(r.Tables, func(ta domain.TableAssignment) bool { return ta.Table == table })), err)
			}
		}
		if err := sitsOut(p+"/vacated", w.Vacated, w.Number, "is alone", "vacated", entered, seated); err != nil {
			return nil, err
		}
		if len(w.Groups) > MaxEntrants {
			return nil, errorAt(p+"/groups", "%d groups: more than %d", len(w.Groups), MaxEntrants)
		}
		inGroup := map[string]bool{}
		for k, g := range w.Groups {
			for m, id := range g {
				if !entered[id] || inGroup[id] {
					return nil, errorAt(fmt.Sprintf("%s/groups/%d/%d", p, k, m), "entrant %q is not entered, or is in two groups", id)
				}
				inGroup[id] = true
			}
		}
		if err := sitsOut(p+"/byes", w.Byes, w.Number, "rests", "a bye", entered, seated); err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// sitsOut checks the entrants of a round without a table (byes, vacated):
// entered, and not seated elsewhere in the round; seated records them as
// where.
func sitsOut(ptr string, ids []string, round int, verb, where string, entered map[string]bool, seated map[string]string) error {
	for k, id := range ids {
		p := fmt.Sprintf("%s/%d", ptr, k)
		if !entered[id] {
			return errorAt(p, "entrant %q is not among the entrants", id)
		}
		if other, ok := seated[id]; ok {
			return errorAt(p, "entrant %q %s and is seated in round %d (%s)", id, verb, round, other)
		}
		seated[id] = where
	}
	return nil
}

func checkSheets(ws []Sheet, t domain.Tournament, rounds []domain.Round) ([]SheetRecord, error) {
	byNumber := make(map[int]domain.Round, len(rounds))
	for _, r := range rounds {
		byNumber[r.Number] = r
	}
	out := make([]SheetRecord, 0, len(ws))
	seen := map[[2]int]bool{}
	for i, w := range ws {
		p := fmt.Sprintf("/sheets/%d", i)
		r, ok := byNumber[w.Round]
		if !ok {
			return nil, errorAt(p+"/round", "round %d is not among the rounds", w.Round)
		}
		if _, ok := r.Assignment(w.Table); !ok {
			return nil, errorAt(p+"/table", "round %d has no table %d", w.Round, w.Table)
		}
		if seen[[2]int{w.Round, w.Table}] {
			return nil, errorAt(p, "a second sheet for round %d, table %d", w.Round, w.Table)
		}
		seen[[2]int{w.Round, w.Table}] = true
		s, err := sheetjson.DecodeSheet(w.Sheet, sheetjson.Defaults{})
		if err != nil {
			var se *sheetjson.Error
			if errors.As(err, &se) {
				return nil, errorAt(p+"/sheet"+se.Pointer, "%s", se.Detail)
			}
			return nil, errorAt(p+"/sheet", "%s", err.Error())
		}
		if s.Ruleset != t.Ruleset {
			return nil, errorAt(p+"/sheet/ruleset", "%q is not the tournament's ruleset %q", s.Ruleset, t.Ruleset)
		}
		rec := SheetRecord{Round: w.Round, Table: w.Table, Sheet: s, Index: i}
		if rec.StoredAt, err = parseTime(w.StoredAt); err != nil {
			return nil, errorAt(p+"/stored_at", "%q is not an RFC 3339 time", w.StoredAt)
		}
		for j, sg := range w.Signatures {
			sp := fmt.Sprintf("%s/signatures/%d", p, j)
			var sr SignatureRecord
			var ok bool
			if sr.Line, ok = parseLine(sg.Line); !ok {
				return nil, errorAt(sp+"/line", "%q is not ns or eo", sg.Line)
			}
			if sr.SignedBy, ok = parseLine(sg.SignedBy); !ok {
				return nil, errorAt(sp+"/signed_by", "%q is not ns or eo", sg.SignedBy)
			}
			if sg.Kind != "end" && sg.Kind != "confirm" {
				return nil, errorAt(sp+"/kind", "%q is not end or confirm", sg.Kind)
			}
			if sr.At, err = parseTime(sg.At); err != nil {
				return nil, errorAt(sp+"/at", "%q is not an RFC 3339 time", sg.At)
			}
			sr.Kind, sr.Entrant, sr.By = sg.Kind, sg.Entrant, sg.By
			if slices.ContainsFunc(rec.Signatures, func(o SignatureRecord) bool { return o.Line == sr.Line }) {
				return nil, errorAt(sp+"/line", "line %s signs the sheet twice (FITAB art. 19: one signature a line)", sg.Line)
			}
			rec.Signatures = append(rec.Signatures, sr)
		}
		out = append(out, rec)
	}
	return out, nil
}

func parseLine(s string) (domain.Line, bool) {
	switch s {
	case "ns":
		return domain.NS, true
	case "eo":
		return domain.EO, true
	}
	return domain.NS, false
}

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	return t.UTC(), err
}

func checkCorrections(ws []Correction, sheets []SheetRecord) ([]CorrectionRecord, error) {
	has := make(map[[2]int]bool, len(sheets))
	for _, s := range sheets {
		has[[2]int{s.Round, s.Table}] = true
	}
	out := make([]CorrectionRecord, len(ws))
	for i, w := range ws {
		p := fmt.Sprintf("/corrections/%d", i)
		if !has[[2]int{w.Round, w.Table}] {
			return nil, errorAt(p+"/table", "no sheet of round %d, table %d is in the file", w.Round, w.Table)
		}
		c := CorrectionRecord{Round: w.Round, Table: w.Table, Reason: w.Reason, Rules: w.Rules, RulingReason: w.RulingReason,
			Applied: w.Applied, Before: w.Before, After: w.After, SheetVersion: w.SheetVersion, By: w.By}
		var err error
		if c.Kind, err = domain.ParseCorrectionKind(w.Kind); err != nil {
			return nil, domainError(p+"/kind", err)
		}
		if c.Ruling, err = domain.ParseRuling(w.Ruling); err != nil {
			return nil, domainError(p+"/ruling", err)
		}
		s := w.Situation
		c.Situation = domain.CorrectionSituation{
			Ruleset: domain.Ruleset(s.Ruleset), Kind: domain.CorrectionKind(s.Kind), Level: domain.Level(s.Level), Phase: domain.Phase(s.Phase),
			ErrorRound: s.ErrorRound, CurrentRound: s.CurrentRound, CurrentRoundStarted: s.CurrentRoundStarted,
			TournamentClosed: s.TournamentClosed, StandingsPublished: s.StandingsPublished, StandingsContested: s.StandingsContested,
			PositionsPublished: s.PositionsPublished, BothLinesAcknowledge: s.BothLinesAcknowledge, RefereeCountersigned: s.RefereeCountersigned,
		}
		if err := c.Situation.Validate(); err != nil {
			return nil, domainError(p+"/situation", err)
		}
		for name, raw := range map[string]json.RawMessage{"before": w.Before, "after": w.After} {
			if len(raw) > 0 && raw[0] != '{' {
				return nil, errorAt(p+"/"+name, "the parts of the sheet are an object")
			}
		}
		if c.Applied && c.Ruling == domain.RulingReject {
			return nil, errorAt(p+"/applied", "a correction the ruling rejects is not applied (RULES §9)")
		}
		if w.SheetVersion < 1 {
			return nil, errorAt(p+"/sheet_version", "%d is not a sheet version (1 or more)", w.SheetVersion)
		}
		if strings.TrimSpace(w.By) == "" {
			return nil, errorAt(p+"/by", "missing: who made the correction")
		}
		if c.At, err = parseTime(w.At); err != nil {
			return nil, errorAt(p+"/at", "%q is not an RFC 3339 time", w.At)
		}
		out[i] = c
	}
	return out, nil
}

func checkAdjustments(ws []Adjustment, entered map[string]bool, rounds []domain.Round) ([]domain.RecordedAdjustment, error) {
	numbers := make(map[int]bool, len(rounds))
	for _, r := range rounds {
		numbers[r.Number] = true
	}
	out := make([]domain.RecordedAdjustment, len(ws))
	for i, w := range ws {
		p := fmt.Sprintf("/adjustments/%d", i)
		if !entered[w.Entrant] {
			return nil, errorAt(p+"/entrant", "entrant %q is not among the entrants", w.Entrant)
		}
		a := domain.RecordedAdjustment{Entrant: w.Entrant, Author: w.By}
		if w.Round != nil {
			if !numbers[*w.Round] {
				return nil, errorAt(p+"/round", "round %d is not among the rounds", *w.Round)
			}
			a.Round = *w.Round
		}
		c := w.Case
		var err error
		if a.Case.Reason, err = domain.ParseAdjustmentReason(c.Reason); err != nil {
			return nil, domainError(p+"/case/reason", err)
		}
		if a.Case.Party, err = domain.ParseParty(c.Party); err != nil {
			return nil, domainError(p+"/case/party", err)
		}
		if c.Ruleset != "" {
			if a.Case.Ruleset, err = domain.ParseRuleset(c.Ruleset); err != nil {
				return nil, domainError(p+"/case/ruleset", err)
			}
		}
		if c.Kind != "" {
			if a.Case.Kind, err = domain.ParseKind(c.Kind); err != nil {
				return nil, domainError(p+"/case/kind", err)
			}
		}
		if c.Phase != "" {
			if a.Case.Phase, err = domain.ParsePhase(c.Phase); err != nil {
				return nil, domainError(p+"/case/phase", err)
			}
		}
		a.Case.HandsPlanned, a.Case.WarningsBefore, a.Case.ByesBefore, a.Case.LateRound = c.HandsPlanned, c.WarningsBefore, c.ByesBefore, c.LateRound
		a.Case.Played, a.Case.AtInterruption, a.Case.Referee = c.Played.domain(), c.AtInterruption.domain(), c.Referee.domain()
		a.Case.Advantage, a.Case.Note = c.Advantage, c.Note
		if a.Case.Reason == domain.ReasonRefereeScore && strings.TrimSpace(c.Note) == "" {
			return nil, errorAt(p+"/case/note", "missing: a referee score says why (RULES §7)")
		}
		if strings.TrimSpace(w.By) == "" {
			return nil, errorAt(p+"/by", "missing: who made the adjustment")
		}
		e := w.Effect
		a.Effect = domain.AdjustmentEffect{Result: e.Result.domain(), Bye: e.Bye, Awarded: e.Awarded,
			Delta: domain.MatchScore{VP: e.Delta.VP, MP: e.Delta.MP}, LatePoints: e.LatePoints, Warning: e.Warning,
			Rules: e.Rules, Reason: e.Reason}
		for _, f := range e.Flags {
			a.Effect.Flags = append(a.Effect.Flags, domain.AdjustmentFlag(f))
		}
		if a.At, err = parseTime(w.At); err != nil {
			return nil, errorAt(p+"/at", "%q is not an RFC 3339 time", w.At)
		}
		out[i] = a
	}
	return out, nil
}

func (s *Score) domain() *domain.MatchScore {
	if s == nil {
		return nil
	}
	return &domain.MatchScore{VP: s.VP, MP: s.MP}
}

// ScoreOf is the file's form of a domain score (nil stays nil).
func ScoreOf(s *domain.MatchScore) *Score {
	if s == nil {
		return nil
	}
	return &Score{VP: s.VP, MP: s.MP}
}

// checkPlayer reads one player: a name, and the sex and birth year the
// prize categories read (domain.ValidPlayerSex, domain.ValidBirthYear).
func checkPlayer(p string, w Player) (domain.Player, error) {
	if strings.TrimSpace(w.Name) == "" {
		return domain.Player{}, errorAt(p+"/name", "missing: a player has a name")
	}
	if !domain.ValidPlayerSex(w.Sex) {
		return domain.Player{}, errorAt(p+"/sex", "%q is not F or M", w.Sex)
	}
	if !domain.ValidBirthYear(w.BirthYear) {
		return domain.Player{}, errorAt(p+"/birth_year", "%d is not a year of birth (1900 to 2100)", w.BirthYear)
	}
	return domain.Player{Name: w.Name, Membership: w.Membership, Sex: w.Sex, BirthYear: w.BirthYear}, nil
}

// checkTwelve reads the RULES §12 and prize parts of the file: the
// substitutions, the line-ups and who sat of every round, the team
// matches, the referees, the prize categories and the prize list. Every
// id must be entered, every round and table be in the file; the figures
// themselves (team VP, prizes) are the verifier's to re-derive.
func checkTwelve(f File, c *Content, entered map[string]bool) error {
	t := c.Tournament
	rounds := make(map[int]domain.Round, len(c.Rounds))
	for _, r := range c.Rounds {
		rounds[r.Number] = r
	}
	if len(f.Substitutions) > MaxEntrants {
		return errorAt("/substitutions", "%d substitutions: more than %d", len(f.Substitutions), MaxEntrants)
	}
	seenSub := map[[3]string]bool{}
	for i, w := range f.Substitutions {
		p := fmt.Sprintf("/substitutions/%d", i)
		if !entered[w.Entrant] {
			return errorAt(p+"/entrant", "entrant %q is not among the entrants", w.Entrant)
		}
		in, err := checkPlayer(p+"/in", w.In)
		if err != nil {
			return err
		}
		s := domain.Substitution{Entrant: w.Entrant, FromRound: w.FromRound, Out: w.Out, In: in, Reason: w.Reason}
		if err := domain.CheckSubstitution(t.Ruleset, t.RoundsPlanned, s); err != nil {
			field, _, _ := strings.Cut(strings.TrimPrefix(err.Error(), domain.ErrInvalid.Error()+": "), ":")
			ptr := p
			switch field {
			case "from_round", "out", "reason":
				ptr += "/" + field
			case "in.name":
				ptr += "/in/name"
			}
			return domainError(ptr, err)
		}
		k := [3]string{w.Entrant, fmt.Sprint(w.FromRound), w.Out}
		if seenSub[k] {
			return errorAt(p, "player %q of entrant %q is replaced twice from round %d", w.Out, w.Entrant, w.FromRound)
		}
		seenSub[k] = true
		c.Substitutions = append(c.Substitutions, s)
	}
	entrants := make(map[string]domain.Entrant, len(c.Entrants))
	for _, e := range c.Entrants {
		entrants[e.ID] = e
	}
	for i, w := range f.Rounds {
		p := fmt.Sprintf("/rounds/%d", i)
		r := rounds[w.Number]
		if len(w.Lineups) > 0 && t.Kind != domain.KindTeams {
			return errorAt(p+"/lineups", "only a team tournament has line-ups (RULES §12.5)")
		}
		if len(w.Lineups) > MaxTables {
			return errorAt(p+"/lineups", "%d line-ups: more than %d", len(w.Lineups), MaxTables)
		}
		done := map[int]bool{}
		for j, lw := range w.Lineups {
			lp := fmt.Sprintf("%s/lineups/%d", p, j)
			ta, ok := r.Assignment(lw.Table)
			if !ok {
				return errorAt(lp+"/table", "round %d has no table %d", w.Number, lw.Table)
			}
			if done[lw.Table] {
				return errorAt(lp+"/table", "a second line-up for table %d of round %d", lw.Table, w.Number)
			}
			done[lw.Table] = true
			if ta.Match == 0 {
				return errorAt(lp+"/table", "table %d of round %d belongs to no team match", lw.Table, w.Number)
			}
			// Who may sit is the verifier's to check (domain.ValidateLineup):
			// here only the shape.
			for _, side := range []struct {
				name string
				line []string
			}{{"ns", lw.NS}, {"eo", lw.EO}} {
				name, line := side.name, side.line
				if len(line) != domain.PlayersPerTeamLine {
					return errorAt(lp+"/"+name, "a line of a team match is %d players, not %d", domain.PlayersPerTeamLine, len(line))
				}
				for k, m := range line {
					if strings.TrimSpace(m) == "" || len(m) > 64 {
						return errorAt(fmt.Sprintf("%s/%s/%d", lp, name, k), "a membership number is 1 to 64 characters")
					}
				}
			}
			l := domain.Lineup{Table: lw.Table, NS: lw.NS, EO: lw.EO}
			if c.Lineups == nil {
				c.Lineups = map[int][]domain.Lineup{}
			}
			c.Lineups[w.Number] = append(c.Lineups[w.Number], l)
		}
		for j, sw := range w.Seated {
			sp := fmt.Sprintf("%s/seated/%d", p, j)
			if !entered[sw.Entrant] {
				return errorAt(sp+"/entrant", "entrant %q is not among the entrants", sw.Entrant)
			}
			if len(sw.Players) == 0 || len(sw.Players) > len(entrants[sw.Entrant].Players) {
				return errorAt(sp+"/players", "entrant %q has %d players, not %d", sw.Entrant, len(entrants[sw.Entrant].Players), len(sw.Players))
			}
			for k, pw := range sw.Players {
				if _, err := checkPlayer(fmt.Sprintf("%s/players/%d", sp, k), pw); err != nil {
					return err
				}
			}
		}
	}
	for i, w := range f.TeamMatches {
		p := fmt.Sprintf("/team_matches/%d", i)
		if t.Kind != domain.KindTeams {
			return errorAt(p, "only a team tournament has team matches (RULES §12.5)")
		}
		if _, ok := rounds[w.Round]; !ok {
			return errorAt(p+"/round", "round %d is not among the rounds", w.Round)
		}
		for k, id := range w.Teams {
			if !entered[id] {
				return errorAt(fmt.Sprintf("%s/teams/%d", p, k), "team %q is not among the entrants", id)
			}
		}
		for k, tb := range w.Tables {
			if _, ok := rounds[w.Round].Assignment(tb); !ok {
				return errorAt(fmt.Sprintf("%s/tables/%d", p, k), "round %d has no table %d", w.Round, tb)
			}
		}
	}
	for i, name := range f.Tournament.Referees {
		if strings.TrimSpace(name) == "" || len(name) > 200 {
			return errorAt(fmt.Sprintf("/tournament/referees/%d", i), "a referee's name is 1 to 200 characters")
		}
	}
	c.Referees = f.Tournament.Referees
	if len(f.Tournament.PrizeCategories) > domain.MaxPrizeCategories {
		return errorAt("/tournament/prize_categories", "%d categories: more than %d", len(f.Tournament.PrizeCategories), domain.MaxPrizeCategories)
	}
	for _, w := range f.Tournament.PrizeCategories {
		c.PrizeCategories = append(c.PrizeCategories, domain.PrizeCategory{ID: w.ID, Kind: domain.PrizeKind(w.Kind), Label: w.Label,
			Places: w.Places, BornBy: w.BornBy, Club: w.Club, Attribute: domain.PrizeAttribute(w.Attribute), Value: w.Value, Cumulative: w.Cumulative})
	}
	if err := domain.ValidatePrizeCategories(c.PrizeCategories); err != nil {
		// "prizes[i].field: ..." names the category.
		msg := strings.TrimPrefix(err.Error(), domain.ErrInvalid.Error()+": ")
		ptr := "/tournament/prize_categories"
		if field, _, ok := strings.Cut(msg, ":"); ok {
			if name, rest, ok := strings.Cut(strings.TrimPrefix(field, "prizes["), "]"); ok {
				ptr += "/" + name + strings.ReplaceAll(rest, ".", "/")
			}
		}
		return errorAt(ptr, "%s", msg)
	}
	cats := map[string]int{}
	for _, cat := range c.PrizeCategories {
		cats[cat.ID] = cat.Places
	}
	for i, w := range f.Prizes {
		p := fmt.Sprintf("/prizes/%d", i)
		places, ok := cats[w.Category]
		if !ok {
			return errorAt(p+"/category", "%q is not among tournament.prize_categories", w.Category)
		}
		if w.Place < 1 || w.Place > places {
			return errorAt(p+"/place", "%d is not a place of category %q (1 to %d)", w.Place, w.Category, places)
		}
		if !entered[w.Entrant] {
			return errorAt(p+"/entrant", "entrant %q is not among the entrants", w.Entrant)
		}
	}
	return nil
}
