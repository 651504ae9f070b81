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
	if c.Entrants, err = checkEntrants(f.Entrants); err != nil {
		return c, err
	}
	entered := make(map[string]bool, len(c.Entrants))
	for _, e := range c.Entrants {
		entered[e.ID] = true
	}
	if c.Rounds, err = checkRounds(f.Rounds, t, entered); err != nil {
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
	if pl := w.Plan; pl != nil {
		if _, err := domain.ParsePairingSystem(pl.FirstRound); err != nil {
			return t, club, domainError(p+"/plan/first_round", err)
		}
		for i, ph := range pl.Phases {
			if _, err := domain.ParsePairingSystem(ph.System); err != nil {
				return t, club, domainError(fmt.Sprintf("%s/plan/phases/%d/system", p, i), err)
			}
			if ph.FromRound < 1 || ph.FromRound > MaxRounds {
				return t, club, errorAt(fmt.Sprintf("%s/plan/phases/%d/from_round", p, i), "%d is not a round number", ph.FromRound)
			}
		}
		for i, s := range pl.Sessions {
			if s < 1 || s > MaxRounds {
				return t, club, errorAt(fmt.Sprintf("%s/plan/sessions/%d", p, i), "%d is not a number of rounds", s)
			}
		}
	}
	return t, club, nil
}

func checkEntrants(ws []Entrant) ([]domain.Entrant, error) {
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
		e := domain.Entrant{ID: w.ID, Club: w.Club}
		if w.Team != nil {
			e.Team = *w.Team
		}
		if len(w.Players) == 0 {
			return nil, errorAt(p+"/players", "entrant %q has no players", w.ID)
		}
		for j, pl := range w.Players {
			if strings.TrimSpace(pl.Name) == "" {
				return nil, errorAt(fmt.Sprintf("%s/players/%d/name", p, j), "missing: a player has a name")
			}
			e.Players = append(e.Players, domain.Player{Name: pl.Name, Membership: pl.Membership})
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
		r := domain.Round{Number: w.Number, Byes: w.Byes, Seed: w.Seed}
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
		for k, id := range w.Byes {
			bp := fmt.Sprintf("%s/byes/%d", p, k)
			if !entered[id] {
				return nil, errorAt(bp, "entrant %q is not among the entrants", id)
			}
			if where, ok := seated[id]; ok {
				return nil, errorAt(bp, "entrant %q rests and is seated in round %d (%s)", id, w.Number, where)
			}
			seated[id] = "a bye"
		}
		out[i] = r
	}
	return out, nil
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
